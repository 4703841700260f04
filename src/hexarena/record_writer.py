"""Writing game records: the JSON-able dict and the one-line text form of a
state.  A leaf module (it imports nothing from hexarena): ``State.record()``
and ``State.record_text()`` call it, and :mod:`hexarena.records` reads what
it writes.

The text form is ``[game key=value ...] 1. m 2. m,m,end ... result``: turn
numbers, the moves of each turn joined by commas, and ``1-0``, ``0-1``,
``1/2-1/2`` or ``*``; ``resign`` before the result says the loser resigned,
``time`` that the loser lost on time (the JSON record's ``result.reason``
``"time"``).

Optional, for rated or timed games (``state.meta``): ``"clock"`` (the time
control: ``{"initial": S, "increment": S}`` or ``{"days": D}``),
``"ratings"`` (per seat ``{"before": R, "after": R or None}`` or None) and
``"used"`` (seconds each written move used, kept from a record; else derived
from the move times when there is a clock).  The JSON record writes them as
``clock``, ``ratings`` and ``timestamps.used``; the text header as
``player1=``/``player2=`` (names other than the defaults, percent-encoded;
only with a clock or ratings),
``rating1=1500>1662``/``rating2=1500`` (before>after, or before only),
``clock=60+1``/``clock=3d`` and ``used=3.2,1.05``.  A game without them
writes neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

if TYPE_CHECKING:
    from .games.base import State

FORMAT = "hexarena-record/1"
RESULTS = {0: "1-0", 1: "0-1", None: "1/2-1/2"}
DEFAULT_PLAYERS = ("player 1", "player 2")
RESIGNED = "resign"  # the text record's word for a resignation, before the result
TIMED_OUT = "time"  # the text record's word for a loss on time, before the result (and the JSON's result.reason)
HEADER_KEYS = ("player1", "player2", "rating1", "rating2", "clock", "used")  # a text header's keys that are no options
NAME_SAFE = "!'()*+,-./:;@_~"  # the characters a text header writes as they are in a name (besides letters, digits)


def now() -> str:
    """The current UTC time as records write it."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def at(seconds: float) -> str:
    """The UTC time ``seconds`` after the epoch (``time.time()``) as records write it."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")


def result_token(state: State) -> str:
    return RESULTS[state.winner()] if state.is_over() else "*"


def jsonable(value: Any) -> Any:
    """An option value as JSON has it (tuples become lists)."""
    return list(value) if isinstance(value, tuple) else value


def make_record(state: State, players: Sequence[str] | None = None) -> dict[str, Any]:
    """The JSON record of ``state``: format, game, options, players, moves,
    result (over, winner, scores, text), timestamps, and the game's own facts
    (``Game.record_extra``)."""
    meta = state.meta
    written = state.written_moves()
    times = state.times
    clock, ratings = meta.get("clock"), meta.get("ratings")
    rec: dict[str, Any] = {
        "format": FORMAT,
        "game": state.game.name,
        "options": {k: jsonable(v) for k, v in state.game.options.items()},
        "players": list(players or meta.get("players") or DEFAULT_PLAYERS),
        **({"clock": dict(clock)} if clock else {}),
        **({"ratings": [r and dict(r) for r in ratings]} if ratings and any(ratings) else {}),
        "moves": [move for _, move in written],
        "result": {
            "over": state.is_over(),
            "winner": state.winner(),
            "scores": state.game.live_scores(state),
            "text": result_token(state),
            **({} if state.resigned is None else {"resigned": state.resigned}),
            **({} if state.timed_out is None else {"reason": TIMED_OUT}),
        },
        "timestamps": {"started": meta.get("started"), "moves": [times[i] for i, _ in written],
                       **({"used": used_times(state)} if clock else {})},
    }
    rec.update(state.game.record_extra(state.array))
    return rec


def to_text(state: State) -> str:
    """The one-line text record of ``state``."""
    opts = " ".join([f"{k}={option_text(v)}" for k, v in state.game.options.items()] + header_meta(state))
    head = f"[{state.game.name}{' ' if opts else ''}{opts}]"
    sep = state.game.MOVE_SEPARATOR
    body = " ".join(f"{t}. {sep.join(ms)}" for t, ms in state.turns())
    ended = RESIGNED if state.resigned is not None else TIMED_OUT if state.timed_out is not None else ""
    return " ".join(x for x in (head, body, ended, result_token(state)) if x)


def option_text(v: Any) -> str:
    return ",".join(map(str, v)) if isinstance(v, (tuple, list)) else str(v)


def header_meta(state: State) -> list[str]:
    """The text header's ``key=value`` items for the players' names, ratings, time control and time used (only
    those a game has; see :data:`HEADER_KEYS`).  Names other than the defaults are written only for a game with a
    clock or ratings (an arena game), so that other records (the terminal's ``human``, ``ai:3``) stay as they
    were."""
    meta = state.meta
    clock, ratings = meta.get("clock"), [r for r in meta.get("ratings") or () if r]
    players = (meta.get("players") or DEFAULT_PLAYERS) if clock or ratings else DEFAULT_PLAYERS
    items = [f"player{i + 1}={quote(name, safe=NAME_SAFE)}" for i, (name, default)
             in enumerate(zip(players, DEFAULT_PLAYERS, strict=True)) if name != default]
    items += [f"rating{i + 1}={rating_text(r)}" for i, r in enumerate(meta.get("ratings") or ()) if r]
    used = used_times(state) if clock else []
    items += [f"clock={clock_text(clock)}"] if clock else []
    items += [f"used={','.join(map(seconds_text, used))}"] if used else []
    return items


def rating_text(rating: dict[str, int | None]) -> str:
    """``1500>1662`` (before>after), or ``1500`` while there is no rating after."""
    return f"{rating['before']}" if rating.get("after") is None else f"{rating['before']}>{rating['after']}"


def clock_text(control: dict[str, int]) -> str:
    """A time control as a text header writes it: ``60+1`` (initial+increment seconds) or ``3d`` (days)."""
    return f"{control['days']}d" if "days" in control else f"{control['initial']}+{control['increment']}"


def seconds_text(seconds: float) -> str:
    """Seconds to at most 3 decimals, trailing zeros dropped: ``3.2``, ``1.05``, ``7``."""
    return f"{seconds:.3f}".rstrip("0").rstrip(".")


def used_times(state: State) -> list[float]:
    """The seconds each written move used: a record's own (``meta["used"]``), then for moves after those the time
    since the previous written move (the first's since the start; 0 when that is unknown), to 3 decimals."""
    written = state.written_moves()
    kept = list(state.meta.get("used") or ())[: len(written)]
    times = state.times
    ends = [times[i] for i, _ in written]
    starts = [state.meta.get("started"), *ends]
    return kept + [_between(a, b) for a, b in zip(starts[len(kept):], ends[len(kept):], strict=False)]


def _between(start: str | None, end: str) -> float:
    if start is None:
        return 0.0
    seconds = datetime.fromisoformat(end).timestamp() - datetime.fromisoformat(start).timestamp()
    return round(max(0.0, seconds), 3)
