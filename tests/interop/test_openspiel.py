"""Every game registered with pyspiel, checked by OpenSpiel's own tools."""

import importlib.util
import pickle
import re
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, mcts
from open_spiel.python.bots import uniform_random
from open_spiel.python.observation import make_observation

import hexarena
from hexarena.games.base import Option
from hexarena.interop import max_game_length
from hexarena.interop.openspiel import (load_game, options_from_params, parameter_specification, parameter_value,
                                        spiel_name)
from hexarena.observe import default_form, observation, observation_shape

from tests.small_games import config_id, random_positions, smallest_configs

SMALL = smallest_configs()


def spiel_game(name, options):
    return pyspiel.load_game(spiel_name(name), {key: parameter_value(value) for key, value in options.items()})


def tensor(state, player):
    """The observation the interop promises: the game's default form."""
    form = default_form(state.game)
    obs = observation(state, player, form)
    return (obs[0] if form == "graph" else obs).ravel()


def test_every_game_is_registered_under_its_python_name():
    names = set(pyspiel.registered_names())
    for name in hexarena.GAMES:
        assert spiel_name(name) in names
        game = pyspiel.load_game(spiel_name(name))
        assert game.get_type().long_name == f"hexarena {name}"
        assert game.game.options == hexarena.load(name).options  # the defaults


@pytest.mark.parametrize("config", SMALL, ids=config_id)
def test_openspiel_random_simulation_checks(config):
    game = spiel_game(*config)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("config", SMALL, ids=config_id)
def test_game_info_and_type(config):
    name, options = config
    game = spiel_game(name, options)
    ours = hexarena.load(name, **options)
    gtype = game.get_type()
    assert gtype.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gtype.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert gtype.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert gtype.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert gtype.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_players() == 2 and game.num_distinct_actions() == ours.num_actions
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.max_game_length() == max_game_length(ours)
    assert game.observation_tensor_shape() == list(observation_shape(ours, default_form(ours)))


@pytest.mark.parametrize("config", SMALL, ids=config_id)
def test_states_follow_the_hexarena_game(config):
    """A random game played in both: same players, legal actions, move
    names, observations, board text and returns at every step."""
    name, options = config
    game = spiel_game(name, options)
    positions = random_positions(name, options, seed=2)
    state = game.new_initial_state()
    for ours, after in zip(positions, positions[1:] + [None], strict=True):
        assert str(state) == str(ours)
        assert state.is_terminal() == ours.is_over()
        for player in (0, 1):
            assert np.array_equal(np.asarray(state.observation_tensor(player)), tensor(ours, player))
            assert state.observation_string(player) == str(ours)
        if after is None:
            break
        assert state.current_player() == ours.to_move
        assert state.legal_actions() == sorted(ours.legal_actions())
        action = after.history[-1]
        assert state.action_to_string(state.current_player(), action) == ours.move_name(action)
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == ours.returns()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.move_number() <= game.max_game_length()


def test_multi_step_turn_keeps_the_same_player():
    game = pyspiel.load_game("python_hexarena_projective_hex(size=2,opening=cut-and-choose)")
    state = game.new_initial_state()
    players = []
    for cell in (0, 1, 2):  # the cutter's three opening stones
        players.append(state.current_player())
        state.apply_action(cell)
    assert players == [0, 0, 0] and state.current_player() == 1
    assert [state.action_to_string(1, a) for a in state.legal_actions()] == ["black", "white"]


def test_illegal_action_is_refused_and_changes_nothing():
    game = pyspiel.load_game("python_hexarena_projective_hex(size=2,opening=none)")
    state = game.new_initial_state()
    state.apply_action(0)
    before = str(state)
    with pytest.raises(Exception, match="action 0 is not legal"):
        state.apply_action(0)
    assert str(state) == before and state.history() == [0]


def test_clone_is_independent():
    game = pyspiel.load_game("python_hexarena_projective_hex(size=2,opening=none)")
    state = game.new_initial_state()
    state.apply_action(3)
    clone = state.clone()
    clone.apply_action(4)
    assert state.history() == [3] and clone.history() == [3, 4]
    assert clone._game is state._game, "tables shared"
    assert not np.shares_memory(clone.array, state.array), "position copied"
    assert 4 in state.legal_actions() and 4 not in clone.legal_actions()


def test_pickle_and_serialize_round_trip():
    game = pyspiel.load_game("python_hexarena_projective_hex(size=3,opening=swap)")
    state = game.new_initial_state()
    for action in (5, 27, 8):  # a stone, swap, a stone
        state.apply_action(action)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.game.options == {"size": 3, "opening": "swap"}
    g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert s2.history() == [5, 27, 8] and str(s2) == str(state)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_parameters_are_the_game_options():
    game = pyspiel.load_game("python_hexarena_projective_hex(size=4,opening=none)")
    assert game.game.options == {"size": 4, "opening": "none"}
    assert game.get_parameters() == {"size": 4, "opening": "none"}
    with pytest.raises(Exception, match=re.escape("allowed: none | swap | cut-and-choose")):
        pyspiel.load_game("python_hexarena_projective_hex(opening=pie)")


class _Tupled(hexarena.Game, abstract=True):  # only its options are read
    name = "tupled"
    OPTIONS = {"size": Option((9, 8), str, lambda v: isinstance(v, tuple), "a pair a,b"),
               "sequence": Option(None, str, lambda v: True, "anything")}


def test_tuple_and_unset_options_as_parameters():
    spec = parameter_specification(_Tupled)
    assert spec == {"size": "9x8", "sequence": ""}
    assert options_from_params(_Tupled, spec) == {"size": (9, 8)}
    assert options_from_params(_Tupled, {"size": "8,8", "sequence": "abc"}) == {"size": (8, 8), "sequence": "abc"}
    with pytest.raises(ValueError, match="bad value 'big' for option 'size' of tupled"):
        options_from_params(_Tupled, {"size": "big"})


def test_observer_graph_form_and_information_state():
    game = pyspiel.load_game("python_hexarena_projective_hex(size=2,opening=none)")
    state = game.new_initial_state()
    state.apply_action(5)
    obs = make_observation(game, params={"form": "graph"})
    obs.set_from(state, 1)
    ours = hexarena.load("projective-hex", size=2, opening="none").new_state()
    ours.apply(5)
    assert np.array_equal(obs.dict["observation"], observation(ours, 1, form="graph")[0])
    assert state.information_state_string(0) == "5"
    with pytest.raises(Exception, match="unknown observer parameters"):
        make_observation(game, params={"colour": 1})


def test_openspiel_mcts_beats_random_on_a_small_board():
    """OpenSpiel's Python MCTS bot plays whole games through the interop."""
    game = pyspiel.load_game("python_hexarena_projective_hex(size=2,opening=none)")
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=60, evaluator=evaluator, random_state=rng)
    wins = 0
    for seat in (0, 1, 0, 1):
        bots = [bot, uniform_random.UniformRandomBot(1, rng)] if seat == 0 else \
            [uniform_random.UniformRandomBot(0, rng), bot]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert sorted(returns) == [-1.0, 1.0]
        wins += returns[seat] == 1.0
    assert wins >= 3


@pytest.mark.parametrize("config", SMALL, ids=config_id)
def test_openspiel_mcts_plays_every_game_to_the_end(config):
    game = spiel_game(*config)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng), uniform_random.UniformRandomBot(1, rng)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sum(returns) == 0 and all(r in (-1.0, 0.0, 1.0) for r in returns)


def test_load_game_takes_hexarena_options():
    game = load_game("projective-hex", size="2", opening="swap")
    assert game.game.options == {"size": 2, "opening": "swap"}
    with pytest.raises(ValueError, match="bad value 'pie' for option 'opening'"):
        load_game("projective-hex", opening="pie")


def test_bench_match_script_plays_a_match(capsys, monkeypatch):
    path = Path(__file__).resolve().parents[2] / "bench" / "openspiel_match.py"
    monkeypatch.syspath_prepend(str(path.parent))  # as running the script does: its siblings import
    spec = importlib.util.spec_from_file_location("openspiel_match", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    assert script.main(["projective-hex", "-o", "size=2", "--games", "2", "--seconds", "0.01"]) == 0
    lines = capsys.readouterr().out.strip().split("\n")
    assert len(lines) == 4 and lines[-1].startswith("mcts scored ") and lines[-1].endswith(" s)")
    assert lines[1].startswith("game 1: mcts (first) vs random: returns")
    assert lines[2].startswith("game 2: random (first) vs mcts: returns")


@pytest.mark.parametrize("config", SMALL, ids=config_id)
def test_undo_action_walks_a_game_back(config):
    """OpenSpiel's undo check (TestUndo of its random simulations): after a
    random game, undoing each action restores the board, the history, the
    move number and the legal actions of the state before it."""
    game = spiel_game(*config)
    rng = np.random.default_rng(3)
    state, before = game.new_initial_state(), []
    while not state.is_terminal():
        before.append((state.clone(), state.current_player()))
        state.apply_action(int(rng.choice(state.legal_actions())))
    for (earlier, player), action in zip(reversed(before), reversed(state.history()), strict=True):
        state.undo_action(player, action)
        assert str(state) == str(earlier) and state.history() == earlier.history()
        assert state.move_number() == earlier.move_number() and state.current_player() == player
        assert state.legal_actions() == earlier.legal_actions()
        assert state.history_str() == earlier.history_str()
    assert state.is_initial_state() and state.move_number() == 0


def test_undo_then_play_on_clone_and_serialize():
    game = pyspiel.load_game("python_hexarena_projective_hex(size=2,opening=none)")
    state = game.new_initial_state()
    for action in (3, 4, 5):
        state.apply_action(action)
    clone = state.clone()
    state.undo_action(0, 5)
    assert clone.history() == [3, 4, 5], "a clone keeps its own line"
    assert 5 in state.legal_actions() and 5 not in clone.legal_actions()
    state.apply_action(6)
    assert state.history() == [3, 4, 6] and state.move_number() == 3
    assert [(h.player, h.action) for h in state.full_history()] == [(0, 3), (1, 4), (0, 6)]
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert again.history() == [3, 4, 6] and str(again) == str(state)
    again.undo_action(0, 6)
    assert again.history() == [3, 4] and str(pickle.loads(pickle.dumps(again))) == str(again)


def test_undo_action_names_the_last_action():
    game = pyspiel.load_game("python_hexarena_projective_hex(size=2,opening=none)")
    state = game.new_initial_state()
    with pytest.raises(ValueError, match=r"undo_action\(0, 3\): no action has been applied"):
        state.undo_action(0, 3)
    state.apply_action(3)
    with pytest.raises(ValueError, match="the last action was 3 by player 0"):
        state.undo_action(0, 4)
    with pytest.raises(ValueError, match="the last action was 3 by player 0"):
        state.undo_action(1, 3)
    assert state.history() == [3]


def test_legal_actions_answer_as_pyspiel_does():
    """The Python answers match what pyspiel's C++ State gives (for the
    player not to move, a terminal state, the mask)."""
    game = pyspiel.load_game("python_hexarena_projective_hex(size=2,opening=none)")
    state = game.new_initial_state()
    state.apply_action(3)
    assert state.legal_actions() == state.legal_actions(1) == pyspiel.State.legal_actions(state)
    assert state.legal_actions(0) == [] == pyspiel.State.legal_actions(state, 0)
    mask = state.legal_actions_mask()
    assert mask == pyspiel.State.legal_actions_mask(state) and np.flatnonzero(mask).tolist() == state.legal_actions()
    assert state.legal_actions_mask(0) == [0] * game.num_distinct_actions()
    with pytest.raises(ValueError, match="pseudo-player -1"):
        state.legal_actions(-1)
    state.legal_actions().clear()
    assert len(state.legal_actions()) == 11, "callers get a copy"
    with pytest.raises(Exception, match="action 3 is not legal here"):
        state.apply_action(3)
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.legal_actions() == state.legal_actions(0) == [] and state.current_player() == pyspiel.PlayerId.TERMINAL
    with pytest.raises(Exception, match="the game is over"):
        state.apply_action(0)
