"""Position identity for every game: ``==`` and ``key()`` by position (transpositions equal, internals
ignored), the position text round trip, and copies with and without history (hexarena.games.position)."""

import pickle
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hexarena
from hexarena import NothingToUndo
from hexarena.games.position import PositionTextError

from tests.conftest import EXTRA_CONFIGS
from tests.games.test_properties import random_game

# One small board per game, for the tests that compare many positions.
SMALL = {"projective-hex": {"size": 2, "opening": "swap"}, "lisbon": {"size": (4, 3)}, "lhexus": {"size": 3},
         "iqishiqi": {"size": 4}, "weituweiqi": {"size": 4}, "hex-pushpin": {"size": 3},
         "push-and-pull": {"size": 5}, "palago": {"tiles": 12}}
# Every game with its defaults (their first plies: big boards) and the extra configurations (whole games).
CONFIGS = [(name, {}) for name in hexarena.GAMES] + [(n, o) for n, ops in EXTRA_CONFIGS.items() for o in ops]
IDS = [f"{n}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for n, o in CONFIGS]
DEFAULT_PLIES = 40  # the defaults' boards are big: the tests look at their first plies
# Games where a turn's placements only add to the board: the same placements in another order, turn by turn,
# make the same position, once the turns before which a piece's colour depends on the turn are over
# (Lhexus's opening stone is White whoever places it).
PLACEMENT_GAMES = {"lisbon": 0, "lhexus": 2, "palago": 0}

few = settings(max_examples=6)


def plies(options):
    """How far a random game of these options is followed: to the end on small boards."""
    return 10**6 if options else DEFAULT_PLIES


def same_future(a, b, rnd, steps=10**6):
    """Play ``a`` and ``b`` on with the same random moves (from their sorted legal moves), ``steps`` of them
    or to the end, and check they stay equal, with the same legal moves, and end alike."""
    for _ in range(steps):
        legal = sorted(a.legal_actions())
        assert legal == sorted(b.legal_actions())
        if not legal:
            break
        move = rnd.choice(legal)
        a.apply(move)
        b.apply(move)
        assert a == b and a.key() == b.key()
    assert (a.is_over(), a.winner(), a.scores()) == (b.is_over(), b.winner(), b.scores())


@pytest.mark.parametrize("name,options", CONFIGS, ids=IDS)
@few
@given(rnd=st.randoms(use_true_random=False))
def test_position_text_round_trips_at_every_ply(name, options, rnd):
    """Read back at every ply, the text gives an equal position with the same key, text and legal moves and
    no history; from a random ply both play on alike, 30 moves or to the same end."""
    game = hexarena.load(name, **options)
    state, limit = game.new_state(), plies(options)
    branch = rnd.randrange(min(limit, 60))
    while True:
        text = state.position_text()
        again = game.from_position_text(text)
        assert again == state and again.key() == state.key() and hash(again) == hash(state)
        assert again.position_text() == text and again.history == []
        assert sorted(again.legal_actions()) == sorted(state.legal_actions())
        assert (again.turn, again.step, again.ply, again.to_move) == (state.turn, state.step, state.ply,
                                                                     state.to_move)
        if state.ply == branch:
            same_future(again, state.copy(), random.Random(rnd.getrandbits(32)), 30)
        if state.is_over() or state.ply >= limit:
            break
        state.apply(rnd.choice(state.legal_actions()))
    with pytest.raises(NothingToUndo):
        game.from_position_text(state.position_text()).undo()


@pytest.mark.parametrize("name,options", CONFIGS, ids=IDS)
@few
@given(rnd=st.randoms(use_true_random=False), cut=st.integers(0, 60))
def test_a_resignation_round_trips_and_undoes(name, options, rnd, cut):
    state = random_game(name, options, rnd, cut)
    if state.is_over():
        return
    before = state.copy()
    state.resign(rnd.choice([0, 1]), on_time=rnd.random() < 0.5)
    again = state.game.from_position_text(state.position_text())
    assert again == state and again.key() == state.key() and again.position_text() == state.position_text()
    assert (again.resigned, again.timed_out, again.winner()) == (state.resigned, state.timed_out, state.winner())
    assert again != before and again.key() != before.key()
    again.undo()
    assert again == before and again.key() == before.key() and not again.is_over()


def replayed(game, actions):
    """The state after ``actions`` from the start and, per move, (turn, mover, has a cell) before it; None
    where a move is not legal."""
    state, steps = game.new_state(), []
    for action in actions:
        if state.is_over() or not state.is_legal(action):
            return None, steps
        steps.append((state.turn, state.to_move, game.move_target(state.array, action) is not None))
        state.apply(action)
    return state, steps


def counters_aside(state):
    """The position text without its turn, step and ply."""
    words = state.position_text().split()
    return words[:2] + words[5:]


@pytest.mark.parametrize("name,options", [(n, o) for n, o in SMALL.items()], ids=list(SMALL))
@settings(max_examples=25)
@given(rnd=st.randoms(use_true_random=False), cut=st.integers(2, 60))
def test_transpositions_have_one_key(name, options, rnd, cut):
    """The same moves with two of one player's swapped (in a turn or between turns): when that replays, the
    two positions are equal exactly when their keys are, and then their texts but for the counters are, and
    they play on alike.  Where the swapped moves are placements of turns now over and every move keeps its
    turn, in games whose turns only add stones or tiles, they are equal, though their arrays may differ
    (union-find, turns of placement)."""
    state = random_game(name, options, rnd, cut)
    _, steps = replayed(state.game, state.history)
    pairs = [(i, j) for i in range(len(steps)) for j in range(i + 1, len(steps)) if steps[i][1] == steps[j][1]]
    if not pairs:
        return
    i, j = rnd.choice(pairs)
    order = state.history
    order[i], order[j] = order[j], order[i]
    other, other_steps = replayed(state.game, order)
    if other is None:
        return
    assert (other == state) == (other.key() == state.key())
    assert other != state or counters_aside(other) == counters_aside(state)
    kept = [(t, p) for t, p, _ in other_steps] == [(t, p) for t, p, _ in steps]
    if name in PLACEMENT_GAMES and kept and steps[i][2] and steps[j][2] and PLACEMENT_GAMES[name] < steps[i][0] \
            and steps[j][0] < state.turn:
        assert other == state and hash(other) == hash(state) and len({other, state}) == 1
    if other == state:
        same_future(other, state.copy(), random.Random(rnd.getrandbits(32)))


@pytest.mark.parametrize("name,options", [(n, o) for n, o in SMALL.items()], ids=list(SMALL))
@few
@given(rnd=st.randoms(use_true_random=False))
def test_keys_are_equal_exactly_for_equal_positions(name, options, rnd):
    """Over every pair of positions of a few short random games on a small board (the early ones meet
    often), equal keys exactly for equal positions, and then equal texts but for the counters."""
    seen = []
    for _ in range(4):
        state = hexarena.load(name, **options).new_state()
        for _ in range(rnd.randrange(2, 9)):
            if state.is_over():
                break
            state.apply(rnd.choice(state.legal_actions()))
            seen.append(state.copy(history=False))
    texts = [counters_aside(s) for s in seen]
    for i, a in enumerate(seen):
        for j, b in enumerate(seen):
            assert (a == b) == (a.key() == b.key()) and (a != b or texts[i] == texts[j])


def play_on(state, rnd, moves):
    for _ in range(moves):
        if state.is_over():
            break
        state.apply(rnd.choice(state.legal_actions()))


def positions_back(state):
    """This position and every one before it, undone on a full copy."""
    probe, out = state.copy(), [state.array.copy()]
    while probe.history:
        probe.undo()
        out.append(probe.array.copy())
    return out


@pytest.mark.parametrize("name,options", CONFIGS, ids=IDS)
@few
@given(rnd=st.randoms(use_true_random=False), cut=st.integers(0, 80))
def test_a_copy_without_history_is_an_equal_independent_position(name, options, rnd, cut):
    state = random_game(name, options, rnd, min(cut, plies(options)))
    text, seen = state.position_text(), [state.array.copy(), state.history]
    copy = state.copy(history=False)
    assert copy == state and copy.key() == state.key() and copy.position_text() == text
    assert copy.history == [] and copy.moves() == [] and copy.meta["started"] == state.meta["started"]
    with pytest.raises(NothingToUndo):
        copy.undo()
    play_on(copy, rnd, 30)
    assert np.array_equal(state.array, seen[0]) and state.history == seen[1] and state.position_text() == text
    copy = state.copy(history=False)
    if state.history:
        state.undo()
    play_on(state, rnd, 30)
    assert copy.position_text() == text and np.array_equal(copy.array, seen[0])


@pytest.mark.parametrize("name,options", CONFIGS, ids=IDS)
@few
@given(rnd=st.randoms(use_true_random=False), cut=st.integers(0, 80), back=st.integers(0, 10))
def test_full_copies_share_their_past_and_stay_independent(name, options, rnd, cut, back):
    """A full copy shares the positions kept for undo; undoing and playing on either side leaves the
    other's present and every position of its past as they were."""
    state = random_game(name, options, rnd, min(cut, plies(options)))
    past, moves = positions_back(state), state.moves()
    for changed in ("copy", "original"):
        copy = state.copy()
        first, second = (copy, state) if changed == "copy" else (state, copy)
        for _ in range(min(back, len(first.history))):
            first.undo()
        play_on(first, rnd, 20)
        assert second.moves() == moves and len(positions_back(second)) == len(past)
        assert all(np.array_equal(a, b) for a, b in zip(positions_back(second), past, strict=True))


def test_keys_are_fixed_numbers():
    """Keys depend on the fixed seed only: the same in every process and on every machine."""
    lisbon = hexarena.load("lisbon", size=(3, 3)).new_state()
    for move in "c3 b2 end d4".split():
        lisbon.play(move)
    assert hexarena.load("lisbon").new_state().key() == 0x440933cf75cca202
    assert lisbon.key() == 0x5e7aeb36e8c901a3
    assert hexarena.load("palago", tiles=8).new_state().key() == 0xbbd222acc5ea35a4
    assert hexarena.load("push-and-pull").new_state().key() == 0x89758bb538aeb58b


def test_the_same_stones_or_tiles_in_another_order_are_one_position():
    game = hexarena.load("lisbon", size=(4, 3))
    a, b = game.new_state(), game.new_state()
    for move in "c3 b2 e5 a1 b4".split():  # black c3; white b2, e5; black a1, b4
        a.play(move)
    for move in "a1 e5 b2 b4 c3".split():
        b.play(move)
    assert a == b and a.key() == b.key() and len({a, b}) == 1 and not np.array_equal(a.array, b.array)
    c = b.copy()
    c.undo()
    assert c != b and c.key() != b.key() and c.position_text() != b.position_text()
    game = hexarena.load("palago", tiles=12)
    a, b = game.new_state(), game.new_state()
    for move in ("2,0:1", "1,1:0", "-1,1:2", "3,1:1", "4,0:2"):  # light; dark twice; light twice
        a.play(move)
    for move in ("2,0:1", "-1,1:2", "1,1:0", "4,0:2", "3,1:1"):
        b.play(move)
    assert a == b and a.key() == b.key() and not np.array_equal(a.array, b.array)
    assert a.position_text() == b.position_text() == "-1,0:abc/cab 2 4 0 5"


def test_games_are_equal_by_name_and_options():
    assert hexarena.load("lisbon") == hexarena.load("lisbon") and hash(hexarena.load("lisbon")) == \
        hash(hexarena.load("lisbon", size=(9, 8)))
    assert hexarena.load("lisbon") != hexarena.load("lisbon", sequence="12*") != hexarena.load("lhexus")
    assert len({hexarena.load("palago"), hexarena.load("lambo"), hexarena.load("palago", tiles=8)}) == 2
    game = hexarena.load("hex-pushpin")
    assert game.new_state().key() and "positions" in game.__dict__
    again = pickle.loads(pickle.dumps(game))
    assert again == game and "positions" not in again.__dict__ and again.new_state() == game.new_state()
    assert game.new_state() != hexarena.load("hex-pushpin", size=3).new_state()


BAD_TEXTS = [
    ("lisbon", {"size": (3, 3)}, "3/4/5/4/3 1 1 0", "BOARD MOVER TURN STEP PLY"),
    ("lisbon", {"size": (3, 3)}, "3/4/5/4 1 1 0 0", "4 rows .* this board has 5"),
    ("lisbon", {"size": (3, 3)}, "3/4/5/4/2 1 1 0 0", "row 5 '2' has 2 cells; row 5 of this board has 3"),
    ("lisbon", {"size": (3, 3)}, "3/4/5/4/2Z 1 1 0 0", "'Z' is not a cell: a cell is one of X, O, x, o"),
    ("lisbon", {"size": (3, 3)}, "3/4/5/4/03 1 1 0 0", "no run of empty cells"),
    ("lisbon", {"size": (3, 3)}, "3/4/5/4/3 3 1 0 0", "'3' is no mover: it is 1 or 2"),
    ("lisbon", {"size": (3, 3)}, "3/4/5/4/3 1 0 0 0", "'0' is no turn: the turn is an integer from 1"),
    ("lisbon", {"size": (3, 3)}, "3/4/5/4/3 1 1 0 0 colour=x", "'colour=x' is no field of lisbon.*win, resigned, time"),
    ("lisbon", {"size": (3, 3)}, "3/4/5/4/3 1 1 0 0 win=c3 win=c3", "given twice"),
    ("lisbon", {"size": (3, 3)}, "3/4/2x2/4/3 1 1 0 1", "step 0 with 1 stones of this turn"),
    ("lisbon", {"size": (3, 3)}, "3/4/2xx1/4/3 1 5 2 9", "joins a group that holds another stone of this turn"),
    ("lisbon", {"size": (3, 3)}, "3/4/2o2/4/3 1 2 1 1", "are the mover's, player 1's"),
    ("lisbon", {"size": (3, 3)}, "3/4/XXXXX/4/3 1 9 0 9", "a group has won already"),
    ("lisbon", {"size": (3, 3)}, "3/4/5/4/3 1-0 1 0 0 win=zz9", "win is a cell of this board"),
    ("lisbon", {"size": (3, 3)}, "3/4/5/4/3 1-0 1 0 0 resigned=1", "not a result"),
    ("lisbon", {"size": (3, 3)}, "3/4/5/4/3 1 1 0 0 resigned=1 time=2", "not both"),
    ("lhexus", {"size": 3}, "3/4/5/4/3 2 1 0 0", "turn 1 of Lhexus is player 1's White stone"),
    ("lhexus", {"size": 3}, "3/4/2O2/4/3 1 3 0 2", "first=black or first=white"),
    ("lhexus", {"size": 3}, "3/4/2Ox1/4/3 1 3 1 3 first=black", "no growth stone"),
    ("projective-hex", {"size": 2, "opening": "none"}, "2/3/O3/3 1 1 0 0", "black has as many stones"),
    ("projective-hex", {"size": 2, "opening": "none"}, "2/3/X3/3 1 2 0 1", "player 2 to move, turn 2, step 0, ply 1"),
    ("iqishiqi", {"size": 3}, "3/4/5/4/3 1 1 0 0", "0 balls"),
    ("iqishiqi", {"size": 3}, "O2/4/5/4/3 1 1 0 0", "over exactly when the ball is on the edge"),
    ("weituweiqi", {"size": 3}, "3/4/2O2/4/3 1 1 0 0 blocker=3", "blocker is a player, 1 or 2"),
    ("hex-pushpin", {"size": 3}, "3/4/5/4/3 1 1 0 0", "0 pins"),
    ("hex-pushpin", {"size": 3}, "3/4/2#2/4/3 1 2 0 0", "every move is a turn"),
    ("hex-pushpin", {"size": 3}, "3/4/2#2/4/3 1 3 0 2 passes=2", "over exactly after two passes"),
    ("push-and-pull", {"size": 5}, "5/6/7/8/9/8/7/6/5 1 1 0 0", "0 markers A"),
    ("palago", {"tiles": 8}, "0,0:b 1 1 0 0", "the start tile lies on 0,0"),
    ("palago", {"tiles": 8}, "0,0:a3a 1 2 0 1", "the tile on 8,0 touches no other"),
    ("palago", {"tiles": 8}, "0,0:a13a 1 2 0 1", "beyond the board's reach"),
    ("palago", {"tiles": 8}, "zz 1 1 0 0", "no Palago board"),
    ("palago", {"tiles": 8}, "0,0:ab 1 2 0 1", "the light player moving in odd turns"),
]


@pytest.mark.parametrize("name,options,text,match", BAD_TEXTS)
def test_a_bad_position_text_says_what_is_wrong(name, options, text, match):
    with pytest.raises(PositionTextError, match=match):
        hexarena.load(name, **options).from_position_text(text)


DOC_EXAMPLES = [  # docs/notation.md, "Position text": each game's example, from its moves
    ("projective-hex", {}, ["A", "B", "C", "white", "D"], "XOX/O3/5/6/5/4 1 4 0 5 first=black"),
    ("lisbon", {"size": (3, 3)}, ["c3", "b2", "end", "d4"], "3/1O2/2X2/2x1/3 1 3 1 4"),
    ("lhexus", {"size": 3}, ["c3", "decline", "b2", "c4", "end", "b3"], "3/1Xx1/2OO1/4/3 2 5 1 6 first=white"),
    ("iqishiqi", {"size": 4}, ["c4"], "4/5/6/1x2O2/6/5/4 2 2 0 1"),
    ("weituweiqi", {"size": 4}, ["c4", "block", "k2"], "4/4x/6/1x5/3O2/5/4 2 4 0 3 blocker=2"),
    ("hex-pushpin", {}, ["e4 2", "l5 2", "pass"], "4/3#1/6/2o4/5x/5/4 2 4 0 3 passes=1"),
    ("push-and-pull", {}, ["o5"], "7/8/9/10/2A3o4/12/13/12/8B2/10/9/8/7 1 1 1 1 phase=own stone=o5"),
    ("palago", {"tiles": 8}, ["2,0:1", "1,1:0"], "0,0:ab/A 2 2 1 2"),
]


@pytest.mark.parametrize("name,options,moves,text", DOC_EXAMPLES, ids=[e[0] for e in DOC_EXAMPLES])
def test_the_documented_examples(name, options, moves, text):
    state = hexarena.load(name, **options).new_state()
    for move in moves:
        state.play(move)
    assert state.position_text() == text and state.game.from_position_text(text) == state
    assert f"`{text}`" in (Path(__file__).parents[2] / "docs" / "notation.md").read_text()
