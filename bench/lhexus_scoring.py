"""Exact Lhexus scoring of random full boards: both players per board.

    .venv/bin/python bench/lhexus_scoring.py [--boards 1000] [--size 10] [--seed 1]

Every cell is black or white at random; prints the median, 90th percentile
and worst time per board (both players scored) and the mean score.
"""

import argparse
import time

import numpy as np

from hexarena.board import hexhex
from hexarena.games.lhexus_scoring import score, tables


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=1000)
    ap.add_argument("--size", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    t = tables(hexhex(args.size))
    n = len(hexhex(args.size).names)
    rng = np.random.default_rng(args.seed)
    score(t, rng.random(n) < 0.5)  # compile
    times, scores = [], []
    for _ in range(args.boards):
        black = rng.random(n) < 0.5
        t0 = time.perf_counter()
        scores += [score(t, black)[0], score(t, ~black)[0]]
        times.append(time.perf_counter() - t0)
    ms = np.array(times) * 1000
    print(f"{args.boards} full base-{args.size} boards, seed {args.seed}: median {np.median(ms):.3f} ms, "
          f"p90 {np.percentile(ms, 90):.3f} ms, worst {ms.max():.3f} ms per board (both players); "
          f"mean score {np.mean(scores):.2f}")


if __name__ == "__main__":
    main()
