"""The database the store's parts share: its engine (the schema migrated to the newest revision), its write
transactions, and the clock stored times are judged by."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import make_url

from .. import clocks, migrations
from ..clocks import Clock
from ..schema import make_engine


class Database:
    """SQLite or PostgreSQL at ``url``, judging time by ``clock`` (a test's may run ahead)."""

    def __init__(self, url: str, clock: Clock = clocks.real_clock) -> None:
        self.url = url
        self.clock = clock
        self.postgres = make_url(url).get_backend_name() == "postgresql"
        self.engine = make_engine(url)
        migrations.upgrade(self.engine)  # the schema at the newest revision (processes starting at once take turns)
        # SQLite has one writer at a time: this process's writers queue here rather than in SQLite's busy
        # handler (which sleeps up to 100 ms between tries); PostgreSQL locks rows instead.
        self._writer: Any = threading.Lock() if not self.postgres else nullcontext()

    def close(self) -> None:
        self.engine.dispose()

    def moment(self) -> float:
        """Now by :attr:`clock`, to the millisecond that stored times keep (so clocks add up exactly)."""
        return math.floor(self.clock() * 1000) / 1000

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction, committed on success (BEGIN IMMEDIATE on SQLite;
        the match row locked FOR UPDATE on PostgreSQL)."""
        with self._writer, self.engine.connect().execution_options(write=True) as conn, conn.begin():
            yield conn

    def listen_conninfo(self) -> str:
        """The psycopg connection string for a LISTEN connection to this database."""
        return make_url(self.url).set(drivername="postgresql").render_as_string(hide_password=False)
