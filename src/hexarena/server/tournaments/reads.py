"""The events as read (docs/server.md, "Tournaments and championships"): the event object, the lists, a player's
events, the events where an account has a game going on, and the event of a match.  No web framework here."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, func, or_, select

from ..errors import Refused
from ..schema import matches, tournament_games, tournament_players, tournaments
from ..seeks import listed_game
from ..store import Store
from .judge import entrants
from .rows import COUNTS, EVENTS, event_row, games_of, players_of
from .view import event_object, summary

STATUSES = ("upcoming", "running", "finished")
LISTED = 200  # events a list shows at most
COUNTED = COUNTS.subquery()
SUMMARIES = EVENTS.add_columns(func.coalesce(COUNTED.c.players, 0).label("entrants")).outerjoin(
    COUNTED, COUNTED.c.tournament_id == tournaments.c.id).order_by(tournaments.c.created.desc(), tournaments.c.id)


def entry(conn: Connection, event: Any) -> dict[str, Any]:
    """Whether one may join ``event`` now, and why not."""
    if event.status != "upcoming":
        return {"open": False, "why": f"the event is {event.status}"}
    if entrants(conn, event.id) >= event.max_players:
        return {"open": False, "why": f"the event is full ({event.max_players} players)"}
    return {"open": True, "why": None}


class Reads:
    """The events of ``store``'s database as shown."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def event(self, event_id: str) -> dict[str, Any]:
        """The event object of ``event_id`` (404 if unknown)."""
        with self.store.db.engine.connect() as conn:
            event = event_row(conn, event_id)
            return event_object(event, players_of(conn, event.id), games_of(conn, event.id), entry(conn, event))

    def listing(self, status: str | None = None, game: str | None = None) -> list[dict[str, Any]]:
        """The events' summaries, newest first (``status``, ``game``: only those; 400 for an unknown one)."""
        query = SUMMARIES
        if status is not None:
            if status not in STATUSES:
                raise Refused(400, f"status {status!r}: one of {', '.join(STATUSES)}")
            query = query.where(tournaments.c.status == status)
        if game is not None:
            query = query.where(tournaments.c.game == listed_game(game))
        with self.store.db.engine.connect() as conn:
            return [summary(r, r.entrants) for r in conn.execute(query.limit(LISTED))]

    def of_account(self, account: int) -> list[dict[str, Any]]:
        """The summaries of the events ``account`` is entered in, newest first."""
        mine = select(tournament_players.c.tournament_id).where(tournament_players.c.account_id == account)
        with self.store.db.engine.connect() as conn:
            return [summary(r, r.entrants) for r in conn.execute(
                SUMMARIES.where(tournaments.c.id.in_(mine)).limit(LISTED))]

    def playing(self, account: int) -> list[dict[str, Any]]:
        """The running events where ``account`` has a game going on: ``{"id", "name", "round", "match"}``."""
        query = select(tournaments.c.id, tournaments.c.name, tournament_games.c.round,
                       tournament_games.c.match_id.label("match")).select_from(
            tournament_games.join(tournaments, tournaments.c.id == tournament_games.c.tournament_id)
            .join(matches, matches.c.id == tournament_games.c.match_id)).where(
            tournaments.c.status == "running", matches.c.over.is_(False),
            or_(tournament_games.c.seat0 == account, tournament_games.c.seat1 == account)).order_by(
            tournaments.c.created)
        with self.store.db.engine.connect() as conn:
            return [dict(r) for r in conn.execute(query).mappings()]

    def of_match(self, match_id: str) -> dict[str, Any] | None:
        """The event a match is a game of, ``{"id", "name", "round", "championship"}`` (the championship's game or
        null), or None."""
        query = select(tournaments.c.id, tournaments.c.name, tournament_games.c.round, tournaments.c.championship).join(
            tournaments, tournaments.c.id == tournament_games.c.tournament_id).where(
            tournament_games.c.match_id == match_id)
        with self.store.db.engine.connect() as conn:
            row = conn.execute(query).mappings().first()
        return None if row is None else dict(row)
