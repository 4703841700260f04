"""OpenSpiel's Python MCTS bot as an opponent for hexarena's strength
matches (bench/strength.py, bench/acceptance.py, bench/openspiel_match.py):
bench tools, not part of the library.

>>> import hexarena
>>> s = hexarena.load("projective-hex", size=2, opening="none").new_state()
>>> OpenSpielMCTSAgent(seconds=0.01, seed=1).choose(s) in s.legal_moves()
True
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel

from hexarena.ai.mcts import LATER_STEP_SHARE
from hexarena.games.base import Game, State
from hexarena.interop.openspiel import HexarenaState, load_game


class TimedMCTSBot(pyspiel.Bot):
    """OpenSpiel's Python ``MCTSBot`` (UCT, one random rollout per leaf) given
    about ``seconds`` of search a move: it has no clock of its own, so each
    search's simulation count is the rate measured on the previous search
    times the seconds (the very first search is calibrated on a short one)."""

    def __init__(self, game: pyspiel.Game, seconds: float, rng: np.random.RandomState) -> None:
        from open_spiel.python.algorithms import mcts

        super().__init__()
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        self.bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=16, evaluator=evaluator, random_state=rng)
        self.seconds = seconds
        self.simulations = 0
        self.moves = 0
        self._rate: float | None = None  # simulations a second, as last measured

    def _timed_search(self, state: pyspiel.State, simulations: int) -> int:
        self.bot.max_simulations = simulations
        start = time.perf_counter()
        action = self.bot.step(state)
        self._rate = simulations / max(time.perf_counter() - start, 1e-6)
        return action

    def step(self, state: pyspiel.State, seconds: float | None = None) -> int:
        """The bot's move in ``state`` after about ``seconds`` of search (by default its ``seconds``)."""
        if self._rate is None:
            self._timed_search(state, 16)
        assert self._rate is not None
        simulations = max(2, int(self._rate * (self.seconds if seconds is None else seconds)))
        action = self._timed_search(state, simulations)
        self.simulations += simulations
        self.moves += 1
        return action

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass


class OpenSpielMCTSAgent:
    """A hexarena agent (``choose(state) -> move``) that asks OpenSpiel's
    Python MCTS bot, playing our game through this adapter, about
    ``seconds`` a turn as hexarena's MCTS spends them (the whole at a turn's
    first step, ``1/LATER_STEP_SHARE`` at each later one): the opponent of
    hexarena's equal-time strength matches."""

    def __init__(self, seconds: float = 0.25, seed: int | None = None) -> None:
        self.name = "openspiel-mcts"
        self.seconds = seconds
        self._rng = np.random.RandomState(seed)
        self._bots: dict[tuple[str, str], tuple[pyspiel.Game, TimedMCTSBot]] = {}

    def _bot(self, game: Game) -> tuple[pyspiel.Game, TimedMCTSBot]:
        key = (game.name, repr(game.options))
        if key not in self._bots:
            spiel_game = load_game(game.name, **game.options)
            self._bots[key] = (spiel_game, TimedMCTSBot(spiel_game, self.seconds, self._rng))
        return self._bots[key]

    def choose(self, state: State) -> str:
        if state.is_over():
            raise ValueError("the game is over: no move to choose")
        spiel_game, bot = self._bot(state.game)
        seconds = self.seconds if state.step == 0 else self.seconds / LATER_STEP_SHARE
        action = bot.step(HexarenaState(spiel_game, state.array.copy()), seconds)
        return state.move_name(action)
