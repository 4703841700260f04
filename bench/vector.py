"""Positions per second of random self-play with an observation per position:
hexarena.vector's batched games against the per-game public API, measured in
the same run, per game.

    .venv/bin/python bench/vector.py [GAME ...] [--envs 1024] [--seconds 2] [-o GAME:KEY=VALUE ...]
                                     [--baseline SRC] [--observations]

Per game (its default options; Projective Hex at size 6 unless ``-o`` says
otherwise) three loops play uniformly random legal moves, starting a game
afresh when one ends, each position observed by its player to move in the
grid form of :func:`hexarena.observe.observation`:

- ``per-game``: one State through the public API (``observation(state)``,
  ``state.legal_actions()``, ``random.choice``, ``state.apply``);
- ``vector``: :class:`hexarena.vector.VectorGame` of ``--envs`` games from
  Python (``random_actions``, ``step``, ``observe(out=...)``) each round;
- ``self-play``: the same in one compiled call (``VectorGame.self_play``).

Each figure is the best of three timings of about ``--seconds`` each, after
a warm-up (numba's compiling is not timed); the ratios are against the
per-game loop.  ``--baseline SRC`` also runs the per-game loop on another
checkout's sources (``SRC`` holding its ``hexarena`` package, such as an
older commit's ``src``) in a subprocess, game by game in the same run, and
prints the vector and self-play loops' ratios to that too.  ``--observations`` times only
``observation(state)`` through the public API, in microseconds, at the
positions of a random game (with ``--baseline``: beside the other checkout's).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import hexarena
from hexarena.cli import parse_options
from hexarena.observe import observation

DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {"projective-hex": {"size": 6}}


def rate(run: Callable[[], int], seconds: float) -> float:
    """The best of three measures of ``run``'s positions per second, each repeating it for about ``seconds``."""
    run()  # warm-up
    best = 0.0
    for _ in range(3):
        positions, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            positions += run()
        best = max(best, positions / (time.perf_counter() - start))
    return best


def per_game(game: hexarena.Game, plies: int = 200) -> Callable[[], int]:
    state, rng = game.new_state(), random.Random(0)

    def run() -> int:
        nonlocal state
        for _ in range(plies):
            observation(state)
            state.apply(rng.choice(state.legal_actions()))
            if state.is_over():
                state = game.new_state()
        return plies
    return run


def vector(games: Any, out: np.ndarray, rounds: int = 4) -> Callable[[], int]:
    def run() -> int:
        for _ in range(rounds):
            games.step(games.random_actions())
            games.observe(out=out)
        return rounds * games.num_envs
    return run


def self_play(games: Any, out: np.ndarray, rounds: int = 4) -> Callable[[], int]:
    return lambda: games.self_play(rounds, out=out)["positions"]


def observation_micros(game: hexarena.Game, seconds: float) -> float:
    """Microseconds per ``observation(state)`` at the positions of one random game (best of three passes)."""
    state, rng, positions = game.new_state(), random.Random(0), []
    while not state.is_over():
        positions.append(state.copy())
        state.apply(rng.choice(state.legal_actions()))
    positions = positions[::max(1, len(positions) // 50)]
    return 1e6 / rate(lambda: sum(1 for p in positions if observation(p) is not None), seconds)


MEASURES = {"per-game": lambda game, seconds: rate(per_game(game), seconds), "observation": observation_micros}


def baseline(src: str, measure: str, name: str, options: dict[str, Any], seconds: float) -> float:
    """``MEASURES[measure]`` with the sources under ``src``, in a subprocess."""
    env = {**os.environ, "PYTHONPATH": src}
    cmd = [sys.executable, __file__, "--measure-only", json.dumps([measure, name, options, seconds])]
    return float(subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout)


def observations(args: argparse.Namespace, options: dict[str, dict[str, Any]]) -> int:
    print(f"{'game':16} {'observation us':>15}" + (f" {'baseline us':>12} {'speed-up':>9}" if args.baseline else ""))
    for name in args.games:
        now = observation_micros(hexarena.load(name, **options[name]), args.seconds)
        line = f"{name:16} {now:15.1f}"
        if args.baseline:
            before = baseline(args.baseline, "observation", name, options[name], args.seconds)
            line += f" {before:12.1f} {before / now:8.0f}x"
        print(line, flush=True)
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--measure-only"]:  # the --baseline subprocess
        measure, name, options, seconds = json.loads(argv[1])
        print(MEASURES[measure](hexarena.load(name, **options), seconds))
        return 0
    from hexarena.vector import VectorGame  # not in a --baseline checkout
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("games", nargs="*", default=list(hexarena.GAMES))
    p.add_argument("--envs", type=int, default=1024)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("-o", "--option", action="append", default=[], metavar="GAME:KEY=VALUE")
    p.add_argument("--baseline", metavar="SRC", help="also time the per-game loop on these sources")
    p.add_argument("--observations", action="store_true", help="time observation(state) only")
    args = p.parse_args(argv)
    options = {name: dict(DEFAULT_OPTIONS.get(name, {})) for name in args.games}
    for item in args.option:
        name, _, pair = item.partition(":")
        if name not in options:
            p.error(f"-o {item}: {name!r} is not one of the games benchmarked ({', '.join(options)})")
        options[name].update(parse_options([pair]))
    if args.observations:
        return observations(args, options)
    extra = f" {'baseline/s':>11} {'ratio':>7} {'self-play':>9}" if args.baseline else ""
    print(f"{'game':16} {'options':10} {'per-game/s':>11} {'vector/s':>11} {'ratio':>7} {'self-play/s':>12} "
          f"{'ratio':>7}{extra}  C x H x W (N={args.envs})", flush=True)
    for name in args.games:
        game = hexarena.load(name, **options[name])
        games = VectorGame(game, args.envs, seed=0)
        out = np.empty((args.envs, *games.observation_shape), dtype=np.float32)
        single = rate(per_game(game), args.seconds)
        batched = rate(vector(games, out), args.seconds)
        compiled = rate(self_play(games, out), args.seconds)
        if args.baseline:
            before = baseline(args.baseline, "per-game", name, options[name], args.seconds)
            extra = f" {before:11,.0f} {batched / before:6.0f}x {compiled / before:8.0f}x"
        shown = ",".join(f"{k}={v}" for k, v in options[name].items()) or "default"
        print(f"{name:16} {shown:10} {single:11,.0f} {batched:11,.0f} {batched / single:6.1f}x {compiled:12,.0f} "
              f"{compiled / single:6.1f}x{extra}  {'x'.join(map(str, games.observation_shape))}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
