"""Chat between the players of a match (docs/server.md, "Chat"): lines checked, kept in table ``chat``, limited
per seat, and shown as the match object's ``"chat"`` (the newest :data:`SHOWN` lines, oldest first).

A match's chat is cached per process by the count of its lines (``Match.chat_lines``, read with the match row)
and its players' names, so a line never bumps the match's version: the moves are not replayed for it.
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
from .errors import Refused
from .store.database import Database
from .store.matches import Match
from .store.notify import notify
from .store.seats import DELETED

LENGTH = 500              # characters a line may have at most
SHOWN = 200               # the newest lines the match object shows
MOST = 2000               # lines kept per match; one more is refused (409)
SEAT_RATE = Rate(10, 30)  # lines per seat of a match (per process), beside the "chat" rate per address
ALLOWED_CONTROLS = frozenset("\n\t")
# the bidirectional embeddings, overrides and isolates: they reorder the text after them (a line shown reversed,
# or leaking into what follows); the marks U+200E and U+200F stay (right-to-left writers need them)
BIDI_CONTROLS = frozenset(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))
MARKS = 3  # combining marks on one character at most (pointed Hebrew stacks 3; hundreds draw over other lines)

LINES_OF = select(chat.c.seat, chat.c.text, chat.c.at, accounts.c.name, accounts.c.deleted) \
    .join(accounts, chat.c.account_id == accounts.c.id, isouter=True)


def check_text(text: Any) -> str:
    """A chat line as kept: normalised to NFC, 1 to :data:`LENGTH` characters, not only white space, no control
    character but newline and tab, no bidirectional control (:data:`BIDI_CONTROLS`), at most :data:`MARKS`
    combining marks on a character; 400 naming what is wrong otherwise."""
    if not isinstance(text, str) or not text.strip():
        raise Refused(400, f"text: 1 to {LENGTH} characters, not only white space")
    text = unicodedata.normalize("NFC", text)
    if len(text) > LENGTH:
        raise Refused(400, f"text: {len(text)} characters, at most {LENGTH} allowed")
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Cs") and c not in ALLOWED_CONTROLS), None)
    if bad is not None:
        raise Refused(400, f"text: the control character {shown(bad)} is not allowed (newline and tab are)")
    bidi = next((c for c in text if c in BIDI_CONTROLS), None)
    if bidi is not None:
        raise Refused(400, f"text: the bidirectional control U+{ord(bidi):04X} ({unicodedata.name(bidi)}) is not "
                           f"allowed: U+202A to U+202E and U+2066 to U+2069 reorder the text around them")
    stacked = overstacked(text)
    if stacked is not None:
        raise Refused(400, f"text: more than {MARKS} combining marks on character {stacked + 1}; at most {MARKS} "
                           f"on one character")
    return text


def overstacked(text: str) -> int | None:
    """The index of the first character with more than :data:`MARKS` combining marks after it, or None."""
    base, run = 0, 0
    for i, c in enumerate(text):
        if unicodedata.category(c) in ("Mn", "Me"):
            run += 1
            if run > MARKS:
                return base
        else:
            base, run = i, 0
    return None


def guest_label(match: Match, seat: int) -> str:
    """How a guest seat's lines are signed: "guest (black)", the game's name of the seat's player."""
    return f"guest ({match.state.game.PLAYERS[seat]})"


class Chat:
    """The chat of the matches in ``db``: posting and the lines shown, cached by their count."""

    def __init__(self, db: Database, seat_rate: Rate = SEAT_RATE) -> None:
        self.db = db
        self._seats = Buckets({"chat": seat_rate})
        self._lock = threading.Lock()
        self._lines: dict[str, tuple[tuple[Any, ...], list[dict[str, Any]]]] = {}

    def post(self, match: Match, seat: int, text: str) -> int:
        """Keep ``text`` as ``seat``'s line in ``match`` (signed by the seat's account, if any): the count of the
        match's lines with it; 429 when the seat posts too fast, 409 when the match has :data:`MOST` lines."""
        with self._lock:
            wait = self._seats.take("chat", f"{match.id}:{seat}")
        if wait:
            raise Refused(429, f"too many chat lines from your seat: at most {self._seats.rates['chat']} "
                               f"(lines/seconds); retry in {int(wait) + 1} s", wait)
        with self.db.write() as conn:
            kept = conn.execute(select(func.count()).select_from(chat).where(chat.c.match_id == match.id)).scalar()
            if kept is not None and kept >= MOST:
                raise Refused(409, f"this match's chat is full: {MOST} lines at most")
            conn.execute(insert(chat).values(match_id=match.id, seat=seat, account_id=match.accounts[seat], text=text,
                                             at=now()))
            notify(conn, match.id)
        return (kept or 0) + 1

    def lines(self, match: Match) -> list[dict[str, Any]]:
        """``match``'s newest :data:`SHOWN` lines, oldest first: ``{"from", "seat", "text", "at"}``."""
        if not match.chat_lines:
            return []
        key = (match.chat_lines, *match.players)  # a player's account deleted: its lines signed "(deleted)"
        with self._lock:
            known = self._lines.get(match.id)
        if known is not None and known[0] == key:
            return known[1]
        query = LINES_OF.where(chat.c.match_id == match.id).order_by(chat.c.id.desc()).limit(SHOWN)
        with self.db.engine.connect() as conn:
            rows = conn.execute(query).all()
        lines = [{"from": (DELETED if r.deleted else r.name) if r.name is not None else guest_label(match, r.seat),
                  "seat": r.seat, "text": r.text, "at": r.at} for r in reversed(rows)]
        with self._lock:
            self._lines[match.id] = (key, lines)
            if len(self._lines) > 2000:
                self._lines.pop(next(iter(self._lines)))
        return lines
