"""Issue 5's strength criteria on every game, as one table.

    .venv/bin/python bench/acceptance.py [GAME ...] [--games 20] [--seconds 0.25]
        [--pair A B ...]   (default: --pair enhanced openspiel-mcts --pair enhanced uct)

For each game (default options; ``GAME:key=value:key=value`` for others, e.g.
``projective-hex:size=6:opening=none``) and each pair ``A B`` it plays ``--games`` games
at equal wall-clock time per turn (as MCTSAgent spends it), colours alternated (bench/strength.py's
agents), and prints a Markdown row: A's wins, B's wins, draws, A's score
with its 95% Wilson interval, and the minutes the match took.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

from strength import maker

from hexarena import GAMES, load
from hexarena.ai.arena import match
from hexarena.cli import parse_options


def parse_game(spec: str) -> tuple[str, dict[str, str]]:
    """``name`` or ``name:key=value:key=value``."""
    name, *pairs = spec.split(":")
    return name, parse_options(pairs)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("games_", nargs="*", metavar="GAME", help="GAME or GAME:key=value:key=value (default: all)")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seconds", type=float, default=0.25)
    p.add_argument("--pair", nargs=2, action="append", metavar=("A", "B"),
                   help="agents as in bench/strength.py (repeatable)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    pairs = args.pair or [("enhanced", "openspiel-mcts"), ("enhanced", "uct")]
    seeds = itertools.count(args.seed)
    try:
        makers = {name: maker(name, args.seconds, seeds) for pair in pairs for name in pair}
    except ValueError as e:
        p.error(str(e))
    print(f"| game | A | B | A wins | B wins | draws | A's score (95% interval) | minutes |  "
          f"({args.games} games, {args.seconds} s a turn)")
    print("|---|---|---|---|---|---|---|---|")
    for spec in args.games_ or GAMES:
        name, options = parse_game(spec)
        game = load(name, **options)
        for a, b in pairs:
            for agent_name in (a, b):  # compile before the clock matters
                makers[agent_name]().choose(game.new_state())
            start = time.perf_counter()
            r = match(game, makers[a], makers[b], args.games)
            low, high = r.interval()
            print(f"| {spec} | {a} | {b} | {r.wins[0]} | {r.wins[1]} | {r.draws} | {r.score():.0%} "
                  f"({low:.0%}..{high:.0%}) | {(time.perf_counter() - start) / 60:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
