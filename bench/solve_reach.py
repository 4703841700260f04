"""How far from the end each solver method reaches on Projective Hex size 3:
random positions ``STONES`` stones in (``random.Random(seed)`` picking among
the legal moves, as in docs/solving.md), each solved win/loss from a fresh
table by alpha-beta and by df-pn, with a node cap per position.

    .venv/bin/python bench/solve_reach.py [--stones 12 10 8 7 6] [--seeds 0 1]
        [--methods alphabeta dfpn dfpn-live dfpn-vc] [--alphabeta-nodes 20e6] [--dfpn-nodes 20e6] [--table-bits 22]

Prints a Markdown row per position and method: the value for the player to
move (win, loss, or unknown when the cap ran out), nodes, wall-clock and
CPU seconds (numba's compilation excluded).  A df-pn node is one expansion (all
children generated and keyed); an alpha-beta node is one position entered.
"""

from __future__ import annotations

import argparse
import random
import time

import hexarena
from hexarena.search.solve import Solver
from hexarena.search.dfpn import DfpnSolver
from hexarena.search.vc import VcDfpn

WORDS = {1: "win", -1: "loss", 0: "draw", None: "unknown"}


def position(game, stones: int, seed: int):
    """The position after ``stones`` random legal moves (seeded), or None if the game ended first."""
    rng = random.Random(seed)
    s = game.new_state()
    while len(s.history) < stones and not s.is_over():
        s.play(rng.choice(s.legal_moves()))
    return None if s.is_over() else s


def run_alphabeta(solver: Solver, s, cap: int) -> tuple[int | None, int]:
    """(value for the player to move or None, nodes) from a fresh table."""
    solver.table.clear()
    solver.mode, solver.stats[:] = None, 0
    v = solver.score(s.array, False, cap)
    return (None if v is None else (v > 0) - (v < 0)), solver.nodes


def run_dfpn(solver: DfpnSolver, s, cap: int) -> tuple[int | None, int]:
    """(value for the player to move or None, nodes) from a fresh table."""
    solver.table.clear()
    solver.stats[:] = 0
    return solver.value(s.array, cap), solver.nodes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stones", type=int, nargs="+", default=[12, 10, 8, 7, 6])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--methods", nargs="+", choices=("alphabeta", "dfpn", "dfpn-live", "dfpn-vc"),
                    default=["alphabeta", "dfpn"],
                    help="dfpn-live: df-pn without dropping dead cells; dfpn-vc: df-pn with virtual connections")
    ap.add_argument("--alphabeta-nodes", type=float, default=20e6)
    ap.add_argument("--dfpn-nodes", type=float, default=20e6)
    ap.add_argument("--table-bits", type=int, default=22)
    args = ap.parse_args()
    game = hexarena.load("projective-hex", size=3, opening="none")
    runners = {"alphabeta": (Solver, run_alphabeta, int(args.alphabeta_nodes)),
               "dfpn": (DfpnSolver, run_dfpn, int(args.dfpn_nodes)),
               "dfpn-live": (lambda g, bits: DfpnSolver(g, bits, dead_cells=False), run_dfpn, int(args.dfpn_nodes)),
               "dfpn-vc": (VcDfpn, run_dfpn, int(args.dfpn_nodes))}
    solvers = {m: runners[m][0](game, args.table_bits) for m in args.methods}
    print("| stones | seed | method | value for the player to move | nodes | seconds | CPU seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for stones in args.stones:
        for seed in args.seeds:
            s = position(game, stones, seed)
            if s is None:
                print(f"| {stones} | {seed} | | the game ended before {stones} stones | | |")
                continue
            for m in args.methods:
                start, cpu = time.perf_counter(), time.process_time()
                value, nodes = runners[m][1](solvers[m], s, runners[m][2])
                print(f"| {stones} | {seed} | {m} | {WORDS[value]} | {nodes:,} | {time.perf_counter() - start:.1f} | "
                      f"{time.process_time() - cpu:.1f} |", flush=True)


if __name__ == "__main__":
    main()
