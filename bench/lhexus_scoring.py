"""Exact Lhexus scoring of random full boards: both players per board.

    .venv/bin/python bench/lhexus_scoring.py [--boards 1000] [--size 10] [--seed 1] [--density 0.5 ...]

Every cell is black with probability ``density`` (else white); prints, per
density, the median, 90th percentile and worst time per board (both players
scored) and the mean score of each player.
"""

import argparse
import time

import numpy as np

from hexarena.board import hexhex
from hexarena.games.lhexus_scoring import score, tables


def run(t, n: int, density: float, boards: int, rng: np.random.Generator) -> str:
    """One line of figures for ``boards`` random boards at ``density``."""
    times, black, white = [], [], []
    for _ in range(boards):
        stones = rng.random(n) < density
        t0 = time.perf_counter()
        black.append(score(t, stones)[0])
        white.append(score(t, ~stones)[0])
        times.append(time.perf_counter() - t0)
    ms = np.array(times) * 1000
    return (f"density {density:.2f}: median {np.median(ms):.3f} ms, p90 {np.percentile(ms, 90):.3f} ms, "
            f"worst {ms.max():.3f} ms per board (both players); "
            f"mean scores {np.mean(black):.2f} / {np.mean(white):.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=1000)
    ap.add_argument("--size", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--density", type=float, nargs="+", default=[0.5])
    args = ap.parse_args()
    t = tables(hexhex(args.size))
    n = len(hexhex(args.size).names)
    rng = np.random.default_rng(args.seed)
    score(t, rng.random(n) < 0.5)  # compile
    print(f"{args.boards} full base-{args.size} boards per density, seed {args.seed}", flush=True)
    for density in args.density:
        print(run(t, n, density, args.boards, rng), flush=True)


if __name__ == "__main__":
    main()
