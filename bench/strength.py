"""Strength matches at equal wall-clock time per move, colours alternated.

    .venv/bin/python bench/strength.py GAME [-o key=value ...] [--games N] [--seconds S]
                                        [--a AGENT] [--b AGENT] [--seed K] [--simulations N]

AGENT is ``random``, an MCTS variant (``uct``, ``rave``, ``grave``,
``solver``, ``enhanced``, ``decisive``; see hexarena.ai.mcts.VARIANTS; each
also as ``NAME-nopolicy``: uniform playouts instead of the game's playout
policy, to measure what the policy brings; and with ``:key=value``
settings of hexarena.ai.mcts.Config, e.g. ``enhanced:c=0.4:grave_ref=100``), or
``openspiel-mcts`` (OpenSpiel's Python MCTS bot playing through
hexarena.interop.openspiel, about the same time a move).
``--simulations N`` gives MCTS agents N simulations a move instead (what
a playout policy is worth apart from its cost).  Prints each game's
result, then A's wins, B's wins and a 95% (Wilson) interval of A's score.
Examples:

    .venv/bin/python bench/strength.py projective-hex -o size=6 -o opening=none \\
        --games 20 --seconds 0.25 --a enhanced --b uct
    .venv/bin/python bench/strength.py push-and-pull --games 20 --seconds 0.25 \\
        --a enhanced --b enhanced-nopolicy
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable, Iterator

from hexarena import load
from hexarena.ai import Agent, agent
from hexarena.ai.arena import match
from hexarena.ai.mcts import config_of
from hexarena.cli import parse_options


def maker(name: str, seconds: float, seeds: Iterator[int], simulations: int | None = None) -> Callable[[], Agent]:
    """A maker of fresh agents called ``name`` (seeds differ from game to game);
    MCTS agents search ``simulations`` per turn when given, else ``seconds``.
    ValueError naming the agents for an unknown name."""
    if name == "random":
        return lambda: agent("random", seed=next(seeds))
    if name == "openspiel-mcts":
        return lambda: _openspiel_mcts(seconds, next(seeds))
    try:
        config_of(name)
    except ValueError as e:
        raise ValueError(f"unknown agent {name!r}; agents: random, openspiel-mcts, or an MCTS variant: {e}") from None
    budget = {"simulations": simulations} if simulations else {"seconds": seconds}
    return lambda: agent("mcts", variant=name, seed=next(seeds), **budget)


def _openspiel_mcts(seconds: float, seed: int) -> Agent:
    from openspiel_bots import OpenSpielMCTSAgent

    return OpenSpielMCTSAgent(seconds=seconds, seed=seed)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("game")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seconds", type=float, default=0.25, help="time per turn for both agents")
    p.add_argument("--a", default="enhanced")
    p.add_argument("--b", default="uct")
    p.add_argument("--simulations", type=int, help="simulations per move for MCTS agents instead of time")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    game = load(args.game, **parse_options(args.option))
    seeds = itertools.count(args.seed)
    try:
        makers = {name: maker(name, args.seconds, seeds, args.simulations) for name in (args.a, args.b)}
    except ValueError as e:
        p.error(str(e))
    makers[args.a]().choose(game.new_state())  # compile before the clock matters
    makers[args.b]().choose(game.new_state())
    start = time.perf_counter()

    def report(i: int, final, a_seat: int) -> None:
        w = final.winner()
        who = "draw" if w is None else (args.a if w == a_seat else args.b)
        print(f"game {i + 1:>3}: {args.a} plays {'first' if a_seat == 0 else 'second'}, "
              f"{len(final.history)} moves, won by {who}", flush=True)

    r = match(game, makers[args.a], makers[args.b], args.games, report)
    low, high = r.interval()
    budget = f"{args.simulations} simulations/turn" if args.simulations else f"{args.seconds} s/turn"
    print(f"{game!r}, {budget}, {args.games} games ({time.perf_counter() - start:.0f} s): "
          f"{args.a} {r.wins[0]}, {args.b} {r.wins[1]}, draws {r.draws}; "
          f"{args.a} scores {r.score():.0%} (95% interval {low:.0%}..{high:.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
