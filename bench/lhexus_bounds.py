"""How far the upper bounds of Lhexus scoring are from the optimum on dense boards.

    .venv/bin/python bench/lhexus_bounds.py [--boards 40] [--families fill dense] [--min-fill 0.75] [--seed 7]
        [--time-limit 30]

For each board of ``bench/lhexus_boards.py``'s families with at least
``--min-fill`` of one colour (Black's configurations): the root Lagrangian
bound of the exact search (``lhexus_scoring._lagrange``, 300 subgradient
steps from prices 1/6, the bound its dive aims at), the LP relaxation
(HiGHS), the LP with clique cuts of the small triangles (any two
configurations that each hold two of three pairwise touching cells meet, so
at most one of them is packed), and the optimum by ``scipy.optimize.milp``
(None past ``--time-limit`` seconds).  A bound closes the root when its floor
is the optimum; the summary counts how often each does.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, linprog, milp
from scipy.sparse import csr_matrix

import hexarena
from hexarena.board import Topology
from hexarena.games import lhexus_scoring as S
from lhexus_boards import boards


def small_triangles(topo: Topology) -> list[tuple[int, int, int]]:
    """Every three cells of ``topo`` that touch pairwise."""
    out = []
    for c in range(topo.ncells):
        x, y = int(topo.xy[c, 0]), int(topo.xy[c, 1])
        for a, b in (((x + 2, y), (x + 1, y + 1)), ((x + 1, y + 1), (x - 1, y + 1))):
            ca, cb = topo.at(*a), topo.at(*b)
            if ca is not None and cb is not None:
                out.append((c, ca, cb))
    return out


def rows(cells: list[set[int]], ncells: int, triangles: list[tuple[int, int, int]]) -> tuple[csr_matrix, csr_matrix]:
    """The cells' "at most one" rows, and the small triangles' clique rows."""
    def matrix(groups: list[list[int]]) -> csr_matrix:
        a = np.zeros((len(groups), len(cells)))
        for i, g in enumerate(groups):
            a[i, g] = 1
        return csr_matrix(a)
    on_cell = [[j for j, k in enumerate(cells) if c in k] for c in range(ncells)]
    cliques = [[j for j, k in enumerate(cells) if len(k.intersection(t)) >= 2] for t in triangles]
    return matrix([g for g in on_cell if len(g) > 1]), matrix([g for g in cliques if len(g) > 1])


def lagrangian(cand: np.ndarray, configs: np.ndarray, ncells: int) -> float:
    """The exact search's root Lagrangian bound of the configurations ``cand``."""
    local = np.full(ncells, -1, dtype=np.int32)
    lc, nc, _ = S._local_tables(cand, configs, local)
    order, first = S.by_first_cell(lc, nc)
    return float(S._lagrange(0, lc, order, first, np.full(nc, 1.0 / 6.0), 300))


def figures(owned: np.ndarray, t: S.ScoringTables, triangles: list[tuple[int, int, int]],
            limit: float) -> tuple[float, float, float, int | None, float]:
    """(Lagrangian, LP, LP with clique cuts, optimum or None, milp seconds) of one board."""
    cand = S.owned_configs(owned, t.configs)
    cells = [set(t.configs[k].tolist()) for k in cand]
    on_cell, cliques = rows(cells, len(owned), triangles)
    ones = -np.ones(len(cand))
    lp = -linprog(ones, A_ub=on_cell, b_ub=np.ones(on_cell.shape[0]), bounds=(0, 1), method="highs").fun
    both = csr_matrix(np.vstack([on_cell.toarray(), cliques.toarray()]))
    cut = -linprog(ones, A_ub=both, b_ub=np.ones(both.shape[0]), bounds=(0, 1), method="highs").fun
    t0 = time.perf_counter()
    res = milp(ones, constraints=LinearConstraint(on_cell, -np.inf, 1), integrality=np.ones(len(cand)),
               bounds=Bounds(0, 1), options={"time_limit": limit})
    opt = round(-res.fun) if res.status == 0 else None
    return lagrangian(cand, t.configs, len(owned)), lp, cut, opt, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=40)
    ap.add_argument("--families", nargs="+", choices=("fill", "dense"), default=["fill", "dense"])
    ap.add_argument("--min-fill", type=float, default=0.75)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--time-limit", type=float, default=30.0)
    args = ap.parse_args()
    topo = hexarena.load("lhexus", size=10).topology
    t, triangles = S.tables(topo), small_triangles(topo)
    each = -(-args.boards // len(args.families))
    made = [b for f in args.families
            for b in [b for b in boards(f, 10, 6 * each, args.seed)[::-1] if (b == 1).mean() >= args.min_fill][:each]]
    names = ("Lagrangian", "LP", "LP+cliques")
    gaps: list[list[float]] = [[], [], []]
    closed = [0, 0, 0]
    for board in made:
        *found, opt, secs = figures(board == 1, t, triangles, args.time_limit)
        print(f"fill {(board == 1).mean():.3f}: " + ", ".join(f"{n} {v:.2f}" for n, v in zip(names, found, strict=True))
              + f", optimum {opt} (milp {secs:.1f} s)", flush=True)
        if opt is not None:
            for i, v in enumerate(found):
                gaps[i].append(v - opt)
                closed[i] += int(v + 1e-6) == opt
    solved = len(gaps[0])
    for name, g, c in zip(names, gaps, closed, strict=True):
        print(f"{name:11s} over the optimum on {solved} solved boards: mean {np.mean(g):.2f}, max {np.max(g):.2f}; "
              f"floor is the optimum on {c}")


if __name__ == "__main__":
    main()
