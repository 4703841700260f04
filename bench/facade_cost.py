"""The State facade's and the pyspiel adapter's cost per move against the bare kernels called from Python (CPU time).

    .venv/bin/python bench/facade_cost.py [GAME ...] [--moves 20000]

For each game (default options) it plays random games move by move, three
times with the same choices: through the bare kernels (``legal`` into a
buffer, ``apply``), through the facade (``State.legal_actions()``,
``State.apply(action)``: the legality check, the undo stack and the move's
time stamp included) and through pyspiel (``legal_actions()``,
``apply_action(action)`` on :mod:`hexarena.interop.openspiel`'s state), and
prints microseconds per move of each and their ratios to the bare kernels
(issue 19: the facade within 2x the bare kernels).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from hexarena import GAMES, load
from hexarena.games.base import WINNER
from hexarena.interop.openspiel import load_game


def bare(game, moves: int, seed: int) -> float:
    """Seconds per move through ``legal`` and ``apply`` called from Python."""
    k, rng, out = game.kernels, random.Random(seed), np.empty(game.num_actions, dtype=np.int32)
    t, done, start = game.tables, 0, time.process_time()
    while done < moves:
        s = game.new_state().array.copy()
        while s[WINNER] < 0 and done < moves:
            n = k.legal(s, t, out)
            k.apply(s, t, int(out[rng.randrange(n)]))
            done += 1
    return (time.process_time() - start) / moves


def facade(game, moves: int, seed: int) -> float:
    """Seconds per move through ``State.legal_actions`` and ``State.apply``."""
    rng, done, start = random.Random(seed), 0, time.process_time()
    while done < moves:
        state = game.new_state()
        while not state.is_over() and done < moves:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            done += 1
    return (time.process_time() - start) / moves


def through_pyspiel(game, moves: int, seed: int) -> float:
    """Seconds per move through pyspiel's ``legal_actions`` and ``apply_action``."""
    spiel = load_game(game.name, **game.options)
    rng, done, start = random.Random(seed), 0, time.process_time()
    while done < moves:
        state = spiel.new_initial_state()
        while not state.is_terminal() and done < moves:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            done += 1
    return (time.process_time() - start) / moves


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("games", nargs="*", metavar="GAME")
    p.add_argument("--moves", type=int, default=20000)
    args = p.parse_args(argv)
    print("| game | bare kernels (µs a move) | State facade (µs a move) | facade / bare | pyspiel (µs a move) "
          "| pyspiel / bare |")
    print("|---|---|---|---|---|---|")
    for name in args.games or GAMES:
        game = load(name)
        bare(game, 200, 0), facade(game, 200, 0), through_pyspiel(game, 200, 0)  # compile / load
        b, f, p = bare(game, args.moves, 1), facade(game, args.moves, 1), through_pyspiel(game, args.moves, 1)
        print(f"| {name} | {b * 1e6:.1f} | {f * 1e6:.1f} | {f / b:.2f} | {p * 1e6:.1f} | {p / b:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
