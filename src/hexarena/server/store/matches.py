"""The match repository: matches and their moves, each match's state rebuilt by the library and cached per
process, keyed by the match's version.

The rules engine is the only judge: a match's position is rebuilt by replaying its stored moves through the
library; :mod:`.writes` checks every change against the rebuilt state in one transaction that locks the match row,
and :meth:`Matches.save` stores it.
"""

from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, select, update

import hexarena
from hexarena.ai import AgentSpec
from hexarena.games.base import Game, State
from hexarena.record_writer import at

from .. import clocks, rating
from ..clocks import Timing
from ..errors import Refused
from ..schema import accounts, chat, match_clients, match_players, matches, moves
from ..scoring import summary_status
from .database import Database
from .notify import notify
from .seats import DELETED, seat_agent, seat_name, token_seats

# The hot path's statements, built once (building a statement per request cost more than running it).
# with the count of the match's chat lines: the chat's cache key, apart from the version (not the newest line's
# id: on PostgreSQL two lines can commit out of their ids' order, and a count changes with every line committed)
CHAT_LINES = select(func.count()).select_from(chat).where(chat.c.match_id == matches.c.id) \
    .scalar_subquery().label("chat_lines")
MATCH_BY_ID = select(matches, CHAT_LINES).where(matches.c.id == bindparam("match_id"))
MATCH_BY_ID_LOCKED = MATCH_BY_ID.with_for_update()
PLAYERS_OF = select(match_players.c.seat, accounts.c.id, accounts.c.name, accounts.c.deleted).join(accounts).where(
    match_players.c.match_id == bindparam("match_id"))
MOVES_OF = select(moves.c.move, moves.c.time).where(moves.c.match_id == bindparam("match_id")).order_by(moves.c.ply)
INSERT_MOVE = insert(moves)
SUMMARY_FIELDS = ("version", "resigned", "timed_out", "ply", "over", "winner", "to_move", "status", "updated",
                  "remaining", "turn_started", "deadline")
UPDATE_SUMMARY = update(matches).where(matches.c.id == bindparam("match_id")).values(
    {f: bindparam(f"new_{f}") for f in SUMMARY_FIELDS})
CACHED = 2000  # matches this process keeps rebuilt


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
        """Per seat, :func:`.seats.seat_name`."""
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


def seat_account(conn: Connection, match_id: str, seats: list[int], account: int) -> None:
    """Seat the account ``account`` in ``match_id``'s ``seats``."""
    conn.execute(insert(match_players), [{"match_id": match_id, "seat": s, "account_id": account} for s in seats])


class Matches:
    """Matches in ``db``, read (rebuilt, cached per process by version) and written."""

    def __init__(self, db: Database) -> None:
        self.db = db
        with db.engine.connect() as conn:
            self.ai_accounts = rating.ai_accounts(conn)  # per AI level, its account
        self._cache: dict[str, Match] = {}
        self._lock = threading.Lock()

    # reading ---------------------------------------------------------------
    def get(self, match_id: str) -> Match:
        """The match ``match_id`` as stored now; 404 if unknown."""
        with self.db.engine.connect() as conn:
            return self.load(conn, match_id, lock=False)

    def cached(self, match_id: Any) -> Match | None:
        """The match as this process last saw it (no database read), or None."""
        with self._lock:
            return self._cache.get(match_id) if isinstance(match_id, str) else None

    def load(self, conn: Connection, match_id: Any, lock: bool) -> Match:
        """The match ``match_id`` read in ``conn`` (its row locked FOR UPDATE with ``lock``); 404 if unknown."""
        if not isinstance(match_id, str) or len(match_id) > 32:
            raise Refused(404, "no such match")
        row = conn.execute(MATCH_BY_ID_LOCKED if lock else MATCH_BY_ID, {"match_id": match_id}).mappings().first()
        if row is None:
            raise Refused(404, f"no match {match_id!r}")
        cached = self.cached(match_id)
        if cached is not None and cached.version == row["version"]:
            if cached.chat_lines != row["chat_lines"]:  # a chat line since: the same state, shared
                cached = replace(cached, chat_lines=row["chat_lines"])
                self.remember(cached)
            return cached
        match = self._rebuilt(conn, row)
        self.remember(match)
        return match

    def _rebuilt(self, conn: Connection, row: Any) -> Match:
        """The match of ``row`` with its moves replayed, its players and ratings read."""
        rows = conn.execute(MOVES_OF, {"match_id": row["id"]}).all()
        state = replay(row["game"], row["options"], [r.move for r in rows], row["resigned"], row["timed_out"])
        match = Match(row["id"], list(row["seats"]), list(row["tokens"]), row["version"], row["created"],
                      row["updated"], state, [r.time for r in rows], chat_lines=row["chat_lines"], control=row["clock"],
                      rated=row["rated"], timing=Timing(row["remaining"], row["turn_started"], row["deadline"]))
        for p in conn.execute(PLAYERS_OF, {"match_id": row["id"]}):
            match.accounts[p.seat], match.players[p.seat] = p.id, DELETED if p.deleted else p.name
        if match.rated:
            match.ratings = rating.match_ratings(conn, match.id, row["game"], match.accounts)
        record_meta(match)
        return match

    def remember(self, match: Match) -> None:
        with self._lock:
            self._cache[match.id] = match
            if len(self._cache) > CACHED:
                self._cache.pop(next(iter(self._cache)))

    def forget(self, match_id: str) -> None:
        """Drop ``match_id`` from this process's cache (changed other than by :meth:`save`)."""
        with self._lock:
            self._cache.pop(match_id, None)

    def accounts_of(self, match_id: str) -> list[int]:
        """The accounts seated in ``match_id`` (from this process's cache when it has the match)."""
        known = self.cached(match_id)
        if known is not None:
            return sorted({a for a in known.accounts if a is not None})
        with self.db.engine.connect() as conn:
            return sorted({r.account_id for r in conn.execute(select(match_players.c.account_id).where(
                match_players.c.match_id == match_id))})

    # writing ---------------------------------------------------------------
    def insert(self, conn: Connection, state: State, seats: list[str], tokens: list[str | None],
               client: str, held: list[int | None], control: dict[str, int] | None = None,
               rated: bool = False) -> Match:
        """Insert a new match of ``state`` (in ``conn``'s transaction): ``held``, per seat its account or None;
        its clock (``control``) started now."""
        moment = self.db.moment()
        stamp = at(moment)
        match_id = secrets.token_urlsafe(9)
        times = (state.times + [stamp] * len(state.history))[:len(state.history)]
        timing = clocks.start(control, state.to_move, moment)
        conn.execute(insert(matches).values(
            id=match_id, game=state.game.name, options=plain_options(state), seats=seats, tokens=tokens,
            version=0, created=stamp, clock=control, rated=rated, resigned=state.resigned, timed_out=state.timed_out,
            **timing.columns, **summary(state, stamp)))
        conn.execute(insert(match_clients).values(match_id=match_id, client=client, waiting="open" in seats,
                                                  created=stamp))
        insert_moves(conn, match_id, state.moves(), times, 0)
        match = Match(match_id, seats, tokens, 0, stamp, stamp, state, times, control=control, timing=timing,
                      rated=rated)
        self._seat(conn, match, held)
        if rated:
            match.ratings = rating.match_ratings(conn, match_id, state.game.name, match.accounts)
        notify(conn, match_id, match.accounts)
        record_meta(match)
        return match

    def _seat(self, conn: Connection, match: Match, held: list[int | None]) -> None:
        """Seat ``held`` (per seat an account or None; an AI seat: its level's account) in the new ``match``."""
        held = [self.ai_accounts.get(agent.level) if (agent := seat_agent(kind)) is not None and agent.level
                else account for kind, account in zip(match.seats, held, strict=True)]
        ids = {a for a in held if a is not None}
        names = dict(conn.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids))).all()) \
            if ids else {}
        for seat, account in enumerate(held):
            if account is not None:
                seat_account(conn, match.id, [seat], account)
                match.accounts[seat], match.players[seat] = account, names[account]

    def save(self, conn: Connection, match: Match, state: State) -> Match:
        """Write ``state`` over ``match``'s stored moves and summary (same connection, same transaction)."""
        old, new = match.state.history, state.history  # action ids: the same moves from the same start
        keep = 0
        while keep < min(len(old), len(new)) and old[keep] == new[keep]:
            keep += 1
        moment = self.db.moment()
        stamp = at(moment)
        if keep < len(old):
            conn.execute(delete(moves).where(moves.c.match_id == match.id, moves.c.ply >= keep))
        times = match.times[:keep] + [stamp] * (len(new) - keep)
        insert_moves(conn, match.id, state.moves()[keep:], times[keep:], keep)
        version = match.version + 1
        timing = next_timing(match, state, moment)
        ratings = match.ratings
        if match.rated and state.is_over() and not match.state.is_over():
            ratings = rating.settle(conn, self.db.postgres, match.id, match.accounts, state, stamp,
                                    match.timing.remaining) or ratings
        columns = {"version": version, "resigned": state.resigned, "timed_out": state.timed_out, **timing.columns,
                   **summary(state, stamp)}
        conn.execute(UPDATE_SUMMARY, {"match_id": match.id, **{f"new_{k}": v for k, v in columns.items()}})
        notify(conn, match.id, match.accounts)
        changed = Match(match.id, match.seats, match.tokens, version, match.created, stamp, state, times,
                        list(match.accounts), list(match.players), chat_lines=match.chat_lines, control=match.control,
                        timing=timing, rated=match.rated, ratings=ratings)
        record_meta(changed)
        return changed


def record_meta(match: Match) -> None:
    """Give the state the match's players, start and move times (what records keep)."""
    match.state.meta["players"] = [name or kind for kind, name in zip(match.seats, match.players, strict=True)]
    match.state.meta["started"] = match.created
    match.state.meta["clock"] = match.control
    match.state.meta["ratings"] = rating.record_ratings(match.ratings)
    match.state.set_times(match.times[:len(match.state.history)])


def next_timing(match: Match, state: State, moment: float) -> Timing:
    """The clock of ``match`` once its state is ``state`` (a turn ended: the mover charged, the next started)."""
    before = match.state
    if state.timed_out is not None:
        return clocks.flagged(match.control, match.timing, state.timed_out)
    turn_changed = state.turn != before.turn or state.to_move != before.to_move or state.ply < before.ply
    return clocks.advance(match.control, match.timing, before.to_move, state.to_move, turn_changed, moment)


def summary(state: State, stamp: str) -> dict[str, Any]:
    """The summary columns of a match in ``state``, changed at ``stamp``."""
    return {"ply": len(state.history), "over": state.is_over(), "winner": state.winner(),
            "to_move": state.to_move, "status": summary_status(state), "updated": stamp}


def insert_moves(conn: Connection, match_id: str, texts: list[str], times: list[str], first: int) -> None:
    if texts:
        conn.execute(INSERT_MOVE, [{"match_id": match_id, "ply": first + i, "move": t, "time": times[i]}
                                   for i, t in enumerate(texts)])
