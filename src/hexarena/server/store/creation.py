"""Creating a match from POST /api/matches or an import: the open-match limit and the AI caps checked, the match
inserted, in one transaction."""

from __future__ import annotations

from hexarena.games.base import State

from ..limits import AICaps
from .ai_caps import check_ai_caps
from .matches import Match, Matches
from .open_seats import OpenSeats
from .seats import seat_agent, token_hash


class NewMatches:
    """New matches in ``matches``, within ``open_seats``' limit."""

    def __init__(self, matches: Matches, open_seats: OpenSeats) -> None:
        self.matches, self.open_seats = matches, open_seats

    def create(self, state: State, seats: list[str], token_seats: list[int], token: str, client: str = "",
               caps: AICaps | None = None, account: int | None = None) -> Match:
        """Store a new match of ``state`` (its moves too, for an imported record) created by ``client`` (an
        address), the ``token_seats`` held by ``token`` and the account ``account`` (if any); 429 when a seat is
        open and ``client`` already holds the most open matches, or when an AI seat would exceed ``caps``."""
        digest = token_hash(token)
        tokens = [digest if i in token_seats else None for i in range(2)]
        with self.matches.db.write() as conn:
            if "open" in seats:
                self.open_seats.check(conn, client)
            if caps is not None and any(seat_agent(s) is not None for s in seats) and not state.is_over():
                check_ai_caps(conn, seats, client, caps)
            held = [account if account is not None and i in token_seats else None for i in range(2)]
            match = self.matches.insert(conn, state, seats, tokens, client, held)
        self.matches.remember(match)
        return match
