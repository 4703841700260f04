"""A game reviewed with the AI: every ply's position searched, the mover's win rate before and after the move
played, the AI's best move, and the moves that lost more than :data:`BLUNDER` of it flagged.

>>> import hexarena
>>> s = hexarena.load("projective-hex", size=2, opening="none").new_state()
>>> for m in ("a1", "b2", "b1"): _ = s.play(m)
>>> plies = drain(reviewing(s, simulations=50))
>>> [p.move for p in plies], [p.mover for p in plies]
(['a1', 'b2', 'b1'], [0, 1, 0])
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import asdict, dataclass
from typing import Any

from hexarena.games.base import State

from .mcts import MCTSAgent, drain

BLUNDER = 0.15  # a move that loses more than this much of the mover's win rate is flagged
__all__ = ["BLUNDER", "Ply", "reviewing", "drain"]


@dataclass(frozen=True)
class Ply:
    """One ply reviewed: ``move`` played by ``mover``, whose win rate was ``before`` (the AI's best move
    ``best``) and ``after`` once it was played; ``loss`` = before - after, flagged when over :data:`BLUNDER`."""

    ply: int
    move: str
    mover: int
    best: str
    before: float
    after: float

    @property
    def loss(self) -> float:
        return max(0.0, self.before - self.after)

    @property
    def flagged(self) -> bool:
        return self.loss > BLUNDER and self.move != self.best

    def shown(self) -> dict[str, Any]:
        """As JSON: the fields, rates to three decimals, with ``loss`` and ``flagged``."""
        out = asdict(self)
        for key in ("before", "after"):
            out[key] = round(out[key], 3)
        return {**out, "loss": round(self.loss, 3), "flagged": self.flagged}


def reviewing(game: State, level: int = 5, simulations: int | None = None, seconds: float | None = 0.5,
              slice_seconds: float | None = None) -> Generator[int | None, None, list[Ply]]:
    """Review ``game`` (its moves as played, from the start), each position searched by MCTS at ``level`` (or
    ``simulations``) for at most ``seconds``; yields None after each ``slice_seconds`` of searching (a scheduler
    interleaves it) and the count of positions searched after each; returns the plies reviewed.  A resignation
    or loss on time is not a move: the last move's "after" is the search's or, at the end, the result."""
    actions = game.history
    position = game.game.new_state()
    rates: list[tuple[str, float, int]] = []  # per position: best move, win rate, mover
    for action in [*actions, None]:
        if position.is_over():
            break
        mover = position.to_move
        assert mover is not None  # not over
        agent = MCTSAgent(level=level, simulations=simulations)
        best, rate = yield from agent.hinting(position.copy(), slice_seconds, seconds)
        rates.append((best, rate, mover))
        if action is None:
            break
        position.apply(action)
        yield len(rates)
    moves = game.moves()
    return [_ply(i, moves[i], rates, position) for i in range(len(actions))]


def _ply(i: int, move: str, rates: list[tuple[str, float, int]], end: State) -> Ply:
    """Ply ``i`` (``move``) from the positions' ``rates``; ``end``: the position after the last move."""
    best, before, mover = rates[i]
    if i + 1 < len(rates):
        _, next_rate, next_mover = rates[i + 1]
        after = next_rate if next_mover == mover else 1 - next_rate
    else:
        winner = end.winner()
        after = 0.5 if winner is None else float(winner == mover)
    return Ply(i, move, mover, best, before, after)
