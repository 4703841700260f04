"""Joining a match: the first open seat given to whoever asks, while it has not expired."""

from __future__ import annotations

from sqlalchemy import update

from hexarena.record_writer import at

from ..errors import Refused
from ..schema import match_clients, matches
from .matches import Matches, seat_account
from .notify import notify
from .open_seats import OpenSeats
from .seats import token_hash


class Joins:
    """The joins of ``matches``' open seats, which expire as ``open_seats`` says."""

    def __init__(self, matches: Matches, open_seats: OpenSeats) -> None:
        self.matches, self.open_seats = matches, open_seats

    def join(self, match_id: str, token: str, account: int | None = None) -> int:
        """Give the first open seat to ``token`` (and the account ``account``, if any); the seat (409 if none, or
        if it expired)."""
        with self.matches.db.write() as conn:
            match = self.matches.load(conn, match_id, lock=True)
            if "open" not in match.seats:
                raise Refused(409, "no open seat: the match is full")
            if self.open_seats.expired(match.created):
                raise Refused(409, f"no open seat: it expired, nobody joined within {self.open_seats.hours:g} h")
            seat = match.seats.index("open")
            seats, tokens = list(match.seats), list(match.tokens)
            seats[seat], tokens[seat] = "human", token_hash(token)
            conn.execute(update(matches).where(matches.c.id == match_id).values(
                seats=seats, tokens=tokens, version=match.version + 1, updated=at(self.matches.db.clock())))
            conn.execute(update(match_clients).where(match_clients.c.match_id == match_id).values(
                waiting="open" in seats))
            if account is not None:
                seat_account(conn, match_id, [seat], account)
            notify(conn, match_id, [*match.accounts, account])
        self.matches.forget(match_id)
        return seat
