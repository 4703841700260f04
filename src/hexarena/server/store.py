"""The web app's storage: matches and their moves, in SQLite or PostgreSQL.

The rules engine is the only judge: a match's position is rebuilt by
replaying its stored moves through the library, and every change (a move,
an undo, a resignation) is one transaction that locks the match row, checks
the change against the rebuilt state and commits before anyone is answered.
"""

from __future__ import annotations

import hashlib
import json
import hmac
import math
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from functools import lru_cache
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (Connection, bindparam, delete, func, insert, or_, select,
                        text, update)
from sqlalchemy.engine import make_url

import hexarena
from hexarena.ai import AgentSpec, parse_agent
from hexarena.games.base import Game, IllegalMove, State
from hexarena.games.options import shown
from hexarena.record_writer import at

from . import clocks, migrations, rating
from .clocks import Clock, Timing
from .schema import accounts, chat, finals, make_engine, match_clients, match_players, matches, moves
from .limits import AICaps
from .scoring import GUESSED_FAILURE, PENDING, costly, summary_status

NOTIFY_CHANNEL = "hexarena_matches"  # PostgreSQL LISTEN/NOTIFY channel; the payload is a match id
AI_SEAT = "ai:"  # an AI seat is "ai:LEVEL", as the web client reads it

# The hot path's statements, built once (building a statement per request cost more than running it).
# with the count of the match's chat lines: the chat's cache key, apart from the version (not the newest line's
# id: on PostgreSQL two lines can commit out of their ids' order, and a count changes with every line committed)
CHAT_LINES = select(func.count()).select_from(chat).where(chat.c.match_id == matches.c.id) \
    .scalar_subquery().label("chat_lines")
MATCH_BY_ID = select(matches, CHAT_LINES).where(matches.c.id == bindparam("match_id"))
MATCH_BY_ID_LOCKED = MATCH_BY_ID.with_for_update()
PLAYERS_OF = select(match_players.c.seat, accounts.c.id, accounts.c.name, accounts.c.deleted).join(accounts).where(
    match_players.c.match_id == bindparam("match_id"))
DELETED = "(deleted)"  # the name a deleted account's seats show (no account can be named so)
MOVES_OF = select(moves.c.move, moves.c.time).where(moves.c.match_id == bindparam("match_id")).order_by(moves.c.ply)
INSERT_MOVE = insert(moves)
SUMMARY_FIELDS = ("version", "resigned", "timed_out", "ply", "over", "winner", "to_move", "status", "updated",
                  "remaining", "turn_started", "deadline")
UPDATE_SUMMARY = update(matches).where(matches.c.id == bindparam("match_id")).values(
    {f: bindparam(f"new_{f}") for f in SUMMARY_FIELDS})


def account_topic(account: int) -> str:
    """The live hub's topic of an account's own things (a match id never holds a colon)."""
    return f"account:{account}"


class Refused(Exception):
    """A request refused with an HTTP status and one line (and for a 429, the seconds to wait); nothing changed."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.retry_after = status, message, retry_after


class TimedOut(Refused):
    """A change refused because the player to move had run out of time: the loss on time was stored instead."""

    def __init__(self, match: Match) -> None:
        super().__init__(409, f"too late: {match.state.game.status(match.state)}")
        self.match = match


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_kind(spec: Any) -> str:
    """A seat of POST /api/matches checked: "me", "open" or an AI "ai:LEVEL"
    (the agent spec of MCTS at a level, :mod:`hexarena.ai.agents`)."""
    if spec in ("me", "open") or seat_agent(spec) is not None:
        return spec
    raise Refused(400, f"seat {shown(spec)} is not 'me', 'open' or 'ai:LEVEL' (LEVEL 1..10)")


def token_seats(tokens: list[str | None], token: Any) -> list[int]:
    """The seats whose stored token hash (``tokens``, per seat) is ``token``'s (none for no or a wrong token)."""
    if not isinstance(token, str) or not token:
        return []
    digest = token_hash(token)
    return [i for i, h in enumerate(tokens) if h is not None and hmac.compare_digest(h, digest)]


def seat_name(kind: str, name: str | None) -> str | None:
    """A seat's name as shown: its account's ``name``, "ai-N" for the AI at level N, or None for a guest or an
    open seat."""
    if name is not None:
        return name
    return f"ai-{kind[len(AI_SEAT):]}" if seat_agent(kind) is not None else None


def seat_agent(kind: Any) -> AgentSpec | None:
    """The agent of seat ``kind`` ("ai:7": MCTS at level 7), None for a person or anything else."""
    if not (isinstance(kind, str) and kind.startswith(AI_SEAT)):
        return None
    try:
        return parse_agent(kind)
    except ValueError:
        return None


@dataclass
class Match:
    """A match row with its state rebuilt by the library."""

    id: str
    seats: list[str]
    tokens: list[str | None]
    version: int
    created: str
    updated: str
    state: State
    times: list[str] = field(default_factory=list)
    accounts: list[int | None] = field(default_factory=lambda: [None, None])  # per seat, its account's id
    players: list[str | None] = field(default_factory=lambda: [None, None])  # per seat, its account's name
    chat_lines: int = 0  # how many chat lines it had when read; not part of the version
    control: dict[str, int] | None = None  # the time control (.clocks), None for no limit
    timing: Timing = field(default_factory=Timing)  # its clock as stored
    rated: bool = False
    ratings: list[dict[str, Any] | None] | None = None  # a rated match's, per seat (.rating.match_ratings)

    @property
    def ply(self) -> int:
        return len(self.state.history)

    def seats_of(self, token: Any, account: int | None = None) -> list[int]:
        """The seats held by ``token`` or by the account ``account`` (none for neither)."""
        held = {i for i, a in enumerate(self.accounts) if account is not None and a == account}
        return sorted(held | set(token_seats(self.tokens, token)))

    def seat_names(self) -> list[str | None]:
        """Per seat, :func:`seat_name`."""
        return [seat_name(kind, name) for kind, name in zip(self.seats, self.players, strict=True)]

    def ai_to_move(self) -> AgentSpec | None:
        """The agent of the AI seat to move, or None when a person is to move or the game is over."""
        p = self.state.to_move
        return None if p is None else seat_agent(self.seats[p])

    def against_ai(self) -> bool:
        """True when a seat is the AI's."""
        return any(seat_agent(kind) is not None for kind in self.seats)


def game_of(name: str, options: dict[str, Any]) -> Game:
    """The game ``name`` with ``options`` (as stored: JSON), one object per option set in this process, so its
    tables and kernels are set up once (a Game is never changed by its states)."""
    return _game(name, json.dumps(options, sort_keys=True))


@lru_cache(maxsize=256)
def _game(name: str, options: str) -> Game:
    return hexarena.load(name, **json.loads(options))


def replay(game: str, options: dict[str, Any], texts: list[str], resigned: int | None,
           timed_out: int | None = None) -> State:
    """The state after the stored moves ``texts`` (and resignation or loss on time), through the library."""
    state = game_of(game, options).new_state()
    for t in texts:
        state.play(t)
    if resigned is not None:
        state.resign(resigned)
    elif timed_out is not None:
        state.lose_on_time(timed_out)
    return state


def plain_options(state: State) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in state.game.options.items()}


class Store:
    """Matches in a database; states cached per process, keyed by the match's version.

    ``open_matches``: the matches with an open seat one client may hold at once (0: any number);
    ``open_hours``: an open seat nobody joined expires after this many hours (0: never)."""

    def __init__(self, url: str, open_matches: int = 0, open_hours: float = 0.0,
                 clock: Clock = clocks.real_clock) -> None:
        self.url = url
        self.clock = clock  # the time clocks are judged by (a test's may run ahead)
        self.open_matches, self.open_hours = open_matches, open_hours
        self.postgres = make_url(url).get_backend_name() == "postgresql"
        self.engine = make_engine(url)
        migrations.upgrade(self.engine)  # the schema at the newest revision (processes starting at once take turns)
        with self.engine.connect() as conn:
            self.ai_accounts = rating.ai_accounts(conn)  # per AI level, its account
        self._cache: dict[str, Match] = {}
        self._lock = threading.Lock()
        # SQLite has one writer at a time: this process's writers queue here rather than in SQLite's busy
        # handler (which sleeps up to 100 ms between tries); PostgreSQL locks rows instead.
        self._writer: Any = threading.Lock() if not self.postgres else nullcontext()

    def close(self) -> None:
        self.engine.dispose()

    def moment(self) -> float:
        """Now by :attr:`clock`, to the millisecond that stored times keep (so clocks add up exactly)."""
        return math.floor(self.clock() * 1000) / 1000

    # reading ---------------------------------------------------------------
    def get(self, match_id: str) -> Match:
        """The match ``match_id`` as stored now; 404 if unknown."""
        with self.engine.connect() as conn:
            return self._load(conn, match_id, lock=False)

    def cached(self, match_id: Any) -> Match | None:
        """The match as this process last saw it (no database read), or None."""
        with self._lock:
            return self._cache.get(match_id) if isinstance(match_id, str) else None

    def _load(self, conn: Connection, match_id: Any, lock: bool) -> Match:
        if not isinstance(match_id, str) or len(match_id) > 32:
            raise Refused(404, "no such match")
        row = conn.execute(MATCH_BY_ID_LOCKED if lock else MATCH_BY_ID, {"match_id": match_id}).mappings().first()
        if row is None:
            raise Refused(404, f"no match {match_id!r}")
        with self._lock:
            cached = self._cache.get(match_id)
        if cached is not None and cached.version == row["version"]:
            if cached.chat_lines != row["chat_lines"]:  # a chat line since: the same state, shared
                cached = replace(cached, chat_lines=row["chat_lines"])
                self.remember(cached)
            return cached
        rows = conn.execute(MOVES_OF, {"match_id": match_id}).all()
        state = replay(row["game"], row["options"], [r.move for r in rows], row["resigned"], row["timed_out"])
        match = Match(row["id"], list(row["seats"]), list(row["tokens"]), row["version"], row["created"],
                      row["updated"], state, [r.time for r in rows], chat_lines=row["chat_lines"], control=row["clock"],
                      rated=row["rated"], timing=Timing(row["remaining"], row["turn_started"], row["deadline"]))
        for p in conn.execute(PLAYERS_OF, {"match_id": match_id}):
            match.accounts[p.seat], match.players[p.seat] = p.id, DELETED if p.deleted else p.name
        if match.rated:
            match.ratings = rating.match_ratings(conn, match.id, row["game"], match.accounts)
        self._name(match)
        self.remember(match)
        return match

    def _name(self, match: Match) -> None:
        """Give the state the match's players, start and move times (what records keep)."""
        match.state.meta["players"] = [name or kind for kind, name in zip(match.seats, match.players, strict=True)]
        match.state.meta["started"] = match.created
        match.state.meta["clock"] = match.control
        match.state.meta["ratings"] = rating.record_ratings(match.ratings)
        match.state.set_times(match.times[:len(match.state.history)])

    def remember(self, match: Match) -> None:
        with self._lock:
            self._cache[match.id] = match
            if len(self._cache) > 2000:
                self._cache.pop(next(iter(self._cache)))

    def listing(self, which: str, limit: int = 50) -> list[dict[str, Any]]:
        """The open (a free seat not expired, not over) or recent matches, newest first."""
        query = select(matches.c.id, matches.c.game, matches.c.options, matches.c.seats, matches.c.ply,
                       matches.c.over, matches.c.status, matches.c.updated).order_by(matches.c.updated.desc())
        if which == "open":
            query = query.join(match_clients).where(matches.c.over.is_(False), match_clients.c.waiting.is_(True))
            if self.open_hours:
                query = query.where(match_clients.c.created >= self.open_since())
        with self.engine.connect() as conn:
            return [dict(r) for r in conn.execute(query.limit(limit)).mappings()]

    def open_since(self) -> str:
        """The creation time before which an open seat has expired."""
        return at(time.time() - self.open_hours * 3600)

    def unfinished_ai_matches(self) -> list[str]:
        """Matches not over that have an AI seat (one of them may be the AI's to move)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(matches.c.id, matches.c.seats).where(matches.c.over.is_(False))).all()
        return [r.id for r in rows if any(seat_agent(s) is not None for s in r.seats)]

    def owner(self, match: Match) -> str:
        """Whose share of AI time ``match``'s searches take: the account seated in it against the AI
        ("account:ID"; not the AI's own), else the client address that created it ("client:ADDRESS")."""
        seated = next((a for a, kind in zip(match.accounts, match.seats, strict=True)
                       if a is not None and seat_agent(kind) is None), None)
        if seated is not None:
            return account_topic(seated)
        with self.engine.connect() as conn:
            client = conn.execute(select(match_clients.c.client).where(match_clients.c.match_id == match.id)).scalar()
        return f"client:{client or ''}"

    # writing ---------------------------------------------------------------
    def create(self, state: State, seats: list[str], token_seats: list[int], token: str, client: str = "",
               caps: AICaps | None = None, account: int | None = None) -> Match:
        """Store a new match of ``state`` (its moves too, for an imported record) created by ``client`` (an
        address), the ``token_seats`` held by ``token`` and the account ``account`` (if any); 429 when a seat is
        open and ``client`` already holds ``open_matches`` open matches, or when an AI seat would exceed
        ``caps``."""
        digest = token_hash(token)
        tokens = [digest if i in token_seats else None for i in range(2)]
        with self.write() as conn:
            if "open" in seats:
                self._check_open(conn, client)
            if caps is not None and any(seat_agent(s) is not None for s in seats) and not state.is_over():
                self.check_caps(conn, seats, client, caps)
            held = [account if account is not None and i in token_seats else None for i in range(2)]
            match = self.insert_match(conn, state, seats, tokens, client, held)
        self.remember(match)
        return match

    def insert_match(self, conn: Connection, state: State, seats: list[str], tokens: list[str | None],
                     client: str, held: list[int | None], control: dict[str, int] | None = None,
                     rated: bool = False) -> Match:
        """Insert a new match of ``state`` (in ``conn``'s transaction): ``held``, per seat its account or None;
        its clock (``control``) started now."""
        moment = self.moment()
        stamp = at(moment)
        match_id = secrets.token_urlsafe(9)
        times = (state.times + [stamp] * len(state.history))[:len(state.history)]
        timing = clocks.start(control, state.to_move, moment)
        conn.execute(insert(matches).values(
            id=match_id, game=state.game.name, options=plain_options(state), seats=seats, tokens=tokens,
            version=0, created=stamp, clock=control, rated=rated, resigned=state.resigned, timed_out=state.timed_out,
            **timing.columns, **self._summary(state, stamp)))
        conn.execute(insert(match_clients).values(match_id=match_id, client=client, waiting="open" in seats,
                                                  created=stamp))
        self._insert_moves(conn, match_id, state.moves(), times, 0)
        match = Match(match_id, seats, tokens, 0, stamp, stamp, state, times, control=control, timing=timing,
                      rated=rated)
        held = [self.ai_accounts.get(agent.level) if (agent := seat_agent(kind)) is not None and agent.level
                else account for kind, account in zip(seats, held, strict=True)]
        ids = {a for a in held if a is not None}
        names = dict(conn.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids))).all()) \
            if ids else {}
        for seat, account in enumerate(held):
            if account is not None:
                self.seat_account(conn, match_id, [seat], account)
                match.accounts[seat], match.players[seat] = account, names[account]
        if rated:
            match.ratings = rating.match_ratings(conn, match_id, state.game.name, match.accounts)
        self.notify(conn, match_id, match.accounts)
        self._name(match)
        return match

    def check_caps(self, conn: Connection, seats: list[str], client: str, caps: AICaps) -> None:
        """429 when a new match with ``seats`` (an AI among them) would exceed ``caps``."""
        if self.postgres:  # a client's creations take turns, so two at once cannot both pass
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('hexarena:ai-caps'))"))
        both = all(seat_agent(s) is not None for s in seats)
        if both:
            rows = conn.execute(select(matches.c.seats).where(matches.c.over.is_(False))).all()
            running = sum(all(seat_agent(s) is not None for s in r.seats) for r in rows)
            if running >= caps.ai_vs_ai:
                raise Refused(429, f"the server already runs {running} AI-against-AI matches, the most it allows "
                                   f"({caps.ai_vs_ai}); try again when one ends")
        since = (datetime.now(UTC) - timedelta(seconds=caps.active_seconds)).isoformat(timespec="milliseconds")
        rows = conn.execute(select(matches.c.seats).join(match_clients).where(
            match_clients.c.client == client[:64], matches.c.over.is_(False), matches.c.updated >= since)).all()
        mine = sum(any(seat_agent(s) is not None for s in r.seats) for r in rows)
        if mine >= caps.per_client:
            raise Refused(429, f"you already have {mine} unfinished matches against the AI, the most one client may "
                               f"have ({caps.per_client}); finish or resign one first")

    def change(self, match_id: str, apply: Callable[[Match, State], None]) -> Match:
        """One transaction: lock the match, let ``apply`` check and change a copy
        of its state (raising Refused or IllegalMove to refuse), store what
        changed and commit.  Returns the match as committed.  For a game whose
        scores are costly (its end may be slow to apply), ``apply`` runs before
        the write lock, on the match as read, and the change is stored if the
        match is unchanged then (else tried again)."""
        if costly((self.cached(match_id) or self.get(match_id)).state.game):
            return self._change_prepared(match_id, apply)
        with self.write() as conn:
            match = self._load(conn, match_id, lock=True)
            state = match.state.copy()
            late = self._late(match, state)
            if not late:
                try:
                    apply(match, state)
                except IllegalMove as e:
                    raise Refused(400, str(e)) from None
            changed = self._store(conn, match, state)
        self.remember(changed)
        if late:
            raise TimedOut(changed)
        return changed

    def _late(self, match: Match, state: State) -> bool:
        """When the player to move has run out of time: ``state`` (a copy of the match's) lost on time, True."""
        if state.is_over() or not clocks.expired(match.timing, self.clock()):
            return False
        state.lose_on_time(state.to_move)
        return True

    def expired(self) -> list[str]:
        """The matches whose player to move has run out of time (by the index on the deadline)."""
        query = select(matches.c.id).where(matches.c.over.is_(False), matches.c.deadline.is_not(None),
                                           matches.c.deadline <= at(self.clock())).order_by(matches.c.deadline)
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(query)]

    def nearest_deadline(self) -> float | None:
        """The nearest deadline of a match going on (seconds since the epoch), or None."""
        with self.engine.connect() as conn:
            nearest = conn.execute(select(func.min(matches.c.deadline)).where(matches.c.over.is_(False))).scalar()
        return None if nearest is None else clocks.seconds(nearest)

    def flag(self, match_id: str) -> Match | None:
        """Store the loss on time of ``match_id``'s player to move if their deadline has passed (judged again
        with the row locked, so one process flags it once); the match flagged, or None."""
        with self.write() as conn:
            match = self._load(conn, match_id, lock=True)
            state = match.state.copy()
            if not self._late(match, state):
                return None
            changed = self._store(conn, match, state)
        self.remember(changed)
        return changed

    def _check_open(self, conn: Connection, client: str) -> None:
        """429 if ``client`` holds ``open_matches`` matches whose open seat has not expired (in the creating
        transaction; on PostgreSQL the client's creations take turns, so none slips past the count)."""
        if not self.open_matches:
            return
        if self.postgres:
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"hexarena:open:{client}"})
        query = select(func.count(), func.min(match_clients.c.created)).select_from(match_clients.join(matches)) \
            .where(match_clients.c.client == client, match_clients.c.waiting.is_(True), matches.c.over.is_(False))
        if self.open_hours:
            query = query.where(match_clients.c.created >= self.open_since())
        held, oldest = conn.execute(query).one()
        if held < self.open_matches:
            return
        wait = None
        if self.open_hours:
            wait = datetime.fromisoformat(oldest).timestamp() + self.open_hours * 3600 - time.time()
        until = f"; the oldest expires in {math.ceil(wait / 60)} min" if wait is not None else ""
        raise Refused(429, f"too many open matches: {held} from your address wait for a player (at most "
                           f"{self.open_matches}){until}", wait)
    def _change_prepared(self, match_id: str, apply: Callable[[Match, State], None]) -> Match:
        for _ in range(5):
            match = self.get(match_id)
            state = match.state.copy()
            try:
                apply(match, state)
            except IllegalMove as e:
                raise Refused(400, str(e)) from None
            with self.write() as conn:
                current = self._load(conn, match_id, lock=True)
                if current.version != match.version:
                    continue
                late_state = current.state.copy()
                late = self._late(current, late_state)
                changed = self._store(conn, current, late_state if late else state)
            self.remember(changed)
            if late:
                raise TimedOut(changed)
            return changed
        raise Refused(409, "the match kept changing meanwhile; reload it and try again")

    # the final fields of costly games (.scoring) ---------------------------------
    def final(self, match_id: str, ply: int, digest: str) -> dict[str, Any] | None:
        """The stored final fields of ``match_id`` at ``ply`` for the position ``digest``, or None."""
        query = select(finals.c.digest, finals.c.fields).where(finals.c.match_id == match_id, finals.c.ply == ply)
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return dict(row.fields) if row is not None and row.digest == digest else None

    def unscored(self) -> list[str]:
        """The finished matches whose final scoring is not stored since their last change (their status still
        says it is pending), or whose stored one is an older server's guess (:data:`.scoring.GUESSED_FAILURE`)."""
        query = select(matches.c.id).where(matches.c.over.is_(True), or_(
            matches.c.status.endswith(PENDING, autoescape=True),
            matches.c.status.endswith(f"({GUESSED_FAILURE})", autoescape=True))).order_by(matches.c.updated)
        with self.engine.connect() as conn:
            return list(conn.execute(query).scalars())

    def creator(self, match_id: str) -> str:
        """The address that created ``match_id`` ("" when unknown)."""
        with self.engine.connect() as conn:
            return conn.execute(select(match_clients.c.client).where(match_clients.c.match_id == match_id)
                                ).scalar() or ""

    def save_final(self, match_id: str, ply: int, digest: str, fields: dict[str, Any]) -> None:
        """Keep ``fields`` for ``match_id`` at ``ply`` (the position ``digest``), and the
        status line the listings show while the match is still there; every process's watchers are told."""
        with self.write() as conn:
            if conn.execute(select(matches.c.id).where(matches.c.id == match_id)).first() is None:
                return  # gone meanwhile
            conn.execute(delete(finals).where(finals.c.match_id == match_id, finals.c.ply == ply))
            conn.execute(insert(finals).values(match_id=match_id, ply=ply, digest=digest, fields=fields))
            conn.execute(update(matches).where(matches.c.id == match_id, matches.c.ply == ply,
                                               matches.c.over.is_(True)).values(status=fields["status"]))
            self.notify(conn, match_id)

    def join(self, match_id: str, token: str, account: int | None = None) -> int:
        """Give the first open seat to ``token`` (and the account ``account``, if any); the seat (409 if none, or
        if it expired)."""
        with self.write() as conn:
            match = self._load(conn, match_id, lock=True)
            if "open" not in match.seats:
                raise Refused(409, "no open seat: the match is full")
            if self.open_hours and match.created < self.open_since():
                raise Refused(409, f"no open seat: it expired, nobody joined within {self.open_hours:g} h")
            seat = match.seats.index("open")
            seats, tokens = list(match.seats), list(match.tokens)
            seats[seat], tokens[seat] = "human", token_hash(token)
            stamp = at(self.clock())
            conn.execute(update(matches).where(matches.c.id == match_id).values(
                seats=seats, tokens=tokens, version=match.version + 1, updated=stamp))
            conn.execute(update(match_clients).where(match_clients.c.match_id == match_id).values(
                waiting="open" in seats))
            if account is not None:
                self.seat_account(conn, match_id, [seat], account)
            self.notify(conn, match_id, [*match.accounts, account])
        with self._lock:
            self._cache.pop(match_id, None)
        return seat

    @staticmethod
    def seat_account(conn: Connection, match_id: str, seats: list[int], account: int) -> None:
        """Seat the account ``account`` in ``match_id``'s ``seats``."""
        conn.execute(insert(match_players), [{"match_id": match_id, "seat": s, "account_id": account} for s in seats])

    def _store(self, conn: Connection, match: Match, state: State) -> Match:
        """Write ``state`` over ``match``'s stored moves and summary (same connection, same transaction)."""
        old, new = match.state.history, state.history  # action ids: the same moves from the same start
        keep = 0
        while keep < min(len(old), len(new)) and old[keep] == new[keep]:
            keep += 1
        moment = self.moment()
        stamp = at(moment)
        if keep < len(old):
            conn.execute(delete(moves).where(moves.c.match_id == match.id, moves.c.ply >= keep))
        times = match.times[:keep] + [stamp] * (len(new) - keep)
        self._insert_moves(conn, match.id, state.moves()[keep:], times[keep:], keep)
        version = match.version + 1
        timing = self._timing(match, state, moment)
        ratings = match.ratings
        if match.rated and state.is_over() and not match.state.is_over():
            ratings = rating.settle(conn, self.postgres, match.id, match.accounts, state, stamp,
                                     match.timing.remaining) or ratings
        summary = {"version": version, "resigned": state.resigned, "timed_out": state.timed_out, **timing.columns,
                   **self._summary(state, stamp)}
        conn.execute(UPDATE_SUMMARY, {"match_id": match.id, **{f"new_{k}": v for k, v in summary.items()}})
        self.notify(conn, match.id, match.accounts)
        changed = Match(match.id, match.seats, match.tokens, version, match.created, stamp, state, times,
                        list(match.accounts), list(match.players), chat_lines=match.chat_lines, control=match.control,
                        timing=timing, rated=match.rated, ratings=ratings)
        self._name(changed)
        return changed

    def _timing(self, match: Match, state: State, moment: float) -> Timing:
        """The clock of ``match`` once its state is ``state`` (a turn ended: the mover charged, the next started)."""
        before = match.state
        if state.timed_out is not None:
            return clocks.flagged(match.control, match.timing, state.timed_out)
        turn_changed = state.turn != before.turn or state.to_move != before.to_move or state.ply < before.ply
        return clocks.advance(match.control, match.timing, before.to_move, state.to_move, turn_changed, moment)

    @staticmethod
    def _summary(state: State, stamp: str) -> dict[str, Any]:
        return {"ply": len(state.history), "over": state.is_over(), "winner": state.winner(),
                "to_move": state.to_move, "status": summary_status(state), "updated": stamp}

    @staticmethod
    def _insert_moves(conn: Connection, match_id: str, texts: list[str], times: list[str], first: int) -> None:
        if texts:
            conn.execute(INSERT_MOVE, [{"match_id": match_id, "ply": first + i, "move": t, "time": times[i]}
                                         for i, t in enumerate(texts)])

    def notify(self, conn: Connection, match_id: str | None, held: list[int | None] | tuple[int | None, ...] = ()
                ) -> None:
        """Tell every process (PostgreSQL NOTIFY, sent at commit) that ``match_id`` changed, and the accounts
        ``held`` (their topics, :func:`account_topic`) that something of theirs did."""
        if self.postgres:
            topics = ([match_id] if match_id else []) + sorted({account_topic(a) for a in held if a is not None})
            for topic in topics:
                conn.execute(text("SELECT pg_notify(:channel, :id)"), {"channel": NOTIFY_CHANNEL, "id": topic})

    def accounts_of(self, match_id: str) -> list[int]:
        """The accounts seated in ``match_id`` (from this process's cache when it has the match)."""
        known = self.cached(match_id)
        if known is not None:
            return sorted({a for a in known.accounts if a is not None})
        with self.engine.connect() as conn:
            return sorted({r.account_id for r in conn.execute(select(match_players.c.account_id).where(
                match_players.c.match_id == match_id))})

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction, committed on success (BEGIN IMMEDIATE on SQLite;
        the match row locked FOR UPDATE on PostgreSQL)."""
        with self._writer, self.engine.connect().execution_options(write=True) as conn, conn.begin():
            yield conn

    @contextmanager
    def claim(self, match_id: str) -> Iterator[bool]:
        """Whether this process may search ``match_id``'s AI move: on PostgreSQL a
        session advisory lock held meanwhile (released if the process dies), so
        several processes never search the same move; on SQLite (one process) True."""
        if not self.postgres:
            yield True
            return
        with self.engine.connect() as conn:
            key = {"key": f"hexarena:{match_id}"}
            mine = bool(conn.execute(text("SELECT pg_try_advisory_lock(hashtext(:key))"), key).scalar())
            conn.commit()
            try:
                yield mine
            finally:
                if mine:
                    conn.execute(text("SELECT pg_advisory_unlock(hashtext(:key))"), key)
                    conn.commit()

    def listen_conninfo(self) -> str:
        """The psycopg connection string for a LISTEN connection to this database."""
        return make_url(self.url).set(drivername="postgresql").render_as_string(hide_password=False)

