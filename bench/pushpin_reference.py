"""Every move from a Hex Pushpin base-3 position (the start unless --after)
valued by the plain minimax of tests/solve_reference_fast.py (no symmetry, no
window, no Zobrist), each printed as it finishes with the table's positions,
the moves made and the seconds; with --solver, next to hexarena's solver's
value; then the totals and the peak memory.  docs/solving.md § "Checked
against a plain minimax".

    python bench/pushpin_reference.py --solver                   # first moves, win / draw / loss (direct table)
    python bench/pushpin_reference.py --after "d2 1" pass f2 pass --lengths --table-bits 28 --solver
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import hexarena  # noqa: E402
from hexarena.search.solve import Solver  # noqa: E402
from tests.solve_reference_fast import FastReference  # noqa: E402

WORDS = {1: "win", 0: "draw", -1: "loss"}


def solver_value(solver: Solver, child, mover: int, lengths: bool) -> tuple[int, int | None]:
    """The solver's value of a move for ``mover``, as ``FastReference.child_value`` gives it."""
    if child.is_over():
        w = child.winner()
        return (0 if w is None else 1 if w == mover else -1), 1
    if lengths:
        r, d = solver.exact(child.array)
        d = d + 1 if d is not None else None
    else:
        v = solver.score(child.array, False, 1 << 62)
        r, d = (v > 0) - (v < 0), None
    return (r if child.to_move == mover else -r), d


def said(value: tuple[int, int | None]) -> str:
    return WORDS[value[0]] + (f" in {value[1]}" if value[1] is not None else "")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--after", nargs="*", default=[], metavar="MOVE", help="the moves to the position (default: none)")
    p.add_argument("--lengths", action="store_true", help="find the plies to the end too (looks at every move)")
    p.add_argument("--table-bits", type=int, default=28,
                   help="2^B slots of 8 bytes in the hashed table (default 28: 2 GiB)")
    p.add_argument("--hashed", action="store_true",
                   help="win / draw / loss in the hashed table too, not the direct one (2 bits a position, 2.7 GB)")
    p.add_argument("--solver", action="store_true", help="compare each move with hexarena's solver")
    args = p.parse_args(argv)
    game = hexarena.load("hex-pushpin", size=3)
    ref = FastReference(game, table_bits=args.table_bits, direct=not args.hashed)
    solver = Solver(game, table_bits=22) if args.solver else None
    position = game.new_state()
    for move in args.after:
        position.play(move)
    differ = []
    begin = time.perf_counter()
    for move in position.legal_moves():
        child = position.copy()
        child.play(move)
        counted = time.perf_counter()
        value = ref.child_value(child.array, position.to_move, args.lengths)
        took = time.perf_counter() - counted
        line = (f"{move:6} {said(value):12} {ref.positions(args.lengths):>15,} positions "
                f"{ref.nodes(args.lengths):>15,} moves {took:8.1f} s")
        if solver is not None:
            theirs = solver_value(solver, child, position.to_move, args.lengths)
            line += f"   solver: {said(theirs)}" + ("" if theirs == value else "  DIFFERS")
            if theirs != value:
                differ.append(move)
        print(line, flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"{len(position.legal_moves())} moves, {ref.positions(args.lengths):,} positions, "
          f"{ref.nodes(args.lengths):,} moves made, {time.perf_counter() - begin:.1f} s, peak memory {peak:.1f} GiB")
    if solver is not None:
        print(f"the solver differs on {', '.join(differ)}" if differ else "every move's value equals the solver's")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
