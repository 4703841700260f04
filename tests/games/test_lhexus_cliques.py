"""Lhexus scoring on dense boards: the small triangles, the clique LP's
prices, the local search and the clique-LP search, checked against geometry,
HiGHS's LP and integer programme."""

from itertools import combinations

import numpy as np
import pytest
from scipy.optimize import linprog
from scipy.sparse import csr_matrix

from hexarena.board import hexhex
from hexarena.games import lhexus_cliques as C
from hexarena.games.lhexus_local import lns_packing, local_packing
from hexarena.games.lhexus_memo import MEMO_SLOTS, memo_new, spend
from hexarena.games.lhexus_scoring import _local_tables, owned_configs, score, tables
from tests.games.test_lhexus_scoring import check_packing, milp_count


def component(size, fill, seed):
    """(topology, stones, the owned configurations in local cells, ...) of a
    random fill whose owned configurations form one component."""
    topo = hexhex(size)
    t = tables(topo)
    stones = np.random.default_rng(seed).random(topo.ncells) < fill
    cand = owned_configs(stones, t.configs)
    local = np.full(topo.ncells, -1, dtype=np.int32)
    lc, nc, glob = _local_tables(cand, t.configs, local)
    return topo, t, stones, cand, lc, nc, glob, local


def rows_of(lc, nc, glob, topo, local):
    return C.clique_rows(lc, nc, glob, C.board_triangles(topo.ncells), local)


@pytest.mark.parametrize("size", [2, 3, 5, 10])
def test_board_triangles_are_the_pairwise_touching_triples(size):
    topo = hexhex(size)
    near = [set(topo.neighbours(c)) for c in range(topo.ncells)]
    want = {tuple(sorted(t)) for c in range(topo.ncells) for t in combinations([c, *near[c]], 3)
            if all(b in near[a] for a, b in combinations(t, 2))}
    got = {tuple(sorted(t)) for t in C.board_triangles(topo.ncells).tolist()}
    assert got == want and len(C.board_triangles(topo.ncells)) == len(want)


def test_no_triangles_off_the_hexhex_sizes():
    assert C.board_triangles(20).shape == (0, 3)


@pytest.mark.parametrize("size", [2, 3, 4, 10, 11])
def test_board_colours_colour_properly_and_configurations_take_two_of_each(size):
    topo = hexhex(size)
    colour = C.board_colours(topo.ncells)
    assert all(colour[c] != colour[d] for c in range(topo.ncells) for d in topo.neighbours(c))
    counts = {tuple(sorted(np.bincount(colour[k], minlength=3))) for k in tables(topo).configs}
    assert counts <= {(2, 2, 2), (0, 3, 3)}
    assert (C.board_colours(20) == -1).all()


def test_colours_fit_is_the_integer_count_of_lines_and_rings():
    """colours_fit(t, free) says whether L lines or triangles and R_j rings
    centred on colour j (L + sum R_j = t) fit the free cells of each colour."""
    def by_enumeration(t, free):
        for rings in np.ndindex(t + 1, t + 1, t + 1):
            lines = t - sum(rings)
            if lines >= 0 and all(2 * lines + 3 * (sum(rings) - rings[i]) <= free[i] for i in range(3)):
                return True
        return False
    rng = np.random.default_rng(5)
    for _ in range(300):
        t = int(rng.integers(0, 7))
        free = rng.integers(max(0, 2 * t - 4), 2 * t + 4, size=3)
        assert C.colours_fit(t, free.astype(float)) == by_enumeration(t, free), (t, free)
    assert not C.colours_fit(43, np.array([85.0, 86, 87]))  # 258 cells, but two 0-colour cells short
    assert C.colours_fit(43, np.array([87.0, 85, 87]))  # one ring round a colour-1 cell


def test_clique_rows_hold_configurations_that_meet():
    topo, t, stones, cand, lc, nc, glob, local = component(7, 0.85, 3)
    rstart, rlist, mstart, mlist, nrows = rows_of(lc, nc, glob, topo, local)
    assert nrows > nc and (local == -1).all()
    for k in range(len(lc)):
        assert sorted(rlist[rstart[k]:rstart[k] + 6]) == sorted(lc[k])  # its cells first
    for row in range(nc, nrows):
        members = mlist[mstart[row]:mstart[row + 1]]
        assert len(members) >= 2
        for a, b in combinations(members, 2):
            assert set(lc[a]) & set(lc[b])
        assert all(row in rlist[rstart[k]:rstart[k + 1]] for k in members)


def test_prices_bound_the_clique_lp_closely():
    """The prices' bound is a Lagrangian bound: never under the clique LP,
    and PDHG brings it within a few hundredths of it."""
    topo, t, stones, cand, lc, nc, glob, local = component(7, 0.85, 5)
    rstart, rlist, mstart, mlist, nrows = rows_of(lc, nc, glob, topo, local)
    a = np.zeros((nrows, len(lc)))
    for row in range(nrows):
        a[row, mlist[mstart[row]:mstart[row + 1]]] = 1
    lp = -linprog(-np.ones(len(lc)), A_ub=csr_matrix(a), b_ub=np.ones(nrows), bounds=(0, 1), method="highs").fun
    bound, w, x = C.dual_prices(rstart, rlist, mstart, mlist, nrows, nc, 0.0)
    assert lp - 1e-6 <= bound <= lp + 0.05
    assert (w >= 0).all() and abs(C.lagrangian(w, rstart, rlist, np.empty(len(lc))) - bound) < 1e-9


def test_local_search_finds_the_optimum_packing():
    """Greedy with (1,2)-swaps, then the neighbourhood search up to the
    optimum (HiGHS's), each a packing; the search stops at its goal and
    goes on from where it stopped."""
    topo, t, stones, cand, lc, nc, glob, local = component(10, 0.8, 2)
    rstart, rlist, mstart, mlist, nrows = rows_of(lc, nc, glob, topo, local)
    best = milp_count(t.configs, cand, topo.ncells)
    got = np.empty(nc // 6 + 1, dtype=np.int32)
    order = np.arange(len(lc), dtype=np.int32)
    sizes = [local_packing(lc, order, mstart, mlist, nc, got)]
    rng = np.array([np.uint64(7)], dtype=np.uint64)
    for goal in (sizes[0] + 1, best + 1):
        sizes.append(lns_packing(lc, mstart, mlist, nc, sizes[-1], goal, got, 20000, rng))
        cells = lc[got[:sizes[-1]]].ravel()
        assert len(set(cells.tolist())) == 6 * sizes[-1]
    assert 0 < sizes[0] < sizes[1] <= sizes[2] == best


def test_dominated_configurations_leave_a_maximum_packing():
    """Each dropped configuration meets all that some kept one it meets
    meets, and the kept ones still pack as many as all (HiGHS)."""
    topo, t, stones, cand, lc, nc, glob, local = component(10, 0.85, 3)
    keep = C.undominated(lc, nc)
    assert 0 < keep.sum() < len(lc)
    meets = [{j for j in range(len(lc)) if set(lc[i]) & set(lc[j])} for i in range(len(lc))]
    kept = set(np.flatnonzero(keep).tolist())
    for v in np.flatnonzero(~keep):
        assert any(meets[u] & kept <= meets[v] for u in meets[v] & kept if u != v)
    assert milp_count(t.configs, cand[keep], topo.ncells) == milp_count(t.configs, cand, topo.ncells)


def clique_search(size, fill, seed):
    """The clique-LP search's pieces for a random fill: (best by HiGHS, bound, net, live, stack, span, got, r)."""
    topo, t, stones, cand, lc, nc, glob, local = component(size, fill, seed)
    best = milp_count(t.configs, cand, topo.ncells)
    order, first = C.by_first_cell(lc, nc)
    rstart, rlist, mstart, mlist, nrows = rows_of(lc, nc, glob, topo, local)
    bound, w, x = C.dual_prices(rstart, rlist, mstart, mlist, nrows, nc, 0.0)
    r = 1.0 - np.array([w[rlist[rstart[k]:rstart[k + 1]]].sum() for k in range(len(lc))])
    ranked, lpos = C._options(order, first, x)
    net = (lc, ranked, first, rstart, rlist, mstart, mlist, w, r, lpos, C.board_colours(topo.ncells)[glob[:nc]])
    live = C._live_state(net, nrows, nc)
    stack = np.empty((6, nc + 1), dtype=np.int32)
    span = int((lc[:, 5] - lc[:, 0]).max()) + 1
    return best, bound, net, live, stack, span, np.empty(nc // 6 + 1, dtype=np.int32), r


def test_search_proves_and_finds_on_a_dense_board():
    """The clique-LP search alone: no packing one larger than the optimum,
    one of the optimum (HiGHS's), from a fresh memo."""
    best, bound, net, live, stack, span, got, r = clique_search(10, 0.8, 8)
    lc = net[0]
    memo = memo_new(MEMO_SLOTS)
    assert not C._reach(best + 1, net, live, stack, memo, got, span)
    assert C._reach(best, net, live, stack, memo, got, span)
    assert len(set(lc[got[:best]].ravel().tolist())) == 6 * best
    assert not live[3].any() and live[0].all() and live[5][C.TRAIL] == 0  # left as found
    C._fix(bound - best, net, live)  # reduced-cost fixing keeps every packing that large
    assert all(-r[k] > bound - best for k in np.flatnonzero(~live[0]))
    assert C._reach(best, net, live, stack, memo, got, span)
    C._undo(0, net, live)
    assert live[0].all() and live[5][C.TRAIL] == 0


def test_a_search_within_a_cap_can_go_on_later():
    """_reach_within: out of its cap (-1: a packing of the optimum takes more
    nodes than that) without the memo's own limit marked out, then found
    (1); none fits (0); out of the memo's limit, the memo marked out."""
    best, bound, net, live, stack, span, got, r = clique_search(10, 0.8, 8)
    memo = memo_new(MEMO_SLOTS)
    assert C._reach_within(10, best, net, live, stack, memo, got, span) == -1
    assert memo[2][4] == 10 and memo[2][2] == -1 and not memo[2][3]
    assert C._reach_within(10 ** 7, best, net, live, stack, memo, got, span) == 1
    assert C._reach_within(10 ** 7, best + 1, net, live, stack, memo, got, span) == 0
    limited = memo_new(MEMO_SLOTS)
    limited[2][2] = 15
    assert C._reach_within(10, best, net, live, stack, limited, got, span) == -1
    assert limited[2][2] == 5 and not limited[2][3]
    assert C._reach_within(10, best, net, live, stack, limited, got, span) == -1
    assert limited[2][2] == 0 and limited[2][3]
    assert live[0].all() and live[5][C.TRAIL] == 0


@pytest.mark.parametrize("fill, seed", [(0.78, 1), (0.82, 4)])
def test_score_equals_milp_where_the_clique_search_runs(fill, seed):
    """Base-10 fills the dive and the short Russian-doll search leave open."""
    topo, t, stones, cand, lc, nc, glob, local = component(10, fill, seed)
    n, packing = score(t, stones, 300000)
    assert n == milp_count(t.configs, cand, topo.ncells)
    check_packing(t, stones, n, packing)


def test_memo_counts_the_nodes_spent():
    memo = memo_new(16)
    memo[2][2] = 2
    assert spend(memo) and spend(memo) and not spend(memo)
    assert memo[2][4] == 2 and memo[2][3] == 1
    memo = memo_new(16)
    memo[2][2] = 5
    assert spend(memo, 3) and spend(memo, 3) and not spend(memo)  # the second takes what is left
    assert memo[2][4] == 6 and memo[2][3] == 1
    unlimited = memo_new(16)
    assert spend(unlimited, 10 ** 6) and unlimited[2][2] == -1


@pytest.mark.slow
def test_score_equals_milp_on_dense_fills():
    """Forty base-10 fills of 0.76 to 0.86 (a few minutes, mostly HiGHS)."""
    topo = hexhex(10)
    t = tables(topo)
    rng = np.random.default_rng(28)
    for fill in np.linspace(0.76, 0.86, 40):
        stones = rng.random(topo.ncells) < fill
        n, packing = score(t, stones)
        assert n == milp_count(t.configs, owned_configs(stones, t.configs), topo.ncells)
        check_packing(t, stones, n, packing)
