"""The PUCT search's own cost per simulation, beside plain UCT MCTS at the same simulations.

    .venv/bin/python bench/puct_overhead.py [--size 6] [--simulations 4000] [--repeats 5] [--batches 1,8,32]

On Projective Hex (opening none) from the initial position: ``uct``
(:class:`hexarena.ai.mcts.MCTSAgent`, one random playout per simulation,
shipped solutions off) and :class:`hexarena.ai.puct.PUCTAgent` with a
trivial evaluator (uniform priors, zero values: what the search costs
around a network that costs nothing) at each batch size, and once more with
an evaluator that also reads ``leaves.planes`` (the observation tensors,
the whole batch in one compiled call: :mod:`hexarena.vector.observe`).
The searches run interleaved, ``repeats`` rounds after a warm-up, and each figure is the fastest round, so that the
machine's load weighs on all of them alike; printed as µs per simulation
and as a ratio to ``uct`` measured in the same run.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

import numpy as np

import hexarena
from hexarena.ai.mcts import MCTSAgent
from hexarena.ai.puct import Leaves, PUCTAgent
from hexarena.games.base import State


def uniform(leaves: Leaves) -> tuple[np.ndarray, np.ndarray]:
    return np.ones(leaves.legal.shape, np.float32), np.zeros(len(leaves), np.float32)


def uniform_reading_planes(leaves: Leaves) -> tuple[np.ndarray, np.ndarray]:
    leaves.planes  # noqa: B018  (built on first use: the cost of the observations)
    return uniform(leaves)


def searches(simulations: int, batches: list[int]) -> dict[str, Callable[[State], object]]:
    """Label -> one search of a state at ``simulations``."""
    out: dict[str, Callable[[State], object]] = {
        "uct": lambda s: MCTSAgent(simulations=simulations, variant="uct", seed=1, solutions=False).search(s)}
    for b in batches:
        agent = PUCTAgent(uniform, simulations=simulations, batch=b)
        out[f"puct batch {b}"] = agent.search
    agent = PUCTAgent(uniform_reading_planes, simulations=simulations, batch=max(batches))
    out[f"puct batch {max(batches)}, planes"] = agent.search
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--size", type=int, default=6)
    p.add_argument("--simulations", type=int, default=4000)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--batches", default="1,8,32", help="comma-separated batch sizes")
    args = p.parse_args(argv)
    game = hexarena.load("projective-hex", size=args.size, opening="none")
    state = game.new_state()
    runs = searches(args.simulations, [int(b) for b in args.batches.split(",")])
    for run in runs.values():
        run(state)  # compile, allocate
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(args.repeats):
        for label, run in runs.items():
            start = time.perf_counter()
            run(state)
            best[label] = min(best[label], time.perf_counter() - start)
    print(f"projective-hex size {args.size} ({game.topology.ncells} cells), {args.simulations} simulations "
          f"from the start, fastest of {args.repeats} rounds")
    reference = best["uct"]
    for label, seconds in best.items():
        print(f"{label:24} {seconds / args.simulations * 1e6:8.2f} µs/simulation  {seconds / reference:6.2f} x uct")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
