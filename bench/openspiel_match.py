"""A match between two OpenSpiel bots on a hexarena game, through the interop.

    .venv/bin/python bench/openspiel_match.py [GAME] [-o key=value ...] [--games N]
        [--seconds S] [--players mcts,random] [--seed K]

Players: ``mcts`` is OpenSpiel's Python MCTSBot (UCT, one random rollout per
leaf) given about S seconds a move (its simulation count follows the rate
it measured on its previous move); ``random`` picks uniformly.  The bots
swap seats every game.  Prints one line per game and the score of the first
player named.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import numpy as np
import pyspiel
from open_spiel.python.bots import uniform_random

from hexarena.cli import parse_options
from hexarena.interop.openspiel import load_game
from openspiel_bots import TimedMCTSBot

KINDS = ("mcts", "random")


def make_bot(kind: str, game: pyspiel.Game, seat: int, seconds: float, rng: np.random.RandomState) -> pyspiel.Bot:
    if kind == "mcts":
        return TimedMCTSBot(game, seconds, rng)
    return uniform_random.UniformRandomBot(seat, rng)


def play(game: pyspiel.Game, bots: Sequence[pyspiel.Bot]) -> tuple[list[float], int]:
    """One game between ``bots`` (seat order); the returns and the moves made."""
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return state.returns(), state.move_number()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", nargs="?", default="projective-hex")
    parser.add_argument("-o", dest="options", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=1.0, help="search time a move for mcts")
    parser.add_argument("--players", default="mcts,random", help=f"two of {', '.join(KINDS)}")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    kinds = args.players.split(",")
    if len(kinds) != 2 or any(k not in KINDS for k in kinds):
        parser.error(f"--players takes two of {', '.join(KINDS)}, e.g. mcts,random; got {args.players!r}")
    game = load_game(args.game, **parse_options(args.options))
    rng = np.random.RandomState(args.seed)
    print(f"{game}: {kinds[0]} vs {kinds[1]}, {args.games} games, {args.seconds:g} s a move")
    score, start = 0.0, time.perf_counter()
    for i in range(args.games):
        seat = i % 2  # the first player named plays seat 0 in even games
        order = [kinds[0], kinds[1]] if seat == 0 else [kinds[1], kinds[0]]
        bots = [make_bot(k, game, p, args.seconds, rng) for p, k in enumerate(order)]
        t0 = time.perf_counter()
        returns, moves = play(game, bots)
        score += (returns[seat] + 1) / 2
        sims = [f"{b.simulations / max(b.moves, 1):.0f} sims/move" for b in bots if isinstance(b, TimedMCTSBot)]
        print(f"game {i + 1}: {order[0]} (first) vs {order[1]}: returns {returns}, {moves} moves, "
              f"{time.perf_counter() - t0:.1f} s {' '.join(sims)}")
    print(f"{kinds[0]} scored {score:g}/{args.games} against {kinds[1]} ({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
