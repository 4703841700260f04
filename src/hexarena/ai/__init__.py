"""Agents: ``agent(kind, ...)`` returns an object whose ``choose(state)``
gives a legal move (in notation) without changing the state.

>>> import hexarena
>>> s = hexarena.load("projective-hex").new_state()
>>> a = agent("random", seed=1)
>>> a.choose(s) in s.legal_moves()
True
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from ..games.base import State


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


KINDS = ("random",)


def agent(kind: str, seed: int | None = None, **kw: Any) -> Agent:
    """An agent of ``kind`` (one of ``KINDS``); ValueError naming the choices."""
    if kind == "random":
        if kw:
            raise ValueError(f"the random agent takes no options, got {', '.join(kw)}")
        return RandomAgent(seed)
    raise ValueError(f"unknown agent kind {kind!r}; kinds: {', '.join(KINDS)}")
