"""Property tests over random legal games, for every game."""

import json
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import hexarena
from hexarena import IllegalMove
from hexarena.games.base import RESIGN
from hexarena.record_writer import DEFAULT_PLAYERS, used_times
from hexarena.records import MAX_PLAYER_NAME, MAX_RATING

from tests.conftest import EXTRA_CONFIGS

CONFIGS = [(name, {}) for name in hexarena.GAMES] + [(n, o) for n, ops in EXTRA_CONFIGS.items() for o in ops]
IDS = [f"{n}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for n, o in CONFIGS]


def random_game(name, options, rng, max_moves=None):
    """A state after random legal moves (maybe to the end)."""
    state = hexarena.load(name, **options).new_state()
    limit = max_moves if max_moves is not None else 10**6
    while not state.is_over() and len(state.history) < limit:
        state.apply(rng.choice(state.legal_actions()))
    return state


def snapshot(state):
    return (state.array.copy(), state.history, state.legal_actions(), state.to_move, state.turn, state.step)


def same(a, b):
    return np.array_equal(a[0], b[0]) and a[1:] == b[1:]


EVERY_ACTION = 2000  # action spaces up to this size are tried whole; larger ones (Palago's open plane) sampled


def actions_to_try(num_actions, legal, rnd):
    """Every action id, or for a large action space every legal one and a random sample of the rest."""
    if num_actions <= EVERY_ACTION:
        return range(num_actions)
    sample = random.Random(rnd.getrandbits(32))  # one draw from hypothesis, not thousands
    return sorted(set(legal) | {sample.randrange(num_actions) for _ in range(EVERY_ACTION // 8)})


pytestmark = pytest.mark.parametrize("name,options", CONFIGS, ids=IDS)


@given(rnd=st.randoms(use_true_random=False), cut=st.integers(0, 400))
def test_copy_is_independent(name, options, rnd, cut):
    state = random_game(name, options, rnd, cut)
    before = snapshot(state)
    other = state.copy()
    while not other.is_over():
        other.apply(rnd.choice(other.legal_actions()))
    if other.history:
        other.undo()
    assert same(snapshot(state), before)


@given(rnd=st.randoms(use_true_random=False))
def test_undo_restores_every_position(name, options, rnd):
    state = hexarena.load(name, **options).new_state()
    seen = [snapshot(state)]
    while not state.is_over():
        state.apply(rnd.choice(state.legal_actions()))
        seen.append(snapshot(state))
    while seen[:-1]:
        seen.pop()
        state.undo()
        assert same(snapshot(state), seen[-1])
    with pytest.raises(IllegalMove):
        state.undo()


@given(rnd=st.randoms(use_true_random=False), cut=st.integers(0, 400))
def test_records_round_trip(name, options, rnd, cut):
    state = random_game(name, options, rnd, cut)
    record = json.loads(json.dumps(state.record()))
    again = hexarena.from_record(record)
    assert again == state and again.record() == record
    text = state.record_text()
    assert hexarena.from_record(text) == state
    assert hexarena.from_record(text).record_text() == text


NAMES = st.text(st.characters(blacklist_categories=("C", "Z")) | st.just(" "), min_size=1, max_size=MAX_PLAYER_NAME)
CLOCKS = st.none() | st.builds(lambda d: {"days": d}, st.integers(1, 14)) | st.builds(
    lambda i, n: {"initial": i, "increment": n}, st.integers(15, 10800), st.integers(0, 180))
SEAT = st.none() | st.fixed_dictionaries({"before": st.integers(0, MAX_RATING),
                                          "after": st.none() | st.integers(0, MAX_RATING)})
RATINGS = st.none() | st.lists(SEAT, min_size=2, max_size=2).filter(any)


@given(rnd=st.randoms(use_true_random=False), cut=st.integers(0, 60), players=st.lists(NAMES, min_size=2, max_size=2),
       clock=CLOCKS, ratings=RATINGS, keep=st.booleans())
def test_players_ratings_clock_and_time_used_round_trip(name, options, rnd, cut, players, clock, ratings, keep):
    state = random_game(name, options, rnd, cut)
    written = len(state.written_moves())
    used = [rnd.randrange(10**7) / 1000 for _ in range(written)] if keep and clock else None
    state.meta.update(players=players, clock=clock, ratings=ratings, used=used)
    record = json.loads(json.dumps(state.record()))
    again = hexarena.from_record(record)
    assert again.record() == record and record.get("clock") == clock and record.get("ratings") == ratings
    assert {k: again.meta[k] for k in ("players", "clock", "ratings")} == \
        {"players": players, "clock": clock, "ratings": ratings}
    assert again.meta["used"] == (used_times(state) if clock else None) and (used is None or used == used_times(state))
    text = state.record_text()
    again = hexarena.from_record(text)
    assert again.record_text() == text and (again.meta["clock"], again.meta["ratings"]) == (clock, ratings)
    assert again.meta["players"] == (players if clock or ratings else list(DEFAULT_PLAYERS))
    assert again.meta["used"] == (used_times(state) if clock and written else None)


@given(rnd=st.randoms(use_true_random=False), cut=st.integers(0, 400), who=st.sampled_from([None, 0, 1]))
def test_a_resignation_ends_the_game_round_trips_and_undoes(name, options, rnd, cut, who):
    state = random_game(name, options, rnd, cut)
    if state.is_over():
        with pytest.raises(IllegalMove, match="the game is over"):
            state.resign()
        return
    before = snapshot(state)
    loser = state.to_move if who is None else who
    state.resign(who)
    assert state.is_over() and state.winner() == 1 - loser and state.resigned == loser
    assert state.legal_actions() == [] and "resigns" in state.game.status(state) and state.svg()
    record = json.loads(json.dumps(state.record()))
    assert record["result"]["resigned"] == loser
    assert hexarena.from_record(record).record() == record and hexarena.from_record(record) == state
    text = state.record_text()
    assert f"resign {'1-0' if loser else '0-1'}" in text and hexarena.from_record(text).record_text() == text
    copy = state.copy()
    assert state.undo() == RESIGN and same(snapshot(state), before) and state.resigned is None
    assert copy.resigned == loser and copy.is_over()


@given(rnd=st.randoms(use_true_random=False), cut=st.integers(0, 400))
def test_legal_moves_are_exactly_the_moves_that_apply(name, options, rnd, cut):
    state = random_game(name, options, rnd, cut)
    before = snapshot(state)
    legal = set(state.legal_actions())
    names = state.legal_moves()
    assert len(set(names)) == len(names), "two legal moves share a name"
    for action in actions_to_try(state.game.num_actions, legal, rnd):
        trial = state.copy()
        if action in legal:
            trial.apply(action)
            assert trial.history[-1] == action
        else:
            with pytest.raises(IllegalMove):
                trial.apply(action)
            assert same(snapshot(trial), before)
    for action, move in zip(state.legal_actions(), names, strict=True):
        assert state.parse(move) == action
    for junk in ("", "zz99", "pass pass", "-1", "swap!"):
        if junk not in names:
            with pytest.raises(IllegalMove):
                state.play(junk)
    assert same(snapshot(state), before)


@given(seed=st.integers(0, 2**31 - 1))
def test_playout_kernel_ends_the_game(name, options, seed):
    state = hexarena.load(name, **options).new_state()
    winner = state.playout(seed)
    assert winner in (0, 1, None)
    assert state.history == []


def test_finished_game_has_no_moves(name, options):
    import random

    state = random_game(name, options, random.Random(5))
    assert state.is_over() and state.to_move is None
    assert state.legal_actions() == [] and state.legal_moves() == []
    with pytest.raises(IllegalMove):
        state.play(state.game.action_name(state.array, 0))


@given(rnd=st.randoms(use_true_random=False), cut=st.integers(0, 400))
def test_every_legal_move_has_a_board_cell_or_is_a_word(name, options, rnd, cut):
    """move_target (the web client's click-to-move): a cell of the board, or None for a
    move with no cell, whose name then is a word (end, pass, swap, black, white, block)."""
    state = random_game(name, options, rnd, cut)
    game = state.game
    for action, move in zip(state.legal_actions(), state.legal_moves(), strict=True):
        cell = game.move_target(state.array, action)
        if cell is None:
            assert move.isalpha() and move.lower() == move and game.topology.find(move) is None
        else:
            assert 0 <= cell < game.topology.ncells and (cell == action or game.topology.name(cell) in move
                                                            or game.name == "push-and-pull")
