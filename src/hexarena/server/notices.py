"""E-mail notices (docs/server.md, "E-mail"): an account's address and its verification link, "your move" and
"challenge received", at most one per account and subject an hour (table ``notices``).

Mail leaves from one background thread: a request only queues it, so a slow or absent SMTP server never
delays or fails a move (a failed send is logged, not retried). Without ``--smtp`` nothing is queued.
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage
from typing import Any
from urllib.parse import quote

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from hexarena.record_writer import at, now

from .mail import MailSettings, check_address, message, send
from .schema import accounts, notices
from .errors import Refused
from .store.database import Database
from .store.seats import token_hash

log = logging.getLogger("hexarena.server")

HOUR = 3600.0            # one notice per account and subject (a match, a challenger) this often at most
VERIFY_SECONDS = 600.0   # one verification mail per account this often at most
LINK_HOURS = 48          # a verification link works this long
QUEUED = 1000            # mails waiting at most; more are dropped (and logged)
VERIFY_PATH = "/api/account/email/verify"

Job = Callable[[], EmailMessage | None]


def claim(conn: Connection, account_id: int, subject: str, seconds: float) -> float:
    """Record a notice of ``subject`` to ``account_id`` now unless one went out in the last ``seconds``:
    0 if recorded, else the seconds until one may go."""
    stamp, cutoff = now(), at(time.time() - seconds)
    key = (notices.c.account_id == account_id) & (notices.c.subject == subject)
    if conn.execute(update(notices).where(key, notices.c.sent < cutoff).values(sent=stamp)).rowcount:
        return 0.0
    sent = conn.execute(select(notices.c.sent).where(key)).scalar()
    if sent is not None:
        return max(1.0, datetime.fromisoformat(sent).timestamp() + seconds - time.time())
    conn.execute(insert(notices).values(account_id=account_id, subject=subject, sent=stamp))
    return 0.0


class Mailer:
    """The notices of the accounts in ``db``, sent as ``settings`` say (nothing without an SMTP server)."""

    def __init__(self, db: Database, settings: MailSettings | None = None, every: float = HOUR) -> None:
        self.db, self.settings, self.every = db, settings or MailSettings(), every
        self.sent = 0  # mails handed to the SMTP server by this process
        self._queue: queue.Queue[Job | None] = queue.Queue(QUEUED)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self.settings.enabled

    # addresses -----------------------------------------------------------------
    def address(self, account_id: int) -> dict[str, Any]:
        """``{"email", "email_verified"}`` of ``account_id`` (its owner's view)."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(accounts.c.email, accounts.c.email_verified).where(
                accounts.c.id == account_id)).one()
        return {"email": row.email, "email_verified": bool(row.email_verified)}

    def set_address(self, account_id: int, name: str, email: Any) -> dict[str, Any]:
        """Set (or with None or "" clear) ``account_id``'s address, unverified, and mail it a verification link
        when mail is on; 400 for a malformed address, 429 when a link went out less than 10 min ago.
        An address already verified stays verified."""
        if email not in (None, "") and not isinstance(email, str):
            raise Refused(400, "email: a string (an address such as name@example.org), or null to clear it")
        address = self._checked(email) if email else None
        token = None
        with self.db.write() as conn:
            current = conn.execute(select(accounts.c.email, accounts.c.email_verified).where(
                accounts.c.id == account_id)).one()
            if address is not None and current.email == address and current.email_verified:
                return {"email": address, "email_verified": True, "verification_sent": False}
            if address is not None and self.enabled:
                wait = claim(conn, account_id, "verify", VERIFY_SECONDS)
                if wait:
                    raise Refused(429, f"a verification mail went out less than {VERIFY_SECONDS / 60:g} min ago; "
                                       f"retry in {int(wait) + 1} s", wait)
                token = f"{int(time.time() + LINK_HOURS * 3600)}.{secrets.token_urlsafe(24)}"
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(
                email=address, email_verified=False, email_token=token_hash(token) if token else None))
        if address is not None and token is not None:
            link = f"{self.settings.public_url}{VERIFY_PATH}?token={quote(token)}"
            self._enqueue(lambda: message(self.settings, address, "hexarena: verify your e-mail address",
                                          verification_text(name, link)))
        return {"email": address, "email_verified": False, "verification_sent": token is not None}

    @staticmethod
    def _checked(email: str) -> str:
        try:
            return check_address(email)
        except ValueError as e:
            raise Refused(400, str(e)) from None

    def verify(self, token: Any) -> str:
        """Mark the address whose link carries ``token`` verified: the address; 404 for an unknown or used
        link, 400 for an expired one (nothing changed)."""
        if not isinstance(token, str) or not 0 < len(token) <= 128:
            raise Refused(404, "no such verification link (it was used, replaced by a newer one, or mistyped)")
        with self.db.write() as conn:
            row = conn.execute(select(accounts.c.id, accounts.c.email).where(
                accounts.c.email_token == token_hash(token), accounts.c.deleted.is_(False))).first()
            if row is None:
                raise Refused(404, "no such verification link (it was used, replaced by a newer one, or mistyped)")
            expires = token.partition(".")[0]
            if not (expires.isdigit() and int(expires) > time.time()):
                raise Refused(400, f"this verification link expired (a link works {LINK_HOURS} hours): set the "
                                   f"address again for a new one")
            conn.execute(update(accounts).where(accounts.c.id == row.id).values(email_verified=True,
                                                                                email_token=None))
        return str(row.email)

    # notices -------------------------------------------------------------------
    def your_move(self, to_account: int, match_id: str, game: str, opponent: str) -> None:
        """Queue "your move" to ``to_account`` in ``match_id`` (after ``opponent``'s move), if its address is
        verified and no notice of this match went to it within the hour."""
        if not self.enabled:
            return
        link = f"{self.settings.public_url}/#/match/{quote(match_id)}"
        self._enqueue(lambda: self._notice(
            to_account, f"move:{match_id}", f"hexarena: your move in {game} against {opponent}",
            f"{opponent} has moved in your match of {game}: it is your move.\n\n{link}\n"))

    def challenge(self, to_account: int, from_name: str, game: str) -> None:
        """Queue "challenge received" to ``to_account`` from the player ``from_name`` (to a game of ``game``),
        if its address is verified and no challenge of ``from_name`` was mailed to it within the hour."""
        if not self.enabled:
            return
        self._enqueue(lambda: self._notice(
            to_account, f"challenge:{from_name.lower()}", f"hexarena: {from_name} challenges you to {game}",
            f"{from_name} challenges you to a game of {game}. Accept or decline it in the lobby:\n\n"
            f"{self.settings.public_url}/\n"))

    def round_started(self, to_account: int, event: dict[str, Any], round_number: int, opponent: str,
                      match_id: str) -> None:
        """Queue "round R of EVENT has started: your game against X" to ``to_account`` (``event``: its id and
        name), once per account, event and round, if its address is verified."""
        if not self.enabled:
            return
        link = f"{self.settings.public_url}/#/match/{quote(match_id)}"
        title = f"hexarena: round {round_number} of {event['name']} has started: your game against {opponent}"
        self._enqueue(lambda: self._notice(
            to_account, f"round:{event['id']}:{round_number}", title,
            f"Round {round_number} of {event['name']} has started: your game against {opponent}.\n\n{link}\n"))

    def _notice(self, account_id: int, subject: str, title: str, body: str) -> EmailMessage | None:
        """The mail of a notice to ``account_id``'s verified address, recorded as sent; None when it has
        none or the same notice went out within the hour."""
        with self.db.write() as conn:
            address = conn.execute(select(accounts.c.email).where(
                accounts.c.id == account_id, accounts.c.email_verified.is_(True),
                accounts.c.deleted.is_(False))).scalar()
            if not address or claim(conn, account_id, subject, self.every):
                return None
        return message(self.settings, address, title, body + UNSUBSCRIBE)

    # the sending thread --------------------------------------------------------
    def _enqueue(self, job: Job) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="hexarena-mail", daemon=True)
                self._thread.start()
        try:
            self._queue.put_nowait(job)
        except queue.Full:
            log.warning("hexarena: %d e-mails wait already; one more dropped", QUEUED)

    def _run(self) -> None:
        while True:
            job = self._queue.get()
            try:
                if job is None:
                    return
                self._send(job)
            finally:
                self._queue.task_done()

    def _send(self, job: Job) -> None:
        try:
            msg = job()
            if msg is not None:
                send(self.settings.server(), msg)
                self.sent += 1
        except IntegrityError:
            pass  # another process recorded the same notice at once: it sends it
        except Exception as e:  # a mail server down or refusing: logged, the game goes on
            log.warning("hexarena: an e-mail was not sent: %s: %s", type(e).__name__, e)

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every queued mail was sent or given up (at most ``timeout`` seconds): whether all were."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def close(self) -> None:
        """Send what is queued (a few seconds at most), then stop the thread."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=5)


UNSUBSCRIBE = "\n-- \nTo stop these mails, clear your address in your account on hexarena.\n"


def verification_text(name: str, link: str) -> str:
    return (f"Someone, probably you, gave this address to the hexarena account {name}.\n"
            f"To receive its notices (your move, challenges) here, open this link within {LINK_HOURS} hours:\n\n"
            f"{link}\n\nIf it was not you, ignore this mail: nothing will be sent to this address.\n")
