"""Time of the Swiss pairing (hexarena.tournament.pair_swiss) on a big event: ``--players`` seeded players over
``--rounds`` simulated rounds, each game's result drawn at random (seeded), one player in ``--withdraw`` per
round withdrawing.

    .venv/bin/python bench/tournament_pairing.py [--players 200] [--rounds 9] [--seed 1] [--withdraw 0.0]

Prints each round's pairing time in seconds, the slowest, and the pairing's quality: repeats (0 expected)
and the largest first-seat minus second-seat imbalance of any player after the last round. The issue's target
is under 2 s a round for 200 players.
"""

from __future__ import annotations

import argparse
import random
import time

from hexarena.tournament import Entrant, Played, RoundRecord, pair_swiss
from hexarena.tournament.swiss import standings_for_pairing

RESULTS = (1.0, 0.5, 0.0)


def simulate(players: int, rounds: int, seed: int, withdraw: float) -> tuple[list[float], int, int]:
    """The seconds of each round's pairing, the repeat pairings made, the largest seat imbalance at the end."""
    rng = random.Random(seed)
    entrants = [Entrant(f"p{i}", i, rating=2400.0 - i) for i in range(1, players + 1)]
    history: list[RoundRecord] = []
    seconds, met, repeats = [], set(), 0
    for number in range(1, rounds + 1):
        entrants = [Entrant(e.name, e.seed, e.rating, e.withdrawn or rng.random() < withdraw) for e in entrants]
        start = time.perf_counter()
        pairing = pair_swiss(entrants, history)
        seconds.append(time.perf_counter() - start)
        repeats += sum(frozenset(g) in met for g in pairing.games)
        met |= {frozenset(g) for g in pairing.games}
        history.append(RoundRecord(number, tuple(Played(number, g, rng.choice(RESULTS)) for g in pairing.games),
                                   pairing.bye))
    imbalance = max(abs(p.difference) for p in standings_for_pairing(entrants, history))
    return seconds, repeats, imbalance


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--withdraw", type=float, default=0.0, help="each player's chance to withdraw per round")
    args = parser.parse_args()
    seconds, repeats, imbalance = simulate(args.players, args.rounds, args.seed, args.withdraw)
    for number, s in enumerate(seconds, 1):
        print(f"round {number}: {s:.3f} s")
    print(f"slowest {max(seconds):.3f} s; repeats {repeats}; largest seat imbalance {imbalance}")


if __name__ == "__main__":
    main()
