"""The final fields of costly games (:mod:`..scoring`): a finished match's exact scoring, kept per match, ply and
position, so that it is computed once."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, insert, or_, select, update

from ..schema import finals, matches
from ..scoring import GUESSED_FAILURE, PENDING
from .database import Database
from .notify import notify


class Finals:
    """The stored final scorings in ``db``."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def get(self, match_id: str, ply: int, digest: str) -> dict[str, Any] | None:
        """The stored final fields of ``match_id`` at ``ply`` for the position ``digest``, or None."""
        query = select(finals.c.digest, finals.c.fields).where(finals.c.match_id == match_id, finals.c.ply == ply)
        with self.db.engine.connect() as conn:
            row = conn.execute(query).first()
        return dict(row.fields) if row is not None and row.digest == digest else None

    def unscored(self) -> list[str]:
        """The finished matches whose final scoring is not stored since their last change (their status still
        says it is pending), or whose stored one is an older server's guess (:data:`..scoring.GUESSED_FAILURE`)."""
        query = select(matches.c.id).where(matches.c.over.is_(True), or_(
            matches.c.status.endswith(PENDING, autoescape=True),
            matches.c.status.endswith(f"({GUESSED_FAILURE})", autoescape=True))).order_by(matches.c.updated)
        with self.db.engine.connect() as conn:
            return list(conn.execute(query).scalars())

    def save(self, match_id: str, ply: int, digest: str, fields: dict[str, Any]) -> None:
        """Keep ``fields`` for ``match_id`` at ``ply`` (the position ``digest``), and the
        status line the listings show while the match is still there; every process's watchers are told."""
        with self.db.write() as conn:
            if conn.execute(select(matches.c.id).where(matches.c.id == match_id)).first() is None:
                return  # gone meanwhile
            conn.execute(delete(finals).where(finals.c.match_id == match_id, finals.c.ply == ply))
            conn.execute(insert(finals).values(match_id=match_id, ply=ply, digest=digest, fields=fields))
            conn.execute(update(matches).where(matches.c.id == match_id, matches.c.ply == ply,
                                               matches.c.over.is_(True)).values(status=fields["status"]))
            notify(conn, match_id)
