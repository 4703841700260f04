"""hexarena.vector: N games stepped together agree with N States of the
per-game API (legal masks, steps, observations, endings, same-step
autoreset), are reproducible from a seed, and refuse bad input naming the
env and the action, changing nothing."""

from __future__ import annotations

import random

import numpy as np
import pytest

import hexarena
from hexarena.games.base import IllegalMove
from hexarena.observe import grid_index, observation
from hexarena.vector import VectorGame

from tests.planes_reference import reference_planes
from tests.small_games import config_id, smallest_configs

CONFIGS = smallest_configs()
ENVS = 3


def check_position(games: VectorGame, i: int, state: hexarena.State, masks: np.ndarray, obs: np.ndarray) -> None:
    """Env ``i`` of ``games`` is ``state``: array, player to move, legal mask and observation."""
    assert np.array_equal(games.states[i], state.array)
    assert games.to_move[i] == state.to_move
    assert sorted(np.flatnonzero(masks[i]).tolist()) == sorted(state.legal_actions())
    assert np.array_equal(obs[i], observation(state))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_steps_agree_with_the_per_game_api(config):
    """Random games side by side: every step's masks, observations, movers,
    winners and rewards, and each ended game's final position, autoreset."""
    name, options = config
    games = VectorGame(name, ENVS, seed=1, **options)
    states = [games.game.new_state() for _ in range(ENVS)]
    rng, ended = random.Random(3), 0
    for _ in range(400 if name != "palago" else 120):
        masks, obs = games.legal_mask(), games.observe()
        for i, state in enumerate(states):
            check_position(games, i, state, masks, obs)
        actions = [rng.choice(state.legal_actions()) for state in states]
        result = games.step(actions)
        for i, (state, action) in enumerate(zip(states, actions, strict=True)):
            assert result.movers[i] == state.to_move
            state.apply(action)
            assert result.terminated[i] == state.is_over()
            assert result.rewards[i].tolist() == (state.returns() if state.is_over() else [0.0, 0.0])
            if state.is_over():
                ended += 1
                assert result.winners[i] == (2 if state.winner() is None else state.winner())
                assert np.array_equal(games.final_states[i], state.array)
                final = games.observe_positions(games.final_states[i:i + 1], [1])
                assert np.array_equal(final[0], observation(state, 1))
                states[i] = games.game.new_state()
            else:
                assert result.winners[i] == -1
    assert ended >= 1, "no game ended: autoreset went untested"


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_observations_hold_the_planes_of_the_numpy_reference(config):
    """Both players' views at random positions, against the planes as the
    facades computed them in numpy (tests/planes_reference.py)."""
    name, options = config
    games = VectorGame(name, 4, seed=7, **options)
    rows, cols, _ = grid_index(games.game.topology)
    for _ in range(15):
        games.step(games.random_actions())
        for player in (0, 1):
            obs = games.observe(player)
            for i in range(games.num_envs):
                expected = reference_planes(games.game, games.states[i].copy(), player)
                assert np.array_equal(obs[i, :-1, rows, cols].T, expected)


def test_observe_writes_every_point_of_a_given_array():
    games = VectorGame("lisbon", 2, seed=0, size=(3, 3))
    games.step(games.random_actions())
    out = np.full((2, *games.observation_shape), 7.0, dtype=np.float32)
    assert games.observe(out=out) is out
    assert np.array_equal(out, games.observe())


def test_same_seed_same_games():
    def run(seed: int) -> tuple[np.ndarray, np.ndarray, dict[str, int]]:
        games = VectorGame("palago", 4, seed=seed, tiles=8)
        for _ in range(30):
            games.step(games.random_actions())
        tally = games.self_play(20)
        return games.states.copy(), games.observe(), tally

    first, again, other = run(5), run(5), run(6)
    assert all(np.array_equal(a, b) for a, b in zip(first[:2], again[:2], strict=True)) and first[2] == again[2]
    assert not np.array_equal(first[0], other[0])


def test_the_same_actions_give_the_same_games_whatever_the_seed():
    a, b = VectorGame("lhexus", 3, seed=1, size=3), VectorGame("lhexus", 3, seed=2, size=3)
    for _ in range(40):
        actions = a.random_actions()
        ra, rb = a.step(actions), b.step(actions)
        assert np.array_equal(a.states, b.states) and np.array_equal(ra.rewards, rb.rewards)


def test_self_play_counts_and_observes():
    games = VectorGame("projective-hex", 8, seed=0, size=2, opening="none")
    out = np.zeros((8, *games.observation_shape), dtype=np.float32)
    tally = games.self_play(50, out=out)
    assert tally["positions"] == 400 and tally["wins_0"] + tally["wins_1"] + tally["draws"] > 0
    assert np.array_equal(out, games.observe()), "out holds the last round's positions, seen by the player to move"


def test_reset_all_or_some():
    games = VectorGame("hex-pushpin", 3, seed=0, size=3)
    games.step(games.random_actions())
    start = games.game.initial_array()
    games.reset(np.array([True, False, True]))
    assert np.array_equal(games.states[0], start) and not np.array_equal(games.states[1], start)
    games.reset()
    assert (games.states == start).all()
    with pytest.raises(ValueError, match=r"bool\[3\]"):
        games.reset([1, 0, 1])


def unchanged_after(games: VectorGame, actions, error, match: str) -> None:
    before = games.states.copy()
    with pytest.raises(error, match=match):
        games.step(actions)
    assert np.array_equal(games.states, before), "a refused step changed a game"


def test_bad_actions_name_the_env_and_change_nothing():
    games = VectorGame("projective-hex", 3, seed=0, size=2, opening="none")
    games.step([0, 1, 2])
    unchanged_after(games, [3, 4], ValueError, r"3 actions, got shape \(2,\)")
    unchanged_after(games, [3.0, 4.0, 5.0], ValueError, "integer action ids")
    unchanged_after(games, [3, 99, 5], ValueError, "env 1: action 99 is out of range: action ids are 0 to 14")
    unchanged_after(games, [3, 4, 2], IllegalMove, r"env 2: action 2 is not legal there \(player 1 to move, ply 1\)")


def test_an_ended_game_without_autoreset_refuses_moves():
    games = VectorGame("projective-hex", 2, seed=0, autoreset=False, size=2, opening="none")
    while not games.states[0, hexarena.games.base.WINNER] >= 0:
        games.step(games.random_actions())
    assert games.random_actions()[0] == -1 and not games.legal_mask()[0].any()
    first = int(np.flatnonzero(games.states[:, hexarena.games.base.WINNER] >= 0)[0])
    unchanged_after(games, np.zeros(2, dtype=int), IllegalMove, f"env {first}: action 0: the game is over")
    with pytest.raises(ValueError, match="reset it before self-play"):
        games.self_play(1)


def test_bad_arguments():
    with pytest.raises(ValueError, match="n .* must be an integer >= 1"):
        VectorGame("lisbon", 0)
    with pytest.raises(ValueError, match="options go with a game's name"):
        VectorGame(hexarena.load("lisbon"), 2, size=(3, 3))
    games = VectorGame("lisbon", 2, size=(3, 3))
    with pytest.raises(ValueError, match="players are 0 or 1"):
        games.observe(2)
    with pytest.raises(ValueError, match="out must be a writable C-contiguous float32"):
        games.observe(out=np.zeros((2, 1), dtype=np.float32))
    with pytest.raises(IndexError, match="env 2 is not one of 0 to 1"):
        games.state(2)
