"""Writing game records: the JSON-able dict and the one-line text form of a
state.  A leaf module (it imports nothing from hexarena): ``State.record()``
and ``State.record_text()`` call it, and :mod:`hexarena.records` reads what
it writes.

The text form is ``[game key=value ...] 1. m 2. m,m,end ... result``: turn
numbers, the moves of each turn joined by commas, and ``1-0``, ``0-1``,
``1/2-1/2`` or ``*``; ``resign`` before the result says the loser resigned,
``time`` that the loser lost on time (the JSON record's ``result.reason``
``"time"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .games.base import State

FORMAT = "hexarena-record/1"
RESULTS = {0: "1-0", 1: "0-1", None: "1/2-1/2"}
DEFAULT_PLAYERS = ("player 1", "player 2")
RESIGNED = "resign"  # the text record's word for a resignation, before the result
TIMED_OUT = "time"  # the text record's word for a loss on time, before the result (and the JSON's result.reason)


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
    rec: dict[str, Any] = {
        "format": FORMAT,
        "game": state.game.name,
        "options": {k: jsonable(v) for k, v in state.game.options.items()},
        "players": list(players or meta.get("players") or DEFAULT_PLAYERS),
        "moves": [move for _, move in written],
        "result": {
            "over": state.is_over(),
            "winner": state.winner(),
            "scores": state.game.live_scores(state),
            "text": result_token(state),
            **({} if state.resigned is None else {"resigned": state.resigned}),
            **({} if state.timed_out is None else {"reason": TIMED_OUT}),
        },
        "timestamps": {"started": meta.get("started"), "moves": [times[i] for i, _ in written]},
    }
    rec.update(state.game.record_extra(state.array))
    return rec


def to_text(state: State) -> str:
    """The one-line text record of ``state``."""
    opts = " ".join(f"{k}={option_text(v)}" for k, v in state.game.options.items())
    head = f"[{state.game.name}{' ' if opts else ''}{opts}]"
    sep = state.game.MOVE_SEPARATOR
    body = " ".join(f"{t}. {sep.join(ms)}" for t, ms in state.turns())
    ended = RESIGNED if state.resigned is not None else TIMED_OUT if state.timed_out is not None else ""
    return " ".join(x for x in (head, body, ended, result_token(state)) if x)


def option_text(v: Any) -> str:
    return ",".join(map(str, v)) if isinstance(v, (tuple, list)) else str(v)
