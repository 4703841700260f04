"""Time controls (docs/server.md, "Time limits"): a match's ``clock`` checked, and its clock run one turn at a
time.  No web framework here; the store keeps what :func:`advance` computes, in the transaction of each change.

A time control is ``None`` (no limit), ``{"days": D}`` (correspondence: D days for every turn, 1..14) or
``{"initial": S, "increment": S}`` (real time: S seconds each, initial 15..10800, increment 0..180, added once a
turn); :mod:`hexarena.time_control` checks it (its ``parse`` and ``ClockError``, kept here under their names).
A turn, all its steps, is one clock period.  Both clocks start when the match is created (by accepting a seek:
both players are seated then): the player to move's time runs from that moment.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from hexarena.record_writer import at
from hexarena.time_control import ClockError as ClockError
from hexarena.time_control import parse as parse

DAY = 86400
OFFSET_ENV = "HEXARENA_CLOCK_OFFSET_FILE"  # a testing aid: a file holding seconds added to the real time
# The AI's clock policy (ai_seconds), measured by bench/ai_clock.py (docs/server.md, "Time limits"):
AI_SHARE = 1 / 30  # of the time beyond the reserve, a turn's
AI_INCREMENT = 0.8  # of the increment, a turn's
AI_RESERVE = 8.0  # seconds kept for the turns once the share is spent, at most ...
AI_RESERVE_SHARE = 1 / 8  # ... and at most this share of the initial time

Clock = Callable[[], float]  # seconds since the epoch, as time.time()


def period(control: dict[str, int]) -> float:
    """A correspondence turn's seconds, or a real-time clock's initial seconds."""
    return float(control["days"] * DAY if "days" in control else control["initial"])


@dataclass(frozen=True)
class Timing:
    """A match's clock as stored: per seat the seconds left at the start of the running turn, when that turn
    began (None: not running), when its player loses on time (None: not running), and who lost on time."""

    remaining: list[float] | None = None
    turn_started: str | None = None
    deadline: str | None = None

    @property
    def columns(self) -> dict[str, Any]:
        return {"remaining": self.remaining, "turn_started": self.turn_started, "deadline": self.deadline}


def start(control: dict[str, int] | None, to_move: int | None, now: float) -> Timing:
    """The clock of a new match: both players' full time, the player to move's running from ``now``."""
    if control is None:
        return Timing()
    remaining = [period(control)] * 2
    return running(remaining, to_move, now)


def running(remaining: list[float], to_move: int | None, now: float) -> Timing:
    """``to_move``'s turn starting at ``now`` with ``remaining`` (stopped when the game is over)."""
    if to_move is None:
        return Timing(remaining)
    return Timing(remaining, at(now), at(now + remaining[to_move]))


def advance(control: dict[str, int] | None, timing: Timing, mover: int | None, to_move: int | None,
            turn_changed: bool, now: float) -> Timing:
    """The clock after a change at ``now``: the running turn was ``mover``'s; ``to_move`` is to move now
    (None: over), ``turn_changed`` when a new turn began.  Within a turn nothing changes; when it ends the mover
    is charged the time used and given the increment (correspondence: the next turn is D days again)."""
    if control is None or timing.remaining is None:
        return timing
    if not turn_changed and to_move is not None:
        return timing
    remaining = list(timing.remaining)
    if mover is not None and timing.turn_started is not None:
        if "days" in control:
            remaining[mover] = period(control)
        else:
            used = now - seconds(timing.turn_started)
            left = max(0.0, remaining[mover] - used)
            remaining[mover] = round(left + (control["increment"] if to_move is not None else 0), 3)
    return running(remaining, to_move, now)


def expired(timing: Timing, now: float) -> bool:
    """Whether the running turn's player has run out of time at ``now``."""
    return timing.deadline is not None and seconds(timing.deadline) <= now


def flagged(control: dict[str, int] | None, timing: Timing, loser: int) -> Timing:
    """The clock once ``loser`` lost on time: stopped, their time 0."""
    if timing.remaining is None or control is None:
        return Timing()
    remaining = list(timing.remaining)
    remaining[loser] = 0.0 if "days" not in control else remaining[loser]
    return Timing(remaining)


def shown_clock(control: dict[str, int] | None, timing: Timing, to_move: int | None) -> dict[str, Any] | None:
    """The match object's ``clock``: per seat the seconds left at the start of the running turn, the deadline and
    the running seat; None without a time control."""
    if control is None:
        return None
    running_seat = to_move if timing.deadline is not None else None
    return {"remaining": timing.remaining, "deadline": timing.deadline, "running": running_seat,
            "turn_started": timing.turn_started}


def ai_seconds(control: dict[str, int] | None, remaining: float) -> float | None:
    """The wall seconds the AI may take over a turn that starts with ``remaining`` seconds on its clock: a
    :data:`AI_SHARE` of what lies beyond the reserve (:func:`ai_reserve`) plus :data:`AI_INCREMENT` of the increment,
    never past the reserve (0 once in it: the turn's steps then search a moment each); None without a real-time
    clock (no time control, or correspondence).

    >>> ai_seconds({"initial": 60, "increment": 0}, 60.0)
    1.75
    >>> ai_seconds({"initial": 60, "increment": 2}, 8.5), ai_seconds({"days": 3}, 3 * DAY)
    (1.0, None)
    """
    if control is None or "days" in control:
        return None
    spare = max(0.0, remaining - ai_reserve(control))
    return min(spare * AI_SHARE + control["increment"] * AI_INCREMENT, spare)


def ai_reserve(control: dict[str, int]) -> float:
    """The seconds of a real-time clock the AI keeps for the rest of the game: its turns' least cost (a step's
    minimum search and its commit) once its share is spent."""
    return min(AI_RESERVE, AI_RESERVE_SHARE * control["initial"])


def seconds(stamp: str) -> float:
    """An ISO 8601 time (as :func:`hexarena.record_writer.at` writes it) as seconds since the epoch."""
    return datetime.fromisoformat(stamp).timestamp()


def real_clock() -> float:
    return time.time()


def clock_from_env() -> Clock:
    """The real time, or with ``$HEXARENA_CLOCK_OFFSET_FILE`` set (a testing aid) the real time plus the seconds
    that file holds, read at every call (a missing or empty file adds nothing)."""
    path = os.environ.get(OFFSET_ENV)
    if not path:
        return real_clock

    def offset_clock() -> float:
        try:
            with open(path) as f:
                text = f.read().strip()
        except FileNotFoundError:
            text = ""
        return time.time() + (float(text) if text else 0.0)

    return offset_clock
