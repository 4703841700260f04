"""Lhexus scoring: the maximum number of pairwise disjoint configurations.

A configuration is six cells: a straight line of six (three directions),
the compact triangle 1+2+3 (two orientations) or the ring of six around a
cell whose six neighbours are on the board.  A player's score is the size of
a maximum packing of disjoint configurations inside his stones: maximum set
packing, solved exactly (greedy is wrong, see tests/test_lhexus_scoring.py).

:func:`best_packing` splits the owned configurations into components (sets
of configurations linked by shared cells) and solves each by branch and
bound on an explicit stack: branch on the covered cell lying in the fewest
configurations (take one of them, or leave the cell unused); prune with
``min(covered cells // 6, greedy hitting set)``, both upper bounds.

>>> from hexarena.board import hexhex
>>> t = tables(hexhex(4))
>>> t.configs.shape[0], [int(n) for n in np.bincount(t.kinds)]
(67, [12, 36, 19])
>>> stones = np.zeros(37, dtype=np.bool_)
>>> stones[t.configs[0]] = True
>>> score(t, stones)[0]
1
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numba
import numpy as np

from ..board import Topology
from ..kernels import njit

# The search recurses, and numba 0.68 cannot load a cached recursive function
# (nor one calling it): these compile once per process (about a second).
search = numba.njit(nogil=True)

LINE, TRIANGLE, RING = range(3)
KINDS = ("line", "triangle", "ring")
# The shapes as doubled-x offsets (x, row) from their first cell.
_LINE_STEPS = ((2, 0), (1, 1), (-1, 1))  # E, SE, SW
_TRIANGLES = (
    ((0, 0), (-1, 1), (1, 1), (-2, 2), (0, 2), (2, 2)),  # apex up
    ((0, 0), (2, 0), (4, 0), (1, 1), (3, 1), (2, 2)),  # apex down
)
_RING = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))


class ScoringTables(NamedTuple):
    """The static tables of one board (``tables(topology)``)."""

    configs: np.ndarray  # int32[K, 6]: the cells of each configuration, sorted
    kinds: np.ndarray  # int8[K]: LINE, TRIANGLE or RING


def _shapes() -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """(kind, offsets) of every configuration shape."""
    shapes = [(LINE, tuple((i * dx, i * dy) for i in range(6))) for dx, dy in _LINE_STEPS]
    shapes += [(TRIANGLE, tri) for tri in _TRIANGLES]
    return shapes + [(RING, _RING)]


def configurations(topo: Topology) -> tuple[np.ndarray, np.ndarray]:
    """``(configs int32[K, 6], kinds int8[K])``: every configuration on the
    board once, its cells sorted; rings are the neighbours of each cell."""
    cells: list[list[int]] = []
    kinds: list[int] = []
    for c in range(topo.ncells):
        x, y = int(topo.xy[c, 0]), int(topo.xy[c, 1])
        for kind, offsets in _shapes():
            found = [topo.at(x + dx, y + dy) for dx, dy in offsets]
            if all(f is not None for f in found):
                cells.append(sorted(found))
                kinds.append(kind)
    return np.array(cells, dtype=np.int32).reshape(-1, 6), np.array(kinds, dtype=np.int8)


@lru_cache(maxsize=16)
def tables(topo: Topology) -> ScoringTables:
    """The configurations of ``topo``, computed once per board."""
    return ScoringTables(*configurations(topo))


def score(board: Topology | ScoringTables, stones: np.ndarray) -> tuple[int, list[int]]:
    """``(score, configuration ids of one maximum packing)`` of the cells
    where ``stones`` (bool[n]) is true."""
    t = tables(board) if isinstance(board, Topology) else board
    out = np.empty(len(stones) // 6 + 1, dtype=np.int32)
    n = best_packing(np.asarray(stones, dtype=np.bool_), t.configs, out)
    return n, [int(k) for k in out[:n]]


@njit
def _find(parent: np.ndarray, c: int) -> int:
    while parent[c] != c:
        parent[c] = parent[parent[c]]
        c = parent[c]
    return c


@njit
def owned_configs(owned: np.ndarray, configs: np.ndarray) -> np.ndarray:
    """The ids of the configurations whose six cells are all owned."""
    keep = np.empty(configs.shape[0], dtype=np.int32)
    m = 0
    for k in range(configs.shape[0]):
        ok = True
        for j in range(6):
            if not owned[configs[k, j]]:
                ok = False
                break
        if ok:
            keep[m] = k
            m += 1
    return keep[:m]


@njit
def _labels(ids: np.ndarray, cells: np.ndarray, ncells: int) -> np.ndarray:
    """The component of each configuration of ``ids`` (rows of ``cells``):
    a root cell, equal for configurations linked by shared cells."""
    parent = np.arange(ncells)
    for k in ids:
        r0 = _find(parent, cells[k, 0])
        for j in range(1, 6):
            r = _find(parent, cells[k, j])
            if r != r0:
                parent[r] = r0
    roots = np.empty(ids.shape[0], dtype=np.int64)
    for i in range(ids.shape[0]):
        roots[i] = _find(parent, cells[ids[i], 0])
    return roots


@njit
def _components(cand: np.ndarray, configs: np.ndarray, ncells: int) -> np.ndarray:
    """``cand`` reordered so each component (configurations linked by
    shared cells) is contiguous; returns the component label of each, sorted."""
    roots = _labels(cand, configs, ncells)
    order = np.argsort(roots, kind="mergesort")
    cand[:] = cand[order]
    return roots[order]


@njit
def _local_tables(comp: np.ndarray, configs: np.ndarray, local: np.ndarray):
    """The component renumbered: (cells int32[m, 6] in local cell ids, the
    local cell count, CSR start and list of configurations per local cell).
    Resets ``local`` (global cell -> local id) to -1 before returning."""
    m = comp.shape[0]
    lc = np.empty((m, 6), dtype=np.int32)
    glob = np.empty(6 * m, dtype=np.int32)
    nc = 0
    for i in range(m):
        for j in range(6):
            g = configs[comp[i], j]
            if local[g] < 0:
                local[g] = nc
                glob[nc] = g
                nc += 1
            lc[i, j] = local[g]
    for c in range(nc):
        local[glob[c]] = -1
    start = np.zeros(nc + 1, dtype=np.int32)
    for i in range(m):
        for j in range(6):
            start[lc[i, j] + 1] += 1
    for c in range(nc):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    lst = np.empty(6 * m, dtype=np.int32)
    for i in range(m):
        for j in range(6):
            c = lc[i, j]
            lst[fill[c]] = i
            fill[c] += 1
    return lc, nc, start, lst


@njit
def _stamp(clock: np.ndarray) -> int:
    """A fresh mark value (marks compare equal to the current stamp only)."""
    clock[0] += 1
    return clock[0]


@njit
def _without(ids: np.ndarray, cells: np.ndarray, start: np.ndarray, lst: np.ndarray, mark: np.ndarray,
             clock: np.ndarray) -> np.ndarray:
    """``ids`` less every configuration holding one of ``cells``."""
    s = _stamp(clock)
    for c in cells:
        for q in range(start[c], start[c + 1]):
            mark[lst[q]] = s
    keep = np.empty(ids.shape[0], dtype=np.int32)
    n = 0
    for k in ids:
        if mark[k] != s:
            keep[n] = k
            n += 1
    return keep[:n]


@njit
def _hitting_bound(ids: np.ndarray, deg: np.ndarray, lc: np.ndarray, start: np.ndarray, lst: np.ndarray,
                   mark: np.ndarray, clock: np.ndarray) -> int:
    """The size of a greedy set of cells meeting every configuration of
    ``ids`` (a packing has at most one configuration per cell of the set):
    an upper bound."""
    live = _stamp(clock)
    for k in ids:
        mark[k] = live
    tdeg = deg.copy()
    left = ids.shape[0]
    h = 0
    while left > 0:
        best = int(np.argmax(tdeg))
        h += 1
        for p in range(start[best], start[best + 1]):
            k = lst[p]
            if mark[k] == live:
                mark[k] = 0
                left -= 1
                for j in range(6):
                    tdeg[lc[k, j]] -= 1
    return h


@njit
def _lagrange_bound(ids: np.ndarray, deg: np.ndarray, lc: np.ndarray, need: int, rounds: int = 40) -> int:
    """An upper bound from the Lagrangian relaxation of "each cell in at
    most one configuration": for cell prices p >= 0, sum(p) + sum over
    configurations of max(0, 1 - price of its cells).  Subgradient steps
    (Polyak's, aiming just below ``need``) from p = 1/6 on covered cells."""
    nc = deg.shape[0]
    price = np.zeros(nc)
    for c in range(nc):
        if deg[c] > 0:
            price[c] = 1.0 / 6.0
    grad = np.empty(nc)
    best = 1e9
    scale = 1.0
    stale = 0
    for _ in range(rounds):
        value = 0.0
        for c in range(nc):
            grad[c] = 1.0 if deg[c] > 0 else 0.0
            value += price[c]
        for k in ids:
            reduced = 1.0
            for j in range(6):
                reduced -= price[lc[k, j]]
            if reduced > -1e-12:
                value += max(reduced, 0.0)
                for j in range(6):
                    grad[lc[k, j]] -= 1.0
        if value < best - 1e-9:
            best, stale = value, 0
        else:
            stale += 1
            if stale >= 3:
                scale, stale = scale / 2, 0
        if best < need - 1e-9:
            break
        norm = 0.0
        for c in range(nc):
            norm += grad[c] * grad[c]
        if norm == 0.0:
            break
        step = scale * (value - (need - 0.999)) / norm
        for c in range(nc):
            price[c] = max(price[c] - step * grad[c], 0.0)
    return int(best + 1e-9)


@njit
def _cuts(labels: np.ndarray) -> list[int]:
    """The starts of the runs of equal ``labels``, then their length."""
    cuts = [0]
    for i in range(1, labels.shape[0]):
        if labels[i] != labels[i - 1]:
            cuts.append(i)
    cuts.append(labels.shape[0])
    return cuts


@njit
def _cells_bound(ids: np.ndarray, lc: np.ndarray, nc: int) -> int:
    """The cells covered by ``ids``, divided by six: an upper bound."""
    seen = np.zeros(nc, dtype=np.bool_)
    covered = 0
    for k in ids:
        for j in range(6):
            if not seen[lc[k, j]]:
                seen[lc[k, j]] = True
                covered += 1
    return covered // 6


@search
def _solve(ids: np.ndarray, need: int, lc: np.ndarray, nc: int, start: np.ndarray, lst: np.ndarray,
           mark: np.ndarray, clock: np.ndarray, out: np.ndarray) -> int:
    """The maximum packing of the configurations ``ids`` if it is at least
    ``need`` (written to ``out``), else some number below ``need``.

    Independent components are solved apart; one component branches on its
    covered cell in the fewest configurations (each of them taken, or the
    cell left empty), pruned by upper bounds."""
    m = ids.shape[0]
    if m <= 1:
        if m == 1:
            out[0] = ids[0]
        return m
    root = _labels(ids, lc, nc)
    if np.any(root != root[0]):  # apart: each gets the share of need the others' bounds leave it
        ids = ids[np.argsort(root, kind="mergesort")]
        cuts = _cuts(np.sort(root))
        bounds = [_cells_bound(ids[cuts[i]:cuts[i + 1]], lc, nc) for i in range(len(cuts) - 1)]
        rest = sum(bounds)
        if rest < need:
            return rest
        acc = 0
        for i in range(len(bounds)):
            rest -= bounds[i]
            want = max(need - acc - rest, 0)
            r = _solve(ids[cuts[i]:cuts[i + 1]], want, lc, nc, start, lst, mark, clock, out[acc:])
            if r < want:
                return max(need, 1) - 1
            acc += r
        return acc
    deg = np.zeros(nc, dtype=np.int32)
    for k in ids:
        for j in range(6):
            deg[lc[k, j]] += 1
    covered = 0
    e = -1
    for c in range(nc):
        if deg[c] > 0:
            covered += 1
            if e < 0 or deg[c] < deg[e]:
                e = c
    ub = covered // 6
    if ub < need:
        return ub
    ub = min(ub, _hitting_bound(ids, deg, lc, start, lst, mark, clock))
    if ub < need:
        return ub
    ub = min(ub, _lagrange_bound(ids, deg, lc, need))
    if ub < need:
        return ub
    live = _stamp(clock)
    for k in ids:
        mark[k] = live
    options = [lst[p] for p in range(start[e], start[e + 1]) if mark[lst[p]] == live]
    best = max(need, 1) - 1  # only packings above best matter
    found = False
    tmp = np.empty(ub, dtype=np.int32)
    for k in options:
        r = _solve(_without(ids, lc[k], start, lst, mark, clock), best, lc, nc, start, lst, mark, clock, tmp[1:])
        if r >= best:
            best, found = r + 1, True
            tmp[0] = k
            out[:best] = tmp[:best]
            if best >= ub:
                return best
    sub = _without(ids, np.array([e], dtype=np.int32), start, lst, mark, clock)
    r = _solve(sub, best + 1, lc, nc, start, lst, mark, clock, tmp)
    if r > best:
        best, found = r, True
        out[:best] = tmp[:best]
    return best if found else max(need, 1) - 1


@search
def _pack(comp: np.ndarray, configs: np.ndarray, local: np.ndarray, out: np.ndarray) -> int:
    """Exact maximum packing of one component; writes the chosen
    configuration ids to ``out``."""
    m = comp.shape[0]
    lc, nc, start, lst = _local_tables(comp, configs, local)
    mark = np.zeros(m, dtype=np.int64)
    clock = np.zeros(1, dtype=np.int64)
    got = np.empty(m, dtype=np.int32)
    best = _solve(np.arange(m).astype(np.int32), 0, lc, nc, start, lst, mark, clock, got)
    for i in range(best):
        out[i] = comp[got[i]]
    return best


@search
def best_packing(owned: np.ndarray, configs: np.ndarray, out: np.ndarray) -> int:
    """The maximum number of pairwise disjoint configurations inside
    ``owned`` (bool[n]); writes one maximum packing (configuration ids) to
    ``out[:count]`` (``out`` needs n // 6 entries)."""
    n = owned.shape[0]
    cand = owned_configs(owned, configs)
    if cand.shape[0] == 0:
        return 0
    roots = _components(cand, configs, n)
    local = np.full(n, -1, dtype=np.int32)
    total = 0
    i = 0
    while i < cand.shape[0]:
        j = i + 1
        while j < cand.shape[0] and roots[j] == roots[i]:
            j += 1
        if j == i + 1:
            out[total] = cand[i]
            total += 1
        else:
            total += _pack(cand[i:j], configs, local, out[total:])
        i = j
    return total
