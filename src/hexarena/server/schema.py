"""The server's database schema as the code reads it, and the engines: the
tables (the database gets them through :mod:`.migrations`, one revision per
change) and :func:`make_engine`, which the store and the migrations share.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from sqlalchemy import (JSON, Boolean, Column, Connection, Engine, Float, ForeignKey, Index, Integer, MetaData,
                        String, Table, Text, UniqueConstraint, create_engine, event, false)
from sqlalchemy.engine import make_url

# The schema as the code reads it; the database gets it through the migrations (.migrations, one revision per
# change): change a table here and add a revision there (docs/server.md, "Storage").
metadata = MetaData()

matches = Table(
    "matches", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seats", JSON, nullable=False),    # per seat: "human", "open" or "ai:LEVEL"
    Column("tokens", JSON, nullable=False),   # per seat: the sha256 of its token, or null
    Column("resigned", Integer),              # the player who resigned, or null
    Column("ply", Integer, nullable=False),   # atomic moves stored
    Column("version", Integer, nullable=False),  # bumped by every change (the state cache's key)
    Column("over", Boolean, nullable=False),
    Column("winner", Integer),
    Column("status", Text, nullable=False),
    Column("created", String(32), nullable=False),
    Column("updated", String(32), nullable=False, index=True),
)

moves = Table(
    "moves", metadata,
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("ply", Integer, nullable=False),
    Column("move", String(64), nullable=False),
    Column("time", String(32), nullable=False),
    UniqueConstraint("match_id", "ply", name="moves_match_ply"),
)

# Who created each match, and whether a seat still waits for a player (the lobby's open list, the cap on open
# matches per client).
match_clients = Table(
    "match_clients", metadata,
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("client", String(64), nullable=False, index=True),  # the creator's address ("" before it was kept)
    Column("waiting", Boolean, nullable=False),                 # a seat is open
    Column("created", String(32), nullable=False, index=True),
)

# The arena (migration 0004): accounts and their sessions, who sits in each seat, the time control and the
# deadline of a match, seeks and challenges, chat, and the e-mail notices sent.
matches_arena = (  # the columns 0004 adds to matches
    Column("clock", JSON),                    # the time control: null, {"days": D} or {"initial": S, "increment": S}
    Column("remaining", JSON),                # per seat, the seconds left at the start of the running turn
    Column("turn_started", String(32)),       # when the running turn began (its clock period)
    Column("deadline", String(32), index=True),  # when the player to move loses on time, or null
    Column("timed_out", Integer),             # the player who lost on time, or null
    Column("rated", Boolean, nullable=False, server_default=false()),
)
for _column in matches_arena:
    matches.append_column(_column)
# migration 0005: the player to move (null once over): "my turn" lists read it without replaying the match
matches.append_column(Column("to_move", Integer))

accounts = Table(
    "accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(20), nullable=False),
    Column("name_key", String(20), nullable=False, unique=True),  # the name in lower case: unique ignoring case
    Column("password", String(255)),          # the Argon2id hash; null once the account is deleted
    Column("created", String(32), nullable=False),
    Column("deleted", Boolean, nullable=False, server_default=false()),
    Column("email", String(254)),             # the address notices go to, once verified
    Column("email_verified", Boolean, nullable=False, server_default=false()),
    Column("email_token", String(64)),        # the sha256 of the pending verification link's token
    Column("ai_level", Integer),              # 1..10 for the AI's accounts ai-1 ... ai-10 (migration 0006)
    Column("client", String(64), index=True),  # the address it was registered from (migration 0009; null before)
)

sessions = Table(
    "sessions", metadata,
    Column("id", String(64), primary_key=True),  # the sha256 of the session cookie
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("csrf", String(64), nullable=False),  # the csrf cookie's value: X-CSRF-Token must equal it
    Column("created", String(32), nullable=False),
    Column("seen", String(32), nullable=False),
)

match_players = Table(  # the account in each seat (a guest's seat has no row)
    "match_players", metadata,
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
)

seeks = Table(
    "seeks", metadata,
    Column("id", String(16), primary_key=True),
    Column("author_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("to_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True),  # a challenge's player
    Column("game", String(64), nullable=False),
    Column("options", JSON, nullable=False),
    Column("clock", JSON),
    Column("rated", Boolean, nullable=False),
    Column("colour", String(8), nullable=False),  # the author's: first, second or random
    Column("created", String(32), nullable=False),
    Column("expires", String(32), nullable=False, index=True),
    Column("client", String(64), nullable=False, server_default="", index=True),  # posted from (migration 0009)
)

chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id")),
    Column("text", Text, nullable=False),
    Column("at", String(32), nullable=False),
)

notices = Table(  # the e-mail notices sent, at most one per account, subject and hour
    "notices", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("subject", String(64), primary_key=True),  # "move:MATCH" or "challenge:SEEK"
    Column("sent", String(32), nullable=False),
)

# the final fields of finished games whose exact scores are costly (.scoring), computed once per match and ply
finals = Table(
    "finals", metadata,
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("digest", String(64), nullable=False),  # scoring.digest: the moves and resignation scored
    Column("fields", JSON, nullable=False),  # scores, status, reason, svg (and error when not scored)
)


# migration 0006: each account's Glicko-2 rating per game, and the changes each rated match made
ratings = Table(
    "ratings", metadata,
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(64), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("rd", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),  # rated games played
    Column("updated", String(32), nullable=False),
    Index("ix_ratings_game_rating", "game", "rating"),
)

rating_changes = Table(
    "rating_changes", metadata,
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("game", String(64), nullable=False),
    Column("score", Float, nullable=False),   # 1, 0.5 or 0
    Column("rating_before", Float, nullable=False),
    Column("rd_before", Float, nullable=False),
    Column("rating_after", Float, nullable=False),
    Column("rd_after", Float, nullable=False),
    Column("at", String(32), nullable=False),
    # migration 0008: how the seat lost where it was quick ("resigned" at once, "abandoned" on time), else null
    Column("ending", String(16)),
)

# migration 0007: a finished match reviewed with the AI (.review), kept for its moves and result
reviews = Table(
    "reviews", metadata,
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("digest", String(64), nullable=False),  # scoring.digest of the match reviewed
    Column("plies", JSON, nullable=False),          # per ply: hexarena.ai.review.Ply.shown()
    Column("created", String(32), nullable=False),
)


# migration 0010: tournaments and championships (docs/server.md, "Tournaments and championships")
tournaments = Table(
    "tournaments", metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(60), nullable=False),
    Column("by_id", Integer, ForeignKey("accounts.id", ondelete="SET NULL"), index=True),  # null: the judge's
    Column("game", String(64), nullable=False),
    Column("options", JSON, nullable=False),
    Column("format", String(24), nullable=False),  # round-robin, double-round-robin, swiss or knockout
    Column("rounds", Integer, nullable=False),     # 0 until the start for the formats that compute their own
    Column("clock", JSON, nullable=False),         # {"days": D} or {"initial": S, "increment": S}
    Column("rated", Boolean, nullable=False),
    Column("max_players", Integer, nullable=False),
    Column("rating_lo", Integer),
    Column("rating_hi", Integer),
    Column("starts", String(32)),                  # when the judge starts it (null: its creator does)
    Column("status", String(16), nullable=False, index=True),  # upcoming, running or finished
    Column("round", Integer, nullable=False),      # the round being played (0 before the start)
    Column("created", String(32), nullable=False, index=True),
    Column("championship", String(64), index=True),  # a championship division's game, else null
    Column("cycle", Integer),
    Column("division", String(8)),
)

tournament_players = Table(
    "tournament_players", metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True),
    Column("seed", Integer),                       # 1..N, fixed at the start
    Column("rating", Float, nullable=False),       # in the event's game, at entry (again at the start)
    Column("withdrawn", Boolean, nullable=False, server_default=false()),
    Column("joined", String(32), nullable=False),
)

tournament_games = Table(
    "tournament_games", metadata,
    Column("tournament_id", String(16), ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("board", Integer, nullable=False),      # 1.. within the round (the bye last)
    Column("seat0", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("seat1", Integer, ForeignKey("accounts.id")),  # null: seat0 has the bye
    Column("match_id", String(32), ForeignKey("matches.id", ondelete="SET NULL"), index=True),  # null: no match
    Column("result", Float),                       # seat0's score once known (1, 0.5, 0), null meanwhile
    Column("forfeit", Boolean, nullable=False, server_default=false()),  # not played: result says who won
    UniqueConstraint("tournament_id", "round", "board", name="tournament_games_board"),
)

championship_entries = Table(
    "championship_entries", metadata,
    Column("game", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True),
    Column("joined", String(32), nullable=False),
)


POOL_SIZE = 10  # PostgreSQL connections kept open (and as many again, 20, opened when busy)


def make_engine(url: str) -> Engine:
    """The engine the store uses for ``url``: PostgreSQL pooled, or SQLite as :func:`_sqlite_engine` sets it up."""
    if make_url(url).get_backend_name() == "postgresql":
        return create_engine(url, pool_pre_ping=True, pool_size=POOL_SIZE, max_overflow=2 * POOL_SIZE)
    return _sqlite_engine(url)


SQLITE_WAIT = 30.0  # seconds a SQLite connection waits for another's lock before giving up


def _sqlite_engine(url: str) -> Engine:
    """SQLite with WAL, and BEGIN IMMEDIATE for writers (execution option ``write``)."""
    database = make_url(url).database
    if database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": SQLITE_WAIT, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        _write_ahead_log(dbapi_conn)
        # WAL with synchronous=NORMAL: a commit is in the write-ahead log before the answer, so a killed
        # server (even kill -9) loses nothing; only an OS crash or power cut could lose the last commits
        dbapi_conn.execute("PRAGMA synchronous=NORMAL")
        dbapi_conn.execute("PRAGMA foreign_keys=ON")

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("write") else "BEGIN")

    return engine


def _write_ahead_log(dbapi_conn: sqlite3.Connection, seconds: float = SQLITE_WAIT) -> None:
    """Put the database in WAL mode (kept in the file, so set once).  Connections opening a new database at
    once race to switch it, and the loser is told "database is locked" at once, without SQLite's busy
    timeout: it tries again until ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if dbapi_conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                dbapi_conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)
