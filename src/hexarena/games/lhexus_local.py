"""Lhexus scoring: large packings found fast, by local search.

The exact search of ``lhexus_cliques`` proves that no packing larger than
the one it holds fits, and finding the optimum packing can cost it more
than that proof (millions of nodes on fills of 0.9).  So it starts from:

- :func:`local_packing`: greedy, then *(1,2)-swaps* (one packed
  configuration replaced by two that only it blocked) until none is left;
- :func:`lns_packing`: large neighbourhood search: a few packed
  configurations near a random uncovered cell (or a random packed one) are
  removed and the cells they held repacked at best by :func:`small_pack`,
  kept whenever that packs as many or more, so the uncovered cells wander
  until a repacking gains one.  On 15 base-10 fills of 0.87-0.96 it finds
  the optimum (HiGHS's) on 14 within 60,000 neighbourhoods, where iterated
  local search with perturbations (Andrade, Resende and Werneck's) fell one
  or two short on 10 after 40,000.

Deterministic: their own xorshift generator, so numba's global one (the
playouts') is untouched.  :func:`small_pack`, an exact maximum packing of
up to 62 configurations with bit masks, also scores small components, and
:func:`by_first_cell` orders configurations for the exact searches.
"""

from __future__ import annotations

import numpy as np

from ..kernels import njit


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
                  got: np.ndarray) -> int:
    """A packing of configurations ``lc`` (local cells; ``cstart``/``clist``:
    the configurations on each cell): greedy in ``order``, then (1,2)-swaps
    until none is left; written to ``got``, its size returned."""
    owner = np.full(nc, -1, dtype=np.int64)
    packed = np.zeros(lc.shape[0], dtype=np.bool_)
    free = np.empty(6 * int((cstart[1:] - cstart[:-1]).max()), dtype=np.int64)  # candidates of a swap
    size = _fill(lc, order, owner, packed)
    size += _improve(lc, cstart, clist, owner, packed, free)
    _listed(owner, lc, got)
    return size


@njit
def by_first_cell(lc: np.ndarray, nc: int):
    """(configurations sorted by their first cell, CSR start per cell)."""
    order = np.argsort(lc[:, 0], kind="mergesort").astype(np.int32)
    first = np.zeros(nc + 1, dtype=np.int32)
    for k in range(lc.shape[0]):
        first[lc[k, 0] + 1] += 1
    for c in range(nc):
        first[c + 1] += first[c]
    return order, first


@njit
def _listed(owner: np.ndarray, lc: np.ndarray, got: np.ndarray) -> None:
    """The packed configurations (each cell's ``owner``) written to ``got``."""
    n = 0
    for c in range(owner.shape[0]):
        if owner[c] >= 0 and lc[owner[c], 0] == c:
            got[n] = owner[c]
            n += 1


LNS_MOST = 9  # most packed configurations a neighbourhood removes
SMALL = 62  # a bit-mask search takes up to this many configurations


@njit
def _near(u: int, lc: np.ndarray, cstart: np.ndarray, clist: np.ndarray, owner: np.ndarray, seen: np.ndarray,
          tick: int, out: np.ndarray) -> int:
    """The packed configurations holding a cell of a configuration on cell
    ``u``; written to ``out``, how many."""
    n = 0
    for q in range(cstart[u], cstart[u + 1]):
        k = clist[q]
        for i in range(6):
            o = owner[lc[k, i]]
            if o >= 0 and seen[o] != tick:
                seen[o] = tick
                out[n] = o
                n += 1
    return n


@njit
def _free_configurations(removed: np.ndarray, n: int, lc: np.ndarray, cstart: np.ndarray, clist: np.ndarray,
                         owner: np.ndarray, seen: np.ndarray, tick: int, out: np.ndarray) -> int:
    """The configurations on the cells the ``n`` removed ones held whose six
    cells are all free, written to ``out``; how many (-1 if over :data:`SMALL`)."""
    count = 0
    for r in range(n):
        for j in range(6):
            c = lc[removed[r], j]
            for q in range(cstart[c], cstart[c + 1]):
                k = clist[q]
                if seen[k] != tick and _blockers(k, lc, owner, -1) == 0:
                    seen[k] = tick
                    if count == SMALL:
                        return -1
                    out[count] = k
                    count += 1
    return count


@njit
def _shuffle(a: np.ndarray, rng: np.ndarray) -> None:
    for i in range(a.shape[0] - 1, 0, -1):
        j = _xorshift(rng) % (i + 1)
        a[i], a[j] = a[j], a[i]


@njit
def lns_packing(lc: np.ndarray, cstart: np.ndarray, clist: np.ndarray, nc: int, size: int, goal: int,
                got: np.ndarray, rounds: int, rng: np.ndarray) -> int:
    """The packing ``got[:size]`` grown by large neighbourhood search: two
    to :data:`LNS_MOST` packed configurations near a random uncovered cell
    (or a random cell of a random packed configuration) are removed and
    their cells repacked at best (:func:`small_pack` over the configurations that fit
    there, in random order) whenever that packs as many or more; until
    ``goal`` or after ``rounds`` neighbourhoods.  The packing is left in
    ``got``, its size returned.  ``rng``: the xorshift state (uint64[1]), advanced."""
    m = lc.shape[0]
    owner = np.full(nc, -1, dtype=np.int64)
    for i in range(size):
        _put(got[i], lc, owner, got[i])
    seen_packed = np.zeros(m, dtype=np.int64)
    seen_free = np.zeros(m, dtype=np.int64)
    removed = np.empty(m, dtype=np.int64)
    cand = np.empty(SMALL, dtype=np.int64)
    chosen = np.empty(SMALL, dtype=np.int64)
    on_cell = np.zeros(nc, dtype=np.int64)
    waste = np.empty(nc, dtype=np.int64)
    tick = 0
    for _ in range(rounds):
        if size >= goal or size == 0:
            break
        tick += 1
        holes = 0
        for c in range(nc):
            if owner[c] < 0 and cstart[c + 1] > cstart[c]:
                waste[holes] = c
                holes += 1
        if holes == 0:
            break
        centre = waste[_xorshift(rng) % holes]
        if _xorshift(rng) & 1:  # or a cell of a packed configuration
            centre = lc[got[_xorshift(rng) % size], _xorshift(rng) % 6]
        near = _near(centre, lc, cstart, clist, owner, seen_packed, tick, removed)
        _shuffle(removed[:near], rng)
        n = min(near, 2 + _xorshift(rng) % (LNS_MOST - 1))
        while True:
            for r in range(n):
                _put(removed[r], lc, owner, -1)
            tick += 1
            count = _free_configurations(removed, n, lc, cstart, clist, owner, seen_free, tick, cand)
            if count >= 0:
                break
            for r in range(n):
                _put(removed[r], lc, owner, removed[r])
            n -= 1
        _shuffle(cand[:count], rng)  # ties between repackings go either way
        again = small_pack(cand[:count], lc, on_cell, chosen)
        if again < n:
            chosen[:n] = removed[:n]
            again = n
        for r in range(again):
            _put(chosen[r], lc, owner, chosen[r])
        size += again - n
        _listed(owner, lc, got)
    return size


@njit
def _cliques(cand: int, meets: np.ndarray) -> int:
    """The number of cliques (configurations meeting pairwise) a greedy
    cover of the set ``cand`` takes: an upper bound on a packing inside it."""
    count = 0
    while cand:
        v = _lowest(cand)
        cand &= ~(1 << v)
        join = cand & meets[v]
        while join:
            u = _lowest(join)
            cand &= ~(1 << u)
            join &= meets[u] & ~(1 << u)
        count += 1
    return count


@njit
def _lowest(x: int) -> int:
    """The index of the lowest set bit of x (x > 0)."""
    v = 0
    while not x >> v & 1:
        v += 1
    return v


@njit
def small_pack(comp: np.ndarray, configs: np.ndarray, on_cell: np.ndarray, out: np.ndarray) -> int:
    """Exact maximum packing of at most :data:`SMALL` configurations
    (``comp``, rows of ``configs``): a maximum independent set of their
    conflict graph as bit masks, depth first on an explicit stack (the
    lowest candidate taken, or left out if it meets another), cut when a
    clique cover of the candidates left says they cannot beat the best.
    ``on_cell`` (int64 per cell, all 0) is scratch, left all 0."""
    m = comp.shape[0]
    for i in range(m):  # on_cell: the configurations on each cell, as a bit mask
        for j in range(6):
            on_cell[configs[comp[i], j]] |= 1 << i
    meets = np.zeros(m, dtype=np.int64)
    for i in range(m):
        for j in range(6):
            meets[i] |= on_cell[configs[comp[i], j]]
        meets[i] &= ~(1 << i)
    for i in range(m):
        for j in range(6):
            on_cell[configs[comp[i], j]] = 0
    stack = np.empty((2 * m + 2, 3), dtype=np.int64)  # candidates, chosen, chosen count
    stack[0, 0], stack[0, 1], stack[0, 2] = (1 << m) - 1, 0, 0
    top, best, best_set = 1, 0, 0
    while top:
        top -= 1
        cand, chosen, size = stack[top, 0], stack[top, 1], stack[top, 2]
        if cand == 0:
            if size > best:
                best, best_set = size, chosen
            continue
        if size + _cliques(cand, meets) <= best:
            continue
        v = _lowest(cand)
        if meets[v] & cand:  # leaving v out can only help if v meets another candidate
            stack[top, 0], stack[top, 1], stack[top, 2] = cand & ~(1 << v), chosen, size
            top += 1
        stack[top, 0], stack[top, 1], stack[top, 2] = cand & ~(1 << v) & ~meets[v], chosen | 1 << v, size + 1
        top += 1
    k = 0
    for i in range(m):
        if best_set >> i & 1:
            out[k] = comp[i]
            k += 1
    return best
