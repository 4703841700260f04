"""Matches between agents: games with colours alternated, wins with a confidence interval.

>>> import hexarena
>>> from hexarena.ai import agent
>>> game = hexarena.load("projective-hex", size=2, opening="none")
>>> r = match(game, lambda: agent("random", seed=1), lambda: agent("random", seed=2), games=4)
>>> r.wins[0] + r.wins[1] + r.draws
4
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ..games.base import Game, State
from . import Agent


def play_game(game: Game, agents: tuple[Agent, Agent]) -> State:
    """Play one game, ``agents[p]`` moving for player ``p``; the final state."""
    state = game.new_state()
    while (mover := state.to_move) is not None:  # None once the game is over
        state.play(agents[mover].choose(state))
    return state


@dataclass
class MatchResult:
    wins: list[int]  # games won by agent A and agent B
    draws: int
    games: int

    def score(self) -> float:
        """Agent A's share of the points (a draw counts half)."""
        return (self.wins[0] + 0.5 * self.draws) / self.games

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson score interval of A's score (95% by default)."""
        n, p = self.games, self.score()
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)


def match(game: Game, make_a: Callable[[], Agent], make_b: Callable[[], Agent], games: int,
          report: Callable[[int, State, int], None] | None = None) -> MatchResult:
    """``games`` games of fresh agents A and B; A moves first in the even-numbered games.

    ``report(i, final_state, a_seat)`` is called after each game."""
    result = MatchResult([0, 0], 0, games)
    for i in range(games):
        a_seat = i % 2
        pair = (make_a(), make_b()) if a_seat == 0 else (make_b(), make_a())
        final = play_game(game, pair)
        w = final.winner()
        if w is None:
            result.draws += 1
        else:
            result.wins[0 if w == a_seat else 1] += 1
        if report:
            report(i, final, a_seat)
    return result
