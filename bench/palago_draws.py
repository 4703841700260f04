"""How often Palago ends drawn or by pool exhaustion, per variant (the source asks how often it is drawn).

    .venv/bin/python bench/palago_draws.py [--playouts 20000] [--games 10] [--seconds 0.1] [--agent enhanced]
                                           [--tiles 48] [--seed 1]

For each variant (standard, eat-enemy, must-contain) with the default
exhaustion rule (``exhausted=largest``, Lambo's: the largest group wins an
empty pool, a tie is a draw) it plays ``--playouts`` uniformly random
playouts, as many closing playouts (``enhanced``'s: winning closures
taken, the opponent's blocked; in eat-enemy tried on copies) and ``--games`` MCTS
self-play games (``--agent`` on both sides,
``--seconds`` a move), and prints a Markdown row per sample: its size, the
share that ended by exhaustion (the share drawn under ``exhausted=draw``,
Palago's rule), the share drawn under Lambo's rule, and each with its 95%
Wilson interval.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time

import numpy as np
from strength import maker

from hexarena import load
from hexarena.ai.arena import play_game
from hexarena.games.base import Game
from hexarena.games.palago_rules import EXHAUSTED, HOW, VARIANTS
from hexarena.kernels import DRAW, WINNER, seed


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of the share ``hits / n``."""
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def playout_endings(game: Game, playouts: int, closing: bool = False) -> tuple[int, int]:
    """(ended by exhaustion, drawn) over ``playouts`` uniformly random playouts from the start, or with
    ``closing`` the closing playouts ``enhanced`` plays (``pattern_playout``)."""
    s0 = game.new_state().array
    none = np.empty(0, dtype=np.int32)
    exhausted = drawn = 0
    for _ in range(playouts):
        s = s0.copy()
        if closing:
            game.kernels.pattern_playout(s, game.tables, none, none)
        else:
            game.kernels.playout(s, game.tables)
        exhausted += int(s[HOW] == EXHAUSTED)
        drawn += int(s[WINNER] == DRAW)
    return exhausted, drawn


def selfplay_endings(game: Game, agent: str, games: int, seconds: float, seeds) -> tuple[int, int]:
    """(ended by exhaustion, drawn) over ``games`` games of ``agent`` against itself."""
    make = maker(agent, seconds, seeds)
    exhausted = drawn = 0
    for _ in range(games):
        final = play_game(game, (make(), make()))
        exhausted += int(final.array[HOW] == EXHAUSTED)
        drawn += int(final.winner() is None)
    return exhausted, drawn


def row(variant: str, sample: str, n: int, exhausted: int, drawn: int, minutes: float) -> str:
    def share(k: int) -> str:
        low, high = wilson(k, n)
        return f"{k / n:.1%} ({low:.1%}-{high:.1%})"

    return f"| {variant} | {sample} | {n} | {share(exhausted)} | {share(drawn)} | {minutes:.1f} |"


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--playouts", type=int, default=20000)
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seconds", type=float, default=0.1)
    p.add_argument("--agent", default="enhanced")
    p.add_argument("--tiles", type=int, default=48)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    seeds = itertools.count(args.seed)
    seed(args.seed)
    np.random.seed(args.seed)
    print(f"| variant | sample | games | ended by exhaustion (95% interval) | drawn, exhausted=largest "
          f"(95% interval) | minutes |  ({args.tiles} tiles; self-play: {args.agent}, {args.seconds} s a move)")
    print("|---|---|---|---|---|---|")
    for variant in VARIANTS:
        game = load("palago", variant=variant, tiles=args.tiles)
        start = time.perf_counter()
        print(row(variant, "random playouts", args.playouts, *playout_endings(game, args.playouts),
                  (time.perf_counter() - start) / 60), flush=True)
        start = time.perf_counter()
        print(row(variant, "closing playouts", args.playouts, *playout_endings(game, args.playouts, closing=True),
                  (time.perf_counter() - start) / 60), flush=True)
        if args.games:
            start = time.perf_counter()
            ended = selfplay_endings(game, args.agent, args.games, args.seconds, seeds)
            print(row(variant, f"{args.agent} self-play", args.games, *ended, (time.perf_counter() - start) / 60),
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
