"""Seeks and challenges (docs/server.md, "Seeks and challenges"): posted by a signed-in player, listed, accepted
(one transaction: the seek gone, the match made with both accounts seated and its clock started), withdrawn or
declined.  A challenge is a seek addressed ``to`` one player.  No web framework here: :mod:`.routes.seeks`.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, bindparam, case, delete, func, insert, or_, select, text
from sqlalchemy.orm import aliased

import hexarena
from hexarena.games.options import shown
from hexarena.record_writer import at

from . import clocks
from .accounts import Account
from .limits import Limits
from .rating import PROVISIONAL_RD
from .schema import accounts, ratings, seeks
from .errors import Refused
from .store import Store
from .store.ai_caps import check_ai_caps
from .store.matches import Match, game_of, plain_options
from .store.notify import account_topic, notify

COLOURS = ("first", "second", "random")  # the author's seat: first, second, or drawn at accept
AUTHOR, TARGET = aliased(accounts), aliased(accounts)
SEEK_FIELDS = (seeks.c.id, AUTHOR.c.name.label("by"), seeks.c.game, seeks.c.options, seeks.c.clock, seeks.c.rated,
               seeks.c.colour, TARGET.c.name.label("to"), seeks.c.created, seeks.c.expires)


def seek_query() -> Any:
    """The seeks as shown, with their author's and challenged player's names."""
    return select(*SEEK_FIELDS).select_from(seeks.join(AUTHOR, AUTHOR.c.id == seeks.c.author_id)
                                            .outerjoin(TARGET, TARGET.c.id == seeks.c.to_id))


LISTED = 500  # the most seeks a listing gives (challenges to and from me, and as many of the others)
NEW_RATING = 1500.0  # the rating filter's value for a seeker without a rating in the seek's game
RATING_RANGE = re.compile(r"(\d{1,4})-(\d{1,4})")
SEEKER = aliased(ratings)  # the author's rating in the seek's game
SEEKER_RATING = func.coalesce(SEEKER.c.rating, NEW_RATING)
# established: a rating in the seek's game that is no longer provisional (as on the leaderboards)
ESTABLISHED = case((SEEKER.c.rd <= PROVISIONAL_RD, 1), else_=0)
# a seek's turn among those of the address it was posted from (1: its newest), over the seeks the filters leave
ADDRESS_TURN = func.row_number().over(partition_by=seeks.c.client, order_by=seeks.c.created.desc())
LISTING = select(*SEEK_FIELDS, SEEKER.c.rating.label("rating"), ESTABLISHED.label("established")).select_from(
    seeks.join(AUTHOR, AUTHOR.c.id == seeks.c.author_id).outerjoin(TARGET, TARGET.c.id == seeks.c.to_id)
    .outerjoin(SEEKER, (SEEKER.c.account_id == seeks.c.author_id) & (SEEKER.c.game == seeks.c.game)))


# an account's own seeks and the challenges to it (the live socket's, built once: it is read after every change)
CONCERNING = seek_query().add_columns(seeks.c.author_id).where(
    seeks.c.expires > bindparam("now"),
    (seeks.c.to_id == bindparam("account")) | (seeks.c.author_id == bindparam("account"))
).order_by(seeks.c.created.desc())


class Seeks:
    """The seeks and challenges of ``store``'s database; ``publish(topic)`` wakes this process's live sockets,
    ``on_challenge(account, seek)`` hears of each new challenge, ``changed(match_id)`` of each match made."""

    def __init__(self, store: Store, limits: Limits, publish: Callable[[str], None],
                 on_challenge: Callable[[int, dict[str, Any]], None], changed: Callable[[str], None]) -> None:
        self.store, self.limits = store, limits
        self.publish, self.on_challenge, self.changed = publish, on_challenge, changed

    def now(self) -> str:
        return at(self.store.db.clock())

    def post(self, account: Account, game: Any, options: Any, clock: Any, rated: bool, colour: Any, to: Any,
             client: str = "") -> dict[str, Any]:
        """A new seek by ``account`` (a challenge when ``to`` names a player); 400 for a bad field, 404 for an
        unknown player, 429 beyond ``open_seeks`` open at once (``address_seeks`` from address ``client``).  A
        challenge to an AI level (``ai-N``) is accepted at once: the seek with ``"match"``, the match made (429
        beyond the AI caps for ``client``)."""
        game_options = checked_options(game, options)
        control = checked_clock(clock)
        if colour not in COLOURS:
            raise Refused(400, f"colour {shown(colour)}: first, second or random")
        seek_id, stamp = secrets.token_urlsafe(9), self.store.db.clock()
        match = None
        with self.store.db.write() as conn:
            to_id = self._target(conn, account, to)
            level = next((lv for lv, ai in self.store.matches.ai_accounts.items() if ai == to_id), None)
            if level is not None:
                match = self._against_ai(conn, account, level, game, game_options, control, rated, colour, client)
                seek = {"id": seek_id, "by": account.name, "game": game, "options": game_options, "clock": control,
                        "rated": rated, "colour": colour, "to": match.players[match.seats.index(f"ai:{level}")],
                        "created": at(stamp), "expires": at(stamp), "match": match.id}
            else:
                self._check_count(conn, account)
                self._check_address(conn, client)
                conn.execute(insert(seeks).values(
                    id=seek_id, author_id=account.id, to_id=to_id, game=game, options=game_options, clock=control,
                    rated=rated, colour=colour, created=at(stamp), expires=at(stamp + self.limits.seek_hours * 3600),
                    client=client))
                notify(conn, None, [account.id, to_id])
                seek = dict(conn.execute(seek_query().where(seeks.c.id == seek_id)).mappings().one())
        if match is not None:
            self.store.matches.remember(match)
            self.changed(match.id)
            return seek
        self._told(account.id, to_id)
        if to_id is not None:
            self.on_challenge(to_id, seek)
        return seek

    @staticmethod
    def _target(conn: Connection, account: Account, to: Any) -> int | None:
        """The id of the challenged player ``to`` (None: an open seek); 400 for oneself, 404 for no such player."""
        if to is None:
            return None
        if not isinstance(to, str) or len(to) > 20:
            raise Refused(400, "to: a player's name, or null for a seek anyone may accept")
        row = conn.execute(select(accounts.c.id, accounts.c.name).where(
            accounts.c.name_key == to.lower(), accounts.c.deleted.is_(False))).first()
        if row is None:
            raise Refused(404, f"to: no player {to!r}")
        if row.id == account.id:
            raise Refused(400, "to: you cannot challenge yourself")
        return int(row.id)

    def _check_count(self, conn: Connection, account: Account) -> None:
        """429 when ``account`` already has ``open_seeks`` seeks open (on PostgreSQL its posts take turns)."""
        if self.store.db.postgres:
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"hexarena:seeks:{account.id}"})
        held, oldest = conn.execute(select(func.count(), func.min(seeks.c.expires)).where(
            seeks.c.author_id == account.id, seeks.c.expires > self.now())).one()
        if held >= self.limits.open_seeks:
            wait = clocks.seconds(oldest) - self.store.db.clock()
            raise Refused(429, f"too many open seeks: you have {held}, the most one player may have; withdraw one "
                               f"or wait until one expires", wait)

    def _check_address(self, conn: Connection, client: str) -> None:
        """429 when ``client`` already has ``address_seeks`` seeks open, whatever accounts posted them (on
        PostgreSQL one address's posts take turns)."""
        most = self.limits.address_seeks
        if not client or not most:
            return
        if self.store.db.postgres:
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"hexarena:seeks:{client}"})
        held, oldest = conn.execute(select(func.count(), func.min(seeks.c.expires)).where(
            seeks.c.client == client, seeks.c.expires > self.now())).one()
        if held >= most:
            raise Refused(429, f"too many open seeks from your address: {held}, the most one address may have; "
                               f"withdraw one or wait until one expires",
                          clocks.seconds(oldest) - self.store.db.clock())

    def listing(self, account: Account, game: str | None = None, rating: str | None = None) -> list[dict[str, Any]]:
        """The seeks not expired: the challenges to and from ``account`` and its own seeks, newest first, then
        the others' open seeks, established players' first, each part by turns between the addresses they were
        posted from (every address's newest, then every address's second newest, ...: :data:`ADDRESS_TURN`), at
        most :data:`LISTED` in all, so many seeks from a few addresses never push another address's off the list.
        ``game``: only that game's (400 for an unknown one); ``rating`` (``MIN-MAX``): only others' seeks whose
        author's rating in the seek's game is in the range (a player without one counts as 1500).  The filters
        are in the query, before the cap on the length."""
        query = LISTING.where(seeks.c.expires > self.now())
        if game is not None:
            query = query.where(seeks.c.game == listed_game(game))
        mine = or_(seeks.c.to_id == account.id, seeks.c.author_id == account.id)
        others = query.where(seeks.c.to_id.is_(None), seeks.c.author_id != account.id)
        if rating is not None:
            others = others.where(SEEKER_RATING.between(*rating_range(rating)))
        with self.store.db.engine.connect() as conn:
            rows = list(conn.execute(query.where(mine).order_by(seeks.c.created.desc()).limit(LISTED)).mappings())
            rows += conn.execute(others.order_by(ESTABLISHED.desc(), ADDRESS_TURN, seeks.c.created.desc())
                                 .limit(LISTED - len(rows))).mappings()
        return [listed(r) for r in rows]

    def concerning(self, account: int) -> dict[str, list[dict[str, Any]]]:
        """The live socket's part: the challenges to ``account``, and its own seeks and challenges."""
        with self.store.db.engine.connect() as conn:
            rows = [dict(r) for r in conn.execute(CONCERNING, {"now": self.now(), "account": account}).mappings()]
        mine = [r.pop("author_id") == account for r in rows]
        return {"challenges": [r for r, m in zip(rows, mine, strict=True) if not m],
                "seeks": [r for r, m in zip(rows, mine, strict=True) if m]}

    def accept(self, account: Account, seek_id: str, client: str) -> str:
        """Accept seek ``seek_id``: in one transaction the seek is deleted and the match made, both accounts
        seated, its clock started; the match's id.  409 if the seek is gone or expired, 400 for one's own, 403
        for a challenge to someone else."""
        with self.store.db.write() as conn:
            row = self._locked(conn, seek_id)
            if row is None:
                raise Refused(409, f"seek {seek_id!r} is gone: accepted, withdrawn, declined or expired")
            if row.expires <= self.now():
                raise Refused(409, f"seek {seek_id!r} expired at {row.expires}")
            if row.author_id == account.id:
                raise Refused(400, "you cannot accept your own seek; withdraw it instead")
            if row.to_id is not None and row.to_id != account.id:
                raise Refused(403, "this challenge is addressed to another player")
            if conn.execute(delete(seeks).where(seeks.c.id == seek_id)).rowcount != 1:
                raise Refused(409, f"seek {seek_id!r} is gone: accepted, withdrawn, declined or expired")
            match = self._start(conn, row, account, client)
            notify(conn, None, [row.author_id, row.to_id])
        self.store.matches.remember(match)
        self._told(row.author_id, row.to_id)
        self.changed(match.id)
        return match.id

    def _against_ai(self, conn: Connection, account: Account, level: int, game: str, options: dict[str, Any],
                    control: dict[str, int] | None, rated: bool, colour: str, client: str) -> Match:
        """The match of ``account``'s challenge to AI ``level``, accepted at once."""
        state = game_of(game, options).new_state()
        first = {"first": 0, "second": 1}.get(colour, secrets.randbelow(2))
        seats = ["human", f"ai:{level}"] if first == 0 else [f"ai:{level}", "human"]
        check_ai_caps(conn, seats, client, self.limits.ai)
        held = [account.id, None] if first == 0 else [None, account.id]
        return self.store.matches.insert(conn, state, seats, [None, None], client, held, control, rated)

    def _start(self, conn: Connection, row: Any, account: Account, client: str) -> Match:
        """The match of seek ``row`` accepted by ``account``."""
        state = game_of(row.game, row.options).new_state()
        first = {"first": 0, "second": 1}.get(row.colour, secrets.randbelow(2))
        held = [row.author_id, account.id] if first == 0 else [account.id, row.author_id]
        return self.store.matches.insert(conn, state, ["human", "human"], [None, None], client, held, row.clock,
                                         row.rated)

    def _locked(self, conn: Connection, seek_id: Any) -> Any:
        if not isinstance(seek_id, str) or len(seek_id) > 16:
            return None
        return conn.execute(select(seeks).where(seeks.c.id == seek_id).with_for_update()).first()

    def withdraw(self, account: Account, seek_id: str) -> None:
        """Its author withdraws seek ``seek_id``, or the challenged player declines it; 404 if none (or expired),
        403 for anyone else."""
        with self.store.db.write() as conn:
            row = self._locked(conn, seek_id)
            if row is None or row.expires <= self.now():
                raise Refused(404, f"no open seek {seek_id!r}")
            if account.id not in (row.author_id, row.to_id):
                raise Refused(403, "only its author may withdraw a seek (or the challenged player decline it)")
            conn.execute(delete(seeks).where(seeks.c.id == seek_id))
            notify(conn, None, [row.author_id, row.to_id])
        self._told(row.author_id, row.to_id)

    def purge(self) -> int:
        """Forget the expired seeks; how many."""
        with self.store.db.write() as conn:
            return int(conn.execute(delete(seeks).where(seeks.c.expires <= self.now())).rowcount)

    def _told(self, *held: int | None) -> None:
        for account in {a for a in held if a is not None}:
            self.publish(account_topic(account))


def checked_options(game: Any, options: Any) -> dict[str, Any]:
    """``game``'s ``options`` as a match keeps them (every option named); 400 naming what is wrong otherwise."""
    if not isinstance(options, dict):
        raise Refused(400, "options: a JSON object of the game's options")
    try:
        return plain_options(hexarena.load(game, **options).new_state())
    except (ValueError, TypeError) as e:
        raise Refused(400, str(e)) from None


def checked_clock(clock: Any) -> dict[str, int] | None:
    """The time control ``clock`` checked (:func:`.clocks.parse`); 400 naming what is wrong otherwise."""
    try:
        return clocks.parse(clock)
    except clocks.ClockError as e:
        raise Refused(400, str(e)) from None


def listed_game(game: str) -> str:
    """``game`` if the server plays it; 400 naming the games otherwise."""
    if game not in hexarena.GAMES:
        raise Refused(400, f"game {shown(game)}: not a game here; the games are {', '.join(hexarena.GAMES)}")
    return game


def rating_range(text: str) -> tuple[int, int]:
    """``MIN-MAX`` as (MIN, MAX); 400 naming the form otherwise."""
    found = RATING_RANGE.fullmatch(text)
    if found is None or int(found[1]) > int(found[2]):
        raise Refused(400, f"rating {shown(text)}: give MIN-MAX, two whole numbers with MIN <= MAX (e.g. 1300-1700)")
    return int(found[1]), int(found[2])


def listed(row: Any) -> dict[str, Any]:
    """A seek of a listing: ``rating`` its author's in its game (whole, null for none), ``established`` a bool."""
    rating = row["rating"]
    return {**row, "rating": None if rating is None else round(rating), "established": bool(row["established"])}
