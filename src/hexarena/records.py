"""Game records: a JSON-able dict and a one-line text form, both exact.

:mod:`hexarena.record_writer` writes them (``state.record()``,
``state.record_text()``); this module reads them back by replaying every
move through the rules, and checks every field against the replayed game.

The text form is ``[game key=value ...] 1. m 2. m,m,end ... result``: turn
numbers, the moves of each turn joined by commas (Palago's by spaces: its
moves hold commas), and ``1-0``, ``0-1``,
``1/2-1/2`` or ``*``, after ``resign`` (the loser resigned) or ``time`` (the
loser lost on time).

A rated or timed game's record also keeps (``state.meta``; a record without
them reads and writes as before):

- ``clock``: the time control, ``{"initial": S, "increment": S}`` (seconds)
  or ``{"days": D}`` (:mod:`hexarena.time_control` checks its bounds); text
  ``clock=60+1`` or ``clock=3d``.
- ``ratings``: per seat ``{"before": R, "after": R or null}`` or null (a seat
  without a rating; not both null), R a whole number from 0 to
  ``MAX_RATING``; text ``rating1=1500>1662``, ``rating2=1500`` (no rating
  after yet), a seat without a rating left out.
- ``timestamps.used``: with a clock, the seconds each written move used (3
  decimals), one per time of ``timestamps.moves``; text ``used=3.2,1.05``,
  one per written move.  A record's own are kept (``meta["used"]``); moves
  without one are given the time since the previous move (the first's since
  ``started``).
- In the text header, ``player1=``/``player2=``: the names that are not the
  defaults, percent-encoded UTF-8, for a game with a clock or ratings (other
  records keep the names in JSON only).  These header keys are no game's
  options.

>>> import hexarena
>>> s = hexarena.load("projective-hex", opening="none").new_state()
>>> for m in ("A", "B", "C"): _ = s.play(m)
>>> to_text(s)
'[projective-hex size=3 opening=none] 1. A 2. B 3. C *'
>>> hexarena.from_record(to_text(s)) == s
True
"""

from __future__ import annotations

import json
import math
import os
import re
from datetime import datetime
from typing import Any
from urllib.parse import unquote

from .games import game_class, load
from .games.base import Game, IllegalMove, State, quoted
from .games.options import shown
from .record_writer import (DEFAULT_PLAYERS, FORMAT, HEADER_KEYS, RESULTS, TIMED_OUT, jsonable, make_record, now,
                            result_token, to_text)
from .time_control import parse as parse_clock

__all__ = ["FORMAT", "RESULTS", "from_record", "from_bytes", "read_file", "parse_text", "make_record", "to_text",
           "now", "result_token", "MAX_RECORD_MOVES", "MAX_TEXT_RECORD", "MAX_RECORD_BYTES", "MAX_TIME",
           "MAX_PLAYER_NAME", "MAX_RATING", "MAX_USED"]

MAX_RECORD_MOVES = 100_000  # more atomic moves than any game here can have
MAX_RECORD_BYTES = 1 << 20  # a record file (or upload) larger than this is refused unread
MAX_TEXT_RECORD = 1_000_000  # characters of a text record
MAX_TIME = 32  # characters of a record's time: 2024-05-01T12:00:00.123456+00:00 at most
MAX_PLAYER_NAME = 200  # characters of a player's name in a record
MAX_RATING = 9999  # a rating in a record is a whole number from 0 to this
MAX_USED = 10**9  # seconds a move may have used in a record
FIELDS = ("format", "game", "options", "players", "moves", "result", "timestamps", "clock", "ratings")
RESULT_FIELDS = ("over", "winner", "scores", "text", "resigned", "reason")

_HEAD = re.compile(r"^ *\[([^ \]]+)((?: +[^ =\]]+=[^ \]]*)*) *\] *(.*?) *$")
_TURN = re.compile(r"(?:^| )([0-9]{1,9})\. +")
_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]{1,6})?)?"
                   r"(?:Z|[+-][0-9]{2}:[0-9]{2})?")
_RESULT = re.compile(r" *(?:(?<![^ ])(resign|time) +)?(1-0|0-1|1/2-1/2|\*) *$")
_RATING = re.compile(r"([0-9]{1,9})(?:>([0-9]{1,9}))?")
_CLOCK = re.compile(r"([0-9]{1,9})\+([0-9]{1,9})|([0-9]{1,9})d")
_SECONDS = re.compile(r"[0-9]{1,10}(?:\.[0-9]{1,3})?")
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


def parse_text(line: str) -> dict[str, Any]:
    """Split a text record into game, options, turns and result (no replay); ``ended``: "resign", "time" or
    None (``resigned``: whether it is "resign"); ``header``: the header's items that are no game options
    (players, ratings, clock, time used: ``HEADER_KEYS``), their text as written."""
    if not isinstance(line, str):
        raise ValueError(f"a text record is a string, got {type(line).__name__}")
    if len(line) > MAX_TEXT_RECORD:
        raise ValueError(f"a text record is at most {MAX_TEXT_RECORD} characters, got {len(line)}")
    line = line.strip(" \t\r\n")
    if not (line.isascii() and line.isprintable()):
        bad = next(ch for ch in line if not (ch.isascii() and ch.isprintable()))
        raise ValueError(f"a text record is one line of printable ASCII; it holds {bad!r} (U+{ord(bad):04X})")
    m = _HEAD.match(line)
    if not m:
        raise ValueError(f"a text record starts with '[game key=value ...]', got {quoted(line)}")
    name, opts, body = m.groups()
    options: dict[str, str] = {}
    for kv in opts.split():
        key, value = kv.split("=", 1)
        if key in options:
            raise ValueError(f"option {quoted(key)} is given twice in the record's header")
        options[key] = value
    header = {key: options.pop(key) for key in HEADER_KEYS if key in options}
    result, ended = None, None
    r = _RESULT.search(body)
    if r:
        ended, result = r.group(1), r.group(2)
        body = body[: r.start()]
    parts = _TURN.split(body)
    if parts[0].strip():
        raise ValueError(f"text before the first turn number: {quoted(parts[0].strip())}")
    turns = [(int(parts[i]), split_moves(parts[i + 1], name)) for i in range(1, len(parts), 2)]
    return {"game": name, "options": options, "header": header, "turns": turns, "result": result,
            "resigned": ended == "resign", "ended": ended}


def split_moves(text: str, game: str) -> list[str]:
    """A turn's moves in a text record: joined by the game's ``MOVE_SEPARATOR`` (a comma, or for Palago a
    space)."""
    try:
        sep = game_class(game).MOVE_SEPARATOR
    except ValueError:  # an unknown game: refused when the record is replayed
        sep = ","
    if sep == " ":
        return [mv for mv in text.split(" ") if mv] or [""]
    return [mv.strip(" ") for mv in text.split(sep)]


def from_record(record: dict[str, Any] | str) -> State:
    """Rebuild a state from a JSON record (dict) or a text record (str).

    Every field is checked, and the stated result against the replayed game;
    raises ValueError naming the first problem (a missing or mistyped field,
    an unknown game or option, the first move that is not legal where it
    stands, a result or a game fact that disagrees with the moves).
    """
    if isinstance(record, str):
        return _from_text(record)
    if not isinstance(record, dict):
        raise ValueError(f"a record is a dict or a text line, got {type(record).__name__}")
    state = _new_state(_field(record, "game", str), _field(record, "options", dict, {}))
    extra = set(state.game.record_extra(state.array))
    unknown = [k for k in record if k not in FIELDS and k not in extra]
    if unknown:
        fields = ", ".join(FIELDS + tuple(extra))
        raise ValueError(f"record field {quoted(str(unknown[0]))} is unknown; fields: {fields}")
    if record.get("format", FORMAT) != FORMAT:
        raise ValueError(f"record format {quoted(str(record['format']))} is not {FORMAT!r}")
    players = _players(record.get("players"))
    clock = parse_clock(record.get("clock"), "record field 'clock'")
    ratings = _ratings(record.get("ratings"))
    started, times, used = _timestamps(record.get("timestamps"))
    used = _used(used, len(times), clock, "record field 'timestamps.used'", "move time of 'timestamps.moves'")
    moves = _field(record, "moves", list)
    if len(moves) > MAX_RECORD_MOVES:
        raise ValueError(f"a record holds at most {MAX_RECORD_MOVES} moves, got {len(moves)}")
    for i, move in enumerate(moves):
        _replay(state, i, move)
    written = [i for i, _ in state.written_moves()]
    if len(times) > len(written):
        raise ValueError(f"record field 'timestamps' has {len(times)} move times for {len(written)} moves")
    for k, t in enumerate(times):
        _time(t, f"timestamps.moves[{k}]")
    stamps = state.times
    for t, i in zip(times, written, strict=False):
        stamps[i] = t
    state.set_times(stamps)
    state.meta.update(players=players, started=started, clock=clock, ratings=ratings, used=used)
    result = record.get("result")
    if isinstance(result, dict) and "resigned" in result:
        _resign(state, result["resigned"])
    elif isinstance(result, dict) and result.get("reason") == TIMED_OUT:
        _lose_on_time(state, result.get("winner"))
    _check_result(result, state)
    for key in extra & set(record):
        want = jsonable(state.game.record_extra(state.array)[key])
        if record[key] != want:
            raise ValueError(f"record field {key!r} {shown(record[key])} disagrees with its moves ({shown(want)})")
    return state


def from_bytes(data: bytes) -> State:
    """Rebuild a state from a record file's bytes (a saved file, an upload):
    a JSON record, else a text record; ValueError naming the problem."""
    if len(data) > MAX_RECORD_BYTES:
        raise ValueError(f"a record file is at most {MAX_RECORD_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("a record file is UTF-8 text") from None
    try:
        record: Any = json.loads(text)
    except json.JSONDecodeError:
        record = text.strip()
    except RecursionError:
        raise ValueError("a JSON record nested too deep") from None
    return from_record(record)


def read_file(path: str | os.PathLike) -> State:
    """Rebuild a state from the JSON or text record in file ``path``;
    ValueError naming the file and the problem."""
    try:
        with open(os.path.expanduser(path), "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        return from_bytes(data)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None


def _field(record: dict[str, Any], key: str, kind: type, default: Any = None) -> Any:
    value = record.get(key, default)
    if key not in record and default is None:
        raise ValueError(f"record field {key!r} is missing (a {_TYPE_NAMES[kind]})")
    if not isinstance(value, kind):
        raise ValueError(f"record field {key!r} must be a {_TYPE_NAMES[kind]}, got a {type(value).__name__}")
    return value


_TYPE_NAMES = {str: "string", dict: "JSON object", list: "list", bool: "boolean"}


def _new_state(name: str, options: dict[str, Any]) -> State:
    for key in options:
        if not isinstance(key, str):
            raise ValueError(f"record option names are strings, got {shown(key)}")
    return load(name, **options).new_state()


def _players(value: Any) -> list[str]:
    if value is None:
        return list(DEFAULT_PLAYERS)
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(p, str) for p in value)):
        raise ValueError(f"record field 'players' must be a list of two names, got {shown(value)}")
    for name in value:
        if not (0 < len(name) <= MAX_PLAYER_NAME and name.isprintable()):
            raise ValueError(f"record field 'players' holds {shown(name)}: a name is 1 to {MAX_PLAYER_NAME} "
                             f"printable characters")
    return list(value)


def _timestamps(value: Any) -> tuple[str | None, list[str], Any]:
    """(start time, move times, seconds used unchecked) of a record's ``timestamps``."""
    if value is None:
        return None, [], None
    if not isinstance(value, dict) or set(value) - {"started", "moves", "used"}:
        raise ValueError("record field 'timestamps' must be an object with 'started', 'moves' and (with a clock) "
                         "'used'")
    started, times = value.get("started"), value.get("moves") or []
    if started is not None:
        _time(started, "timestamps.started")
    if not isinstance(times, list) or not all(isinstance(t, str) for t in times):
        raise ValueError("record field 'timestamps.moves' must be a list of strings")
    return started, times, value.get("used")


def _ratings(value: Any) -> list[dict[str, int | None] | None] | None:
    """A record's ``ratings``: per seat ``{"before": R, "after": R or null}`` or null (a seat without a rating)."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2 or value == [None, None]:
        raise ValueError(f"record field 'ratings' {shown(value)}: give a list of the two seats' ratings, each "
                         f"{{\"before\": R, \"after\": R or null}} or null (a seat without a rating), not both "
                         f"null")
    return [None if r is None else _rating(r, f"record field 'ratings[{i}]'") for i, r in enumerate(value)]


def _rating(value: Any, where: str) -> dict[str, int | None]:
    """One seat's ratings before and after the game (None: not rated yet), whole numbers from 0 to MAX_RATING."""
    if not (isinstance(value, dict) and set(value) == {"before", "after"}):
        raise ValueError(f"{where} {shown(value)}: give {{\"before\": R, \"after\": R or null}}, R a whole number "
                         f"from 0 to {MAX_RATING}")
    for key in ("before", "after"):
        n = value[key]
        if (n is not None or key == "before") and (isinstance(n, bool) or not isinstance(n, int)
                                                    or not 0 <= n <= MAX_RATING):
            raise ValueError(f"{where} {key} {shown(n)}: a whole number from 0 to {MAX_RATING}"
                             f"{' or null' if key == 'after' else ''}")
    return {"before": value["before"], "after": value["after"]}


def _used(value: Any, count: int, clock: dict[str, int] | None, where: str, per: str) -> list[float] | None:
    """A record's seconds used: ``count`` numbers from 0 to MAX_USED (one per ``per``), only with a clock; kept
    to 3 decimals."""
    if value is None:
        return None
    if clock is None:
        raise ValueError(f"{where} needs a 'clock': a record keeps the time used only with a time control")
    if not (isinstance(value, list) and len(value) == count and all(map(_is_seconds, value))):
        raise ValueError(f"{where} must be a list of seconds from 0 to {MAX_USED}, one per {per} ({count}); got "
                         f"{shown(value)}")
    return [round(float(x), 3) for x in value]


def _is_seconds(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and 0 <= x <= MAX_USED


def _time(value: Any, where: str) -> str:
    """A record's time checked: an ISO 8601 date and time (at most ``MAX_TIME`` characters, a real date)."""
    if not isinstance(value, str):
        raise ValueError(f"record field {where!r} must be a string, got {type(value).__name__}")
    if len(value) > MAX_TIME or not _TIME.fullmatch(value):
        raise ValueError(f"record field {where!r} must be an ISO 8601 date and time of at most {MAX_TIME} "
                         f"characters, such as 2024-05-01T12:00:00.000+00:00; got {shown(value)}")
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"record field {where!r} is no real date and time: {shown(value)}") from None
    return value


def _check_result(result: Any, state: State) -> None:
    """A record's stated result, each field given, against the replayed ``state``."""
    if result is None:
        return
    if not isinstance(result, dict):
        raise ValueError(f"record field 'result' must be a JSON object, got {type(result).__name__}")
    unknown = [k for k in result if k not in RESULT_FIELDS]
    if unknown:
        raise ValueError(f"record field 'result.{unknown[0]}' is unknown; fields: {', '.join(RESULT_FIELDS)}")
    actual = {"over": state.is_over(), "winner": state.winner(), "scores": state.game.live_scores(state),
              "text": result_token(state), "resigned": state.resigned, "reason": state.game.end_reason(state)}
    for key in RESULT_FIELDS:
        if key == "scores" and actual[key] is None and not state.is_over() and \
                type(state.game).live_scores is not Game.live_scores:
            continue  # a game in progress whose scores cost a search: the end's are checked
        if key in result and not _same(result[key], actual[key]):
            raise ValueError(f"record result {key!r} {shown(result[key])} disagrees with its moves "
                             f"({shown(actual[key])}; {result_token(state)})")


def _same(stated: Any, actual: Any) -> bool:
    """JSON equality that keeps booleans apart from numbers and allows float rounding."""
    if isinstance(actual, bool) or actual is None or isinstance(actual, str):
        return type(stated) is type(actual) and stated == actual
    if isinstance(actual, list):
        return isinstance(stated, list) and len(stated) == len(actual) and all(map(_same, stated, actual))
    return (isinstance(stated, (int, float)) and not isinstance(stated, bool) and math.isfinite(stated)
            and math.isclose(stated, actual, abs_tol=1e-9))


def _replay(state: State, index: int, move: Any) -> None:
    if not isinstance(move, str):
        raise ValueError(f"record move {index + 1} is not a string: {shown(move)}")
    try:
        state.play(move)
    except IllegalMove as e:
        raise ValueError(f"record move {index + 1} {quoted(move)}: {e}") from None


def _resign(state: State, player: Any) -> None:
    """The resignation a record states, after its moves."""
    if isinstance(player, bool) or player not in (0, 1):
        raise ValueError(f"record result 'resigned' is the player who resigned, 0 or 1, got {shown(player)}")
    if state.is_over():
        raise ValueError(f"record says player {player + 1} resigned, but its moves end the game "
                         f"({result_token(state)})")
    state.resign(player)


def _lose_on_time(state: State, winner: Any) -> None:
    """The loss on time a record states (``result.reason`` "time"), after its moves: its loser is the player who
    did not win."""
    if isinstance(winner, bool) or winner not in (0, 1):
        raise ValueError(f"record result 'reason' 'time' needs 'winner' 0 or 1 (the loser lost on time), got "
                         f"{shown(winner)}")
    if state.is_over():
        raise ValueError(f"record says player {2 - winner} lost on time, but its moves end the game "
                         f"({result_token(state)})")
    state.lose_on_time(1 - winner)


def _from_text(line: str) -> State:
    parsed = parse_text(line)
    state = _new_state(parsed["game"], parsed["options"])
    header = parsed["header"]
    i = 0
    for turn, moves in parsed["turns"]:
        if turn != state.turn:
            raise ValueError(f"record says turn {turn} where the game is at turn {state.turn} (move {i + 1})")
        for move in moves:
            if state.turn != turn:
                raise ValueError(f"record move {i + 1} {quoted(move)}: turn {turn} was already over")
            _replay(state, i, move)
            i += 1
    if parsed["ended"] == "resign":
        if parsed["result"] not in ("1-0", "0-1"):
            raise ValueError(f"record says 'resign' before {parsed['result']!r}: a resignation ends 1-0 or 0-1")
        _resign(state, 1 if parsed["result"] == "1-0" else 0)  # the loser
    elif parsed["ended"] == TIMED_OUT:
        if parsed["result"] not in ("1-0", "0-1"):
            raise ValueError(f"record says 'time' before {parsed['result']!r}: a loss on time ends 1-0 or 0-1")
        _lose_on_time(state, 0 if parsed["result"] == "1-0" else 1)
    if parsed["result"] not in (None, "*") and parsed["result"] != result_token(state):
        raise ValueError(f"record result {parsed['result']!r} disagrees with its moves ({result_token(state)})")
    if parsed["result"] == "*" and state.is_over():
        raise ValueError(f"record result '*' says the game goes on, but its moves end it ({result_token(state)})")
    state.meta.update(_header_meta(header, len(state.written_moves())))
    return state


def _header_meta(header: dict[str, str], moves: int) -> dict[str, Any]:
    """The players, ratings, clock and seconds used (one per written move: ``moves``) a text record's header
    gives, checked as the JSON record's fields are."""
    names = [_name(header[f"player{i}"], f"player{i}") if f"player{i}" in header else default
             for i, default in enumerate(DEFAULT_PLAYERS, 1)]
    ratings = [_rating_text(header[f"rating{i}"], f"rating{i}") if f"rating{i}" in header else None for i in (1, 2)]
    clock = _clock_text(header["clock"]) if "clock" in header else None
    used = _seconds_text(header["used"]) if "used" in header else None
    return {"players": _players(names), "ratings": ratings if any(ratings) else None, "clock": clock,
            "used": _used(used, moves, clock, "record header 'used'", "written move")}


def _name(text: str, key: str) -> str:
    """A player's name from a text header: percent-encoded UTF-8."""
    if _BAD_ESCAPE.search(text):
        raise ValueError(f"record header {key!r} {quoted(text)}: a '%' starts an escape of two hex digits (%25)")
    try:
        return unquote(text, errors="strict")
    except UnicodeDecodeError:
        raise ValueError(f"record header {key!r} {quoted(text)}: its %XX escapes are no UTF-8 text") from None


def _rating_text(text: str, key: str) -> dict[str, int | None]:
    m = _RATING.fullmatch(text)
    if not m:
        raise ValueError(f"record header {key!r} {quoted(text)}: give BEFORE>AFTER or BEFORE, whole numbers from 0 "
                         f"to {MAX_RATING} (such as {key}=1500>1662)")
    return _rating({"before": int(m[1]), "after": None if m[2] is None else int(m[2])}, f"record header {key!r}")


def _clock_text(text: str) -> dict[str, int] | None:
    m = _CLOCK.fullmatch(text)
    if not m:
        raise ValueError(f"record header 'clock' {quoted(text)}: give INITIAL+INCREMENT (seconds) or Dd (days), "
                         f"such as clock=60+1 or clock=3d")
    control = {"days": int(m[3])} if m[3] else {"initial": int(m[1]), "increment": int(m[2])}
    return parse_clock(control, "record header 'clock'")


def _seconds_text(text: str) -> list[float]:
    items = text.split(",")
    bad = next((x for x in items if not _SECONDS.fullmatch(x)), None)
    if bad is not None:
        raise ValueError(f"record header 'used' holds {quoted(bad)}: seconds with at most 3 decimals, joined by "
                         f"commas (such as used=3.2,1.05)")
    return [float(x) for x in items]
