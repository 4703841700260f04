"""The events' rows read (an event, its players, its games) and the statements built once.  No web framework here."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from sqlalchemy import Connection, func, select

from ..errors import Refused
from ..schema import accounts, matches, ratings, tournament_games, tournament_players, tournaments

EVENT_ID_LENGTH = 16
NEW_RATING = 1500.0  # an entrant's rating in a game they have no rating in

PLAYERS = select(tournament_players.c.account_id, accounts.c.name, accounts.c.ai_level, tournament_players.c.seed,
                 tournament_players.c.rating, tournament_players.c.withdrawn, tournament_players.c.joined).join(
    accounts, accounts.c.id == tournament_players.c.account_id)
# the games with their match's ply (the event object shows it: a move changes the object its live boards follow)
GAMES = select(tournament_games, matches.c.ply).outerjoin(matches, matches.c.id == tournament_games.c.match_id
                                                          ).order_by(tournament_games.c.round, tournament_games.c.board)
CREATOR = accounts.alias("creator")
EVENTS = select(tournaments, CREATOR.c.name.label("by")).outerjoin(CREATOR, CREATOR.c.id == tournaments.c.by_id)
COUNTS = select(tournament_players.c.tournament_id, func.count().label("players")).group_by(
    tournament_players.c.tournament_id)


def event_topic(event_id: str) -> str:
    """The live hub's topic of an event (its object changed; a match id never holds a colon)."""
    return f"tournament:{event_id}"


def event_row(conn: Connection, event_id: Any, lock: bool = False) -> Any:
    """Event ``event_id``'s row with its creator's name ``by`` (locked FOR UPDATE with ``lock``: its changes take
    turns on PostgreSQL; SQLite's writers take turns anyway); 404 if unknown."""
    if not isinstance(event_id, str) or len(event_id) > EVENT_ID_LENGTH:
        raise Refused(404, "no such event")
    if lock:
        conn.execute(select(tournaments.c.id).where(tournaments.c.id == event_id).with_for_update())
    row = conn.execute(EVENTS.where(tournaments.c.id == event_id)).mappings().first()
    if row is None:
        raise Refused(404, f"no event {event_id!r}")
    return SimpleNamespace(**row)


def players_of(conn: Connection, event_id: str) -> list[Any]:
    """The event's entrants: by seed once started, by when they joined before."""
    query = PLAYERS.where(tournament_players.c.tournament_id == event_id)
    return list(conn.execute(query.order_by(tournament_players.c.seed, tournament_players.c.joined,
                                            tournament_players.c.account_id)))


def games_of(conn: Connection, event_id: str, round_number: int | None = None) -> list[Any]:
    """The event's games in order of round and board (only round ``round_number``'s if given)."""
    query = GAMES.where(tournament_games.c.tournament_id == event_id)
    if round_number is not None:
        query = query.where(tournament_games.c.round == round_number)
    return list(conn.execute(query))


def rating_in(conn: Connection, account: int, game: str) -> float:
    """``account``'s rating in ``game`` (:data:`NEW_RATING` without one)."""
    found = conn.execute(select(ratings.c.rating).where(ratings.c.account_id == account,
                                                        ratings.c.game == game)).scalar()
    return NEW_RATING if found is None else float(found)
