"""hexarena.interop.vector_env: the Gymnasium VectorEnv (self-play) passes
Gymnasium's checks that apply to a vector environment (gymnasium 1.x has no
vector-env checker; its single-env step checks sample actions with no mask,
most of them illegal here) and keeps the rest of the contract as tested
directly; the PettingZoo-style batched environment plays each game's player
to move."""

from __future__ import annotations

import importlib
import sys

import numpy as np
import pytest
from gymnasium.utils import env_checker, passive_env_checker
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from hexarena.games.base import IllegalMove, State
from hexarena.interop.vector_env import BatchedParallelEnv, SelfPlayVectorEnv
from hexarena.observe import observation

SMALL = {"size": 2, "opening": "none"}  # projective-hex: 12 cells, games of a few moves


def test_gymnasiums_checks_pass():
    env = SelfPlayVectorEnv("projective-hex", num_envs=3, **SMALL)
    passive_env_checker.check_observation_space(env.observation_space)
    passive_env_checker.check_action_space(env.action_space)
    env_checker.check_reset_return_type(env)
    env_checker.check_reset_seed_determinism(env)
    env_checker.check_reset_options(env)
    env_checker.check_reset_return_info_deprecation(env)
    env_checker.check_seed_deprecation(env)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP


def test_step_contract_and_fresh_data():
    env = SelfPlayVectorEnv("lisbon", num_envs=4, size=(3, 3))
    obs, info = env.reset(seed=2)
    seen = [obs, info["action_mask"]]
    for _ in range(6):
        obs, rewards, terminated, truncated, info = env.step(env.random_actions())
        assert obs in env.observation_space and obs.shape == (4, *env.single_observation_space.shape)
        assert rewards.shape == terminated.shape == truncated.shape == (4,)
        assert rewards.dtype == np.float32 and terminated.dtype == truncated.dtype == np.bool_ and not truncated.any()
        assert info["action_mask"].shape == (4, env.single_action_space.n) and info["rewards"].shape == (4, 2)
        assert np.array_equal(info["action_mask"], env.action_masks())
        for i in range(4):
            state = env.games.state(i)
            assert info["to_move"][i] == state.to_move and np.array_equal(obs[i], observation(state))
        assert not any(np.shares_memory(obs, old) or np.shares_memory(info["action_mask"], old) for old in seen)
        seen += [obs, info["action_mask"]]


def run(env: SelfPlayVectorEnv, seed: int, steps: int) -> list:
    out = [env.reset(seed=seed)]
    out += [env.step(env.random_actions()) for _ in range(steps)]
    return out


def test_a_seed_repeats_the_episode():
    first = run(SelfPlayVectorEnv("hex-pushpin", num_envs=3, size=3), 4, 30)
    again = run(SelfPlayVectorEnv("hex-pushpin", num_envs=3, size=3), 4, 30)
    assert env_checker.data_equivalence(first, again, exact=True)


def test_same_step_autoreset_reports_the_ending():
    env = SelfPlayVectorEnv("projective-hex", num_envs=4, **SMALL)
    stats = RecordEpisodeStatistics(env)
    stats.reset(seed=0)
    lengths = np.zeros(4, dtype=int)
    ended = 0
    while ended < 6:
        movers = env.games.to_move
        obs, rewards, terminated, _, info = stats.step(env.random_actions())
        lengths += 1
        if not terminated.any():
            assert "final_obs" not in info and not rewards.any()
            continue
        assert np.array_equal(info["_final_obs"], terminated)
        for i in np.flatnonzero(terminated):
            final = State(env.games.game, env.games.final_states[i].copy())
            assert np.array_equal(info["final_obs"][i], observation(final, int(movers[i])))
            assert rewards[i] == info["rewards"][i, movers[i]] == (1.0 if final.winner() == movers[i] else -1.0)
            assert info["final_info"]["winner"][i] == final.winner() and info["episode"]["l"][i] == lengths[i]
            assert env.games.state(i).ply == 0 and np.array_equal(obs[i], observation(env.games.state(i)))
        assert all(info["final_obs"][i] is None for i in np.flatnonzero(~terminated))
        ended += int(terminated.sum())
        lengths[terminated] = 0


def test_without_autoreset_an_ended_game_waits_for_a_masked_reset():
    env = SelfPlayVectorEnv("projective-hex", num_envs=2, autoreset_mode=AutoresetMode.DISABLED, **SMALL)
    env.reset(seed=1)
    terminated = np.zeros(2, dtype=bool)
    while not terminated.any():
        actions = env.random_actions()
        _, _, terminated, _, info = env.step(np.where(actions < 0, 0, actions))
    assert "final_obs" not in info
    with pytest.raises(IllegalMove, match="the game is over"):
        env.step(np.zeros(2, dtype=int))
    obs, info = env.reset(options={"reset_mask": terminated})
    assert all(env.games.state(int(i)).ply == 0 for i in np.flatnonzero(terminated))
    with pytest.raises(ValueError, match="unknown reset option 'mask'"):
        env.reset(options={"mask": terminated})
    with pytest.raises(ValueError, match="autoreset_mode .* is not supported"):
        SelfPlayVectorEnv("projective-hex", num_envs=2, autoreset_mode=AutoresetMode.NEXT_STEP, **SMALL)


def test_batched_parallel_env_plays_each_games_player_to_move():
    env = BatchedParallelEnv("projective-hex", num_envs=3, **SMALL)
    observations, infos = env.reset(seed=0)
    assert set(observations) == set(infos) == {"player_0", "player_1"}
    for agent, p in (("player_0", 0), ("player_1", 1)):
        assert observations[agent] in env.observation_space(agent)
        assert np.array_equal(observations[agent]["observation"][0], observation(env.games.state(0), p))
    assert np.array_equal(observations["player_0"]["action_mask"] > 0, env.games.legal_mask())
    assert not observations["player_1"]["action_mask"].any(), "player_1 is not to move at the start"
    ended = 0
    while ended < 3:
        to_move, picked = env.games.to_move, env.games.random_actions()
        actions = {"player_0": np.where(to_move == 0, picked, -1), "player_1": np.where(to_move == 1, picked, -1)}
        observations, rewards, terminations, truncations, infos = env.step(actions)
        done = terminations["player_0"]
        assert np.array_equal(done, terminations["player_1"]) and not truncations["player_1"].any()
        assert np.array_equal(rewards["player_0"], -rewards["player_1"])
        for i in np.flatnonzero(done):
            assert rewards[f"player_{to_move[i]}"][i] == 1.0, "in Projective Hex the mover who ends the game wins"
            assert infos["player_1"]["final_obs"][i].shape == env.games.observation_shape
        masks = [observations[a]["action_mask"] for a in ("player_0", "player_1")]
        assert ((masks[0] > 0).any(axis=1) == (env.games.to_move == 0)).all() and not (masks[0] & masks[1]).any()
        ended += int(done.sum())
    with pytest.raises(ValueError, match="actions are a dict of player_0, player_1"):
        env.step({"player_0": np.zeros(3, dtype=int)})
    with pytest.raises(ValueError, match="unknown agent 'player_2'"):
        env.action_space("player_2")


def test_without_gymnasium_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    monkeypatch.delitem(sys.modules, "hexarena.interop.vector_env")
    with pytest.raises(ImportError, match=r"pip install 'hexarena\[interop\]'"):
        importlib.import_module("hexarena.interop.vector_env")
