"""The web app's storage, in SQLite or PostgreSQL, one part per job (docs/server.md, "Storage"):

- :mod:`.database`: the engine, write transactions and the clock (:class:`Database`);
- :mod:`.matches`: the match repository, states rebuilt by the library and cached per process (:class:`Matches`);
- :mod:`.writes`: a change of a match in one transaction under its row lock, and the loss on time;
- :mod:`.creation`, :mod:`.joins`: new matches, and the open seats joined;
- :mod:`.open_seats`, :mod:`.ai_caps`: the open-match limit and expiry, the caps on AI matches;
- :mod:`.finals`: costly games' final scorings; :mod:`.lookups`: listings, the AI's matches, deadlines;
- :mod:`.claims`: which process searches an AI move; :mod:`.notify`: telling every process of a change;
- :mod:`.seats`: seats, seat names and seat tokens.

:class:`Store` wires the parts on one database.
"""

from __future__ import annotations

from .. import clocks
from ..clocks import Clock
from .creation import NewMatches
from .database import Database
from .finals import Finals
from .joins import Joins
from .lookups import Lookups
from .matches import Matches
from .open_seats import OpenSeats
from .writes import MatchWrites


class Store:
    """The store's parts on the database at ``url``: ``open_matches`` and ``open_hours`` as
    :class:`~.open_seats.OpenSeats` takes them, time judged by ``clock``."""

    def __init__(self, url: str, open_matches: int = 0, open_hours: float = 0.0,
                 clock: Clock = clocks.real_clock) -> None:
        self.db = Database(url, clock)
        self.open_seats = OpenSeats(open_matches, open_hours)
        self.matches = Matches(self.db)
        self.writes = MatchWrites(self.matches)
        self.new_matches = NewMatches(self.matches, self.open_seats)
        self.joins = Joins(self.matches, self.open_seats)
        self.finals = Finals(self.db)
        self.lookups = Lookups(self.db, self.open_seats)

    def close(self) -> None:
        self.db.close()
