"""Chat between the players of a match (docs/server.md, "Chat"): lines checked, kept in table ``chat``, limited
per seat, and shown as the match object's ``"chat"`` (the newest :data:`SHOWN` lines, oldest first).

A match's chat is cached per process by the id of its newest line (``Match.chat_last``, read with the match
row) and its players' names, so a line never bumps the match's version: the moves are not replayed for it.
"""

from __future__ import annotations

import threading
import unicodedata
from typing import Any

from sqlalchemy import func, insert, select

from hexarena.games.options import shown
from hexarena.record_writer import now

from .guards import Buckets
from .limits import Rate
from .schema import accounts, chat
from .store import DELETED, Match, Refused, Store

LENGTH = 500              # characters a line may have at most
SHOWN = 200               # the newest lines the match object shows
MOST = 2000               # lines kept per match; one more is refused (409)
SEAT_RATE = Rate(10, 30)  # lines per seat of a match (per process), beside the "chat" rate per address
ALLOWED_CONTROLS = frozenset("\n\t")

LINES_OF = select(chat.c.seat, chat.c.text, chat.c.at, accounts.c.name, accounts.c.deleted) \
    .join(accounts, chat.c.account_id == accounts.c.id, isouter=True)


def check_text(text: Any) -> str:
    """A chat line as sent: 1 to :data:`LENGTH` characters, not only white space, no control character but
    newline and tab; 400 otherwise."""
    if not isinstance(text, str) or not text.strip():
        raise Refused(400, f"text: 1 to {LENGTH} characters, not only white space")
    if len(text) > LENGTH:
        raise Refused(400, f"text: {len(text)} characters, at most {LENGTH} allowed")
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Cs") and c not in ALLOWED_CONTROLS), None)
    if bad is not None:
        raise Refused(400, f"text: the control character {shown(bad)} is not allowed (newline and tab are)")
    return text


def guest_label(match: Match, seat: int) -> str:
    """How a guest seat's lines are signed: "guest (black)", the game's name of the seat's player."""
    return f"guest ({match.state.game.PLAYERS[seat]})"


class Chat:
    """The chat of ``store``'s matches: posting and the lines shown, cached by their newest line's id."""

    def __init__(self, store: Store, seat_rate: Rate = SEAT_RATE) -> None:
        self.store = store
        self._seats = Buckets({"chat": seat_rate})
        self._lock = threading.Lock()
        self._lines: dict[str, tuple[tuple[Any, ...], list[dict[str, Any]]]] = {}

    def post(self, match: Match, seat: int, text: str) -> int:
        """Keep ``text`` as ``seat``'s line in ``match`` (signed by the seat's account, if any): the line's id;
        429 when the seat posts too fast, 409 when the match has :data:`MOST` lines."""
        with self._lock:
            wait = self._seats.take("chat", f"{match.id}:{seat}")
        if wait:
            raise Refused(429, f"too many chat lines from your seat: at most {self._seats.rates['chat']} "
                               f"(lines/seconds); retry in {int(wait) + 1} s", wait)
        with self.store.write() as conn:
            kept = conn.execute(select(func.count()).select_from(chat).where(chat.c.match_id == match.id)).scalar()
            if kept is not None and kept >= MOST:
                raise Refused(409, f"this match's chat is full: {MOST} lines at most")
            line = conn.execute(insert(chat).values(match_id=match.id, seat=seat, account_id=match.accounts[seat],
                                                    text=text, at=now())).inserted_primary_key
            self.store.notify(conn, match.id)
        assert line is not None
        return int(line[0])

    def lines(self, match: Match) -> list[dict[str, Any]]:
        """``match``'s newest :data:`SHOWN` lines, oldest first: ``{"from", "seat", "text", "at"}``."""
        if not match.chat_last:
            return []
        key = (match.chat_last, *match.players)  # a player's account deleted: its lines signed "(deleted)"
        with self._lock:
            known = self._lines.get(match.id)
        if known is not None and known[0] == key:
            return known[1]
        query = LINES_OF.where(chat.c.match_id == match.id, chat.c.id <= match.chat_last) \
            .order_by(chat.c.id.desc()).limit(SHOWN)
        with self.store.engine.connect() as conn:
            rows = conn.execute(query).all()
        lines = [{"from": (DELETED if r.deleted else r.name) if r.name is not None else guest_label(match, r.seat),
                  "seat": r.seat, "text": r.text, "at": r.at} for r in reversed(rows)]
        with self._lock:
            self._lines[match.id] = (key, lines)
            if len(self._lines) > 2000:
                self._lines.pop(next(iter(self._lines)))
        return lines
