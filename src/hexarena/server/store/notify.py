"""Telling every process that a match, or something of an account's, changed: PostgreSQL NOTIFY on one channel,
sent at commit (:mod:`..live` listens); on SQLite (one process) the live hub alone tells."""

from __future__ import annotations

from sqlalchemy import Connection, text

NOTIFY_CHANNEL = "hexarena_matches"  # PostgreSQL LISTEN/NOTIFY channel; the payload is a match id


def account_topic(account: int) -> str:
    """The live hub's topic of an account's own things (a match id never holds a colon)."""
    return f"account:{account}"


def notify(conn: Connection, match_id: str | None, held: list[int | None] | tuple[int | None, ...] = ()) -> None:
    """Tell every process (in ``conn``'s transaction) that ``match_id`` changed, and the accounts ``held`` (their
    topics, :func:`account_topic`) that something of theirs did."""
    if conn.dialect.name != "postgresql":
        return
    topics = ([match_id] if match_id else []) + sorted({account_topic(a) for a in held if a is not None})
    for topic in topics:
        conn.execute(text("SELECT pg_notify(:channel, :id)"), {"channel": NOTIFY_CHANNEL, "id": topic})
