"""Game records: a JSON-able dict and a one-line text form, both exact.

The text form is ``[game key=value ...] 1. m 2. m,m,end ... result``: turn
numbers, the moves of each turn joined by commas, and ``1-0``, ``0-1``,
``1/2-1/2`` or ``*``.

>>> import hexarena
>>> s = hexarena.load("projective-hex", opening="none").new_state()
>>> for m in ("A", "B", "C"): _ = s.play(m)
>>> to_text(s)
'[projective-hex size=3 opening=none] 1. A 2. B 3. C *'
>>> hexarena.from_record(to_text(s)) == s
True
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from .games.base import State

FORMAT = "hexarena-record/1"
RESULTS = {0: "1-0", 1: "0-1", None: "1/2-1/2"}


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def result_token(state: "State") -> str:
    return RESULTS[state.winner()] if state.is_over() else "*"


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def make_record(state: "State", players: Sequence[str] | None = None) -> dict[str, Any]:
    """The JSON record of ``state`` (see the module docstring)."""
    meta = state.meta
    written = state.written_moves()
    rec: dict[str, Any] = {
        "format": FORMAT,
        "game": state.game.name,
        "options": {k: _jsonable(v) for k, v in state.game.options.items()},
        "players": list(players or meta.get("players") or ["player 1", "player 2"]),
        "moves": [move for _, move in written],
        "result": {
            "over": state.is_over(),
            "winner": state.winner(),
            "scores": state.scores(),
            "text": result_token(state),
        },
        "timestamps": {"started": meta.get("started"), "moves": [state._times[i] for i, _ in written]},
    }
    rec.update(state.game.record_extra(state._s))
    return rec


def to_text(state: "State") -> str:
    """The one-line text record of ``state``."""
    opts = " ".join(f"{k}={_opt_text(v)}" for k, v in state.game.options.items())
    head = f"[{state.game.name}{' ' if opts else ''}{opts}]"
    body = " ".join(f"{t}. {','.join(ms)}" for t, ms in state.turns())
    return " ".join(x for x in (head, body, result_token(state)) if x)


def _opt_text(v: Any) -> str:
    return ",".join(map(str, v)) if isinstance(v, (tuple, list)) else str(v)


_HEAD = re.compile(r"^\s*\[([^\s\]]+)((?:\s+[^\s=\]]+=[^\s\]]*)*)\s*\]\s*(.*?)\s*$")
_TURN = re.compile(r"(?:^|\s)(\d+)\.\s+")
_RESULT = re.compile(r"\s*(1-0|0-1|1/2-1/2|\*)\s*$")


def parse_text(line: str) -> dict[str, Any]:
    """Split a text record into game, options, turns and result (no replay)."""
    m = _HEAD.match(line)
    if not m:
        raise ValueError("a text record starts with '[game key=value ...]'")
    name, opts, body = m.groups()
    options = dict(kv.split("=", 1) for kv in opts.split())
    result = None
    r = _RESULT.search(body)
    if r:
        result = r.group(1)
        body = body[: r.start()]
    parts = _TURN.split(body)
    if parts[0].strip():
        raise ValueError(f"text before the first turn number: {parts[0].strip()!r}")
    turns = [(int(parts[i]), [mv.strip() for mv in parts[i + 1].split(",")]) for i in range(1, len(parts), 2)]
    return {"game": name, "options": options, "turns": turns, "result": result}


def from_record(record: dict[str, Any] | str) -> "State":
    """Rebuild a state from a JSON record (dict) or a text record (str).

    Raises ValueError naming the first problem: a missing field, an unknown
    game or option, or the first move that is not legal where it stands.
    """
    from .games import load

    if isinstance(record, str):
        return _from_text(record)
    if not isinstance(record, dict):
        raise ValueError(f"a record is a dict or a text line, got {type(record).__name__}")
    for key, kind in (("game", str), ("moves", list)):
        if not isinstance(record.get(key), kind):
            raise ValueError(f"record field {key!r} is missing or not a {kind.__name__}")
    if record.get("format", FORMAT) != FORMAT:
        raise ValueError(f"record format {record['format']!r} is not {FORMAT!r}")
    options = record.get("options") or {}
    if not isinstance(options, dict):
        raise ValueError("record field 'options' is not an object")
    state = load(record["game"], **options).new_state()
    times = (record.get("timestamps") or {}).get("moves") or []
    for i, move in enumerate(record["moves"]):
        _replay(state, i, move)
        if i < len(times) and isinstance(times[i], str):
            state._times[-1] = times[i]
    state.meta["players"] = list(record.get("players") or ["player 1", "player 2"])
    state.meta["started"] = (record.get("timestamps") or {}).get("started")
    result = record.get("result") or {}
    if "winner" in result and result.get("over") and (not state.is_over() or result["winner"] != state.winner()):
        raise ValueError(f"record result {result.get('text', result['winner'])!r} disagrees with its moves "
                         f"({result_token(state)})")
    return state


def _replay(state: "State", index: int, move: Any) -> None:
    from .games.base import IllegalMove

    if not isinstance(move, str):
        raise ValueError(f"record move {index + 1} is not a string: {move!r}")
    try:
        state.play(move)
    except IllegalMove as e:
        raise ValueError(f"record move {index + 1} {move!r}: {e}") from None


def _from_text(line: str) -> "State":
    from .games import load

    parsed = parse_text(line)
    state = load(parsed["game"], **parsed["options"]).new_state()
    i = 0
    for turn, moves in parsed["turns"]:
        if turn != state.turn:
            raise ValueError(f"record says turn {turn} where the game is at turn {state.turn} (move {i + 1})")
        for move in moves:
            if state.turn != turn:
                raise ValueError(f"record move {i + 1} {move!r}: turn {turn} was already over")
            _replay(state, i, move)
            i += 1
    if parsed["result"] not in (None, "*") and parsed["result"] != result_token(state):
        raise ValueError(f"record result {parsed['result']!r} disagrees with its moves ({result_token(state)})")
    return state
