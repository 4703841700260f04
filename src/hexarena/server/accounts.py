"""Accounts and their sessions (docs/server.md, "Accounts"): names, Argon2id password hashes, the ``session``
and ``csrf`` cookies, failed logins limited per (name, address) and per address, accounts per address, the
fair turns at password hashing, and the seats of a match each account holds.

No web framework here: :mod:`.routes.accounts` turns these into HTTP (each hash in a turn of
:attr:`Accounts.hashing`, taken by the route).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, delete, func, insert, select, text, update

from hexarena.games.options import shown
from hexarena.record_writer import at, now

from . import clocks
from .guards import Buckets, FairTurns
from .limits import Limits
from .schema import accounts, match_players, matches, seeks, sessions
from .errors import Refused
from .store.database import Database
from .store.matches import seat_account
from .store.seats import token_seats

NAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
AI_PREFIX = "ai-"  # the AI levels' accounts are ai-1 ... ai-10: no person's name starts so
PASSWORD_LENGTHS = (8, 256)
KNOWN_SESSIONS = 10_000  # the sessions kept in memory on SQLite
KNOWN_ADDRESSES = 10_000  # the addresses that signed in lately, kept to go first at hashing
ACCOUNTS_PERIOD = 86400.0  # --max-accounts-per-address counts the accounts registered in the last 24 hours
# Argon2id's cost "TIME,MEMORY_KIB,PARALLELISM" (docs/server.md, "Accounts"); unset: argon2-cffi's RFC 9106
# low-memory parameters (3,65536,4). The test suite sets a cheap one: its hundreds of accounts test no cost.
ARGON2_ENV = "HEXARENA_ARGON2"
# Each hash takes 64 MiB and several threads for tens of milliseconds: at most two at once (one per address, the
# addresses in turn), so a burst of logins queues instead of taking the server's memory and processors.
HASHING_SLOTS = 2


@dataclass(frozen=True)
class Account:
    """A signed-in account (``csrf``: its session's CSRF token, "" when not from a session)."""

    id: int
    name: str
    csrf: str = ""


def check_name(name: Any) -> str:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise Refused(400, f"name {shown(name)}: 3 to 20 letters, digits, '_' or '-'")
    if name.lower().startswith(AI_PREFIX):
        raise Refused(400, f"name {shown(name)}: names starting with {AI_PREFIX!r} are the AI levels'")
    return name


def check_password(password: Any) -> str:
    least, most = PASSWORD_LENGTHS
    if not isinstance(password, str) or not least <= len(password) <= most:
        raise Refused(400, f"password: {least} to {most} characters")
    return password


def session_id(cookie: str) -> str:
    return hashlib.sha256(cookie.encode()).hexdigest()


class Accounts:
    """The accounts in ``db``."""

    def __init__(self, db: Database, limits: Limits | None = None) -> None:
        self.db, self.limits = db, limits or Limits()
        self.failures = Buckets(self.limits.rates)  # its "failed" and "failed_all" kinds
        self._signed_in: OrderedDict[str, None] = OrderedDict()  # addresses that signed in lately, newest last
        self.hashing = FairTurns(HASHING_SLOTS, self.rank)
        # On SQLite (one process: every session ends through this object) the sessions read are kept, so a
        # request costs no query; on PostgreSQL another process may end one, so each request reads it.
        self._known: dict[str, Account] | None = None if db.postgres else {}
        unknown_digest()  # hashed now: the first sign-in with an unknown name costs what a wrong password does

    def rank(self, client: str) -> float:
        """``client``'s place at hashing: its recent failed logins, less one if it signed in lately (a returning
        player goes before a flood from fresh addresses)."""
        return self.failures.spent("failed_all", client) - (client in self._signed_in)

    def _signed_in_from(self, client: str) -> None:
        """Remember that ``client`` signed in (or registered) lately."""
        if client:
            self._signed_in[client] = None
            self._signed_in.move_to_end(client)
            if len(self._signed_in) > KNOWN_ADDRESSES:
                self._signed_in.popitem(last=False)

    def register(self, name: Any, password: Any, client: str = "") -> Account:
        """A new account registered from address ``client`` ("": not counted); 400 for a bad name or password,
        409 for a name taken (ignoring case), 429 beyond ``address_accounts`` from ``client`` in 24 hours."""
        name, password = check_name(name), check_password(password)
        digest = hashed(password)
        with self.db.write() as conn:
            if conn.execute(select(accounts.c.id).where(accounts.c.name_key == name.lower())).first():
                raise Refused(409, f"the name {name!r} is taken")
            self._check_address(conn, client)
            new = conn.execute(insert(accounts).values(name=name, name_key=name.lower(), password=digest,
                                                       created=at(self.db.clock()),
                                                       client=client)).inserted_primary_key
        assert new is not None
        self._signed_in_from(client)
        return Account(int(new[0]), name)

    def _check_address(self, conn: Connection, client: str) -> None:
        """429 when ``client`` registered ``address_accounts`` accounts in the last 24 hours (deleted ones too; on
        PostgreSQL one address's registrations take turns on an advisory lock, so none slips past the count)."""
        most = self.limits.address_accounts
        if not client or not most:
            return
        if self.db.postgres:
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"hexarena:accounts:{client}"})
        since = self.db.clock() - ACCOUNTS_PERIOD
        made, oldest = conn.execute(select(func.count(), func.min(accounts.c.created)).where(
            accounts.c.client == client, accounts.c.created > at(since))).one()
        if made >= most:
            raise Refused(429, f"too many accounts registered from your address: {made} in 24 hours, the most one "
                               f"address may register", clocks.seconds(oldest) - since)

    def check_failures(self, name: Any, client: str) -> None:
        """429 after too many failed logins for ``name`` from ``client``, or for any names from ``client`` (the
        login route asks before it waits for a turn at hashing, so a refused login costs no turn)."""
        if isinstance(name, str):
            self._check_failures(name, name.lower()[:64], client)

    def _check_failures(self, name: str, key: str, client: str) -> None:
        """429 after too many failed logins for ``key`` from ``client``, or for any names from ``client``."""
        wait = self.failures.waiting("failed", f"{client}\n{key}")
        if wait:
            raise Refused(429, f"too many failed logins for {name!r} from your address; retry in {int(wait) + 1} s",
                          wait)
        wait = self.failures.waiting("failed_all", client)
        if wait:
            raise Refused(429, f"too many failed logins from your address; retry in {int(wait) + 1} s", wait)

    def login(self, name: Any, password: Any, client: str = "") -> Account:
        """The account ``name`` with ``password``; 401 if either is wrong, 429 after too many failed logins for
        ``name`` from address ``client``, or for any names from ``client``."""
        if not isinstance(name, str) or not isinstance(password, str):
            raise Refused(401, "wrong name or password")
        key = name.lower()[:64]
        self._check_failures(name, key, client)
        with self.db.engine.connect() as conn:
            row = conn.execute(select(accounts.c.id, accounts.c.name, accounts.c.password).where(
                accounts.c.name_key == key, accounts.c.deleted.is_(False))).first()
        if not verify(row.password if row and row.password else unknown_digest(), password[:PASSWORD_LENGTHS[1]]) \
                or row is None or row.password is None:  # no password: an AI's account
            self.failures.take("failed", f"{client}\n{key}")
            self.failures.take("failed_all", client)
            raise Refused(401, "wrong name or password")
        if hasher().check_needs_rehash(row.password):
            digest = hashed(password)  # (hashed before the write lock: other writers do not wait for it)
            with self.db.write() as conn:
                conn.execute(update(accounts).where(accounts.c.id == row.id).values(password=digest))
        self._signed_in_from(client)
        return Account(row.id, row.name)

    def open_session(self, account: Account) -> tuple[str, str]:
        """A new session of ``account``: its cookie and CSRF token."""
        cookie, csrf, stamp = secrets.token_urlsafe(32), secrets.token_urlsafe(24), now()
        with self.db.write() as conn:
            conn.execute(insert(sessions).values(id=session_id(cookie), account_id=account.id, csrf=csrf,
                                                 created=stamp, seen=stamp))
        return cookie, csrf

    def session(self, cookie: str) -> Account | None:
        """The account signed in by session ``cookie``, with its CSRF token; None for no such session."""
        key = session_id(cookie)
        known = None if self._known is None else self._known.get(key)
        if known is not None:
            return known
        query = select(accounts.c.id, accounts.c.name, sessions.c.csrf).join(sessions).where(
            sessions.c.id == key, accounts.c.deleted.is_(False))
        with self.db.engine.connect() as conn:
            row = conn.execute(query).first()
        if row is None:
            return None
        account = Account(row.id, row.name, row.csrf)
        if self._known is not None:
            if len(self._known) >= KNOWN_SESSIONS:
                self._known.pop(next(iter(self._known)), None)
            self._known[key] = account
        return account

    def _forget(self, account_id: int) -> None:
        """Forget the kept sessions of ``account_id`` (some ended)."""
        if self._known is not None:
            for key in [k for k, a in list(self._known.items()) if a.id == account_id]:
                self._known.pop(key, None)

    def close_session(self, cookie: str) -> None:
        if self._known is not None:
            self._known.pop(session_id(cookie), None)
        with self.db.write() as conn:
            conn.execute(delete(sessions).where(sessions.c.id == session_id(cookie)))

    def change_password(self, account: Account, old: Any, new: Any) -> None:
        """Replace ``account``'s password (``old`` checked: 401); its other sessions end."""
        new = check_password(new)
        self._check(account, old)
        digest = hashed(new)
        with self.db.write() as conn:
            conn.execute(update(accounts).where(accounts.c.id == account.id).values(password=digest))
            conn.execute(delete(sessions).where(sessions.c.account_id == account.id,
                                                sessions.c.csrf != account.csrf))
        self._forget(account.id)

    def delete(self, account: Account, password: Any) -> None:
        """Delete ``account`` (``password`` checked: 401): its sessions, seeks, password and address go; its
        matches stay, its seats showing :data:`DELETED`; its name is not given again."""
        self._check(account, password)
        with self.db.write() as conn:
            conn.execute(delete(sessions).where(sessions.c.account_id == account.id))
            conn.execute(delete(seeks).where((seeks.c.author_id == account.id) | (seeks.c.to_id == account.id)))
            conn.execute(update(accounts).where(accounts.c.id == account.id).values(
                deleted=True, password=None, email=None, email_verified=False, email_token=None))
            held = select(match_players.c.match_id).where(match_players.c.account_id == account.id)
            conn.execute(update(matches).where(matches.c.id.in_(held)).values(version=matches.c.version + 1))
        self._forget(account.id)

    def _check(self, account: Account, password: Any) -> None:
        with self.db.engine.connect() as conn:
            digest = conn.execute(select(accounts.c.password).where(accounts.c.id == account.id)).scalar()
        if not (isinstance(password, str) and digest and verify(digest, password[:PASSWORD_LENGTHS[1]])):
            raise Refused(401, "wrong password")

    def adopt(self, account: Account, held: list[tuple[Any, Any]]) -> int:
        """Give ``account`` the seats that the guest tokens ``held`` ((match id, token) pairs kept by this
        browser) hold, where no account sits yet; how many seats it got."""
        count = 0
        with self.db.write() as conn:
            for match_id, token in held[:500]:
                count += self._adopt(conn, account, match_id, token)
        return count

    def _adopt(self, conn: Connection, account: Account, match_id: Any, token: Any) -> int:
        if not (isinstance(match_id, str) and isinstance(token, str) and len(match_id) <= 32):
            return 0
        row = conn.execute(select(matches.c.tokens).where(matches.c.id == match_id)).first()
        if row is None:
            return 0
        taken = {r.seat for r in conn.execute(select(match_players.c.seat).where(
            match_players.c.match_id == match_id))}
        free = [s for s in token_seats(row.tokens, token) if s not in taken]
        if free:
            seat_account(conn, match_id, free, account.id)
            conn.execute(update(matches).where(matches.c.id == match_id).values(version=matches.c.version + 1))
        return len(free)

    def profile(self, name: Any) -> dict[str, Any]:
        """The public face of account ``name``: its name and when it joined; 404 if none."""
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise Refused(404, f"no player {shown(name)}")
        with self.db.engine.connect() as conn:
            row = conn.execute(select(accounts.c.id, accounts.c.name, accounts.c.created, accounts.c.ai_level).where(
                accounts.c.name_key == name.lower(), accounts.c.deleted.is_(False))).first()
        if row is None:
            raise Refused(404, f"no player {name!r}")
        return {"id": row.id, "name": row.name, "joined": row.created, "ai_level": row.ai_level}


@cache
def hasher() -> PasswordHasher:
    """Argon2id at the cost ``$HEXARENA_ARGON2`` names ("TIME,MEMORY_KIB,PARALLELISM"), else argon2-cffi's
    defaults; a stored hash of another cost is hashed again at its next sign-in."""
    cost = os.environ.get(ARGON2_ENV)
    if not cost:
        return PasswordHasher()
    time_cost, memory_cost, parallelism = (int(n) for n in cost.split(","))
    return PasswordHasher(time_cost=time_cost, memory_cost=memory_cost, parallelism=parallelism)


@cache
def unknown_digest() -> str:
    """What a sign-in with an unknown name is verified against, so it costs the time of a wrong password."""
    return hashed(secrets.token_urlsafe(16))


def hashed(password: str) -> str:
    return hasher().hash(password)


def verify(digest: str, password: str) -> bool:
    try:
        return hasher().verify(digest, password)
    except (VerificationError, InvalidHashError):
        return False
