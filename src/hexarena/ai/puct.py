"""PUCT search guided by a network: AlphaZero's tree search over any game.

The tree, selection, expansion and backup run in numba over the game's
``legal`` and ``apply`` kernels (:mod:`hexarena.ai.puct_tree`, the descent
specialised per game from ``puct_template.py``); only the leaf evaluation
returns to Python, a batch of leaves at a time.  Each simulation descends
by AlphaZero's rule, the child maximising

    Q + c_puct · P · sqrt(N_parent) / (1 + N_child)

(Q the child's mean value for the player choosing it, 0 while unvisited; P
its prior; ``N_parent`` the parent's visits, its own evaluation included),
and stops at the game's end, whose true result is backed up at once, or at
a leaf.  Up to ``batch`` leaves are collected with virtual losses (a node
on a pending path counts one more visit, valued as a loss) and handed to
the evaluator together as a :class:`Leaves`; it returns priors
``float32[B, num_actions]`` (the search keeps those of the legal moves and
renormalises them; all zero means uniform) and values ``float32[B]`` in
[-1, 1] for each leaf's player to move.  Values are backed up per player,
not by alternation, as in :mod:`hexarena.ai.mcts`, so turns of several
steps need nothing special.

The root is evaluated first (not counted as a simulation), so its
children's visits sum to ``simulations``: the training target
(:meth:`PUCTAgent.policy`).  Optional Dirichlet noise mixes into the root's
priors (AlphaZero's ``alpha``, ``epsilon``), and ``temperature`` sets how
:meth:`PUCTAgent.choose` picks from the visits.

>>> import numpy as np, hexarena
>>> game = hexarena.load("projective-hex", size=2, opening="none")
>>> def uniform(leaves):                     # priors and values for each leaf
...     return np.ones(leaves.legal.shape, np.float32), np.zeros(len(leaves), np.float32)
>>> agent = PUCTAgent(uniform, simulations=64, batch=8, seed=1)
>>> state = game.new_state()
>>> target = agent.policy(state)             # the visit distribution over actions
>>> target.shape, round(float(target.sum()), 6)
((15,), 1.0)
>>> agent.choose(state) in state.legal_moves()
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from ..games.base import TO_MOVE, Game, State
from ..kernels import direct
from ..specialise import specialised, where
from ..vector.observe import observe_positions
from .mcts import work_shape
from .puct_tree import ACTION, BAD_PRIOR, BAD_VALUE, COUNT, FIRST, N, P, W, back_up_leaves, clear, new_tree

MAX_NODES = 1 << 22  # the tree's most rows (48 bytes each); a full tree evaluates its leaves again, unexpanded
KERNELS_LINE = "legal = apply = None"


@dataclass(frozen=True, eq=False)
class Leaves:
    """The positions a search asks its evaluator about, one row each:
    ``states`` (``int32[B, state_size]``, the game's position arrays) and
    ``legal`` (``bool[B, num_actions]``, their legal moves);
    :attr:`to_move` is the player whose view the value takes and
    :attr:`planes` the positions as observation tensors."""

    game: Game
    states: np.ndarray
    legal: np.ndarray

    def __len__(self) -> int:
        return len(self.states)

    @property
    def to_move(self) -> np.ndarray:
        """``int32[B]``: each position's player to move."""
        return self.states[:, TO_MOVE]

    @cached_property
    def planes(self) -> np.ndarray:
        """``float32[B, C, H, W]``: each position in :mod:`hexarena.observe`'s
        grid form, seen by its player to move (computed on first use)."""
        return observe_positions(self.game, self.states, self.to_move)


Evaluator = Callable[[Leaves], tuple[Any, Any]]  # leaves -> (priors float32[B, A], values float32[B])


@dataclass(frozen=True, eq=False)
class SearchResult:
    """What a search found at the root: ``visits`` (``int64[num_actions]``,
    each root move's visits, 0 for the others), ``value`` (the mean of the
    values backed up at the root, for its player to move, in [-1, 1]),
    ``evaluations`` (leaves sent to the evaluator, the root included) and
    ``batches`` (calls to it)."""

    visits: np.ndarray
    value: float
    evaluations: int
    batches: int

    @property
    def policy(self) -> np.ndarray:
        """``float32[num_actions]``: the visits as a distribution (AlphaZero's training target)."""
        return (self.visits / self.visits.sum()).astype(np.float32)


def compiled_collect(kernels) -> Callable[..., tuple[int, int]]:
    """``collect(root_state, tables, ints, flts, meta, c_puct, want, leaf_states, masks, leaves, paths,
    lengths, moves) -> (waiting, ended)`` (``puct_template.py``) specialised to a game's kernels."""
    return _collect_module(where(kernels.legal), where(kernels.apply)).collect


@cache
def _collect_module(legal: tuple[str, str], apply: tuple[str, str]):
    return specialised(Path(__file__).with_name("puct_template.py"), KERNELS_LINE, [("legal", legal), ("apply", apply)],
                       kind="mcts", stem="puct_" + legal[0].rsplit(".", 1)[-1], depends=["hexarena.ai.puct_tree"])


class _Work(NamedTuple):
    """A search's arrays (the tree; per waiting leaf its position, legal moves, row and path; a move
    buffer) and its two compiled calls."""

    ints: np.ndarray
    flts: np.ndarray
    meta: np.ndarray
    leaf_states: np.ndarray
    masks: np.ndarray
    leaves: np.ndarray
    paths: np.ndarray
    lengths: np.ndarray
    moves: np.ndarray
    collect: Callable[..., tuple[int, int]]
    back_up: Callable[..., tuple[int, int]]


class PUCTAgent:
    """AlphaZero's search with ``evaluator`` at the leaves: an agent
    (``choose``, ``hint``) and a source of training targets (``policy``).

    ``simulations`` per move (the root's evaluation apart), ``batch`` the
    most leaves per call of the evaluator, ``c_puct`` the exploration
    weight, ``temperature`` how :meth:`choose` picks (0: the most visited
    move; τ > 0: a move drawn with probability ∝ visits^(1/τ)),
    ``dirichlet_alpha`` (None: no noise) and ``dirichlet_epsilon`` the
    root's noise.  ``seed`` seeds the generator of the noise and the picks
    (the search itself draws nothing): the same seed, evaluator and calls
    give the same moves.
    """

    def __init__(self, evaluator: Evaluator, simulations: int = 200, batch: int = 8, c_puct: float = 1.5,
                 seed: int | None = None, temperature: float = 0.0, dirichlet_alpha: float | None = None,
                 dirichlet_epsilon: float = 0.25, name: str = "puct") -> None:
        if not callable(evaluator):
            raise TypeError(f"evaluator must be callable as evaluator(leaves) -> (priors, values), "
                            f"got {type(evaluator).__name__}")
        _check_count("simulations", simulations)
        _check_count("batch", batch)
        _check_number("c_puct", c_puct, "a positive number", lambda v: v > 0)
        _check_number("temperature", temperature, "a number >= 0", lambda v: v >= 0)
        if dirichlet_alpha is not None:
            _check_number("dirichlet_alpha", dirichlet_alpha, "a positive number or None", lambda v: v > 0)
        _check_number("dirichlet_epsilon", dirichlet_epsilon, "a number in [0, 1]", lambda v: 0 <= v <= 1)
        self.evaluator, self.simulations, self.batch, self.c_puct = evaluator, simulations, batch, float(c_puct)
        self.temperature, self.dirichlet_alpha, self.dirichlet_epsilon = temperature, dirichlet_alpha, dirichlet_epsilon
        self.name = name
        self._rng = np.random.default_rng(seed)
        self._work: _Work | None = None
        self._work_key: tuple | None = None

    # public ------------------------------------------------------------------
    def choose(self, state: State) -> str:
        """A move for ``state`` picked from the search's visits at :attr:`temperature`."""
        return state.move_name(self.pick(self.search(state).visits))

    def hint(self, state: State) -> tuple[str, float]:
        """The most visited move and the search's win rate for the player to move ((value + 1) / 2)."""
        result = self.search(state)
        return state.move_name(self.pick(result.visits, 0.0)), (result.value + 1.0) / 2.0

    def policy(self, state: State) -> np.ndarray:
        """Search ``state``; the root's visits as a distribution, ``float32[num_actions]``."""
        return self.search(state).policy

    @property
    def tree(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The last search's tree, ``(ints, flts, meta)`` (:mod:`hexarena.ai.puct_tree`; rows
        ``meta[USED]`` in use, the root at row 0)."""
        if self._work is None:
            raise ValueError("no search yet: the tree is built by search()")
        return self._work.ints, self._work.flts, self._work.meta

    def pick(self, visits: np.ndarray, temperature: float | None = None) -> int:
        """An action drawn from ``visits`` at ``temperature`` (default :attr:`temperature`); at 0
        the most visited (ties drawn at random)."""
        tau = self.temperature if temperature is None else temperature
        if tau == 0:
            return int(self._rng.choice(np.flatnonzero(visits == visits.max())))
        logs = np.log(np.where(visits > 0, visits, 1)) / tau
        weights = np.where(visits > 0, np.exp(logs - logs[visits > 0].max()), 0.0)
        return int(self._rng.choice(len(visits), p=weights / weights.sum()))

    def search(self, state: State) -> SearchResult:
        """Run :attr:`simulations` simulations from ``state``; the root's visits and value."""
        if state.is_over():
            raise ValueError("the game is over: no move to search")
        game = state.game
        w = self._work_for(game)
        clear(w.ints, w.flts, w.meta)
        root_state = state.array.copy()

        def run(want: int) -> tuple[int, int]:
            return w.collect(root_state, game.tables, w.ints, w.flts, w.meta, self.c_puct, want, w.leaf_states,
                             w.masks, w.leaves, w.paths, w.lengths, w.moves)

        run(1)  # the root, alone: it waits for the evaluator
        root_value = float(self._evaluate(w, game, 1)[0])
        if self.dirichlet_alpha is not None:
            self._add_noise(w.ints, w.flts)
        done, evaluations, batches = 0, 1, 1
        while done < self.simulations:
            waiting, ended = run(min(self.batch, self.simulations - done))
            if waiting:
                self._evaluate(w, game, waiting)
                evaluations, batches = evaluations + waiting, batches + 1
            done += waiting + ended
        first, count = w.ints[0, FIRST], w.ints[0, COUNT]
        children = slice(first, first + count)
        visits = np.zeros(game.num_actions, dtype=np.int64)
        visits[w.ints[children, ACTION]] = w.flts[children, N]
        value = (root_value + w.flts[children, W].sum()) / (1.0 + w.flts[children, N].sum())
        return SearchResult(visits, float(value), evaluations, batches)

    # search ------------------------------------------------------------------
    def _work_for(self, game: Game) -> _Work:
        """The tree, the batch's arrays and the compiled calls, kept between searches of the same game."""
        a = game.num_actions
        capacity = max(1 + a, min(MAX_NODES, 1 + (self.simulations + 1) * a))  # room for the root's children
        key = (game.name, tuple(sorted(game.options.items())), capacity, self.batch)
        if self._work is None or self._work_key != key:
            ints, flts, meta = new_tree(capacity)
            b = self.batch
            arrays = (ints, flts, meta, np.zeros((b, game.state_size), dtype=np.int32),
                      np.zeros((b, a), dtype=np.bool_), np.zeros(b, dtype=np.int64),
                      np.zeros((b, work_shape(a)[1]), dtype=np.int64), np.zeros(b, dtype=np.int64),
                      np.zeros(a, dtype=np.int32))
            # compiled for these arrays' types and called without numba's dispatch (hexarena.kernels.direct)
            collect = direct(compiled_collect(game.kernels), game.initial_array(), game.tables, *arrays[:3],
                             self.c_puct, 1, *arrays[3:])
            back_up = direct(back_up_leaves, ints, flts, *arrays[5:8], 1, np.zeros((b, a), dtype=np.float32),
                             np.zeros(b, dtype=np.float32))
            self._work, self._work_key = _Work(*arrays, collect, back_up), key
        return self._work

    def _evaluate(self, w: _Work, game: Game, count: int) -> np.ndarray:
        """Ask the evaluator about the ``count`` waiting leaves and back up its answers; the values."""
        batch = Leaves(game, w.leaf_states[:count].copy(), w.masks[:count].copy())
        priors, values = output_arrays(self.evaluator(batch), count, game.num_actions)
        found, leaf = w.back_up(w.ints, w.flts, w.leaves, w.paths, w.lengths, count, priors, values)
        if found == BAD_VALUE:
            raise ValueError(f"the evaluator's values must be numbers in [-1, 1], got {values[leaf]} (leaf {leaf})")
        if found == BAD_PRIOR:
            row = priors[leaf][batch.legal[leaf]]
            raise ValueError(f"the evaluator's priors of legal moves must be finite and >= 0; leaf {leaf} has "
                             f"{row[~((row >= 0) & (row < np.inf))][:3].tolist()} (illegal moves' priors are ignored)")
        return values

    def _add_noise(self, ints: np.ndarray, flts: np.ndarray) -> None:
        """Mix Dirichlet noise into the root's priors: (1 - ε) P + ε Dir(α)."""
        first, count = ints[0, FIRST], ints[0, COUNT]
        noise = self._rng.dirichlet(np.full(count, self.dirichlet_alpha))
        eps = self.dirichlet_epsilon
        flts[first:first + count, P] = (1.0 - eps) * flts[first:first + count, P] + eps * noise


def output_arrays(output: Any, leaves: int, actions: int) -> tuple[np.ndarray, np.ndarray]:
    """The evaluator's ``(priors, values)`` for ``leaves`` leaves of a game of
    ``actions`` actions as ``float32[leaves, actions]`` and ``float32[leaves]``;
    ValueError naming what is wrong: not a pair, not numbers, a wrong shape.
    (Their values are checked as they are backed up.)"""
    if not isinstance(output, tuple | list) or len(output) != 2:
        raise ValueError(f"the evaluator must return a pair (priors float32[{leaves}, {actions}], "
                         f"values float32[{leaves}]), got {type(output).__name__}")
    try:
        priors, values = (np.ascontiguousarray(x, dtype=np.float32) for x in output)
    except (TypeError, ValueError) as e:
        raise ValueError(f"the evaluator's priors and values must be arrays of numbers: {e}") from None
    if priors.shape != (leaves, actions):
        raise ValueError(f"the evaluator's priors have shape {priors.shape}; expected ({leaves}, {actions}): "
                         f"one row per leaf, one column per action")
    if values.shape != (leaves,):
        raise ValueError(f"the evaluator's values have shape {values.shape}; expected ({leaves},): one per leaf")
    return priors, values


def _check_count(key: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise ValueError(f"{key} must be a positive integer, got {value!r}")


def _check_number(key: str, value: Any, allowed: str, ok: Callable[[float], bool]) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or not ok(value):
        raise ValueError(f"{key} must be {allowed}, got {value!r}")
