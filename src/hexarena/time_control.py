"""Time controls, as matches and records keep them: ``None`` (no limit), ``{"days": D}`` (correspondence: D days
for every turn) or ``{"initial": S, "increment": S}`` (real time: S seconds each, S added once a turn).

>>> parse({"days": 3})
{'days': 3}
"""

from __future__ import annotations

from typing import Any

from .games.options import shown

DAYS = (1, 14)
INITIAL = (15, 10800)
INCREMENT = (0, 180)
ALLOWED = (f"null, {{\"days\": D}} ({DAYS[0]}..{DAYS[1]}) or {{\"initial\": S, \"increment\": S}} "
           f"(initial {INITIAL[0]}..{INITIAL[1]} s, increment {INCREMENT[0]}..{INCREMENT[1]} s)")


def bounds() -> dict[str, dict[str, int]]:
    """The allowed range of each field, as GET /api/games gives it to the client (seconds, seconds, days).

    >>> bounds()["days"]
    {'min': 1, 'max': 14}
    """
    return {key: {"min": low, "max": high}
            for key, (low, high) in (("initial", INITIAL), ("increment", INCREMENT), ("days", DAYS))}


class ClockError(ValueError):
    """A time control that is not one of the allowed forms (its message says which are)."""


def parse(value: Any, where: str = "clock") -> dict[str, int] | None:
    """``value`` checked as a time control; ClockError starting with ``where``, naming what is wrong and what is
    allowed."""
    if value is None:
        return None
    if isinstance(value, dict) and set(value) == {"days"}:
        return {"days": _whole(value, "days", DAYS, where)}
    if isinstance(value, dict) and set(value) == {"initial", "increment"}:
        return {"initial": _whole(value, "initial", INITIAL, where),
                "increment": _whole(value, "increment", INCREMENT, where)}
    raise ClockError(f"{where} {shown(value)}: give {ALLOWED}")


def _whole(value: dict[str, Any], key: str, bounds: tuple[int, int], where: str) -> int:
    n = value[key]
    if isinstance(n, bool) or not isinstance(n, int) or not bounds[0] <= n <= bounds[1]:
        raise ClockError(f"{where} {key} {shown(n)}: a whole number from {bounds[0]} to {bounds[1]}")
    return n

