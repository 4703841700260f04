"""Iqishiqi's random playouts with several versions of its kernel module, side
by side in one process: on a shared machine whose load changes by the
minute, only versions measured in turn compare.

    git show 6b6b5df:src/hexarena/games/iqishiqi.py > /tmp/iq_old.py
    .venv/bin/python bench/iqishiqi_ab.py old=/tmp/iq_old.py new=src/hexarena/games/iqishiqi.py [--size 8] [--rounds 7]

Each file is imported as a module of ``hexarena.games`` (its relative imports
resolve against the installed package), its ``Iqishiqi`` game built, and
``--count`` playouts from the initial position timed per round (CPU seconds,
the same numba seed for every version, so versions that draw alike play the
same games: the mean plies printed should then agree).  Prints the median ns
per playout and every round's.

Since ``iqishiqi.py`` was split, its kernels are in ``iqishiqi_rules.py`` and
``iqishiqi_playouts.py``, which it imports from the installed package: a
version from after the split times the installed kernels, so compare one from
before it with the current ``iqishiqi.py`` as above, and two later versions as
two copies of the package timed in turn.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time

from hexarena.kernels import seed


def load_version(label: str, path: str):
    """The module at ``path`` imported as ``hexarena.games._ab_<label>``."""
    name = f"hexarena.games._ab_{label}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path!r} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("versions", nargs="+", metavar="LABEL=PATH")
    p.add_argument("--size", type=int, default=8)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--count", type=int, default=20000, help="playouts per round and version")
    args = p.parse_args(argv)
    games = {}
    for spec in args.versions:
        label, sep, path = spec.partition("=")
        if not sep or not label.isidentifier():
            p.error(f"{spec!r}: give LABEL=PATH, LABEL a Python name")
        game = load_version(label, path).Iqishiqi(size=args.size)
        s0 = game.new_state().array
        game.kernels.counted_playouts(s0, game.tables, 200)  # compile
        games[label] = (game, s0)
    times: dict[str, list[float]] = {label: [] for label in games}
    plies: dict[str, float] = {}
    for _ in range(args.rounds):
        for label, (game, s0) in games.items():
            seed(1)
            start = time.process_time()
            counts = game.kernels.counted_playouts(s0, game.tables, args.count)
            times[label].append((time.process_time() - start) / args.count * 1e9)
            plies[label] = counts[3] / args.count
    for label, ts in times.items():
        print(f"{label:12s} {statistics.median(ts):6.0f} ns a playout ({plies[label]:.2f} plies)  "
              f"rounds: {' '.join(f'{x:.0f}' for x in ts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
