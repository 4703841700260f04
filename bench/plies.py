"""Random plies per second: playouts/s times the mean game length, beside
OpenSpiel's C++ havannah(8) and hex(11) measured in the same run.

    .venv/bin/python bench/plies.py [GAME ...] [--seconds S] [--games N] [--rounds R]

Playouts/s is ``hexarena bench``'s figure (the game's numba playout loop);
the mean length comes from ``N`` further playouts, read from each final
position's PLY header entry.  OpenSpiel's mean length is measured the same
way, by random games through pyspiel (its rollouts/s from
:func:`hexarena.bench.openspiel_rollout_rate`).  With ``--rounds R`` the
havannah(8) reference and the games are measured R times in turn and each
game's ratio to the reference just before it is reported, with their median:
on a shared machine whose load changes by the minute, a ratio from one round
alone can be off by a third.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys


from hexarena import load
from hexarena.bench import (OPENSPIEL_REFS, bench_setups, openspiel_available, openspiel_rollout_rate,
                            playout_rate)
from hexarena.games.base import PLY
from hexarena.kernels import seed

GAMES = ("iqishiqi", "weituweiqi", "hex-pushpin")


def mean_plies(name: str, options: dict, games: int) -> float:
    """The mean number of plies of ``games`` random playouts from the start."""
    game = load(name, **options)
    s0 = game.initial_array()
    seed(12345)
    total = 0
    for _ in range(games):
        s = s0.copy()
        game.kernels.playout(s, game.tables)
        total += int(s[PLY]) - int(s0[PLY])
    return total / games


def openspiel_mean_plies(game_string: str, games: int) -> float:
    """The mean length of ``games`` uniformly random games of an OpenSpiel game."""
    import pyspiel

    game = pyspiel.load_game(game_string)
    rng = random.Random(7)
    total = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            total += 1
    return total / games


def rounds(names: list[str], seconds: float, games: int, count: int) -> None:
    """Print each game's plies/s over havannah(8)'s, measured in turn ``count`` times, and the medians."""
    ref = OPENSPIEL_REFS[0]
    ref_plies = openspiel_mean_plies(ref, min(games, 300))
    setups = [(name, label, options) for name in names for label, options in bench_setups(name)]
    lengths = {(name, label): mean_plies(name, options, games) for name, label, options in setups}
    ratios: dict[tuple[str, str], list[float]] = {key: [] for key in lengths}
    for i in range(count):
        reference = openspiel_rollout_rate(ref, seconds) * ref_plies
        for name, label, options in setups:
            ratios[name, label].append(playout_rate(name, options, seconds) * lengths[name, label] / reference)
        print(f"round {i + 1}: {ref} {reference:,.0f} plies/s; " +
              "; ".join(f"{name} {label.split(' (')[0]} {r[-1]:.2f}x" for (name, label), r in ratios.items()),
              flush=True)
    for (name, label), r in ratios.items():
        print(f"median {name + ' ' + label:<32} {statistics.median(r):5.2f}x havannah(8) plies/s "
              f"(rounds: {', '.join(f'{x:.2f}' for x in r)})")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(GAMES), metavar="GAME")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per playouts/s measurement")
    parser.add_argument("--games", type=int, default=1000, help="playouts for each mean length")
    parser.add_argument("--rounds", type=int, default=0, help="measure reference and games in turn this many times")
    args = parser.parse_args(argv)
    if args.rounds > 0:
        if not openspiel_available():
            parser.error("--rounds needs OpenSpiel (pip install 'hexarena[bench]')")
        rounds(args.names, args.seconds, args.games, args.rounds)
        return 0
    if openspiel_available():
        for ref in OPENSPIEL_REFS:
            r = openspiel_rollout_rate(ref, args.seconds)
            m = openspiel_mean_plies(ref, min(args.games, 300))
            print(f"openspiel {ref:<32} {r:>10,.0f} rollouts/s  {m:6.1f} plies  {r * m:>12,.0f} plies/s")
    for name in args.names:
        for label, options in bench_setups(name):
            r = playout_rate(name, options, args.seconds)
            m = mean_plies(name, options, args.games)
            print(f"hexarena  {name + ' ' + label:<32} {r:>10,.0f} playouts/s  {m:6.1f} plies  {r * m:>12,.0f} plies/s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
