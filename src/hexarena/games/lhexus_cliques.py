"""Lhexus scoring on dense boards: a clique LP bound and the search it guides.

The packing LP (each cell in at most one configuration) exceeds the optimum
by 1 to 3 on fills of 0.8-0.95; adding a row per *small triangle* (three
pairwise touching cells: two configurations that each hold two of them
meet, so at most one of those is packed) closes most of that gap
(docs/lhexus.md).  For a component the earlier searches could not settle:

1. :func:`undominated`: a configuration meeting every configuration that
   another one it meets meets is dropped (a maximum packing survives);
2. :func:`clique_rows`: the rows, its cells then its small triangles;
3. a packing: greedy with (1,2)-swaps, then large neighbourhood search
   (``lhexus_local``);
4. :func:`dual_prices`: near-optimal dual prices ``w`` of those rows by
   primal-dual hybrid gradient (PDHG) steps; any ``w >= 0`` gives the upper
   bound ``sum(w) + sum over configurations of max(0, 1 - w(its rows))``;
   if its floor is the packing's size, that packing is a maximum one;
5. else, for each target from the bound's floor down to the packing plus
   one, reduced-cost fixing (:func:`_fix`) and :func:`_reach`, a
   depth-first search in cell order for a packing that large, taking
   turns with the neighbourhood search, each given twice as much on each
   turn (:data:`LNS_FIRST`, :data:`PROOF_FIRST`): on dense boards finding
   the optimum is often harder for the tree than proving nothing larger
   fits.  At each node the same bound over what is still possible (the
   rows some live configuration holds, the live configurations' positive
   reduced costs) and the colour bound (:func:`colours_fit`) are kept up
   to date as configurations die, and failed states (cell and covered
   cells ahead) are memoised.  A repacked neighbourhood counts as a node.
"""

from __future__ import annotations

import numpy as np

from ..kernels import njit
from .lhexus_local import by_first_cell, lns_packing, local_packing
from .lhexus_memo import memo_clear, memo_get, memo_put, spend, state_key

LNS_FIRST = 2000  # neighbourhoods the large neighbourhood search repacks first (doubled on each retry)
LNS_MOST_ROUNDS = 8000  # and at most this many on a retry
PROOF_FIRST = 4000  # search nodes first given to a target (doubled on each retry)
PDHG_STEPS = 4000  # most PDHG steps for the prices
CHECK_EVERY = 50  # PDHG steps between evaluations of the bound


@njit
def board_triangles(ncells: int) -> np.ndarray:
    """The small triangles (int32[T, 3]: three pairwise touching cells) of
    the regular hexhex board of ``ncells`` cells numbered row by row (as
    ``board.hexhex`` does); none if ``ncells`` is no hexhex size."""
    start = _row_starts(ncells)
    n = start.shape[0] // 2
    out = np.empty((2 * ncells, 3), dtype=np.int32)
    t = 0
    for r in range(start.shape[0] - 1):
        for c in range(start[r], start[r + 1]):
            x = abs(r - (n - 1)) + 2 * (c - start[r])  # doubled-x coordinate
            right, down_right, down_left = _at(x + 2, r, start, n), _at(x + 1, r + 1, start, n), \
                _at(x - 1, r + 1, start, n)
            if right >= 0 and down_right >= 0:
                out[t, 0], out[t, 1], out[t, 2] = c, right, down_right
                t += 1
            if down_right >= 0 and down_left >= 0:
                out[t, 0], out[t, 1], out[t, 2] = c, down_left, down_right
                t += 1
    return out[:t]


@njit
def _row_starts(ncells: int) -> np.ndarray:
    """The first cell of each row, then the cell count (int64[2n]), of the
    hexhex board of base n with ``ncells`` cells numbered row by row (as
    ``board.hexhex`` does); empty if ``ncells`` is no hexhex size."""
    n = 1
    while 3 * n * (n - 1) + 1 < ncells:
        n += 1
    if 3 * n * (n - 1) + 1 != ncells:
        return np.empty(0, dtype=np.int64)
    rows = 2 * n - 1
    start = np.zeros(rows + 1, dtype=np.int64)
    for r in range(rows):
        start[r + 1] = start[r] + n + min(r, rows - 1 - r)
    return start


@njit
def _at(x: int, r: int, start: np.ndarray, n: int) -> int:
    """The cell at doubled coordinates (x, r) of the hexhex board of base n, or -1."""
    if r < 0 or r >= 2 * n - 1:
        return -1
    p2 = x - abs(r - (n - 1))
    if p2 < 0 or p2 % 2 or start[r] + p2 // 2 >= start[r + 1]:
        return -1
    return start[r] + p2 // 2


@njit
def board_colours(ncells: int) -> np.ndarray:
    """The 3-colouring of the hexhex board of ``ncells`` cells (int8: touching
    cells differ; all -1 if ``ncells`` is no hexhex size).  A line or
    triangle holds two cells of each colour, a ring three of each colour
    but its centre's."""
    start = _row_starts(ncells)
    n = start.shape[0] // 2
    out = np.full(ncells, -1, dtype=np.int8)
    for r in range(start.shape[0] - 1):
        for c in range(start[r], start[r + 1]):
            x = abs(r - (n - 1)) + 2 * (c - start[r])  # doubled-x: a step right adds 2, down-left/right -1/+1
            out[c] = ((x - 3 * r + 3 * n) // 2) % 3
    return out


@njit
def _csr(counts: np.ndarray) -> np.ndarray:
    start = np.zeros(counts.shape[0] + 1, dtype=np.int32)
    for i in range(counts.shape[0]):
        start[i + 1] = start[i] + counts[i]
    return start


@njit
def clique_rows(lc: np.ndarray, nc: int, glob: np.ndarray, triangles: np.ndarray, local: np.ndarray):
    """The rows of a component (configurations ``lc``, local cells, ``glob``
    their board cells): its ``nc`` cells, then each small triangle that two
    or more configurations hold two cells of.  Returns (rows of each
    configuration: rstart, rlist; configurations of each row: mstart,
    mlist; row count).  ``local`` (board cell -> local id) is all -1 and
    left so."""
    m = lc.shape[0]
    per_cell = np.zeros(nc, dtype=np.int32)
    for k in range(m):
        for j in range(6):
            per_cell[lc[k, j]] += 1
    cstart = _csr(per_cell)
    clist = np.empty(cstart[nc], dtype=np.int32)
    fill = cstart[:nc].copy()
    for k in range(m):
        for j in range(6):
            clist[fill[lc[k, j]]] = k
            fill[lc[k, j]] += 1
    for c in range(nc):
        local[glob[c]] = c
    members = np.empty(2 * cstart[nc] + 1, dtype=np.int32)  # (triangle, configuration) pairs, flat
    tri_of = np.empty(2 * cstart[nc] + 1, dtype=np.int32)
    npairs, ntri = 0, 0
    for t in range(triangles.shape[0]):
        a, b, c = local[triangles[t, 0]], local[triangles[t, 1]], local[triangles[t, 2]]
        if a < 0 or b < 0 or c < 0:
            continue
        before = npairs
        for p in range(cstart[a], cstart[a + 1]):  # holding a and b or c
            k = clist[p]
            if _holds(lc, k, b) or _holds(lc, k, c):
                members[npairs], tri_of[npairs] = k, ntri
                npairs += 1
        for p in range(cstart[b], cstart[b + 1]):  # holding b and c, not a
            k = clist[p]
            if _holds(lc, k, c) and not _holds(lc, k, a):
                members[npairs], tri_of[npairs] = k, ntri
                npairs += 1
        if npairs - before >= 2:
            ntri += 1
            if npairs + 2 * (cstart[nc] // 3 + 6) > members.shape[0]:
                members = _grown(members)
                tri_of = _grown(tri_of)
        else:
            npairs = before
    for c in range(nc):
        local[glob[c]] = -1
    nrows = nc + ntri
    per_row = np.zeros(nrows, dtype=np.int32)
    per_row[:nc] = per_cell
    per_cfg = np.full(m, 6, dtype=np.int32)
    for p in range(npairs):
        per_row[nc + tri_of[p]] += 1
        per_cfg[members[p]] += 1
    mstart, rstart = _csr(per_row), _csr(per_cfg)
    mlist = np.empty(mstart[nrows], dtype=np.int32)
    rlist = np.empty(rstart[m], dtype=np.int32)
    mfill, rfill = mstart[:nrows].copy(), rstart[:m].copy()
    for k in range(m):
        for j in range(6):
            _link(lc[k, j], k, mlist, mfill, rlist, rfill)
    for p in range(npairs):
        _link(nc + tri_of[p], members[p], mlist, mfill, rlist, rfill)
    return rstart, rlist, mstart, mlist, nrows


@njit
def _grown(a: np.ndarray) -> np.ndarray:
    b = np.empty(2 * a.shape[0], dtype=a.dtype)
    b[:a.shape[0]] = a
    return b


@njit
def _link(row: int, k: int, mlist: np.ndarray, mfill: np.ndarray, rlist: np.ndarray, rfill: np.ndarray) -> None:
    mlist[mfill[row]] = k
    mfill[row] += 1
    rlist[rfill[k]] = row
    rfill[k] += 1


@njit
def _holds(lc: np.ndarray, k: int, c: int) -> bool:
    held = False
    for j in range(6):
        held |= lc[k, j] == c
    return held


@njit
def _sums(values: np.ndarray, start: np.ndarray, members: np.ndarray, out: np.ndarray) -> None:
    """out[i] = the sum of ``values`` over ``members[start[i]:start[i + 1]]``: with a configuration's rows
    (``rstart``, ``rlist``) the prices' sum per configuration, A^T y; with a row's configurations
    (``mstart``, ``mlist``) the LP's sum per row, A x."""
    for i in range(out.shape[0]):
        s = 0.0
        for q in range(start[i], start[i + 1]):
            s += values[members[q]]
        out[i] = s


@njit
def lagrangian(y: np.ndarray, rstart: np.ndarray, rlist: np.ndarray, scratch: np.ndarray) -> float:
    """The upper bound of prices ``y >= 0``: sum(y) + sum over configurations
    of max(0, 1 - y(its rows))."""
    _sums(y, rstart, rlist, scratch)
    value = y.sum()
    for k in range(scratch.shape[0]):
        value += max(0.0, 1.0 - scratch[k])
    return value


@njit
def _norm(rstart: np.ndarray, rlist: np.ndarray, mstart: np.ndarray, mlist: np.ndarray, nrows: int) -> float:
    """An upper estimate of the spectral norm of the row matrix (power steps)."""
    m = rstart.shape[0] - 1
    x = np.ones(m)
    y = np.empty(nrows)
    s = 1.0
    for _ in range(30):
        _sums(x, mstart, mlist, y)
        _sums(y, rstart, rlist, x)
        s = np.sqrt(x.max())
        x /= x.max()
    return 1.05 * s + 1e-9


@njit
def dual_prices(rstart: np.ndarray, rlist: np.ndarray, mstart: np.ndarray, mlist: np.ndarray, nrows: int,
                nc: int, good_enough: float):
    """(bound, row prices ``w``, the LP's primal ``x``) by PDHG on
    max sum(x) s.t. A x <= 1, x >= 0, keeping the prices of the lowest
    bound met; stops once the bound is under ``good_enough`` (nothing
    better is needed), stalls, or after :data:`PDHG_STEPS` steps."""
    m = rstart.shape[0] - 1
    step = 0.95 / _norm(rstart, rlist, mstart, mlist, nrows)
    x = np.zeros(m)
    xn = np.empty(m)
    g = np.empty(m)
    y = np.zeros(nrows)
    y[:nc] = 1.0 / 6.0
    ax = np.empty(nrows)
    best_y = y.copy()
    best = lagrangian(y, rstart, rlist, g)
    last = best
    for it in range(1, PDHG_STEPS + 1):
        _sums(y, rstart, rlist, g)
        for k in range(m):
            xn[k] = max(0.0, x[k] - step * (g[k] - 1.0))
            x[k] = 2.0 * xn[k] - x[k]
        _sums(x, mstart, mlist, ax)
        for row in range(nrows):
            y[row] = max(0.0, y[row] + step * (ax[row] - 1.0))
        x[:] = xn
        if it % CHECK_EVERY == 0:
            value = lagrangian(y, rstart, rlist, g)
            if value < best:
                best = value
                best_y[:] = y
            if best < good_enough:
                break
            if it % (10 * CHECK_EVERY) == 0:
                if last - best < 0.01:
                    break
                last = best
    return best, best_y, x


# The search's live state: (alive bool[m], cnt int32[rows]: live configurations holding each row,
# acnt int32[nc]: live configurations starting at each cell, covered bool[nc], trail int32[m + 1]: the
# configurations killed, in order, value float64[3]: the bound over what is live, the live cells, the trail's
# length).  A configuration is live when it starts at or after the search's cell and misses the covered cells.
BOUND, CELLS, TRAIL, COLOURS = range(4)  # COLOURS: the live cells of colour 0, then of 1 and 2


@njit
def _kill(k: int, net, live) -> None:
    """Configuration ``k`` dies: the rows only it held leave the bound, as does its positive reduced cost."""
    lc, rstart, rlist, w, r = net[0], net[3], net[4], net[7], net[8]
    alive, cnt, acnt, trail, value = live[0], live[1], live[2], live[4], live[5]
    alive[k] = False
    acnt[lc[k, 0]] -= 1
    value[BOUND] -= max(r[k], 0.0)
    nc = acnt.shape[0]
    for q in range(rstart[k], rstart[k + 1]):
        row = rlist[q]
        cnt[row] -= 1
        if cnt[row] == 0:
            value[BOUND] -= w[row]
            if row < nc:
                value[CELLS] -= 1
                value[COLOURS + net[10][row]] -= 1
    trail[int(value[TRAIL])] = k
    value[TRAIL] += 1


@njit
def _undo(to: int, net, live) -> None:
    """Revive the configurations killed since the trail was ``to`` long, last first."""
    lc, rstart, rlist, w, r = net[0], net[3], net[4], net[7], net[8]
    alive, cnt, acnt, trail, value = live[0], live[1], live[2], live[4], live[5]
    nc = acnt.shape[0]
    while value[TRAIL] > to:
        value[TRAIL] -= 1
        k = trail[int(value[TRAIL])]
        alive[k] = True
        acnt[lc[k, 0]] += 1
        value[BOUND] += max(r[k], 0.0)
        for q in range(rstart[k], rstart[k + 1]):
            row = rlist[q]
            if cnt[row] == 0:
                value[BOUND] += w[row]
                if row < nc:
                    value[CELLS] += 1
                    value[COLOURS + net[10][row]] += 1
            cnt[row] += 1


@njit
def _take(k: int, net, live) -> None:
    """Pack ``k``: every live configuration meeting it dies (``k`` too), its cells are covered."""
    lc, mstart, mlist = net[0], net[5], net[6]
    alive, covered = live[0], live[3]
    for j in range(6):
        c = lc[k, j]
        for q in range(mstart[c], mstart[c + 1]):
            if alive[mlist[q]]:
                _kill(mlist[q], net, live)
        covered[c] = True


@njit
def _pass(d: int, net, live) -> None:
    """Leave cell ``d`` uncovered: the live configurations starting there die."""
    order, first, alive = net[1], net[2], live[0]
    for q in range(first[d], first[d + 1]):
        if alive[order[q]]:
            _kill(order[q], net, live)


@njit
def _next_stop(d: int, acnt: np.ndarray) -> int:
    """The first cell from ``d`` on where a live configuration starts (the cell count if none)."""
    while d < acnt.shape[0] and acnt[d] == 0:
        d += 1
    return d


@njit
def _may_reach(target: int, placed: int, value: np.ndarray) -> bool:
    return placed + value[BOUND] + 1e-7 >= target and placed + int(value[CELLS]) // 6 >= target \
        and colours_fit(target - placed, value[COLOURS:COLOURS + 3])


@njit
def colours_fit(t: int, free: np.ndarray) -> bool:
    """Whether ``t`` disjoint configurations may fit in cells of which
    ``free[i]`` have colour i: a line or triangle takes two of each colour,
    a ring centred on colour j three of each other colour, so with R rings
    colour i gives 2t + R - 3 R_i cells; some R <= t must let every R_i
    reach (R - (free[i] - 2t)) / 3 within R."""
    g0, g1, g2 = int(free[0]) - 2 * t, int(free[1]) - 2 * t, int(free[2]) - 2 * t
    if g0 >= 0 and g1 >= 0 and g2 >= 0:
        return True
    for r in range(1, t + 1):
        if max(0, -((g0 - r) // 3)) + max(0, -((g1 - r) // 3)) + max(0, -((g2 - r) // 3)) <= r:
            return True
    return False


@njit
def _retract(top: int, net, live, stack) -> int:
    """Undo the option frame ``top`` tried last; a configuration it packed is
    then excluded for the options after it (its packings were all tried).
    Returns how many configurations left the packing (0 or 1)."""
    took, mark = stack[4], stack[3]
    _undo(mark[top], net, live)
    k = took[top]
    if k < 0:
        return 0
    for j in range(6):
        live[3][net[0][k, j]] = False
    took[top] = -1
    _kill(k, net, live)
    mark[top] = int(live[5][TRAIL])
    return 1


@njit
def _reach(target: int, net, live, stack: np.ndarray, memo, got: np.ndarray, span: int) -> bool:
    """Whether ``target`` disjoint configurations fit (then written to
    ``got``): depth first in cell order, at each cell each live configuration
    starting there (the LP's favourites first) or none (at its place
    ``lpos``), cut by the bound of what is live and by the memo of failed
    states.  False also when the memo's nodes run out (then marked).  The
    live state is left as found."""
    order, first, lpos = net[1], net[2], net[9]
    alive, acnt, covered, value = live[0], live[2], live[3], live[5]
    cell, opt, base, mark, took, need = stack[0], stack[1], stack[2], stack[3], stack[4], stack[5]
    nc = covered.shape[0]
    d = _next_stop(0, acnt)
    if d == nc or not _may_reach(target, 0, value):
        return False
    top, placed = 0, 0
    cell[0], opt[0], base[0], mark[0], took[0], need[0] = d, 0, int(value[TRAIL]), int(value[TRAIL]), -1, target
    while top >= 0:
        d = cell[top]
        placed -= _retract(top, net, live, stack)
        pushed = False
        options = first[d + 1] - first[d]
        while not pushed and opt[top] <= options:
            i = opt[top]
            opt[top] += 1
            if i != lpos[d]:
                k = order[first[d] + i - (i > lpos[d])]
                if not alive[k]:
                    continue
                _take(k, net, live)
                took[top] = k
                placed += 1
                if placed == target:
                    _packed(top, took, got)
                    _unwind(top, net, live, stack)
                    return True
            else:
                _pass(d, net, live)
            nxt = _next_stop(d + 1, acnt)
            if nxt < nc and _may_reach(target, placed, value) \
                    and target - placed < memo_get(memo, state_key(nxt, covered, span), nc):
                if not spend(memo):
                    _unwind(top, net, live, stack)
                    return False
                top += 1
                cell[top], opt[top], took[top], need[top] = nxt, 0, -1, target - placed
                base[top] = mark[top] = int(value[TRAIL])
                pushed = True
            else:
                placed -= _retract(top, net, live, stack)
        if not pushed:
            memo_put(memo, state_key(d, covered, span), need[top])
            _undo(base[top], net, live)
            top -= 1
    return False


@njit
def _packed(top: int, took: np.ndarray, got: np.ndarray) -> None:
    n = 0
    for i in range(top + 1):
        if took[i] >= 0:
            got[n] = took[i]
            n += 1


@njit
def _unwind(top: int, net, live, stack: np.ndarray) -> None:
    """Leave the live state as the search found it."""
    took = stack[4]
    for i in range(top + 1):
        if took[i] >= 0:
            for j in range(6):
                live[3][net[0][took[i], j]] = False
    _undo(stack[2][0], net, live)


@njit
def _priced_rows(rstart: np.ndarray, rlist: np.ndarray, w: np.ndarray, nc: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows of each configuration less the triangles priced 0 (the
    search's bound never reads them; cells stay, counted for the cells bound)."""
    m = rstart.shape[0] - 1
    start = np.zeros(m + 1, dtype=np.int32)
    kept = np.empty_like(rlist)
    n = 0
    for k in range(m):
        for q in range(rstart[k], rstart[k + 1]):
            if rlist[q] < nc or w[rlist[q]] > 0.0:
                kept[n] = rlist[q]
                n += 1
        start[k + 1] = n
    return start, kept[:n]


@njit
def _options(order: np.ndarray, first: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The configurations starting at each cell by decreasing LP value, and
    where among them to try leaving the cell uncovered: after those whose
    value exceeds the LP's share of the cell left to the others."""
    nc = first.shape[0] - 1
    ranked = order.copy()
    lpos = np.empty(nc, dtype=np.int32)
    for c in range(nc):
        group = order[first[c]:first[c + 1]]
        by_value = group[np.argsort(-x[group], kind="mergesort")]
        ranked[first[c]:first[c + 1]] = by_value
        rest = 1.0 - x[group].sum()
        lpos[c] = 0
        for k in by_value:
            lpos[c] += x[k] > rest
    return ranked, lpos


@njit
def _live_state(net, nrows: int, nc: int):
    """Every configuration live, nothing covered (see :data:`BOUND`)."""
    lc, mstart, w, r, colour = net[0], net[5], net[7], net[8], net[10]
    m = lc.shape[0]
    cnt = np.empty(nrows, dtype=np.int32)
    value = np.zeros(COLOURS + 3)
    for row in range(nrows):
        cnt[row] = mstart[row + 1] - mstart[row]
        value[BOUND] += w[row]
    for c in range(nc):  # the cells some configuration holds (dominance may have dropped all of a cell's)
        if cnt[c] > 0:
            value[CELLS] += 1
            value[COLOURS + colour[c]] += 1
    for k in range(m):
        value[BOUND] += max(r[k], 0.0)
    acnt = np.zeros(nc, dtype=np.int32)
    for k in range(m):
        acnt[lc[k, 0]] += 1
    return (np.ones(m, dtype=np.bool_), cnt, acnt, np.zeros(nc, dtype=np.bool_), np.empty(m + 1, dtype=np.int32),
            value)


@njit
def undominated(lc: np.ndarray, nc: int) -> np.ndarray:
    """The configurations kept (bool[m]) once every configuration v that
    meets all that some configuration u it meets does (N[u] within N[v] in
    the conflict graph, each neighbourhood holding its own configuration)
    is dropped, until none is: swapping u for v keeps a packing one, so a
    maximum packing survives.  Of two with the same neighbours, the later
    one goes."""
    m = lc.shape[0]
    words = (m + 63) // 64
    near = np.zeros((m, words), dtype=np.uint64)
    holders = np.empty((nc, 64), dtype=np.int32)
    count = np.zeros(nc, dtype=np.int32)
    for k in range(m):
        for j in range(6):
            c = lc[k, j]
            if count[c] < 64:
                holders[c, count[c]] = k
            count[c] += 1
    if count.max() > 64:  # more than a board's cell ever has: keep everything
        return np.ones(m, dtype=np.bool_)
    one = np.uint64(1)
    for c in range(nc):
        for a in range(count[c]):
            for b in range(count[c]):
                u, v = holders[c, a], holders[c, b]
                near[u, v >> 6] |= one << np.uint64(v & 63)
    keep = np.ones(m, dtype=np.bool_)
    alive = np.zeros(words, dtype=np.uint64)
    for k in range(m):
        alive[k >> 6] |= one << np.uint64(k & 63)
    changed = True
    while changed:
        changed = False
        for u in range(m):
            if not keep[u]:
                continue
            for v in range(m):
                if v == u or not keep[v] or not (near[u, v >> 6] >> np.uint64(v & 63)) & one:
                    continue
                inside = True
                for q in range(words):
                    if near[u, q] & alive[q] & ~near[v, q]:
                        inside = False
                        break
                if inside:
                    keep[v] = False
                    alive[v >> 6] &= ~(one << np.uint64(v & 63))
                    changed = True
    return keep


@njit
def dense_pack(lc: np.ndarray, nc: int, glob: np.ndarray, triangles: np.ndarray, local: np.ndarray, memo,
               got: np.ndarray) -> int:
    """The maximum packing of one component (configurations ``lc`` on local
    cells ``0..nc-1``, board cells ``glob``), written to ``got`` (rows of
    ``lc``): the dominated configurations dropped (:func:`undominated`),
    then :func:`_pack_kept`.  -1 when the memo's nodes run out."""
    ids = np.flatnonzero(undominated(lc, nc)).astype(np.int32)
    order, first = by_first_cell(lc[ids], nc)
    found = _pack_kept(lc[ids], nc, glob, order, first, triangles, local, memo, got)
    for i in range(max(found, 0)):
        got[i] = ids[got[i]]
    return found


@njit
def _pack_kept(lc: np.ndarray, nc: int, glob: np.ndarray, order: np.ndarray, first: np.ndarray,
               triangles: np.ndarray, local: np.ndarray, memo, got: np.ndarray) -> int:
    """:func:`dense_pack` on the kept configurations: prices of the clique
    LP, then :func:`_reach` for targets from the bound's floor down."""
    rstart, rlist, mstart, mlist, nrows = clique_rows(lc, nc, glob, triangles, local)
    rng = np.array([np.uint64(0x2545F4914F6CDD1D)], dtype=np.uint64)
    start = local_packing(lc, order, mstart, mlist, nc, got)
    start = lns_packing(lc, mstart, mlist, nc, start, nc // 6, got, LNS_FIRST, rng)
    if not spend(memo, LNS_FIRST):
        return -1
    bound, w, x = dual_prices(rstart, rlist, mstart, mlist, nrows, nc, start + 1.0 - 1e-7)
    target = min(int(bound + 1e-7), nc // 6)
    if target <= start:
        return start
    r = np.empty(lc.shape[0])
    _sums(w, rstart, rlist, r)
    r = 1.0 - r
    rstart, rlist = _priced_rows(rstart, rlist, w, nc)
    ranked, lpos = _options(order, first, x)
    colour = board_colours(local.shape[0])[glob[:nc]]
    hexhex = colour[0] >= 0
    colour[:] = np.maximum(colour, 0)
    net = (lc, ranked, first, rstart, rlist, mstart, mlist, w, r, lpos, colour)
    live = _live_state(net, nrows, nc)
    if not hexhex:  # no colouring: colours 1 and 2 never run short, so the colour bound never cuts
        live[5][COLOURS + 1:] = 1e9
    stack = np.empty((6, nc + 1), dtype=np.int32)
    span = int((lc[:, 5] - lc[:, 0]).max()) + 1
    found = np.empty_like(got)
    rounds, cap, fresh = 0, PROOF_FIRST, True  # the first neighbourhoods were searched above
    while target > start:
        start = lns_packing(lc, mstart, mlist, nc, start, target, got, rounds, rng)
        if start == target:
            return start
        if not spend(memo, rounds):
            return -1
        if fresh:  # failed states of another target say nothing of this one
            memo_clear(memo)
            fresh = False
        _fix(bound - target, net, live)
        outcome = _reach_within(cap, target, net, live, stack, memo, found, span)
        _undo(0, net, live)
        if outcome > 0:
            got[:target] = found[:target]
            return target
        if memo[2][3]:
            return -1
        if outcome == 0:
            target, fresh = target - 1, True
        else:
            rounds, cap = min(max(2 * rounds, LNS_FIRST), LNS_MOST_ROUNDS), 2 * cap
    return start


@njit
def _reach_within(cap: int, target: int, net, live, stack: np.ndarray, memo, found: np.ndarray, span: int) -> int:
    """:func:`_reach` within ``cap`` more nodes (and the memo's own limit):
    1 if found, 0 if none fits, -1 if the nodes ran out (the memo then
    marked out of nodes only if its own limit was reached)."""
    meta = memo[2]
    left, spent = meta[2], meta[4]
    meta[2] = cap if left < 0 else min(cap, left)
    outcome = 1 if _reach(target, net, live, stack, memo, found, span) else -1 if meta[3] else 0
    meta[2] = -1 if left < 0 else left - (meta[4] - spent)
    meta[3] = outcome < 0 and meta[2] == 0
    return outcome


@njit
def _fix(slack: float, net, live) -> None:
    """Reduced-cost fixing for one target: a packing that large leaves the
    bound at most ``slack`` to lose, and packing configuration k alone
    loses -r[k] (its prices beyond 1), so those losing more die (and with
    them rows only they held)."""
    r, alive = net[8], live[0]
    for k in range(r.shape[0]):
        if alive[k] and -r[k] > slack + 1e-7:
            _kill(k, net, live)
