"""The AI's proven moves on Projective Hex size 3 (opening none): time and soundness.

    nice -n 10 python bench/proven_moves.py [--games 40] [--seed 1] [--check-nodes 3000000]

From proven won positions of the long run's store (``data/solve-ph3``: a
first move and a reply, or the first player's losing second moves), an
MCTS agent (level 1: it searches only where no proof is found) plays the
winner against random replies to the end.  Each AI move is timed, by the
stones on the board, and where the AI used the package's proof
(:func:`hexarena.search.solutions.perfect_move`) the position it leads to is
checked: by the run's store, else by a fresh VC df-pn with
``--check-nodes`` nodes.  docs/solving.md has the figures.  A proven move
should take under ``--target`` seconds (default 2: the bound
tests/ai/test_solutions.py asserted until a loaded machine made it flaky; the
tests keep the proofs, this bench the time): the moves over it are counted.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import hexarena
from hexarena.ai.mcts import MCTSAgent
from hexarena.search.positions import PositionKeys
from hexarena.search.solutions import STORE_DIR, load_store, perfect_move, store_name
from hexarena.search.vc import VcDfpn
from hexarena.search.proven import Proven

RUN = Path(__file__).resolve().parent.parent / "data" / "solve-ph3" / "proven.npz"
MOVE_SECONDS = 2.0  # a proven move's bound (docs/ai.md has the measured times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check-nodes", type=int, default=3_000_000)
    ap.add_argument("--target", type=float, default=MOVE_SECONDS, help="a proven move's most seconds (default 2)")
    args = ap.parse_args()
    game = hexarena.load("projective-hex", size=3, opening="none")
    keys, run = PositionKeys(game), Proven.load(RUN, store_name(game))
    shipped, check, ai = load_store(STORE_DIR / store_name(game)), VcDfpn(game, 20), MCTSAgent(level=1, seed=1)
    rng = random.Random(args.seed)
    starts = sorted(e.moves for e in run.entries.values() if len(e.moves) in (2, 3) and e.result == 1)
    rng.shuffle(starts)
    times: dict[str, list[float]] = {"stored": [], "searched": [], "search": []}
    counts = {"checked": 0, "unsound": 0, "unproven": 0, "won": 0}
    for moves in starts[:args.games]:
        s = game.new_state()
        for a in moves:
            s.apply(a)
        me = s.to_move
        while not s.is_over():
            if s.to_move != me:
                s.apply(rng.choice(s.legal_actions()))
                continue
            how = "stored" if shipped.lookup(keys.key(s.array)) is not None else "searched"
            t = time.perf_counter()
            proven = perfect_move(s)
            move = proven.move if proven else ai.choose(s)
            times[how if proven else "search"].append(time.perf_counter() - t)
            counts["unproven"] += proven is None
            s.play(move)
            if proven and not s.is_over():
                entry = run.get(keys.key(s.array))
                value = entry.result if entry else check.value(s.array, args.check_nodes)
                counts["checked"] += 1
                counts["unsound"] += value != -1
        counts["won"] += s.winner() == me
    print(f"{args.games} games from proven wins: {counts}")
    for how, ts in times.items():
        if ts:
            print(f"  {how:9} {len(ts):5} moves, mean {sum(ts) / len(ts):.3f} s, max {max(ts):.3f} s, "
                  f"{sum(t >= args.target for t in ts)} over {args.target:g} s")


if __name__ == "__main__":
    main()
