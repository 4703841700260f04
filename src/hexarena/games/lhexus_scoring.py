"""Lhexus scoring: the maximum number of pairwise disjoint configurations.

A configuration is six cells: a straight line of six (three directions),
the compact triangle 1+2+3 (two orientations) or the ring of six around a
cell whose six neighbours are on the board.  A player's score is the size of
a maximum packing of disjoint configurations inside his stones: maximum set
packing, solved exactly (greedy is wrong, see tests/games/test_lhexus_scoring.py).

:func:`best_packing` splits the owned configurations into components (sets
of configurations linked by shared cells) and solves each without recursion
(every kernel is cached and callable from other kernels): first a short dive
for a packing as large as the root bound; else a Russian-doll search over
the cells in board order, the best packing of the cells from c on for c from
the last cell back, each step a depth-first search in cell order cut by the
exact values already known, a Lagrangian bound and a memo of failed states;
a component that search leaves open after a few thousand nodes goes to the
clique-LP search of :mod:`.lhexus_cliques` (dense boards).

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

import numpy as np

from ..board import Topology
from ..kernels import njit
from .lhexus_cliques import board_triangles, dense_pack
from .lhexus_local import SMALL, by_first_cell, small_pack
from .lhexus_memo import MEMO_SLOTS, memo_clear, memo_get, memo_new, memo_put, spend, state_key

DIVE_NODES = 1 << 15  # the dive's node limit
DOLL_NODES = 4000  # the Russian-doll search's, before the clique-LP search takes over
PRICE, PREFIX, REDUCED, SPAN, BEST = range(5)  # rows of _bound_tables
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
            found = [f for f in (topo.at(x + dx, y + dy) for dx, dy in offsets) if f is not None]
            if len(found) == len(offsets):  # all on the board
                cells.append(sorted(found))
                kinds.append(kind)
    return np.array(cells, dtype=np.int32).reshape(-1, 6), np.array(kinds, dtype=np.int8)


@lru_cache(maxsize=16)
def tables(topo: Topology) -> ScoringTables:
    """The configurations of ``topo``, computed once per board."""
    return ScoringTables(*configurations(topo))


def score(board: Topology | ScoringTables, stones: np.ndarray, nodes: int = -1) -> tuple[int, list[int]]:
    """``(score, configuration ids of one maximum packing)`` of the cells
    where ``stones`` (bool[n]) is true; ``(-1, [])`` (unknown) when the
    search needs more than ``nodes`` nodes (no limit if negative)."""
    t = tables(board) if isinstance(board, Topology) else board
    out = np.empty(len(stones) // 6 + 1, dtype=np.int32)
    n = best_packing(np.asarray(stones, dtype=np.bool_), t.configs, out, nodes)
    return n, [int(k) for k in out[:max(n, 0)]]


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
def owned_by_colour(board: np.ndarray, configs: np.ndarray, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`owned_configs` of colours ``a`` and ``b`` (1 and 2, either
    way round; 0 is empty) of ``board`` in one pass.  Branch-free: the
    bitwise and of a configuration's six colours is its owner's colour when
    one colour fills it, else 0 (1 & 2 == 0)."""
    ids_a = np.empty(configs.shape[0], dtype=np.int32)
    ids_b = np.empty(configs.shape[0], dtype=np.int32)
    ma = mb = 0
    for k in range(configs.shape[0]):
        owner = board[configs[k, 0]] & board[configs[k, 1]] & board[configs[k, 2]] & \
            board[configs[k, 3]] & board[configs[k, 4]] & board[configs[k, 5]]
        ids_a[ma] = k
        ids_b[mb] = k
        ma += owner == a
        mb += owner == b
    return ids_a[:ma], ids_b[:mb]


@njit
def greedy_packing(cand: np.ndarray, configs: np.ndarray, ncells: int) -> int:
    """A lower bound of :func:`pack`, fast: the configurations ``cand`` taken
    in order whenever they miss the ones taken."""
    used = np.zeros(ncells, dtype=np.bool_)
    count = 0
    for k in cand:
        ok = True
        for j in range(6):
            if used[configs[k, j]]:
                ok = False
                break
        if ok:
            for j in range(6):
                used[configs[k, j]] = True
            count += 1
    return count


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
    """The component renumbered in board order: (cells int32[m, 6] in local
    cell ids, ascending; the local cell count; the board cell of each local
    cell).  Leaves ``local`` (global cell -> local id) all -1, as it found it."""
    m = comp.shape[0]
    glob = np.empty(6 * m, dtype=np.int32)
    nc = 0
    for i in range(m):
        for j in range(6):
            g = configs[comp[i], j]
            if local[g] < 0:
                local[g] = 0
                glob[nc] = g
                nc += 1
    glob = np.sort(glob[:nc])
    for c in range(nc):
        local[glob[c]] = c
    lc = np.empty((m, 6), dtype=np.int32)
    for i in range(m):
        for j in range(6):
            lc[i, j] = local[configs[comp[i], j]]
    for c in range(nc):
        local[glob[c]] = -1
    return lc, nc, glob


@njit
def _fits(k: int, lc: np.ndarray, covered: np.ndarray) -> bool:
    for j in range(6):
        if covered[lc[k, j]]:
            return False
    return True


@njit
def _cover(k: int, lc: np.ndarray, covered: np.ndarray, value: bool) -> None:
    for j in range(6):
        covered[lc[k, j]] = value


@njit
def _next_cell(d: int, lc: np.ndarray, order: np.ndarray, first: np.ndarray, covered: np.ndarray) -> int:
    """The first cell from ``d`` on where a configuration starts that fits
    (the cell count if none)."""
    nc = covered.shape[0]
    while d < nc:
        if not covered[d]:
            for q in range(first[d], first[d + 1]):
                if _fits(order[q], lc, covered):
                    return d
        d += 1
    return nc


@njit
def _extend(target: int, d0: int, lc: np.ndarray, order: np.ndarray, first: np.ndarray, suffix: np.ndarray,
            bound: np.ndarray, covered: np.ndarray, cell: np.ndarray, opt: np.ndarray, took: np.ndarray,
            need: np.ndarray, memo, got: np.ndarray, budget: int = -1) -> bool:
    """Whether ``target`` disjoint configurations fit in the uncovered cells
    from ``d0`` on; if so writes them to ``got``.  Depth first in cell order
    (at each cell: each configuration starting there, then none), cut when
    the ones placed plus an upper bound on the rest (``_ceiling``) fall short
    of ``target`` or a state already failed for as many (``memo``).  Gives
    up (False) after ``budget`` nodes unless it is negative, or when the
    memo's nodes run out (then marked).  ``covered`` is restored; ``cell``,
    ``opt``, ``took`` and ``need`` are the stack (one entry per cell)."""
    if target == 0:
        return True
    nc = covered.shape[0]
    d = _next_cell(d0, lc, order, first, covered)
    if d == nc or _ceiling(d, suffix, bound, covered) < target:
        return False
    top, placed = 0, 0
    cell[0], opt[0], took[0], need[0] = d, first[d], -1, target
    while top >= 0:
        d = cell[top]
        if took[top] >= 0:
            _cover(took[top], lc, covered, False)
            took[top] = -1
            placed -= 1
        pushed = False
        while not pushed and opt[top] <= first[d + 1]:
            q = opt[top]
            opt[top] += 1
            if q < first[d + 1]:  # take the configuration, else leave the cell
                k = order[q]
                if not _fits(k, lc, covered):
                    continue
                _cover(k, lc, covered, True)
                took[top] = k
                placed += 1
                if placed == target:
                    return _unwind(took, top, lc, covered, got)
            nxt = _next_cell(d + 1, lc, order, first, covered)
            if nxt < nc and placed + _ceiling(nxt, suffix, bound, covered) >= target \
                    and target - placed < memo_get(memo, state_key(nxt, covered, int(bound[SPAN, 0])), nc):
                if budget == 0 or not spend(memo):
                    _unwind(took, top, lc, covered, got)
                    return False
                budget -= 1
                top += 1
                cell[top], opt[top], took[top], need[top] = nxt, first[nxt], -1, target - placed
                pushed = True
            elif took[top] >= 0:
                _cover(took[top], lc, covered, False)
                took[top] = -1
                placed -= 1
        if not pushed:
            memo_put(memo, state_key(d, covered, int(bound[SPAN, 0])), need[top])
            top -= 1
    return False


@njit
def _lagrange(c: int, lc: np.ndarray, order: np.ndarray, first: np.ndarray, price: np.ndarray, rounds: int) -> float:
    """The Lagrangian bound of the configurations starting from cell ``c``
    on, relaxing "each cell in at most one": for prices p >= 0 on the cells,
    sum(p) + sum over configurations of max(0, 1 - p(its cells)).
    Subgradient steps from ``price``, left holding the best prices found."""
    nc = first.shape[0] - 1
    kept = price.copy()
    grad = np.empty(nc)
    best, scale, stale = np.inf, 1.0, 0
    for _ in range(rounds):
        value = price[c:nc].sum()
        grad[c:nc] = 1.0
        for q in range(first[c], first[nc]):
            k = order[q]
            reduced = 1.0
            for j in range(6):
                reduced -= price[lc[k, j]]
            if reduced > 0.0:
                value += reduced
                for j in range(6):
                    grad[lc[k, j]] -= 1.0
        if value < best - 1e-9:
            best, stale = value, 0
            kept[c:nc] = price[c:nc]
        else:
            stale += 1
            if stale >= 3:
                scale, stale = scale / 2, 0
        norm = (grad[c:nc] * grad[c:nc]).sum()
        if norm == 0.0:
            break
        price[c:nc] = np.maximum(price[c:nc] - scale * 0.1 * value / norm * grad[c:nc], 0.0)
    price[c:nc] = kept[c:nc]
    return best


@njit
def _bound_tables(c: int, lc: np.ndarray, order: np.ndarray, first: np.ndarray, suffix: np.ndarray,
                  bound: np.ndarray) -> None:
    """Fill the rows of ``bound`` (float64[5, nc + 1]) from cell ``c`` on,
    for ``_ceiling``, given its PRICE row: PREFIX (prices of the cells before
    each cell), REDUCED (sum of max(0, 1 - price) over the configurations
    starting from each cell on) and BEST (the least over j >= each cell of
    PREFIX[j + span] - REDUCED[j] + suffix[j]); SPAN[0] is the longest
    configuration, first to last cell, plus one."""
    nc = suffix.shape[0] - 1
    for d in range(c, nc):
        bound[PREFIX, d + 1] = bound[PREFIX, d] + bound[PRICE, d]
    span = int(bound[SPAN, 0])
    bound[REDUCED, nc] = 0.0
    bound[BEST, nc] = bound[PREFIX, nc]
    for d in range(nc - 1, c - 1, -1):
        bound[REDUCED, d] = bound[REDUCED, d + 1]
        for q in range(first[d], first[d + 1]):
            k = order[q]
            reduced = 1.0
            for j in range(6):
                reduced -= bound[PRICE, lc[k, j]]
            bound[REDUCED, d] += max(reduced, 0.0)
        here = bound[PREFIX, min(d + span, nc)] - bound[REDUCED, d] + suffix[d]
        bound[BEST, d] = min(here, bound[BEST, d + 1])


@njit
def _ceiling(d: int, suffix: np.ndarray, bound: np.ndarray, covered: np.ndarray) -> int:
    """An upper bound on the packing of the uncovered cells from ``d`` on
    (``d`` past the first cell of every covering configuration): split at
    any j >= d, those starting from j on are at most ``suffix[j]``, those
    starting before at most the price of the free cells they can reach plus
    their positive reduced costs (Lagrangian); j = d gives ``suffix[d]``
    alone."""
    nc = covered.shape[0]
    taken = 0.0
    free = nc - d
    for c in range(d, min(d + int(bound[SPAN, 0]), nc)):
        if covered[c]:
            taken += bound[PRICE, c]
            free -= 1
    split = bound[BEST, d] + bound[REDUCED, d] - bound[PREFIX, d] - taken
    return min(suffix[d], int(split + 1e-9), free // 6)


@njit
def _unwind(took: np.ndarray, top: int, lc: np.ndarray, covered: np.ndarray, got: np.ndarray) -> bool:
    """Copy the configurations taken on the stack to ``got`` and uncover them."""
    n = 0
    for i in range(top + 1):
        if took[i] >= 0:
            got[n] = took[i]
            n += 1
            _cover(took[i], lc, covered, False)
    return True


@njit
def _may_grow(c: int, lc: np.ndarray, order: np.ndarray, first: np.ndarray, suffix: np.ndarray,
              bound: np.ndarray) -> bool:
    """Whether the packing from cell ``c`` on may beat ``suffix[c + 1]``:
    not if no configuration starts at ``c``, nor if the Lagrangian bound
    (prices warm-started from the previous cell's) says no.  Readies the
    bound tables for the search."""
    if first[c] == first[c + 1]:
        return False
    nc = suffix.shape[0] - 1
    if first[nc] - first[c] > 12:
        bound[PRICE, c] = 1.0 / 6.0
        if _lagrange(c, lc, order, first, bound[PRICE], 60) < suffix[c + 1] + 1 - 1e-9:
            return False
    _bound_tables(c, lc, order, first, suffix, bound)
    return True


@njit
def _dive(lc: np.ndarray, order: np.ndarray, first: np.ndarray, bound: np.ndarray, covered: np.ndarray,
          cell: np.ndarray, opt: np.ndarray, took: np.ndarray, need: np.ndarray, memo, got: np.ndarray) -> int:
    """A short search (2 ** 15 nodes) for a packing as large as the upper
    bound min(cells // 6, Lagrangian bound), which is then a maximum one
    (written to ``got``): the common case on a nearly full board.  Returns
    its size, or 0 if not found.  Leaves the root prices in ``bound``."""
    nc = covered.shape[0]
    bound[PRICE, :nc] = 1.0 / 6.0
    top = min(nc // 6, int(_lagrange(0, lc, order, first, bound[PRICE], 300) + 1e-9))
    cells = (nc - np.arange(nc + 1)) // 6
    _bound_tables(0, lc, order, first, cells, bound)
    if _extend(top, 0, lc, order, first, cells, bound, covered, cell, opt, took, need, memo, got, DIVE_NODES):
        return top
    return 0


@njit
def _pack(comp: np.ndarray, configs: np.ndarray, local: np.ndarray, out: np.ndarray, memo,
          triangles: np.ndarray) -> int:
    """Exact maximum packing of one component, writing the chosen
    configuration ids to ``out``; -1 when the memo's nodes ran out.  The
    dive, then the Russian-doll search for up to :data:`DOLL_NODES` nodes,
    then the clique-LP search of ``lhexus_cliques`` (with the memo cleared)."""
    lc, nc, glob = _local_tables(comp, configs, local)
    order, first = by_first_cell(lc, nc)
    got = np.empty(nc // 6 + 1, dtype=np.int32)
    memo_clear(memo)
    found = _russian_doll(lc, nc, order, first, memo, got)
    if found == -2:
        memo_clear(memo)
        found = dense_pack(lc, nc, glob, triangles, local, memo, got)
    for i in range(max(found, 0)):
        out[i] = comp[got[i]]
    return found


@njit
def _russian_doll(lc: np.ndarray, nc: int, order: np.ndarray, first: np.ndarray, memo, got: np.ndarray) -> int:
    """The dive, then the Russian-doll search: the best packing of the
    cells from c on, for c from the last cell back, grows by one exactly
    when a configuration starting at c plus as many as after c fit.  Its
    size (the packing in ``got``), -1 when the memo's nodes ran out, -2
    after :data:`DOLL_NODES` nodes without an answer."""
    suffix = np.zeros(nc + 1, dtype=np.int32)
    covered = np.zeros(nc, dtype=np.bool_)
    cell = np.empty(nc, dtype=np.int32)
    opt = np.empty(nc, dtype=np.int32)
    took = np.empty(nc, dtype=np.int32)
    need = np.empty(nc, dtype=np.int32)
    bound = np.zeros((5, nc + 1))
    bound[SPAN, 0] = (lc[:, 5] - lc[:, 0]).max() + 1
    if lc.shape[0] > 12:
        top = _dive(lc, order, first, bound, covered, cell, opt, took, need, memo, got)
        if memo[2][3]:
            return -1
        if top > 0:
            return top
    start = memo[2][4]
    best = np.empty(nc // 6 + 1, dtype=np.int32)  # (a search cut short leaves its stack in got)
    for c in range(nc - 1, -1, -1):
        suffix[c] = suffix[c + 1]
        if not _may_grow(c, lc, order, first, suffix, bound):
            continue
        for q in range(first[c], first[c + 1]):
            k = order[q]
            _cover(k, lc, covered, True)
            found = _extend(suffix[c + 1], c + 1, lc, order, first, suffix, bound, covered, cell, opt, took, need,
                            memo, got[1:], max(DOLL_NODES - (memo[2][4] - start), 0))
            if memo[2][3]:
                return -1
            _cover(k, lc, covered, False)
            if found:
                suffix[c] += 1
                got[0] = k
                best[:suffix[c]] = got[:suffix[c]]
                break
            if memo[2][4] - start >= DOLL_NODES:
                return -2
    got[:suffix[0]] = best[:suffix[0]]
    return suffix[0]


@njit
def best_packing(owned: np.ndarray, configs: np.ndarray, out: np.ndarray, nodes: int = -1) -> int:
    """The maximum number of pairwise disjoint configurations inside
    ``owned`` (bool[n]); writes one maximum packing (configuration ids) to
    ``out[:count]`` (``out`` needs n // 6 + 1 entries).  With ``nodes`` >= 0,
    gives up after that many search nodes and returns -1 (unknown)."""
    return pack(owned_configs(owned, configs), configs, owned.shape[0], out, nodes)


@njit
def pack(cand: np.ndarray, configs: np.ndarray, ncells: int, out: np.ndarray, nodes: int = -1) -> int:
    """:func:`best_packing` of the configurations ``cand`` (ids in
    increasing order) on a board of ``ncells`` cells."""
    if cand.shape[0] == 0:
        return 0
    roots = _components(cand, configs, ncells)
    local = np.empty(0, dtype=np.int32)
    memo = memo_new(0)
    memo[2][2] = nodes
    triangles = np.empty((0, 3), dtype=np.int32)
    on_cell = np.zeros(ncells, dtype=np.int64)
    total = 0
    i = 0
    while i < cand.shape[0]:
        j = i + 1
        while j < cand.shape[0] and roots[j] == roots[i]:
            j += 1
        if j == i + 1:
            out[total] = cand[i]
            total += 1
        elif j - i <= SMALL:
            total += small_pack(cand[i:j], configs, on_cell, out[total:])
        else:
            if local.shape[0] == 0:
                local = np.full(ncells, -1, dtype=np.int32)
                triangles = board_triangles(ncells)
                memo = memo_new(MEMO_SLOTS)
                memo[2][2] = nodes
            got = _pack(cand[i:j], configs, local, out[total:], memo, triangles)
            if got < 0:
                return -1
            total += got
        i = j
    return total
