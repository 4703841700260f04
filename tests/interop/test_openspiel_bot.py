"""hexarena agents as pyspiel bots (HexarenaBot), in OpenSpiel's evaluate_bots."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots
from open_spiel.python.bots import uniform_random

from hexarena.ai import RandomAgent
from hexarena.interop.openspiel import HexarenaBot, load_game


def small_game():
    return load_game("projective-hex", size=2, opening="none")


def test_mcts_bot_beats_openspiels_random_bot_in_pyspiel_evaluate_bots():
    game = small_game()
    wins = 0
    for seed, seat in enumerate((0, 1, 0, 1)):
        ours = HexarenaBot("mcts:uct:sims=200", seed=seed)
        theirs = pyspiel.make_uniform_random_bot(1 - seat, seed)
        returns = pyspiel.evaluate_bots(game.new_initial_state(), [ours, theirs][::1 - 2 * seat], seed)
        assert sorted(returns) == [-1.0, 1.0]
        wins += returns[seat] == 1.0
    assert wins >= 3


def test_bot_follows_a_game_begun_without_it():
    """restart_at a state with moves played, inform_action of the other's
    moves: the agent sees the whole history (OpenSpiel's Python evaluate_bots)."""
    game = small_game()
    state = game.new_initial_state()
    for action in (0, 5):
        state.apply_action(action)
    bot = HexarenaBot("random", seed=2)
    seen = []
    bot.agent.choose = lambda s, choose=bot.agent.choose: seen.append(s.history) or choose(s)
    rng = np.random.RandomState(1)
    returns = evaluate_bots.evaluate_bots(state, [bot, uniform_random.UniformRandomBot(1, rng)], rng)
    assert sorted(returns) == [-1.0, 1.0]
    assert seen and all(h == state.history()[:len(h)] for h in seen) and seen[0] == [0, 5]
    assert bot._state.history == state.history()[:len(bot._state.history)]


def test_step_catches_up_without_being_informed():
    game = small_game()
    state = game.new_initial_state()
    bot = HexarenaBot(RandomAgent(seed=4))
    bot.restart_at(state)
    for action in (2, 7, 9):
        state.apply_action(action)
    action = bot.step(state)
    assert action in state.legal_actions()
    state.undo_action(0, 9)  # the bot's line is left behind: it replays the state's
    assert bot.step(state) in state.legal_actions()


def test_same_seed_same_game():
    def game_of(seed):
        state = small_game().new_initial_state()
        bots = [HexarenaBot("mcts:uct:sims=50", seed=seed), HexarenaBot("random", seed=seed)]
        pyspiel.evaluate_bots(state, bots, 0)
        return state.history()

    assert game_of(7) == game_of(7)


def test_bad_bots_are_refused():
    with pytest.raises(ValueError, match="bad agent 'minimax'"):
        HexarenaBot("minimax")
    with pytest.raises(ValueError, match="seed is for an agent spec"):
        HexarenaBot(RandomAgent(), seed=3)
    with pytest.raises(TypeError, match="an agent has a choose"):
        HexarenaBot(object())
    bot = HexarenaBot("random")
    assert not bot.provides_policy()
    with pytest.raises(ValueError, match="HexarenaBot plays the hexarena games"):
        bot.step(pyspiel.load_game("tic_tac_toe").new_initial_state())
