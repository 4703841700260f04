"""Knockout brackets: seeded first round, the rounds after it, and who won a bracket pairing.

The bracket has the next power of 2 places; seeds are placed the standard way (1 v 8, 4 v 5, 2 v 7, 3 v 6 for
eight) so that seeds 1 and 2 can meet only in the final, and the missing places are byes for the top seeds:

>>> knockout_first_round(6)
[(1, None), (4, 5), (2, None), (3, 6)]
>>> knockout_next(["ann", "bob", "cy", "dee"])
[('ann', 'bob'), ('cy', 'dee')]
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import Played


def knockout_rounds(n: int) -> int:
    """The number of rounds of a knockout of ``n`` players (2 or more)."""
    if n < 2:
        raise ValueError(f"a knockout of {n} players: it needs 2 or more")
    return (n - 1).bit_length()


def knockout_first_round(n: int) -> list[tuple[int, int | None]]:
    """The first round of seeds 1..n in bracket order: (seed, opponent seed) or (seed, None) for a bye; the
    better seed is named first."""
    size = 1 << knockout_rounds(n)
    order = [1]
    while len(order) < size:
        order = [s for seed in order for s in (seed, 2 * len(order) + 1 - seed)]
    return [(a, b if b <= n else None) for a, b in zip(order[::2], order[1::2], strict=True)]


def knockout_next(previous_winners: Sequence[str]) -> list[tuple[str, str]]:
    """The next round from the last round's winners (byes included) in bracket order: 1st v 2nd, 3rd v 4th, ...
    (the first named takes the first seat); [] once one winner is left."""
    if len(previous_winners) <= 1:
        return []
    if len(previous_winners) % 2:
        raise ValueError(f"{len(previous_winners)} winners: a bracket round has an even number (or 1, the end)")
    return list(zip(previous_winners[::2], previous_winners[1::2], strict=True))


def knockout_winner(games: Sequence[Played]) -> str | None:
    """The winner of one bracket pairing from its games in order: the first decisive game's winner (a forfeit
    counts); a drawn game is replayed (seats swapped), so None while every game so far is drawn or going on."""
    for i, game in enumerate(games):
        if game.result is None:
            return None
        if game.result == 0.5:
            continue
        if i + 1 < len(games):
            raise ValueError(f"round {game.round}: a game after {game.seats[0]} v {game.seats[1]} was decided")
        return game.seats[0] if game.result == 1.0 else game.seats[1]
    return None
