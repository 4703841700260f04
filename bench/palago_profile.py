"""Where a Palago playout's time goes: the kernels timed apart over the same recorded random playouts.

    .venv/bin/python bench/palago_profile.py [--playouts 4000] [--runs 5] [--variant standard]

It records ``--playouts`` random playouts (48 tiles, ``--variant``), then
times, per playout and best of ``--runs``: whole random playouts, whole
closing playouts (MCTS ``enhanced``'s, which are shorter: their own
tiles a playout are printed), the position copy each starts with, and
replays of the recorded tiles through node set-up only, ``lay`` (nodes
and joins), ``place`` (``lay`` and the win test) and ``apply``.  Every
replay figure includes the copy.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

import numba
import numpy as np

import hexarena
from hexarena.games import palago_playouts as PP
from hexarena.games import palago_rules as P


@numba.njit
def record(s0, t, actions, movers):
    for i in range(actions.shape[0]):
        s = s0.copy()
        PP.recorded_playout(s, t, actions[i], movers)


@numba.njit
def playouts(s0, t, count):
    s = s0.copy()
    for _ in range(count):
        s[:] = s0
        PP.playout(s, t)


@numba.njit
def closing_playouts(s0, t, count):
    """``count`` closing playouts from ``s0``; the tiles they placed."""
    none = np.empty(0, dtype=np.int32)
    s = s0.copy()
    tiles = 0
    for _ in range(count):
        s[:] = s0
        PP.closing_playout(s, t, none, none)
        tiles += s[P.PLACED] - s0[P.PLACED]
    return tiles


@numba.njit
def copies(s0, count):
    s = s0.copy()
    for _ in range(count):
        s[:] = s0
        s[P.PLACED] += 1
    return s[P.PLACED]


@numba.njit
def replay_setup(s0, t, actions):
    s = s0.copy()
    for i in range(actions.shape[0]):
        s[:] = s0
        for a in actions[i]:
            if a < 0:
                break
            base = 6 * s[P.PLACED]
            s[P.PLACED] += 1
            for node in range(base, base + 6):
                s[t.par + node], s[t.nxt + node] = node, node
                s[t.opens + node], s[t.bridges + node], s[t.eats + node] = 2, 0, 0
                s[t.eatmax + node], s[t.eater + node] = -1, -1


@numba.njit
def replay_lay(s0, t, actions):
    s = s0.copy()
    for i in range(actions.shape[0]):
        s[:] = s0
        for a in actions[i]:
            if a < 0:
                break
            P.lay(s, t, a // 3, a % 3)


@numba.njit
def replay_place(s0, t, actions):
    s = s0.copy()
    for i in range(actions.shape[0]):
        s[:] = s0
        for a in actions[i]:
            if a < 0:
                break
            P.place(s, t, a // 3, a % 3, s[P.TO_MOVE])


@numba.njit
def replay_apply(s0, t, actions):
    s = s0.copy()
    for i in range(actions.shape[0]):
        s[:] = s0
        for a in actions[i]:
            if a < 0:
                break
            P.apply(s, t, a)


def best_of(run: Callable[[], object], runs: int) -> float:
    """The shortest of ``runs`` timings of ``run`` (after one to compile), in seconds."""
    run()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--playouts", type=int, default=4000)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--variant", default="standard", choices=P.VARIANTS)
    args = p.parse_args(argv)
    game = hexarena.load("palago", variant=args.variant)
    t, s0 = game.tables, game.new_state().array.copy()
    n = args.playouts
    actions = np.full((n, game.options["tiles"]), -1, dtype=np.int32)
    record(s0, t, actions, np.empty(actions.shape[1], dtype=np.int32))
    print(f"{n} playouts, {(actions >= 0).sum(1).mean():.1f} tiles a playout on average "
          f"(closing playouts: {closing_playouts(s0, t, n) / n:.1f}); µs a playout:")
    pieces = {"random playout": lambda: playouts(s0, t, n), "closing playout": lambda: closing_playouts(s0, t, n),
              "position copy": lambda: copies(s0, n),
              "copy + node set-up": lambda: replay_setup(s0, t, actions),
              "copy + lay": lambda: replay_lay(s0, t, actions), "copy + place": lambda: replay_place(s0, t, actions),
              "copy + apply": lambda: replay_apply(s0, t, actions)}
    for name, run in pieces.items():
        print(f"  {name:20s} {best_of(run, args.runs) / n * 1e6:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
