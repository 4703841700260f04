"""bench/lhexus_bounds.py: its clique cuts are valid and its figures ordered."""

import sys
from pathlib import Path

import numpy as np
import pytest

from hexarena.board import hexhex
from hexarena.games.lhexus_scoring import score, tables

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def bounds():
    sys.path.insert(0, str(BENCH))
    try:
        import lhexus_bounds
    finally:
        sys.path.remove(str(BENCH))
    return lhexus_bounds


@pytest.mark.parametrize("n", [2, 3, 5])
def test_small_triangles_touch_pairwise(bounds, n):
    topo = hexhex(n)
    found = bounds.small_triangles(topo)
    assert len(found) == len(set(map(frozenset, found))) == 6 * (n - 1) ** 2
    for tri in found:
        for a in tri:
            assert sum(b in tri for b in topo.nbr[a] if b >= 0) == 2


@pytest.mark.slow  # milp on every board: some 10 s
def test_bounds_sit_between_the_optimum_and_the_lp(bounds):
    topo = hexhex(5)
    t, triangles = tables(topo), bounds.small_triangles(topo)
    rng = np.random.default_rng(3)
    for density in (0.8, 0.9, 1.0):
        owned = rng.random(topo.ncells) < density
        lagrangian, lp, cut, opt, _ = bounds.figures(owned, t, triangles, 30.0)
        assert opt == score(t, owned)[0]
        assert opt - 1e-6 <= cut <= lp + 1e-6 and opt - 1e-6 <= lagrangian
