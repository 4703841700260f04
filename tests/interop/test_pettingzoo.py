"""The PettingZoo AEC environment of every game, checked by PettingZoo's tests."""

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import hexarena
from hexarena import IllegalMove
from hexarena.interop.pettingzoo import AGENTS, env, raw_env
from hexarena.observe import edges, observation

from tests.small_games import config_id, smallest_configs

SMALL = smallest_configs()
# What api_test says of every environment whose observation is a dict holding
# an action mask (PettingZoo's own board games are exempted by name).
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def api_warnings(make, cycles: int) -> set[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make(), num_cycles=cycles)
    return {str(w.message) for w in caught}


@pytest.mark.parametrize("config", SMALL, ids=config_id)
@pytest.mark.parametrize("obs_form", ["grid", "graph"])
def test_pettingzoo_api_test(config, obs_form):
    name, options = config
    said = api_warnings(lambda: env(name, obs_form=obs_form, render_mode="ansi", **options), cycles=60)
    assert said <= DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize("config", SMALL, ids=config_id)
def test_pettingzoo_seed_test(config):
    name, options = config
    seed_test(lambda: env(name, random_opening=4, **options), num_cycles=20)


@pytest.mark.parametrize("config", SMALL, ids=config_id)
def test_pettingzoo_render_test(config, capsys):
    name, options = config
    render_test(lambda render_mode: env(name, render_mode=render_mode, **options))
    assert str(hexarena.load(name, **options).new_state()) in capsys.readouterr().out, "human mode prints the board"


def test_seed_decides_the_random_opening():
    def opening(seed):
        e = raw_env("projective-hex", size=3, opening="none", random_opening=5)
        e.reset(seed=seed)
        return e.state.history

    assert opening(3) == opening(3)
    assert len({tuple(opening(s)) for s in range(5)}) > 1
    assert all(len(opening(s)) == 5 for s in range(3))
    e = raw_env("projective-hex", size=3, opening="none", random_opening=5)
    e.reset(seed=3)
    e.reset()  # no seed: the generator goes on
    assert e.state.history != opening(3)
    plain = raw_env("projective-hex", size=3)
    plain.reset(seed=99)
    assert plain.state.history == [], "no random opening by default: the seed changes nothing"


def test_random_opening_never_ends_the_game():
    e = raw_env("projective-hex", size=2, opening="none", random_opening=100)
    for seed in range(5):
        e.reset(seed=seed)
        assert not e.state.is_over() and not any(e.terminations.values())
        assert e.agent_selection == AGENTS[e.state.to_move]


def test_observation_and_mask_are_the_selected_agents():
    e = raw_env("projective-hex", size=2, opening="none")
    e.reset()
    e.step(0)
    obs = e.observe("player_1")
    assert np.array_equal(obs["observation"], observation(e.state, 1))
    assert obs["action_mask"].dtype == np.int8
    assert np.flatnonzero(obs["action_mask"]).tolist() == e.state.legal_actions()
    assert not e.observe("player_0")["action_mask"].any(), "the waiting agent's mask is all zeros"
    assert np.array_equal(e.observe("player_0")["observation"], observation(e.state, 0))


def test_multi_step_turn_selects_the_same_agent():
    e = env("projective-hex", size=2, opening="cut-and-choose")
    e.reset()
    selected = []
    for cell in (0, 1, 2):  # the cutter's black, white, black
        selected.append(e.agent_selection)
        e.step(cell)
    assert selected == ["player_0"] * 3 and e.agent_selection == "player_1"
    mask = e.last()[0]["action_mask"]
    assert [e.unwrapped.game.action_name(e.unwrapped.state.array, a) for a in np.flatnonzero(mask)] == \
        ["black", "white"]


def play_to_end(e, seed: int) -> dict[str, float]:
    """Random legal moves to the end; each agent's reward as last() reports it."""
    rng = np.random.default_rng(seed)
    final = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        assert not truncated
        if terminated:
            final[agent] = reward
            e.step(None)
        else:
            assert reward == 0
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return final


@pytest.mark.parametrize("config", SMALL, ids=config_id)
def test_rewards_at_the_end(config):
    name, options = config
    e = env(name, **options)
    for seed in range(3):
        e.reset(seed=seed)
        final = play_to_end(e, seed)
        state = e.unwrapped.state
        assert state.is_over() and e.agents == []
        assert [final[a] for a in AGENTS] == state.returns()


def test_illegal_action_raises_and_changes_nothing():
    e = env("projective-hex", size=2, opening="none")
    e.reset()
    e.step(3)
    with pytest.raises(IllegalMove, match="player_1: action 3 is not legal here"):
        e.step(3)
    assert e.unwrapped.state.history == [3] and e.agent_selection == "player_1"


def test_illegal_reward_ends_the_game():
    e = env("projective-hex", size=2, opening="none", illegal_reward=-1)
    e.reset()
    e.step(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(3)
    assert all(e.terminations.values()) and e.rewards["player_1"] == -1


def test_render_modes(capsys):
    e = env("projective-hex", size=2, opening="none", render_mode="ansi")
    e.reset()
    e.step(0)
    assert e.render() == str(e.unwrapped.state)
    e = env("projective-hex", size=2, opening="none", render_mode="rgb_array")
    e.reset()
    image = e.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    e.step(0)
    assert not np.array_equal(e.render(), image), "the stone shows"
    e = env("projective-hex", size=2, opening="none", render_mode="human")
    e.reset()
    e.step(0)
    assert e.render() is None
    printed = capsys.readouterr().out.split("\n\n")
    assert printed == [str(hexarena.load("projective-hex", size=2, opening="none").new_state()),
                       str(e.unwrapped.state), str(e.unwrapped.state), ""], "after reset, after the step, on render"
    quiet = env("projective-hex", size=2)
    quiet.reset()
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert quiet.render() is None


def test_the_games_default_form_is_used():
    game = hexarena.load("projective-hex", size=2)
    assert raw_env(game).obs_form == "grid"
    game.OBSERVATION_FORM = "graph"
    e = raw_env(game)
    e.reset()
    assert e.obs_form == "graph" and e.observe("player_0")["observation"].shape == (game.topology.ncells, 5)


def test_graph_form_exposes_the_edges():
    e = raw_env("projective-hex", size=2, obs_form="graph")
    e.reset()
    topo = e.game.topology
    assert e.edges is edges(topo)
    assert e.observe("player_0")["observation"].shape == (topo.ncells, len(e.game.PLANES) + 1)


def test_spaces_and_names():
    e = raw_env("projective-hex", size=3)
    game = hexarena.load("projective-hex", size=3)
    assert e.possible_agents == ["player_0", "player_1"]
    assert e.action_space("player_0").n == game.num_actions
    assert e.observation_space("player_1")["observation"].shape == observation(game.new_state()).shape
    assert e.metadata["name"] == "hexarena_projective_hex_v0" and str(e) == "hexarena_projective_hex_v0"
    assert raw_env(game).game is game


def test_bad_arguments_name_the_choices():
    with pytest.raises(ValueError, match="allowed: None, human, ansi, rgb_array"):
        raw_env("projective-hex", render_mode="window")
    with pytest.raises(ValueError, match="forms: grid, graph"):
        raw_env("projective-hex", obs_form="image")
    with pytest.raises(ValueError, match="random_opening must be an integer >= 0"):
        raw_env("projective-hex", random_opening=-1)
    with pytest.raises(ValueError, match="unknown game"):
        raw_env("chess")
    with pytest.raises(ValueError, match="unknown option"):
        raw_env("projective-hex", colour="red")
