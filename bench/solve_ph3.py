"""The long solve of Projective Hex size 3 (opening none): run, checkpoint, resume.

    nice -n 19 python bench/solve_ph3.py [--minutes 60] [--store data/solve-ph3] [--json]

Works through the six first-move classes with df-pn (docs/solving.md, "The
long run"), checkpointing the proven positions and the df-pn table into
``--store`` every ``--checkpoint-minutes`` and at the end; a later run on the
same directory goes on from there.  ``--minutes 0`` only prints the frontier.
SIGINT or SIGTERM stops it after the current chunk (at most about a minute)
with a checkpoint.  One core: numba and numpy run single-threaded.
"""

from __future__ import annotations

import os

for _var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import signal
import sys
from pathlib import Path

import hexarena
from hexarena.search.run import DEPTH, KEEP, TABLE_BITS, LongSolve

STORE = Path(__file__).resolve().parent.parent / "data" / "solve-ph3"


def frontier_text(report: dict) -> str:
    """The frontier report as a few lines."""
    lines = [f"{report['game']} {report['options']}: store {report['store']}",
             "first moves (value for the first player; replies proven):"]
    for m in report["first_moves"]:
        numbers = f"  pn {m['pn']:,} dn {m['dn']:,}" if m["pn"] is not None and m["result"] == "unknown" else ""
        lines.append(f"  {m['move']:3} (also {' '.join(m['same_as']) or '-'}): {m['result']:8} "
                     f"replies {m['replies_proven']}/{m['replies']}{numbers}")
    for lv in report["levels"]:
        lines.append(f"  {lv['stones']} stones: {lv['proven']}/{lv['positions']} proven "
                     f"({lv['first_player_wins']} first-player wins, {lv['second_player_wins']} second-player wins)")
        if lv["stones"] > 1 and lv["winners"]:
            lines.append("    " + ", ".join(f"{moves}: {who}" for moves, who in lv["winners"].items()))
    hours, cpu_hours = report["seconds"] / 3600, report["cpu_seconds"] / 3600
    lines.append(f"nodes {report['nodes']:,} in {hours:.2f} h of search ({cpu_hours:.2f} h of CPU); this session "
                 f"{report['nodes_per_second']:,.0f} nodes/s ({report['nodes_per_cpu_second']:,.0f} per CPU second); "
                 f"{report['proven_per_hour']} tracked positions proven per hour")
    lines.append(f"stored {report['stored_positions']:,} proven positions; table {report['table_entries']:,} entries "
                 f"({report['table_settled']:,} settled)")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=60.0, help="search time (default 60; 0: report only)")
    ap.add_argument("--store", type=Path, default=STORE, help=f"checkpoint directory (default {STORE})")
    ap.add_argument("--checkpoint-minutes", type=float, default=5.0, help="minutes between checkpoints (default 5)")
    ap.add_argument("--table-bits", type=int, default=TABLE_BITS, help=f"2**BITS table slots (default {TABLE_BITS})")
    ap.add_argument("--keep", type=int, default=KEEP, help=f"table entries a checkpoint keeps (default {KEEP:,})")
    ap.add_argument("--depth", type=int, default=DEPTH, help=f"levels of positions tracked (default {DEPTH})")
    ap.add_argument("--size", type=int, default=3, help="board size (default 3; 2 for a quick trial)")
    ap.add_argument("--no-virtual", action="store_true", help="df-pn without the virtual connections' pruning")
    ap.add_argument("--json", action="store_true", help="print the frontier as one JSON object at the end")
    ap.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = ap.parse_args()
    game = hexarena.load("projective-hex", size=args.size, opening="none")
    say = None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    run = LongSolve(game, args.store, table_bits=args.table_bits, depth=args.depth, keep=args.keep, progress=say,
                   virtual=not args.no_virtual)
    stopping: list[int] = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda signum, frame: stopping.append(signum))
    if args.minutes > 0:
        run.run(args.minutes * 60, checkpoint_seconds=args.checkpoint_minutes * 60, stop=lambda: bool(stopping))
    report = run.report()
    print(json.dumps(report) if args.json else frontier_text(report))


if __name__ == "__main__":
    main()
