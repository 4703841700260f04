"""The records the tournament functions read: an event's entrants and the rounds played so far.

Every function of :mod:`hexarena.tournament` works on these plain values (players are names), so the server
builds them from its tables and the tests write them by hand. A bad value is refused when it is made, with a
``ValueError`` saying what was wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Result = float | None  # seat 0's score: 1.0, 0.5 or 0.0; None while the game goes on
RESULTS = (1.0, 0.5, 0.0)


@dataclass(frozen=True)
class Played:
    """One game of an event as the standings read it: ``seats[0]`` moves first; ``result`` is seat 0's score.
    A ``forfeit`` was not played over the board (a withdrawn player's later game): its result (1.0 or 0.0)
    says who won, and it counts in points, never in games, wins, seats or the opponents' tie-breaks."""

    round: int
    seats: tuple[str, str]
    result: Result
    forfeit: bool = False

    def __post_init__(self) -> None:
        if self.round < 1:
            raise ValueError(f"round {self.round}: rounds are numbered from 1")
        if len(self.seats) != 2 or self.seats[0] == self.seats[1]:
            raise ValueError(f"seats {self.seats!r}: a game has two different players")
        if self.result is not None and self.result not in RESULTS:
            raise ValueError(f"result {self.result!r}: one of 1.0, 0.5, 0.0 or None (going on)")
        if self.forfeit and self.result not in (1.0, 0.0):
            raise ValueError(f"forfeit {self.seats!r} with result {self.result!r}: a forfeit has a winner "
                             "(1.0 or 0.0)")

    def score(self, name: str) -> float:
        """``name``'s score in this finished game."""
        assert self.result is not None, "a game going on has no score yet"
        return self.result if name == self.seats[0] else 1.0 - self.result

    def opponent(self, name: str) -> str:
        return self.seats[1] if name == self.seats[0] else self.seats[0]

    @property
    def over_the_board(self) -> bool:
        """Finished and played (not a forfeit)."""
        return self.result is not None and not self.forfeit


@dataclass(frozen=True)
class RoundRecord:
    """One round: its games and the pairing-allocated bye (1 point, not a win, no opponent), if any."""

    number: int
    games: tuple[Played, ...]
    bye: str | None = None

    def __post_init__(self) -> None:
        wrong = [g.round for g in self.games if g.round != self.number]
        if wrong:
            raise ValueError(f"round {self.number} holds games of round {wrong[0]}")


@dataclass(frozen=True)
class Entrant:
    """A player of an event: ``seed`` 1..N is fixed at the start (by rating, best first)."""

    name: str
    seed: int
    rating: float = 1500.0
    withdrawn: bool = False


@dataclass(frozen=True)
class Pairing:
    """A round's pairing: its games as (first seat, second seat) and the bye (None when every player plays)."""

    games: tuple[tuple[str, str], ...]
    bye: str | None


def check_names(entrants: Sequence[Entrant], rounds: Sequence[RoundRecord]) -> None:
    """Raise ``ValueError`` when a round names a player who is not an entrant, or entrants repeat a name or seed."""
    names = {e.name for e in entrants}
    if len(names) != len(entrants) or len({e.seed for e in entrants}) != len(entrants):
        raise ValueError("entrants repeat a name or a seed: each entrant has its own")
    for r in rounds:
        named = {n for g in r.games for n in g.seats} | ({r.bye} if r.bye is not None else set())
        unknown = sorted(named - names)
        if unknown:
            raise ValueError(f"round {r.number} names {', '.join(map(str, unknown))}: not an entrant")
