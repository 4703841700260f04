"""The limit on open matches: how many matches with a seat still open one client may hold at once, and how long
an open seat nobody joined stays open."""

from __future__ import annotations

import math
import time
from datetime import datetime

from sqlalchemy import Connection, func, select, text

from hexarena.record_writer import at

from ..errors import Refused
from ..schema import match_clients, matches


class OpenSeats:
    """``most``: the matches with an open seat one client may hold at once (0: any number);
    ``hours``: an open seat nobody joined expires after this many hours (0: never)."""

    def __init__(self, most: int = 0, hours: float = 0.0) -> None:
        self.most, self.hours = most, hours

    def since(self) -> str:
        """The creation time before which an open seat has expired."""
        return at(time.time() - self.hours * 3600)

    def expired(self, created: str) -> bool:
        """Whether the open seats of a match created at ``created`` have expired."""
        return bool(self.hours) and created < self.since()

    def check(self, conn: Connection, client: str) -> None:
        """429 if ``client`` holds ``most`` matches whose open seat has not expired (in the creating
        transaction; on PostgreSQL the client's creations take turns, so none slips past the count)."""
        if not self.most:
            return
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"hexarena:open:{client}"})
        query = select(func.count(), func.min(match_clients.c.created)).select_from(match_clients.join(matches)) \
            .where(match_clients.c.client == client, match_clients.c.waiting.is_(True), matches.c.over.is_(False))
        if self.hours:
            query = query.where(match_clients.c.created >= self.since())
        held, oldest = conn.execute(query).one()
        if held >= self.most:
            raise self._too_many(held, oldest)

    def _too_many(self, held: int, oldest: str) -> Refused:
        wait = datetime.fromisoformat(oldest).timestamp() + self.hours * 3600 - time.time() if self.hours else None
        until = f"; the oldest expires in {math.ceil(wait / 60)} min" if wait is not None else ""
        return Refused(429, f"too many open matches: {held} from your address wait for a player (at most "
                            f"{self.most}){until}", wait)
