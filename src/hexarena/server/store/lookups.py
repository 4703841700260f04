"""Questions asked across the stored matches: the lobby's listings, the AI's unfinished matches and whose share
of AI time they take, the address that created a match, and the clocks' deadlines."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from hexarena.record_writer import at

from .. import clocks
from ..schema import match_clients, matches
from .database import Database
from .matches import Match
from .notify import account_topic
from .open_seats import OpenSeats
from .seats import seat_agent

LISTED = 50  # matches a listing shows


class Lookups:
    """Reads over the matches in ``db`` (open seats expiring as ``open_seats`` says)."""

    def __init__(self, db: Database, open_seats: OpenSeats) -> None:
        self.db, self.open_seats = db, open_seats

    def listing(self, which: str, limit: int = LISTED) -> list[dict[str, Any]]:
        """The open (a free seat not expired, not over) or recent matches, newest first."""
        query = select(matches.c.id, matches.c.game, matches.c.options, matches.c.seats, matches.c.ply,
                       matches.c.over, matches.c.status, matches.c.updated).order_by(matches.c.updated.desc())
        if which == "open":
            query = query.join(match_clients).where(matches.c.over.is_(False), match_clients.c.waiting.is_(True))
            if self.open_seats.hours:
                query = query.where(match_clients.c.created >= self.open_seats.since())
        with self.db.engine.connect() as conn:
            return [dict(r) for r in conn.execute(query.limit(limit)).mappings()]

    def unfinished_ai_matches(self) -> list[str]:
        """Matches not over that have an AI seat (one of them may be the AI's to move)."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(select(matches.c.id, matches.c.seats).where(matches.c.over.is_(False))).all()
        return [r.id for r in rows if any(seat_agent(s) is not None for s in r.seats)]

    def owner(self, match: Match) -> str:
        """Whose share of AI time ``match``'s searches take: the account seated in it against the AI
        ("account:ID"; not the AI's own), else the client address that created it ("client:ADDRESS")."""
        seated = next((a for a, kind in zip(match.accounts, match.seats, strict=True)
                       if a is not None and seat_agent(kind) is None), None)
        if seated is not None:
            return account_topic(seated)
        return f"client:{self.creator(match.id)}"

    def creator(self, match_id: str) -> str:
        """The address that created ``match_id`` ("" when unknown)."""
        with self.db.engine.connect() as conn:
            return conn.execute(select(match_clients.c.client).where(match_clients.c.match_id == match_id)
                                ).scalar() or ""

    def expired(self) -> list[str]:
        """The matches whose player to move has run out of time (by the index on the deadline)."""
        query = select(matches.c.id).where(matches.c.over.is_(False), matches.c.deadline.is_not(None),
                                           matches.c.deadline <= at(self.db.clock())).order_by(matches.c.deadline)
        with self.db.engine.connect() as conn:
            return [r.id for r in conn.execute(query)]

    def nearest_deadline(self) -> float | None:
        """The nearest deadline of a match going on (seconds since the epoch), or None."""
        with self.db.engine.connect() as conn:
            nearest = conn.execute(select(func.min(matches.c.deadline)).where(matches.c.over.is_(False))).scalar()
        return None if nearest is None else clocks.seconds(nearest)
