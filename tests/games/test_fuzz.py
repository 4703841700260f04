"""Hostile input for every game: move text, action ids, JSON and text records,
option values.  Every refusal is an IllegalMove or a ValueError whose message
is one short line, and it changes nothing.

The examples per test follow the hypothesis profile (40 by default); for a
long run, ``python bench/fuzz.py --minutes 10`` repeats these with 500 each.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import string
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hexarena
from hexarena import AmbiguousMove, IllegalMove, MalformedMove, from_record
from hexarena.games.options import shown

from tests.conftest import EXTRA_CONFIGS

MAX_MESSAGE = 300
FUZZ = settings(deadline=None)

per_game = pytest.mark.parametrize("name", hexarena.GAMES)


# --- states to attack ---------------------------------------------------------------------

def configs(name: str) -> list[dict]:
    return [{}] + EXTRA_CONFIGS.get(name, [])


@functools.cache
def game(name: str, config: int) -> hexarena.Game:
    return hexarena.load(name, **configs(name)[config])


@st.composite
def positions(draw, name: str, finished: bool = False):
    """A random legal position of a random game (to the end when ``finished``)."""
    config = draw(st.integers(0, len(configs(name)) - 1))
    rng = random.Random(draw(st.integers(0, 2**32)))
    limit = 10**6 if finished else draw(st.integers(0, 60))
    state = game(name, config).new_state()
    while not state.is_over() and len(state.history) < limit:
        state.apply(rng.choice(state.legal_actions()))
    return state


def snapshot(state) -> tuple:
    return (state.array.tobytes(), state.history, state.times, copy.deepcopy(state.meta), state.turn, state.step)


def check_refusal(error: Exception) -> None:
    message = str(error)
    assert "\n" not in message and 0 < len(message) <= MAX_MESSAGE, message


def refused(call, state=None, kinds=(IllegalMove,)) -> bool:
    """Run ``call``: True if it refused in ``kinds`` with a good message and
    left ``state`` as it was, False if it accepted."""
    before = snapshot(state) if state is not None else None
    try:
        call()
    except kinds as e:
        check_refusal(e)
        if state is not None:
            assert snapshot(state) == before
        return True
    return False


# --- move text ---------------------------------------------------------------------------

LOOKALIKES = str.maketrans({"k": "\u212a", "a": "\u0430", "e": "\u0435", "o": "\u043e", "A": "\u0391",
                            "1": "\uff11", "5": "\uff15", "#": "\uff03", "-": "\u2212", " ": "\u00a0"})
ODD_SPACES = ["\u00a0", "\t", "\n", "\u2003", "\u3000", "\u200b", "\r"]
JUNK = st.one_of(st.text(max_size=4), st.sampled_from(["!", "?", "+", "-", "--", "++", "#", "0", "00", "x",
                                                       "ne", "n", " 2", " -", ",", ";", "*", "\x00", " 0"]))
# mutations of a legal move's name that no game's notation accepts
REFUSE = {
    "double plus": lambda m, j: "++" + m,
    "x before": lambda m, j: "x" + m,
    "x after": lambda m, j: m + "x",
    "look-alike": lambda m, j: m.translate(LOOKALIKES) if m.translate(LOOKALIKES) != m else m + "\u212a",
    "odd space": lambda m, j: j.join(["", m]) if j else m + "\u00a0",
    "too long": lambda m, j: m + " " * 70,
}
MAYBE = {
    "junk before": lambda m, j: j + m,
    "junk after": lambda m, j: m + j,
    "upper": lambda m, j: m.upper(),
    "swapcase": lambda m, j: m.swapcase(),
    "plus": lambda m, j: "+" + m,
    "minus": lambda m, j: "-" + m,
    "spaces": lambda m, j: "  " + m.replace(" ", "   ") + " ",
    "twice": lambda m, j: m + " " + m,
    "cut": lambda m, j: m[:-1],
}


@st.composite
def hostile_text(draw, names: list[str]):
    """(text, must it be refused?)"""
    kind = draw(st.integers(0, 4))
    if kind == 0 or not names:
        return draw(st.one_of(st.text(max_size=12), st.text(string.printable, max_size=12),
                              st.integers().map(str), st.just(""), st.text(min_size=65, max_size=200))), False
    name = draw(st.sampled_from(names))
    if kind == 1:
        junk = draw(st.sampled_from(ODD_SPACES))
        return draw(st.sampled_from(sorted(REFUSE.values(), key=str)))(name, junk), True
    return draw(st.sampled_from(list(MAYBE.values())))(name, draw(JUNK)), False


def check_text(state, text: str, must_refuse: bool) -> None:
    if refused(lambda: state.parse_steps(text), state):
        error, other = _error(lambda: state.parse_steps(text)), _error(lambda: state.play(text))
        assert type(other) is type(error) and str(other) == str(error)  # one parse path
        return
    assert not must_refuse, f"accepted {text!r}"
    steps = state.parse_steps(text)
    assert text.isascii() and text.isprintable()
    other = state.copy()
    assert other.play(text) == steps[-1] == state.parse(text)
    assert other.history[len(state.history):] == steps


def _error(call) -> Exception:
    try:
        call()
    except IllegalMove as e:
        return e
    raise AssertionError("accepted")


@per_game
@FUZZ
@given(data=st.data())
def test_hostile_move_text_is_refused_cleanly(name, data):
    state = data.draw(positions(name))
    text, must_refuse = data.draw(hostile_text(state.legal_moves()))
    before = snapshot(state)
    check_text(state, text, must_refuse)
    assert snapshot(state) == before


@per_game
@FUZZ
@given(data=st.data())
def test_a_finished_game_refuses_every_move(name, data):
    state = data.draw(positions(name, finished=True))
    text = data.draw(st.one_of(st.text(max_size=10), st.sampled_from(state.moves() or ["x"])))
    assert refused(lambda: state.play(text), state)


@per_game
def test_non_strings_and_long_text_are_malformed(name):
    state = game(name, 0).new_state()
    for bad in (None, 5, 5.0, b"e4", ["e4"], {"m": 1}, True, "e" * 65, "e" * 10_000, "\u212a5", "\u00a0e4", "e4\n"):
        with pytest.raises(MalformedMove) as info:
            state.play(bad)
        check_refusal(info.value)
    assert state.history == []


# --- action ids ------------------------------------------------------------------------------

def hostile_actions(legal: list[int]):
    near = st.sampled_from(legal) if legal else st.just(0)
    return st.one_of(st.integers(), st.integers(-2**80, 2**80), st.floats(), st.booleans(), st.none(),
                     st.text(max_size=4), near.map(float), near.map(str), near.map(np.int64), near.map(np.int32),
                     near.map(lambda a: a + 10**6), near.map(lambda a: -a - 1), st.lists(st.integers(), max_size=2),
                     st.integers(-2**63, 2**63 - 1).map(np.int64), st.just(2**64), st.just(10**100))


@per_game
@FUZZ
@given(data=st.data())
def test_hostile_action_ids_are_refused_cleanly(name, data):
    state = data.draw(positions(name))
    legal = state.legal_actions()
    action = data.draw(hostile_actions(legal))
    for call in (lambda: state.move_name(action), lambda: state.apply(action)):
        if not refused(call, state):
            assert isinstance(action, (int, np.integer)) and not isinstance(action, bool) and int(action) in legal
            return


# --- option values ---------------------------------------------------------------------------

HOSTILE_VALUES = st.one_of(
    st.none(), st.booleans(), st.floats(), st.integers(), st.integers(-2**200, 2**200), st.just(10**5000),
    st.text(max_size=8), st.sampled_from(["1e9", " 4 ", "\u0664", "4\n", "+4", "-4", "4.0", "9,8", "9,8,7", "9/8",
                                          "0x10", "1_000", "", "400", "1000000", "2,1000000", "3,٣"]),
    st.lists(st.one_of(st.integers(-5, 10**9), st.floats(), st.booleans(), st.text(max_size=2)), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2), st.just([9, 8]), st.just([1e9, 2]),
    st.just(["9", 8]), st.just([True, 3]), st.just([9, 8, 7]), st.just(list(range(10**5))))
OPTION_KEYS = st.one_of(st.sampled_from(["size", "opening", "sequence", "name", "self", "", "x" * 500]),
                        st.text(max_size=8))


def check_options(name: str, options: dict) -> None:
    """``load`` with ``options`` refuses with a one-line ValueError, or makes a
    game that a record rebuilds (options within the documented bounds)."""
    try:
        g = hexarena.load(name, **options)
    except ValueError as e:
        check_refusal(e)
        return
    assert g.validate_options(g.options) == g.options
    state = g.new_state()
    assert from_record(json.loads(json.dumps(state.record()))) == state


@per_game
@FUZZ
@given(data=st.data())
def test_hostile_options_are_refused_cleanly(name, data):
    own = list(hexarena.game_class(name).OPTIONS)  # none for a game without options (tests/games/ninth_game.py)
    key = data.draw(st.sampled_from(own) | OPTION_KEYS if own else OPTION_KEYS)
    value = data.draw(HOSTILE_VALUES)
    check_options(name, {key: value})
    record = {"game": name, "options": {key: value}, "moves": []}
    assert refused(lambda: from_record(record), kinds=(ValueError,)) or key in hexarena.game_class(name).OPTIONS
    text = f"[{name} {key}={value if isinstance(value, str) else shown(value).replace(' ', '')}] *"
    refused(lambda: from_record(text), kinds=(ValueError,))


@per_game
@pytest.mark.parametrize("size", [400, 10**6, "1000000", 10**100])
def test_huge_sizes_are_refused_at_once(name, size):
    if "size" not in hexarena.game_class(name).OPTIONS:
        pytest.skip("no size option")
    for call in (lambda: hexarena.load(name, size=size), lambda: from_record(f"[{name} size={size}] *"),
                 lambda: from_record({"game": name, "options": {"size": size}, "moves": []}),
                 lambda: hexarena.load(name, size=f"{size},{size}"), lambda: hexarena.load(name, size=[size, 3])):
        start = time.process_time()
        with pytest.raises(ValueError) as info:
            call()
        assert time.process_time() - start < 0.5
        check_refusal(info.value)
        assert "allowed: " in str(info.value)


# --- records ---------------------------------------------------------------------------------

JSON_JUNK = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=6),
                      st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(),
                                                                          max_size=2))
FIELDS = ("format", "game", "options", "players", "moves", "result", "timestamps")


@st.composite
def tampered(draw, record: dict):
    """(a tampered copy of ``record``, must it be refused?)"""
    rec = copy.deepcopy(record)
    extras = [k for k in rec if k not in FIELDS]
    kind = draw(st.sampled_from(["drop", "retype", "result", "extra", "huge", "move", "options", "facts",
                                 "timestamps"]))
    if kind == "drop":
        key = draw(st.sampled_from(sorted(rec)))
        del rec[key]
        return rec, key in ("game", "moves")
    if kind == "retype":
        key = draw(st.sampled_from(sorted(rec)))
        rec[key] = draw(JSON_JUNK)
        return rec, False
    if kind == "result":
        key = draw(st.sampled_from(["over", "winner", "scores", "text"]))
        result = rec["result"]
        value = draw(JSON_JUNK | st.sampled_from([0, 1, None, True, False, "1-0", "0-1", "*", "1/2-1/2", [0, 0],
                                                  [1.0, 0.0], 0.0, 1.0]))
        must = key == "over" and value == (not result["over"]) and isinstance(value, bool)
        result[key] = value
        return rec, must
    if kind == "extra":
        rec[draw(st.sampled_from(["colours", "roles", "name", "self", "x"]) | st.text(max_size=4))] = draw(JSON_JUNK)
        return rec, False
    if kind == "huge":
        rec["moves"] = rec["moves"] + [draw(st.sampled_from(rec["moves"] or ["a1"]))] * draw(
            st.sampled_from([1, 1000, 100_001]))
        return rec, False
    if kind == "move":
        if not rec["moves"]:
            rec["moves"] = [draw(JSON_JUNK)]
            return rec, False
        i = draw(st.integers(0, len(rec["moves"]) - 1))
        rec["moves"][i] = draw(JSON_JUNK | st.text(max_size=6) | st.just(rec["moves"][i] + "x"))
        return rec, False
    if kind == "options":
        rec["options"][draw(OPTION_KEYS)] = draw(HOSTILE_VALUES)
        return rec, False
    if kind == "facts" and extras:
        key = draw(st.sampled_from(extras))
        rec[key] = draw(JSON_JUNK | st.just(list(reversed(rec[key]))) | st.just([None, None]))
        return rec, False
    rec["timestamps"] = draw(JSON_JUNK | st.fixed_dictionaries({"started": JSON_JUNK, "moves": JSON_JUNK}))
    return rec, False


@per_game
@FUZZ
@given(data=st.data())
def test_tampered_json_records_are_refused_cleanly(name, data):
    state = data.draw(positions(name, finished=data.draw(st.booleans())))
    record = json.loads(json.dumps(state.record()))
    rec, must_refuse = data.draw(tampered(record))
    if refused(lambda: from_record(rec), kinds=(ValueError,)):
        return
    assert not must_refuse, rec
    rebuilt = from_record(rec)
    assert from_record(json.loads(json.dumps(rebuilt.record()))) == rebuilt


@st.composite
def mutated_text(draw, line: str):
    """A text record with one mutation (non-ASCII text is always refused)."""
    kind = draw(st.integers(0, 6))
    if kind == 0:  # cut
        return line[:draw(st.integers(0, len(line)))]
    if kind == 1:  # a character inserted, replaced or deleted
        i = draw(st.integers(0, len(line)))
        return line[:i] + draw(st.text(string.printable, min_size=0, max_size=2)) + line[i + 1:]
    if kind == 6:  # a non-ASCII character inserted
        i = draw(st.integers(0, len(line)))
        return line[:i] + draw(st.sampled_from(ODD_SPACES + ["\u212a", "\u0661", "\uff11"])) + line[i:]
    if kind == 2:  # a turn number changed
        numbers = [w for w in line.split() if w.endswith(".") and w[:-1].isdigit()]
        if numbers:
            old = draw(st.sampled_from(numbers))
            return line.replace(old, f"{draw(st.integers(-1, 10**30))}.", 1)
    if kind == 3:  # the result changed
        return line.rsplit(" ", 1)[0] + " " + draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "*", "2-0", ""]))
    if kind == 4:  # an option changed
        head, _, rest = line.partition("]")
        return head + f" {draw(OPTION_KEYS.filter(lambda k: ' ' not in k))}={draw(st.text(max_size=5))}]" + rest
    return line + " " + draw(st.text(max_size=8))


@per_game
@FUZZ
@given(data=st.data())
def test_mutated_text_records_are_refused_cleanly(name, data):
    state = data.draw(positions(name, finished=data.draw(st.booleans())))
    line = data.draw(mutated_text(state.record_text()))
    if refused(lambda: from_record(line), kinds=(ValueError,)):
        return
    assert line.isascii(), line
    rebuilt = from_record(line)
    assert from_record(rebuilt.record_text()) == rebuilt


@per_game
def test_text_records_are_ascii_with_short_turn_numbers(name):
    line = game(name, 0).new_state().record_text()
    for bad in (line.replace("]", "]\u00a0"), line.replace(" ", "\u2003", 1), "\u0661. " + line,
                line.replace("*", "9" * 5000 + ". x *"), line + "\n1. x"):
        with pytest.raises(ValueError) as info:
            from_record(bad)
        check_refusal(info.value)
    assert from_record(line + "\n") == from_record(line)


# --- what each game reads (docs/notation.md, "Move text") ------------------------------------

WEITU = ["c6", "q6", "r7", "d7", "g2", "q8"]  # then e8 can push the ball e or ne
NOTATION = [  # (game, options, moves before, text, the move it names or the refusal)
    ("projective-hex", {"opening": "none"}, [], "hash", "#"),
    ("projective-hex", {"opening": "none"}, [], " HaSh ", "#"),
    ("projective-hex", {"opening": "none"}, [], "j", "J"),
    ("projective-hex", {"opening": "none"}, ["J"], "j", IllegalMove),
    ("projective-hex", {"opening": "none"}, [], "J#", MalformedMove),
    ("projective-hex", {"opening": "none"}, [], "+J", MalformedMove),
    ("projective-hex", {"opening": "none"}, [], "hash!", MalformedMove),
    ("projective-hex", {"opening": "none"}, [], "SWAP", IllegalMove),
    ("projective-hex", {"size": 4}, [], "hash", MalformedMove),
    ("projective-hex", {"size": 4}, [], "A1", "a1"),
    ("lisbon", {}, [], "H8", "h8"),
    ("lisbon", {}, [], "End", IllegalMove),
    ("lisbon", {}, [], "h 8", MalformedMove),
    ("lisbon", {}, [], "+h8", MalformedMove),
    ("weituweiqi", {}, WEITU, "e8", AmbiguousMove),
    ("weituweiqi", {}, WEITU, "e8n", "e8ne"),
    ("weituweiqi", {}, WEITU, "E8NE", "e8ne"),
    ("weituweiqi", {}, WEITU, "e8 ne", MalformedMove),
    ("weituweiqi", {}, WEITU, "e8sw", IllegalMove),
    ("weituweiqi", {}, [], "Block", "block"),
    ("iqishiqi", {}, [], "h1ne", IllegalMove),
    ("iqishiqi", {}, [], "h1 se", MalformedMove),
    ("iqishiqi", {}, [], "z99", MalformedMove),
    ("hex-pushpin", {}, [], "e4", AmbiguousMove),
    ("hex-pushpin", {}, [], " E4   2 ", "e4 2"),
    ("hex-pushpin", {}, [], "e4 2?!", "e4 2"),
    ("hex-pushpin", {}, [], "e4! 2", "e4 2"),
    ("hex-pushpin", {}, [], "e6!-", "e6"),
    ("hex-pushpin", {}, [], "k6 -", "k6"),
    ("hex-pushpin", {}, [], "Pass", "pass"),
    ("hex-pushpin", {}, [], "e4 -", IllegalMove),
    ("hex-pushpin", {}, [], "e4 9", IllegalMove),
    ("hex-pushpin", {}, [], "e4 +2", MalformedMove),
    ("hex-pushpin", {}, [], "e4 0", MalformedMove),
    ("hex-pushpin", {}, [], "e4 2 3", MalformedMove),
    ("hex-pushpin", {}, [], "e4!!? 2", MalformedMove),
    ("hex-pushpin", {}, [], "e4! 2!", MalformedMove),
    ("hex-pushpin", {}, [], "pass -", MalformedMove),
    ("push-and-pull", {}, [], "O5  -2  +2", "o5 -2 2"),
    ("push-and-pull", {}, ["o5"], "-2 +2", "-2 2"),
    ("push-and-pull", {}, [], "++o5", MalformedMove),
    ("push-and-pull", {}, [], "+o5", MalformedMove),
    ("push-and-pull", {}, [], "o5 ++2 2", MalformedMove),
    ("push-and-pull", {}, [], "o5 -02 2", MalformedMove),
    ("push-and-pull", {}, [], "o5 -0 2", MalformedMove),
    ("push-and-pull", {}, [], "o5 -2 2 1", MalformedMove),
    ("push-and-pull", {}, [], "o5!", MalformedMove),
    ("push-and-pull", {}, [], "-2", IllegalMove),
    ("push-and-pull", {}, ["o5"], "k1", IllegalMove),
]


@pytest.mark.parametrize("name,options,before,text,want", NOTATION)
def test_each_game_reads_what_its_notation_says(name, options, before, text, want):
    state = hexarena.load(name, **options).new_state()
    for move in before:
        state.play(move)
    if isinstance(want, str):
        assert state.parse_steps(text) == state.parse_steps(want)
        return
    before = snapshot(state)
    with pytest.raises(want) as info:
        state.play(text)
    assert type(info.value) is want and snapshot(state) == before
    check_refusal(info.value)


def test_the_hash_alias_is_read_everywhere_and_written_as_hash():
    state = from_record("[projective-hex size=3 opening=none] 1. J 2. hash *")
    assert state.moves() == ["J", "#"] and state.record()["moves"] == ["J", "#"]
    assert from_record({"game": "projective-hex", "options": {"opening": "none"}, "moves": ["HASH"]}).moves() == ["#"]
