"""Every first move of Hex Pushpin base 3 valued by the plain minimax of
tests/solve_reference_fast.py (no symmetry, no window, no Zobrist), each
printed as it finishes with the positions it stored, its nodes and seconds;
then the peak memory.  docs/solving.md § "Checked against a plain minimax".

    python bench/pushpin_reference.py                            # win / draw / loss (direct table, 2.7 GB)
    python bench/pushpin_reference.py --table-bits 30 --lengths  # and plies to the end (hashed table)
    python bench/pushpin_reference.py --moves "d2 1" c1          # only these first moves
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import hexarena  # noqa: E402
from tests.solve_reference_fast import FastReference  # noqa: E402

WORDS = {1: "win", 0: "draw", -1: "loss"}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--table-bits", type=int, default=28,
                   help="2^B slots of 8 bytes in the hashed table (default 28: 2 GiB)")
    p.add_argument("--hashed", action="store_true",
                   help="win / draw / loss in the hashed table too, not the direct one (2 bits a position)")
    p.add_argument("--lengths", action="store_true", help="find the plies to the end too (looks at every move)")
    p.add_argument("--moves", nargs="*", help="first moves to value (default: all of them)")
    args = p.parse_args(argv)
    game = hexarena.load("hex-pushpin", size=3)
    ref = FastReference(game, table_bits=args.table_bits, direct=not args.hashed)
    start = game.new_state()
    moves = args.moves or start.legal_moves()
    begin = time.perf_counter()
    for move in moves:
        child = start.copy()
        child.play(move)
        counted = time.perf_counter()
        result, plies = ref.child_value(child.array, start.to_move, args.lengths)
        took = time.perf_counter() - counted
        value = WORDS[result] + (f" in {plies}" if plies is not None else "")
        print(f"{move:6} {value:12} {ref.positions(args.lengths):>15,} positions {ref.nodes(args.lengths):>15,} nodes"
              f" {took:8.1f} s", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"{len(moves)} first moves, {ref.positions(args.lengths):,} positions, {ref.nodes(args.lengths):,} nodes, "
          f"{time.perf_counter() - begin:.1f} s, peak memory {peak:.1f} GiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
