"""The caps on matches with an AI seat (:class:`..limits.AICaps`): AI against AI on the server, and against the AI
per client address, checked in the transaction that creates the match."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import Connection, select, text

from ..errors import Refused
from ..limits import AICaps
from ..schema import match_clients, matches
from .seats import seat_agent


def check_ai_caps(conn: Connection, seats: list[str], client: str, caps: AICaps) -> None:
    """429 when a new match with ``seats`` (an AI among them) would exceed ``caps``."""
    if conn.dialect.name == "postgresql":  # a client's creations take turns, so two at once cannot both pass
        conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('hexarena:ai-caps'))"))
    if all(seat_agent(s) is not None for s in seats):
        check_ai_vs_ai(conn, caps)
    since = (datetime.now(UTC) - timedelta(seconds=caps.active_seconds)).isoformat(timespec="milliseconds")
    rows = conn.execute(select(matches.c.seats).join(match_clients).where(
        match_clients.c.client == client[:64], matches.c.over.is_(False), matches.c.updated >= since)).all()
    mine = sum(any(seat_agent(s) is not None for s in r.seats) for r in rows)
    if mine >= caps.per_client:
        raise Refused(429, f"you already have {mine} unfinished matches against the AI, the most one client may "
                           f"have ({caps.per_client}); finish or resign one first")


def check_ai_vs_ai(conn: Connection, caps: AICaps) -> None:
    """429 when the server already runs ``caps.ai_vs_ai`` AI-against-AI matches."""
    rows = conn.execute(select(matches.c.seats).where(matches.c.over.is_(False))).all()
    running = sum(all(seat_agent(s) is not None for s in r.seats) for r in rows)
    if running >= caps.ai_vs_ai:
        raise Refused(429, f"the server already runs {running} AI-against-AI matches, the most it allows "
                           f"({caps.ai_vs_ai}); try again when one ends")
