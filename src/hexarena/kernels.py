"""The leaf every game module builds on: the header that every position
array starts with, the ``njit`` decorator every rules kernel uses, seeding of
numba's random generator, and small array and bit utilities.  It imports
nothing from hexarena but the header's indices (:mod:`hexarena.header`) and
:mod:`hexarena.kernel_cache`.

Set ``NUMBA_DISABLE_JIT=1`` to run every kernel as plain Python.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import numba
import numpy as np
from numba.core import types
from numba.extending import intrinsic, overload

from .header import DRAW, HEADER, PLY, STEP, TO_MOVE, TURN, WINNER
from .kernel_cache import refresh

__all__ = ["DRAW", "HEADER", "PLY", "STEP", "TO_MOVE", "TURN", "WINNER", "direct", "fresh", "hot", "inline",
           "kernel_set", "njit", "note", "popcount", "seed", "shuffle_prefix"]


def fresh(decorator: Callable) -> Callable:
    """``decorator`` (a caching ``numba.njit``), first clearing the module's cached
    kernels if a file it uses changed since (:mod:`hexarena.kernel_cache`)."""
    def apply(func):
        dispatcher = decorator(func)
        refresh(func.__module__, dispatcher)
        return dispatcher
    return apply


njit = fresh(numba.njit(cache=True, nogil=True))
# Small helpers inlined into the loops that call them (a numba call passing
# the tables can cost more than the helper's work).
inline = fresh(numba.njit(cache=True, nogil=True, inline="always"))
# Loops on a hot path compiled without numba's reference counting: they and
# everything they call allocate nothing, and an atomic incref/decref of every
# array passed to a call (the tables' arrays, views of the position) can cost
# more than the work.  (``_nrt`` is numba's own flag, undocumented; numba is
# pinned.)
hot = fresh(numba.njit(cache=True, nogil=True, _nrt=False))  # type: ignore[call-overload]  # _nrt: not in numba's stubs


@njit
def seed(value: int) -> None:
    """Seed numba's generator (separate from numpy's in compiled code)."""
    np.random.seed(value)


@inline
def note(actions, movers, written, action, mover):
    """Write a playout's ``action`` and its ``mover`` at ``written`` while the
    arrays have room (MCTS's AMAF reads them); the new count."""
    if written < actions.shape[0]:
        actions[written], movers[written] = action, mover
        return written + 1
    return written


@njit
def shuffle_prefix(arr: np.ndarray, n: int) -> None:
    """Fisher-Yates shuffle of ``arr[:n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = int(np.random.random() * (i + 1))
        arr[i], arr[j] = arr[j], arr[i]


@njit
def sort_prefix(arr: np.ndarray, n: int) -> None:
    """Sort ``arr[:n]`` in place; one pass when it is ascending already
    (most games' ``legal`` writes its moves in order)."""
    for i in range(1, n):
        if arr[i] < arr[i - 1]:
            arr[:n].sort()
            return


def popcount(x) -> int:
    """The number of set bits of the unsigned 64-bit ``x`` (in compiled code,
    one instruction: LLVM's ctpop).

    >>> popcount(np.uint64(0b1011))
    3
    """
    return bin(int(x)).count("1")


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.uint64), codegen


@overload(popcount)
def _popcount_compiled(x):
    return lambda x: _ctpop(x)


def direct(kernel, *args):
    """``kernel`` compiled (or loaded from the cache) for the types of the
    example ``args``, as a function called without numba's dispatch, which
    types every argument of every call: about 0.7 µs for a game's tables,
    more than a short kernel's work.  Only for callers whose arguments
    always have these types (a C-contiguous array given where ``args`` has
    one is read as such).  The kernel itself when numba is disabled."""
    if not isinstance(kernel, numba.core.dispatcher.Dispatcher):
        return kernel
    return kernel.compile(tuple(numba.typeof(a) for a in args))


def kernel_set(legal, apply, playout, **optional) -> SimpleNamespace:
    """A game's kernels as its ``Game.kernels``: ``legal``, ``apply``,
    ``playout`` (see :mod:`hexarena.games.base`), the optional ones, and
    two built here.

    Optional, for games where uniformly random playouts mean little:
    ``policy(s, t, moves, n) -> i`` picks the index ``i`` of the move to play
    among the legal ``moves[:n]`` in position ``s`` (it may use numba's
    ``np.random``).  The MCTS agent (:mod:`hexarena.ai.mcts`) then plays its
    playouts step by step through it instead of calling ``playout``.
    ``recorded_playout(s, t, actions, movers) -> count`` is ``playout`` that
    also writes each move and its mover into the two int32 arrays while they
    have room (RAVE needs the moves; without it MCTS plays step by step).
    ``pattern_playout(s, t, actions, movers) -> count``, the same with the
    game's local replies (Projective Hex's bridge saves), is what MCTS plays
    with ``Config.patterns`` (on in ``enhanced``).  ``policy_playout(s, t,
    actions, movers) -> count`` is ``recorded_playout`` playing the game's
    ``policy`` (MCTS then stays in one compiled loop per playout).
    ``search_moves(s, t, out) -> count`` writes the moves the MCTS tree
    expands, a subset of the legal ones (Lhexus: the growth stones first,
    since a new group ends the turn); it returns ``-count`` when it left
    legal moves out, and the search then never proves that node lost or
    drawn.  ``is_legal(s, t, action) -> bool`` answers whether ``action``
    (known to be ``0 <= action < num_actions``, the game not over) is legal
    without building the legal list; :meth:`State.apply` and
    :meth:`State.play` use it where a game has it.  ``identity(s, t, out)
    -> count`` writes what identifies the position (keys, equality:
    :mod:`hexarena.games.position`).  ``planes(s, t, player, out, cols)``
    writes ``Game.planes`` (plane ``k`` on cell ``c`` into ``out[k, cols[c]]``,
    zeros before: only nonzero values need writing; ``s`` unchanged);
    :mod:`hexarena.vector` writes its grids with it.

    Built here: ``counted_playouts(s0, t, count)``, ``count`` playouts
    from ``s0`` counted as [player 0 wins, player 1 wins, draws, plies played]
    (the bench's units), and ``playouts(s0, t, count)``, its first three.

    ``counted_playouts`` closes over this game's ``playout``, so numba
    compiles it once per process (a function that takes or captures a jitted
    function cannot be cached); the playout it calls is cached as usual.
    """

    @numba.njit(nogil=True)
    def counted_playouts(s0, t, count):
        results = np.zeros(4, dtype=np.int64)
        s = s0.copy()
        for _ in range(count):
            s[:] = s0
            playout(s, t)
            results[s[WINNER]] += 1
            results[3] += s[PLY] - s0[PLY]
        return results

    def playouts(s0, t, count):
        return counted_playouts(s0, t, count)[:3]

    return SimpleNamespace(legal=legal, apply=apply, playout=playout, playouts=playouts,
                           counted_playouts=counted_playouts, **optional)
