"""Batched games: N games of one game stepped together inside numba.

:class:`VectorGame` keeps N positions as one ``int32[N, S]`` array; legal
masks, steps, observations (the grid form of
:func:`hexarena.observe.observation`, all N at once) and random self-play run
in compiled loops over the game's kernels (:mod:`hexarena.vector.loops`).
Gymnasium and PettingZoo-style wrappers: :mod:`hexarena.interop.vector_env`.

>>> from hexarena.vector import VectorGame
>>> games = VectorGame("projective-hex", 4, seed=0, size=2, opening="none")
>>> games.observe().shape, games.legal_mask().shape
((4, 5, 4, 4), (4, 15))
>>> result = games.step(games.random_actions())
>>> result.movers.tolist(), games.to_move.tolist()
([0, 0, 0, 0], [1, 1, 1, 1])
>>> games.self_play(100)["positions"]
400
"""

from .core import StepResult, VectorGame
from .observe import observe_positions

__all__ = ["StepResult", "VectorGame", "observe_positions"]
