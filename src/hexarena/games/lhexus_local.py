"""Lhexus scoring: a large packing found fast by iterated local search.

The exact search of ``lhexus_cliques`` lowers its target until it finds a
packing; on dense boards finding the optimum can cost more than proving
nothing larger fits.  :func:`local_packing` gives it a packing to start
from: iterated local search for a maximum independent set (Andrade,
Resende and Werneck's ILS, simplified): a *(1,2)-swap* replaces one packed
configuration by two that only it blocked, a *perturbation* forces a
configuration in (removing those it meets), and the largest packing met is
kept.  Deterministic: its own xorshift generator, so numba's global one
(the playouts') is untouched.
"""

from __future__ import annotations

import numpy as np

from ..kernels import njit

ILS_ROUNDS = 400  # perturbations per call


@njit
def _xorshift(state: np.ndarray) -> int:
    x = state[0]
    x ^= (x << np.uint64(13)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    x ^= x >> np.uint64(7)
    x ^= (x << np.uint64(17)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    state[0] = x
    return int(x >> np.uint64(33))


@njit
def _blockers(k: int, lc: np.ndarray, owner: np.ndarray, v: int) -> int:
    """How many cells of ``k`` a packed configuration other than ``v`` owns."""
    n = 0
    for j in range(6):
        o = owner[lc[k, j]]
        n += o >= 0 and o != v
    return n


@njit
def _put(k: int, lc: np.ndarray, owner: np.ndarray, value: int) -> None:
    for j in range(6):
        owner[lc[k, j]] = value


@njit
def _fill(lc: np.ndarray, order: np.ndarray, owner: np.ndarray, packed: np.ndarray) -> int:
    """Pack every configuration that fits, in ``order``; returns how many."""
    n = 0
    for k in order:
        if not packed[k] and _blockers(k, lc, owner, -1) == 0:
            _put(k, lc, owner, k)
            packed[k] = True
            n += 1
    return n


@njit
def _swap(v: int, lc: np.ndarray, cstart: np.ndarray, clist: np.ndarray, owner: np.ndarray,
          packed: np.ndarray, free: np.ndarray) -> bool:
    """A (1,2)-swap at packed ``v``: two disjoint configurations blocked by
    ``v`` alone replace it.  Whether one was made."""
    n = 0
    for j in range(6):
        c = lc[v, j]
        for q in range(cstart[c], cstart[c + 1]):
            k = clist[q]
            if k != v and not packed[k] and _blockers(k, lc, owner, v) == 0:
                free[n] = k
                n += 1
    for a in range(n):
        for b in range(a + 1, n):
            if free[a] != free[b] and _disjoint(free[a], free[b], lc):
                _put(v, lc, owner, -1)
                packed[v] = False
                for k in (free[a], free[b]):
                    _put(k, lc, owner, k)
                    packed[k] = True
                return True
    return False


@njit
def _disjoint(a: int, b: int, lc: np.ndarray) -> bool:
    for i in range(6):
        for j in range(6):
            if lc[a, i] == lc[b, j]:
                return False
    return True


@njit
def _improve(lc: np.ndarray, cstart: np.ndarray, clist: np.ndarray, owner: np.ndarray, packed: np.ndarray,
             free: np.ndarray) -> int:
    """(1,2)-swaps until none is left; returns the packing's growth."""
    grown = 0
    again = True
    while again:
        again = False
        for v in range(lc.shape[0]):
            if packed[v] and _swap(v, lc, cstart, clist, owner, packed, free):
                grown += 1
                again = True
    return grown


@njit
def local_packing(lc: np.ndarray, order: np.ndarray, cstart: np.ndarray, clist: np.ndarray, nc: int,
                  goal: int, got: np.ndarray) -> int:
    """A large packing of configurations ``lc`` (local cells; ``cstart``/
    ``clist``: the configurations on each cell), greedy in ``order`` then
    improved by iterated local search until it reaches ``goal`` or after
    :data:`ILS_ROUNDS` perturbations; written to ``got``, its size returned."""
    m = lc.shape[0]
    owner = np.full(nc, -1, dtype=np.int64)
    packed = np.zeros(m, dtype=np.bool_)
    free = np.empty(6 * int((cstart[1:] - cstart[:-1]).max()), dtype=np.int64)  # candidates of a swap
    size = _fill(lc, order, owner, packed)
    size += _improve(lc, cstart, clist, owner, packed, free)
    best, best_owner = size, owner.copy()
    rng = np.array([np.uint64(0x9E3779B97F4A7C15)], dtype=np.uint64)
    for _ in range(ILS_ROUNDS):
        if best >= goal:
            break
        k = _xorshift(rng) % m
        if packed[k]:
            continue
        for j in range(6):  # force k in
            o = owner[lc[k, j]]
            if o >= 0:
                _put(o, lc, owner, -1)
                packed[o] = False
                size -= 1
        _put(k, lc, owner, k)
        packed[k] = True
        size += 1
        size += _fill(lc, order, owner, packed)
        size += _improve(lc, cstart, clist, owner, packed, free)
        if size > best:
            best, best_owner = size, owner.copy()
        elif size < best - 1:  # too far down: back to the best
            owner[:] = best_owner
            packed[:] = False
            size = 0
            for c in range(nc):
                if owner[c] >= 0 and not packed[owner[c]]:
                    packed[owner[c]] = True
                    size += 1
    n = 0
    for c in range(nc):
        k = best_owner[c]
        if k >= 0 and lc[k, 0] == c:
            got[n] = k
            n += 1
    return best
