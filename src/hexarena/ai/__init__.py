"""Agents: ``agent(kind, ...)`` returns an object whose ``choose(state)``
gives a legal move (in notation) without changing the state.

Kinds: ``random`` (uniform legal moves) and ``mcts`` (Monte Carlo tree
search in numba, see :mod:`hexarena.ai.mcts` and docs/ai.md), with
strength ``level`` 1..10 or an explicit ``simulations`` / ``seconds``
budget per move.

>>> import hexarena
>>> s = hexarena.load("projective-hex").new_state()
>>> a = agent("random", seed=1)
>>> a.choose(s) in s.legal_moves()
True
>>> move, rate = hint(s, level=1, seed=1)
>>> move in s.legal_moves() and 0 <= rate <= 1
True

In a solved position (small boards, :mod:`hexarena.ai.solutions`) the hint
is the perfect move and its note the proof:

>>> s = hexarena.load("projective-hex", size=2, opening="none").new_state()
>>> move, rate = hint(s)
>>> hint_note(s, rate)
'proven win in 9'
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from ..games.base import State
from .mcts import MCTSAgent
from .solutions import proof_text


class Agent(Protocol):
    name: str

    def choose(self, state: State) -> str: ...


class RandomAgent:
    """Uniformly random legal moves, reproducible with ``seed``."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self._rng = random.Random(seed)

    def choose(self, state: State) -> str:
        moves = state.legal_moves()
        if not moves:
            raise ValueError("the game is over: no move to choose")
        return self._rng.choice(moves)


KINDS = ("random", "mcts")
MCTS_OPTIONS = ("level", "seconds", "simulations", "variant", "solutions")


def agent(kind: str, seed: int | None = None, **kw: Any) -> Agent:
    """An agent of ``kind`` (one of ``KINDS``); ValueError naming the choices.

    ``agent("mcts", level=1..10, seed=..., seconds=..., simulations=...,
    variant=..., solutions=True)`` is an :class:`~hexarena.ai.mcts.MCTSAgent`.
    """
    if kind == "random":
        if kw:
            raise ValueError(f"the random agent takes no options, got {', '.join(kw)}")
        return RandomAgent(seed)
    if kind == "mcts":
        unknown = sorted(set(kw) - set(MCTS_OPTIONS))
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r} for the mcts agent; options: {', '.join(MCTS_OPTIONS)}")
        return MCTSAgent(seed=seed, **kw)
    raise ValueError(f"unknown agent kind {kind!r}; kinds: {', '.join(KINDS)}")


def hint(state: State, level: int = 5, seed: int | None = None, **kw: Any) -> tuple[str, float]:
    """The best move in ``state`` and its estimated win rate for the player to move."""
    return MCTSAgent(level=level, seed=seed, **kw).hint(state)


def hint_note(state: State, rate: float) -> str:
    """What a hint's move is worth: "proven win in k" (k plies to the end,
    both sides') in a solved position, else "estimated win rate 60%"."""
    return proof_text(state) or f"estimated win rate {rate:.0%}"
