"""Which process searches a match's AI move: on PostgreSQL a session advisory lock per match, so several
processes never search the same move."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import text

from .database import Database


@contextmanager
def claim(db: Database, match_id: str) -> Iterator[bool]:
    """Whether this process may search ``match_id``'s AI move: on PostgreSQL a
    session advisory lock held meanwhile (released if the process dies), so
    several processes never search the same move; on SQLite (one process) True."""
    if not db.postgres:
        yield True
        return
    with db.engine.connect() as conn:
        key = {"key": f"hexarena:{match_id}"}
        mine = bool(conn.execute(text("SELECT pg_try_advisory_lock(hashtext(:key))"), key).scalar())
        conn.commit()
        try:
            yield mine
        finally:
            if mine:
                conn.execute(text("SELECT pg_advisory_unlock(hashtext(:key))"), key)
                conn.commit()
