"""Making events and entering them (docs/server.md, "Tournaments and championships"): create, join, withdraw and
invite an AI, each one write transaction with the event row locked; the limits on how many events an account makes
and enters.  No web framework here."""

from __future__ import annotations

import re
import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, text

from hexarena.record_writer import at

from ..accounts import Account
from ..errors import Refused
from ..limits import Limits
from ..schema import tournament_players, tournaments
from ..store import Store
from ..store.notify import notify
from .fields import checked_event
from .judge import entrants, withdraw_running
from .rounds import Step
from .rows import event_row, event_topic, rating_in

AI_NAME = re.compile(r"ai-(\d{1,2})")
DAY = timedelta(days=1).total_seconds()


class Entry:
    """The events of ``store``'s database made and entered within ``limits``."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store, self.limits = store, limits

    def now(self) -> str:
        return at(self.store.db.clock())

    def create(self, account: Account, body: dict[str, Any]) -> str:
        """A new upcoming event by ``account`` (not entered by making it); its id.  400 for a bad field, 429 beyond
        the events one account may make a day or have upcoming at once."""
        new = checked_event(body, self.store.db.clock(), self.limits.event_players)
        event_id = secrets.token_urlsafe(9)
        with self.store.db.write() as conn:
            self._check_made(conn, account)
            conn.execute(insert(tournaments).values(
                id=event_id, name=new.name, by_id=account.id, game=new.game, options=new.options, format=new.format,
                rounds=new.rounds, clock=new.clock, rated=new.rated, max_players=new.max_players,
                rating_lo=new.rating_range and new.rating_range[0], rating_hi=new.rating_range and new.rating_range[1],
                starts=new.starts, status="upcoming", round=0, created=self.now()))
        return event_id

    def _check_made(self, conn: Connection, account: Account) -> None:
        """429 when ``account`` made :attr:`Limits.events_per_day` events in the last 24 hours or has
        :attr:`Limits.upcoming_events` upcoming (on PostgreSQL its creations take turns)."""
        take_turns(conn, self.store.db.postgres, f"hexarena:events:{account.id}")
        mine = tournaments.c.by_id == account.id
        since = at(self.store.db.clock() - DAY)
        made = conn.execute(select(func.count()).where(mine, tournaments.c.created >= since)).scalar() or 0
        if made >= self.limits.events_per_day:
            raise Refused(429, f"you made {made} events in the last 24 hours, the most one player may; wait a day",
                          DAY)
        upcoming = conn.execute(select(func.count()).where(mine, tournaments.c.status == "upcoming")).scalar() or 0
        if upcoming >= self.limits.upcoming_events:
            raise Refused(429, f"you have {upcoming} upcoming events, the most one player may; start or let one "
                               f"start first")

    def join(self, account: Account, event_id: str) -> None:
        """Enter ``account`` in upcoming event ``event_id`` (409 entered already, entry closed or full; 403 rated
        outside its rating range; 429 entered in :attr:`Limits.entered_events` events going on)."""
        with self.store.db.write() as conn:
            event = event_row(conn, event_id, lock=True)
            self._check_open(conn, event, account.id)
            rating = rating_in(conn, account.id, event.game)
            if event.rating_lo is not None and not event.rating_lo <= rating <= event.rating_hi:
                raise Refused(403, f"your rating in {event.game}, {rating:.0f}, is outside the event's range "
                                   f"{event.rating_lo}-{event.rating_hi}")
            self._check_entered(conn, account.id)
            self._enter(conn, event, account.id, rating)

    def _check_open(self, conn: Connection, event: Any, account: int) -> None:
        if event.status != "upcoming":
            raise Refused(409, f"entry is closed: the event is {event.status}")
        if conn.execute(select(tournament_players.c.account_id).where(
                tournament_players.c.tournament_id == event.id, tournament_players.c.account_id == account)).first():
            raise Refused(409, "already entered in this event")
        if entrants(conn, event.id) >= event.max_players:
            raise Refused(409, f"the event is full ({event.max_players} players)")

    def _check_entered(self, conn: Connection, account: int) -> None:
        """429 when ``account`` is entered (not withdrawn) in :attr:`Limits.entered_events` events not finished."""
        take_turns(conn, self.store.db.postgres, f"hexarena:entries:{account}")
        held = conn.execute(select(func.count()).select_from(tournament_players.join(tournaments)).where(
            tournament_players.c.account_id == account, tournament_players.c.withdrawn.is_(False),
            tournaments.c.status != "finished")).scalar() or 0
        if held >= self.limits.entered_events:
            raise Refused(429, f"you are entered in {held} events not finished, the most one player may; withdraw "
                               f"from one or wait until one ends")

    def _enter(self, conn: Connection, event: Any, account: int, rating: float) -> None:
        conn.execute(insert(tournament_players).values(tournament_id=event.id, account_id=account, rating=rating,
                                                       withdrawn=False, joined=self.now()))
        notify(conn, event_topic(event.id), [account])

    def invite(self, account: Account, event_id: str, name: Any) -> None:
        """Its creator enters an AI account (``ai-1`` .. ``ai-10``) in upcoming event ``event_id``."""
        level = ai_level(name)
        with self.store.db.write() as conn:
            event = event_row(conn, event_id, lock=True)
            if event.by_id != account.id:
                raise Refused(403, "only the event's creator may invite")
            ai = self.store.matches.ai_accounts.get(level)
            if ai is None:
                raise Refused(400, f"name {name!r}: no such AI account here")
            self._check_open(conn, event, ai)
            self._enter(conn, event, ai, rating_in(conn, ai, event.game))

    def withdraw(self, account: Account, event_id: str) -> Step:
        """``account`` leaves ``event_id``: before the start its entry is removed; once running it is withdrawn
        (its game going on resigned, never paired again); 409 when not entered or the event is over."""
        step = Step(event_id)
        with self.store.db.write() as conn:
            event = event_row(conn, event_id, lock=True)
            mine = (tournament_players.c.tournament_id == event.id) & (tournament_players.c.account_id == account.id)
            entry = conn.execute(select(tournament_players.c.withdrawn).where(mine)).first()
            if entry is None or entry.withdrawn:
                raise Refused(409, "not entered in this event" if entry is None else "already withdrawn")
            if event.status == "finished":
                raise Refused(409, "the event is over: its results stand")
            if event.status == "upcoming":
                conn.execute(delete(tournament_players).where(mine))
            else:
                withdraw_running(conn, event.id, account.id, step)
            notify(conn, event_topic(event.id), [account.id])
        return step


def ai_level(name: Any) -> int:
    """The level N of the AI account ``ai-N`` (1..10); 400 for any other name."""
    found = AI_NAME.fullmatch(name) if isinstance(name, str) else None
    if found is None or not 1 <= int(found[1]) <= 10:
        raise Refused(400, f"name {name!r}: only the AI accounts ai-1 to ai-10 can be invited")
    return int(found[1])


def take_turns(conn: Connection, postgres: bool, key: str) -> None:
    """On PostgreSQL, the transactions holding ``key`` take turns (a count checked then raised stays true)."""
    if postgres:
        conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": key})


