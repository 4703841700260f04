"""Exact Lhexus scoring over many positions: both players scored per board.

    .venv/bin/python bench/lhexus_scoring.py [--boards 10000] [--size 10] [--seed 1] [--nodes 300000]
        [--families fill playout mcts dense] [--check 20]

The boards are ``bench/lhexus_boards.py``'s four families (one-colour fills
of 50-100%, positions of random playouts, of MCTS games, and of legal games
where one player fills the board while the other passes), in the shares of
:data:`SHARES`.  Each board is scored with ``Lhexus.exact_scores(s, nodes)``
(both colours; a search over ``nodes`` nodes gives up: "unknown"), timed;
prints the distribution per family and over all (median, 90th, 99th, 99.9th
percentile, worst, unknown count) and, with ``--check``, compares that many
solved boards with ``scipy.optimize.milp`` (HiGHS).
"""

from __future__ import annotations

import argparse
import time
from typing import cast

import sys
from collections.abc import Iterator, Sequence

import numpy as np

import hexarena
from hexarena.games.lhexus import Lhexus
from hexarena.games.lhexus_rules import BOARD
from lhexus_boards import FAMILIES, boards

SHARES = {"fill": 0.4, "playout": 0.2, "mcts": 0.15, "dense": 0.25}


def progress(items: Sequence[np.ndarray], desc: str) -> Iterator[np.ndarray]:
    """``items`` with a progress bar on stderr: tqdm's where it is installed, else a counter."""
    try:
        from tqdm import tqdm
    except ImportError:
        for i, item in enumerate(items):
            if i % 100 == 0 or i + 1 == len(items):
                print(f"\r{desc}: {i + 1}/{len(items)}", end="", file=sys.stderr, flush=True)
            yield item
        print(file=sys.stderr)
        return
    yield from tqdm(items, desc=desc, leave=False)


def figures(ms: np.ndarray, unknown: int) -> str:
    """One line of the time distribution (milliseconds)."""
    p = np.percentile(ms, [50, 90, 99, 99.9])
    return (f"{len(ms):6d} boards: median {p[0]:8.3f} ms, p90 {p[1]:8.3f}, p99 {p[2]:8.1f}, p99.9 {p[3]:8.1f}, "
            f"worst {ms.max():8.1f} ms; unknown {unknown}")


def milp_score(configs: np.ndarray, owned: np.ndarray) -> int:
    """The maximum packing by HiGHS's integer programme."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from hexarena.games.lhexus_scoring import owned_configs
    cand = owned_configs(owned, configs)
    if len(cand) == 0:
        return 0
    a = np.zeros((len(owned), len(cand)))
    for i, k in enumerate(cand):
        a[configs[k], i] = 1
    res = milp(-np.ones(len(cand)), constraints=LinearConstraint(a, 0, 1), integrality=np.ones(len(cand)),
               bounds=Bounds(0, 1))
    return round(-res.fun)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=10000)
    ap.add_argument("--size", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=300000, help="search nodes per colour before 'unknown' (-1: none)")
    ap.add_argument("--families", nargs="+", choices=FAMILIES, default=list(FAMILIES))
    ap.add_argument("--check", type=int, default=0, help="solved boards compared with scipy's milp")
    args = ap.parse_args()
    game = cast(Lhexus, hexarena.load("lhexus", size=args.size))
    n = game.topology.ncells
    share = sum(SHARES[f] for f in args.families)
    s = game.new_state().array.copy()
    s[BOARD: BOARD + n] = 1
    game.exact_scores(s, 1000)  # compile
    every: list[float] = []
    unknown_all = 0
    solved: list[tuple[np.ndarray, tuple[int, int]]] = []
    print(f"base {args.size}, seed {args.seed}, at most {args.nodes} nodes per colour", flush=True)
    for family in args.families:
        count = round(args.boards * SHARES[family] / share)
        made = boards(family, args.size, count, args.seed)
        times, unknown = [], 0
        for board in progress(made, family):
            s[BOARD: BOARD + n] = board
            game.forget_packings()  # time the search, not the kept packings
            t0 = time.perf_counter()
            found = game.exact_scores(s, args.nodes)
            times.append(time.perf_counter() - t0)
            unknown += found is None
            if found is not None and len(solved) < 100000:
                solved.append((board, found))
        ms = np.array(times) * 1000
        every += list(ms)
        unknown_all += unknown
        print(f"{family:8s}{figures(ms, unknown)}", flush=True)
    print(f"{'all':8s}{figures(np.array(every), unknown_all)}", flush=True)
    rng = np.random.default_rng(args.seed)
    for i in rng.permutation(len(solved))[:args.check]:
        board, (b, w) = solved[i]
        want = (milp_score(game.tables.configs, board == 1), milp_score(game.tables.configs, board == 2))
        assert (b, w) == want, (b, w, want)
    if args.check:
        print(f"{min(args.check, len(solved))} solved boards agree with scipy's milp", flush=True)


if __name__ == "__main__":
    main()
