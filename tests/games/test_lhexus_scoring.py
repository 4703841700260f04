"""Lhexus scoring: the configurations and the exact maximum packing,
checked against geometry, brute force and an integer programme."""

import subprocess
import sys
from itertools import combinations

import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp

from hexarena.board import hexhex
import hexarena
from hexarena.games.lhexus_rules import BOARD
from hexarena.games.lhexus_memo import MEMO_START, memo_get, memo_new, memo_put
from hexarena.games.lhexus_scoring import (LINE, RING, TRIANGLE, greedy_packing, owned_by_colour, owned_configs,
                                            score, tables)


def cube(topo, cells):
    """Cube coordinates (q, r, s), q + r + s = 0, of doubled-x cells."""
    x, y = topo.xy[list(cells), 0], topo.xy[list(cells), 1]
    q = (x - y) // 2
    return q, y, -q - y


def shape(topo, cells) -> int | None:
    """The kind of six cells by geometry alone, or None."""
    q, r, s = cube(topo, cells)
    for a, b in ((q, r), (r, s), (s, q)):
        if len(set(a)) == 1 and b.max() - b.min() == 5:
            return LINE
    if q.min() + r.min() + s.min() == -2 or q.max() + r.max() + s.max() == 2:
        return TRIANGLE  # six lattice points within the side-3 triangle they span
    if q.sum() % 6 == 0 and r.sum() % 6 == 0:
        cq, cr, cs = q.sum() // 6, r.sum() // 6, s.sum() // 6
        if np.all(np.maximum.reduce([abs(q - cq), abs(r - cr), abs(s - cs)]) == 1):
            return RING
    return None


def greedy(t, stones) -> int:
    """Take owned configurations in id order while they fit."""
    used = np.zeros(len(stones), dtype=bool)
    n = 0
    for k in owned_configs(stones, t.configs):
        if not used[t.configs[k]].any():
            used[t.configs[k]] = True
            n += 1
    return n


def brute(t, stones) -> int:
    """The largest disjoint subset of the owned configurations, by trying all."""
    cand = [set(t.configs[k].tolist()) for k in owned_configs(stones, t.configs)]
    best = 0

    def grow(i, used, n):
        nonlocal best
        best = max(best, n)
        for j in range(i, len(cand)):
            if not (cand[j] & used):
                grow(j + 1, used | cand[j], n + 1)

    grow(0, set(), 0)
    return best


def by_milp(t, stones) -> int:
    return milp_count(t.configs, owned_configs(stones, t.configs), len(stones))


def milp_count(configs, cand, ncells) -> int:
    """The maximum packing of configurations ``cand`` (rows of ``configs``) by HiGHS's integer programme."""
    if len(cand) == 0:
        return 0
    a = np.zeros((ncells, len(cand)))
    for i, k in enumerate(cand):
        a[configs[k], i] = 1
    res = milp(-np.ones(len(cand)), constraints=LinearConstraint(a, 0, 1), integrality=np.ones(len(cand)),
               bounds=Bounds(0, 1))
    return round(-res.fun)


def check_packing(t, stones, n, packing):
    assert len(packing) == n
    cells = t.configs[packing].ravel()
    assert len(set(cells.tolist())) == 6 * n
    assert stones[cells].all()


def test_every_six_subset_of_base_3_by_geometry():
    topo = hexhex(3)
    t = tables(topo)
    found = {}
    for six in combinations(range(topo.ncells), 6):
        kind = shape(topo, six)
        if kind is not None:
            found[six] = kind
    assert sorted(map(tuple, t.configs.tolist())) == sorted(found)
    assert all(found[tuple(c)] == k for c, k in zip(t.configs.tolist(), t.kinds, strict=True))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7, 10])
def test_counts_by_formula(n):
    """Lines: a row of length L holds L - 5 sixes (rows n..2n-1..n, three
    directions); triangles: 3(n-1)(n-2) per orientation; rings: one per cell
    off the rim, the base n-1 board's 3(n-1)(n-2) + 1."""
    t = tables(hexhex(n))
    rows = list(range(n, 2 * n)) + list(range(2 * n - 2, n - 1, -1))
    counts = np.bincount(t.kinds, minlength=3)
    assert counts[LINE] == 3 * sum(max(0, length - 5) for length in rows)
    assert counts[TRIANGLE] == 2 * 3 * (n - 1) * (n - 2)
    assert counts[RING] == 3 * (n - 1) * (n - 2) + 1
    assert len({tuple(c) for c in t.configs.tolist()}) == len(t.configs)
    assert all(shape(hexhex(n), c) == k for c, k in zip(t.configs.tolist(), t.kinds, strict=True))


@pytest.mark.parametrize("cells, kind", [
    ("f1 f2 f3 f4 f5 f6", LINE),
    ("a1 b1 b2 c1 c2 c3", TRIANGLE),
    ("e2 e3 f2 f4 g3 g4", RING),
])
def test_each_shape_scores_one(cells, kind):
    topo = hexhex(10)
    stones = np.zeros(topo.ncells, dtype=bool)
    stones[[topo.index(c) for c in cells.split()]] = True
    n, packing = score(topo, stones)
    assert n == 1 and tables(topo).kinds[packing[0]] == kind


def test_other_triangle_and_nothing_else_score():
    topo = hexhex(10)
    t = tables(topo)
    for k in np.flatnonzero(t.kinds == TRIANGLE)[:40]:
        stones = np.zeros(topo.ncells, dtype=bool)
        stones[t.configs[k]] = True
        assert score(t, stones)[0] == 1
        stones[t.configs[k][0]] = False
        assert score(t, stones)[0] == 0


def test_greedy_is_wrong():
    """Random base-10 boards at density 0.6 soon give one where greedy (first
    fit in id order) scores less than the exact search."""
    topo = hexhex(10)
    t = tables(topo)
    rng = np.random.default_rng(3)
    for _ in range(200):
        stones = rng.random(topo.ncells) < 0.6
        exact, packing = score(t, stones)
        if exact > greedy(t, stones):
            check_packing(t, stones, exact, packing)
            return
    raise AssertionError("no board where greedy is wrong")


def test_owned_by_colour_is_owned_configs_of_each():
    topo = hexhex(6)
    t = tables(topo)
    rng = np.random.default_rng(6)
    for _ in range(20):
        board = rng.integers(0, 3, topo.ncells).astype(np.int32)
        black, white = owned_by_colour(board, t.configs, 1, 2)
        assert list(black) == list(owned_configs(board == 1, t.configs))
        assert list(white) == list(owned_configs(board == 2, t.configs))


def test_greedy_packing_is_first_fit():
    topo = hexhex(6)
    t = tables(topo)
    rng = np.random.default_rng(5)
    for _ in range(100):
        stones = rng.random(topo.ncells) < rng.uniform(0.3, 1.0)
        assert greedy_packing(owned_configs(stones, t.configs), t.configs, topo.ncells) == greedy(t, stones) \
            <= score(t, stones)[0]


def test_greedy_is_wrong_by_hand():
    """Two disjoint configurations j and k plus a configuration i of lower id
    meeting both: greedy takes i and then neither fits (1); exact takes j and k (2)."""
    topo = hexhex(4)
    t = tables(topo)
    for k in range(len(t.configs)):
        stones = np.zeros(topo.ncells, dtype=bool)
        stones[t.configs[k]] = True
        for j in range(len(t.configs)):
            if j == k or set(t.configs[j]) & set(t.configs[k]):
                continue
            both = stones.copy()
            both[t.configs[j]] = True
            for i in range(len(t.configs)):
                if both[t.configs[i]].sum() == 3 and set(t.configs[i]) & set(t.configs[k]) \
                        and set(t.configs[i]) & set(t.configs[j]) and i < min(j, k):
                    three = both.copy()
                    three[t.configs[i]] = True
                    if greedy(t, three) == 1:
                        assert score(t, three)[0] == 2 == brute(t, three)
                        return
    raise AssertionError("no such position")


@pytest.mark.parametrize("size", [3, 4])
def test_exact_equals_brute_force(size):
    topo = hexhex(size)
    t = tables(topo)
    rng = np.random.default_rng(size)
    for _ in range(300):
        stones = rng.random(topo.ncells) < rng.uniform(0.5, 1.0)
        n, packing = score(t, stones)
        assert n == brute(t, stones)
        check_packing(t, stones, n, packing)


def test_exact_equals_milp_on_large_boards():
    topo = hexhex(10)
    t = tables(topo)
    rng = np.random.default_rng(16)
    for density in np.linspace(0.3, 0.6, 30):
        stones = rng.random(topo.ncells) < density
        n, packing = score(t, stones)
        assert n == by_milp(t, stones)
        check_packing(t, stones, n, packing)


def test_full_board_of_one_player():
    topo = hexhex(5)
    n, packing = score(topo, np.ones(topo.ncells, dtype=bool))
    assert n == 10  # 61 cells hold at most ten sixes
    check_packing(tables(topo), np.ones(topo.ncells, dtype=bool), n, packing)


def dense_boards(size, densities, seed):
    """One random board of ``size`` per density, the first player's cells."""
    topo = hexhex(size)
    rng = np.random.default_rng(seed)
    return topo, [rng.random(topo.ncells) < d for d in densities]


@pytest.mark.parametrize("size, densities", [
    (10, [0.7, 0.7, 0.75, 0.75]),
    (7, [0.8, 0.85, 0.9, 0.95, 1.0]),
])
def test_exact_equals_milp_on_dense_boards(size, densities):
    topo, boards = dense_boards(size, densities, 7)
    t = tables(topo)
    for stones in boards:
        n, packing = score(t, stones)
        assert n == by_milp(t, stones)
        check_packing(t, stones, n, packing)


@pytest.mark.slow
def test_exact_equals_milp_dense_sweep():
    topo, boards = dense_boards(10, np.repeat([0.6, 0.65, 0.7, 0.75, 0.8], 10), 11)
    t = tables(topo)
    for stones in boards:
        n, packing = score(t, stones)
        assert n == by_milp(t, stones)
        check_packing(t, stones, n, packing)


CALLER = """
import numpy as np
from hexarena.board import hexhex
from hexarena.games.lhexus_scoring import best_packing, tables
from hexarena.kernels import njit

@njit
def both(stones, configs, out):
    return best_packing(stones, configs, out), best_packing(~stones, configs, out)

t = tables(hexhex(5))
stones = np.zeros(61, dtype=np.bool_)
stones[:40] = True
print(*both(stones, t.configs, np.empty(11, dtype=np.int32)))
"""


def test_cached_from_another_cached_kernel(tmp_path):
    """A second process loads ``best_packing`` from numba's cache inside a
    cached caller (a recursive search could not be loaded)."""
    script = tmp_path / "caller.py"
    script.write_text(CALLER)
    topo = hexhex(5)
    stones = np.zeros(topo.ncells, dtype=bool)
    stones[:40] = True
    want = f"{score(topo, stones)[0]} {score(topo, ~stones)[0]}"
    for _ in range(2):
        run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        assert run.stdout.split() == want.split()


def playout_boards(count, seed):
    """The final colours of ``count`` seeded base-10 playouts (two colours, full boards)."""
    from hexarena.kernels import seed as seed_numba
    game = hexarena.load("lhexus")
    out = []
    for i in range(count):
        s = game.new_state().array.copy()
        seed_numba(seed + i)
        game.kernels.playout(s, game.tables)
        out.append(s[BOARD: BOARD + game.topology.ncells].copy())
    return out


def test_each_colour_of_playouts_equals_milp():
    """The independent method (HiGHS's integer programme) on both colours of
    finished random games, the positions real games end in."""
    t = tables(hexhex(10))
    for board in playout_boards(6, 40):
        for colour in (1, 2):
            n, packing = score(t, board == colour)
            assert n == by_milp(t, board == colour)
            check_packing(t, board == colour, n, packing)


@pytest.mark.slow
def test_exact_equals_milp_on_a_larger_sample():
    """60 fills of 0.5 to 0.78 and both colours of 30 playouts."""
    t = tables(hexhex(10))
    rng = np.random.default_rng(28)
    sample = [rng.random(271) < d for d in rng.uniform(0.5, 0.78, 60)]
    sample += [board == colour for board in playout_boards(30, 100) for colour in (1, 2)]
    for stones in sample:
        n, packing = score(t, stones)
        assert n == by_milp(t, stones)
        check_packing(t, stones, n, packing)


def hard_board():
    """A base-10 fill at 0.9 the search cannot close in a few thousand nodes."""
    return np.random.default_rng(1).random(271) < 0.9


def test_node_budget_gives_unknown_never_a_wrong_count():
    t = tables(hexhex(10))
    stones = hard_board()
    assert score(t, stones, nodes=2000) == (-1, [])
    easy = np.random.default_rng(2).random(271) < 0.6
    exact = score(t, easy)[0]
    for nodes in (0, 10, 100, 1000, 100000):
        assert score(t, easy, nodes)[0] in (-1, exact)
    assert score(t, easy, 100000)[0] == exact == by_milp(t, easy)


def test_memo_is_bounded_and_forgets_only():
    """The memo doubles up to its slots and no further; a state it still holds
    reads back its count, one it dropped reads as unknown (the default)."""
    slots = 1 << 13
    memo = memo_new(slots)
    assert memo[2][0] == MEMO_START < slots
    keys = [(np.int64(i % 271), np.int64(i), np.int64(3 * i), np.int64(0), np.int64(-i)) for i in range(3 * slots)]
    for i, key in enumerate(keys):
        memo_put(memo, key, i % 40)
    assert memo[2][0] == slots and memo[0].shape[0] == slots and memo[2][1] <= slots
    assert memo_get(memo, keys[-1], 99) == (len(keys) - 1) % 40
    held = sum(memo_get(memo, key, 99) != 99 for key in keys[:1000])
    assert all(memo_get(memo, key, 99) in (i % 40, 99) for i, key in enumerate(keys[:1000])) and held < 1000
    memo_put(memo, keys[-1], 7)
    assert memo_get(memo, keys[-1], 99) == 7  # the least count that failed is kept
    memo_put(memo, keys[-1], 30)
    assert memo_get(memo, keys[-1], 99) == 7


MEMORY = """
import resource, sys
import numpy as np
from hexarena.board import hexhex
from hexarena.games.lhexus_scoring import score, tables
t = tables(hexhex(10))
stones = np.random.default_rng(1).random(271) < 0.9
score(t, stones, 10)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(score(t, stones, int(sys.argv[1]))[0], (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
"""


@pytest.mark.parametrize("nodes", [100000, pytest.param(3000000, marks=pytest.mark.slow)])
def test_search_memory_is_bounded(tmp_path, nodes):
    """The search's memory (peak resident set growth) on a hard dense board
    stays under 200 MB however long it runs (the old memo grew to 8-24 GB)."""
    script = tmp_path / "memory.py"
    script.write_text(MEMORY)
    run = subprocess.run([sys.executable, str(script), str(nodes)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    count, grown_mb = map(int, run.stdout.split())
    assert grown_mb < 200
