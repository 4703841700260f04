"""How Palago games between two MCTS agents end: each game's winner, ending, length and the ply where
the winner's search first proved the result, with the last moves and their estimates.

    .venv/bin/python bench/palago_games.py [--a enhanced] [--b uct] [--games 6] [--seconds 0.25] [--seed 100]
                                           [-o key=value ...] [--last 12]

Agents are MCTS variants (``config_of`` names), ``--seconds`` a move each, colours alternated (A moves
first in the even-numbered games).  Per game it prints one line (winner A or B, how it ended, tiles placed,
moves, the first ply at which the winner's estimate was 1: proven) and then the last ``--last`` moves as
``A|B move(estimate)``.
"""

from __future__ import annotations

import argparse
import sys

from hexarena import load
from hexarena.ai import agent
from hexarena.cli import parse_options
from hexarena.games.palago_rules import HOW, PLACED

ENDINGS = ("not over", "closed group", "both at once", "pool exhausted")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--a", default="enhanced")
    p.add_argument("--b", default="uct")
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--seconds", type=float, default=0.25)
    p.add_argument("--seed", type=int, default=100)
    p.add_argument("--last", type=int, default=12)
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    args = p.parse_args(argv)
    game = load("palago", **parse_options(args.option))
    wins = {"A": 0, "B": 0, None: 0}
    for i in range(args.games):
        a_seat = i % 2
        a = agent("mcts", variant=args.a, seed=args.seed + i, seconds=args.seconds)
        b = agent("mcts", variant=args.b, seed=args.seed + 1000 + i, seconds=args.seconds)
        seats = (a, b) if a_seat == 0 else (b, a)
        state, log = game.new_state(), []
        while not state.is_over():
            player = state.to_move
            move, rate = seats[player].hint(state)
            log.append(("A" if player == a_seat else "B", move, rate))
            state.play(move)
        w = state.winner()
        who = None if w is None else ("A" if w == a_seat else "B")
        wins[who] += 1
        proven = next((k for k, (side, _, rate) in enumerate(log) if side == who and rate >= 1.0), None)
        print(f"game {i}: A={args.a} plays {'first' if a_seat == 0 else 'second'}; winner {who or 'none'}, "
              f"{ENDINGS[int(state.array[HOW])]}, {int(state.array[PLACED])} tiles, {len(log)} moves, "
              f"winner proven at move {proven}")
        print("   ", " ".join(f"{side}{move}({rate:.2f})" for side, move, rate in log[-args.last:]), flush=True)
    print(f"A {wins['A']} - B {wins['B']}, {wins[None]} drawn")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
