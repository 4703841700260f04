"""What a position's copies, key and text cost, per game, against copying a bare numpy array.

    .venv/bin/python bench/copy_key.py [GAME ...] [--rounds 100]

For each game (default options) it plays a random game to its end, then replays it to half its length (a
mid-game position with its history), and times ``state.copy()``, ``state.copy(history=False)``,
``state.key()``, ``state.position_text()`` and ``game.from_position_text(text)``; the reference is
``copy.copy`` of a numpy int32 array of the position's size, timed in the same rounds.  Each figure is the
least over ``--rounds`` interleaved rounds of samples of about half a millisecond each (a loaded machine
slows some samples, never speeds one up), in microseconds a call, with its ratio to the reference.
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import timeit
from collections.abc import Callable
from functools import partial

import numpy as np

from hexarena import GAMES, load
from hexarena.games.base import State


def mid_game(name: str, seed: int = 1) -> State:
    """A random game of ``name`` replayed to half its length."""
    game, rng = load(name), random.Random(seed)
    state = game.new_state()
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    actions = state.history
    state = game.new_state()
    for action in actions[: len(actions) // 2]:
        state.apply(action)
    return state


def timed_calls(state: State) -> dict[str, Callable[[], object]]:
    """What is timed on ``state``, the reference first: ``copy.copy`` of an int32 array of its size."""
    array = np.zeros(state.array.shape[0], np.int32)
    return {"reference": partial(copy.copy, array), "copy": state.copy,
            "history=False": partial(state.copy, history=False), "key": state.key, "text": state.position_text,
            "read": partial(state.game.from_position_text, state.position_text())}


SAMPLE = 0.0005  # seconds a timed sample lasts: short enough that most samples run unpreempted on a loaded machine


def least(calls: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Microseconds a call of each, the least over ``rounds`` interleaved rounds of samples of about
    ``SAMPLE`` seconds."""
    numbers = {label: max(1, int(SAMPLE / max(timeit.timeit(call, number=3) / 3, 1e-8))) for label, call in
               calls.items()}
    best = dict.fromkeys(calls, float("inf"))
    for _ in range(rounds):
        for label, call in calls.items():
            best[label] = min(best[label], timeit.timeit(call, number=numbers[label]) / numbers[label] * 1e6)
    return best


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("games", nargs="*", metavar="GAME")
    p.add_argument("--rounds", type=int, default=100)
    args = p.parse_args(argv)
    print("| game | plies | array (int32) | copy.copy(array) µs | copy() | copy(history=False) | key() | "
          "position_text() | from_position_text |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.games or GAMES:
        state = mid_game(name)
        calls = timed_calls(state)
        least(calls, 1)  # compile / load
        t = least(calls, args.rounds)
        ref = t["reference"]
        cells = " | ".join(f"{t[k]:.1f} ({t[k] / ref:.1f}x)" for k in ("copy", "history=False", "key", "text", "read"))
        print(f"| {name} | {state.ply} | {state.array.shape[0]} | {ref:.2f} | {cells} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
