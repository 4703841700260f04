"""An account's matches as summaries (docs/server.md, "My games and profiles"): where it is my move, my other
ongoing and recent finished matches, and a player's profile.  Read through the index on match_players'
account; no web framework here.

A match summary: ``{"id", "game", "options", "players", "seat_info", "to_move", "my_seats", "ply", "over", "winner",
"status", "deadline", "updated", "created", "clock", "rated", "tournament"}``: ``my_seats`` are the seats of the
account the list is about, ``clock`` the time control (null: none), ``deadline`` when the player to move loses on
time, ``tournament`` the event it is a game of (``{"id", "name", "round"}``, or null).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, select

from .schema import accounts, match_players, matches, tournament_games, tournaments
from .store import Store
from .store.seats import DELETED, seat_name
from .view import seat_entry

FINISHED = 20   # recent finished matches in "my games"
PROFILE = 50    # matches on a profile
COLUMNS = (matches.c.id, matches.c.game, matches.c.options, matches.c.seats, matches.c.ply, matches.c.over,
           matches.c.winner, matches.c.to_move, matches.c.status, matches.c.deadline, matches.c.updated,
           matches.c.created, matches.c.clock, matches.c.rated)
# the statements, built once (building one per request cost more than running it)
HELD = matches.c.id.in_(select(match_players.c.match_id).where(match_players.c.account_id == bindparam("account")))
NEWEST = select(*COLUMNS).where(HELD).order_by(matches.c.updated.desc())
BY_OVER = NEWEST.where(matches.c.over == bindparam("over"))
QUERIES = {(None, False): NEWEST, (None, True): NEWEST.limit(bindparam("limit")),
           (False, False): BY_OVER, (False, True): BY_OVER.limit(bindparam("limit"))}
# the ongoing matches where the account holds the seat to move (through the index on match_players' account),
# and those whose player to move is not stored yet (kept before migration 0005: summary reads it)
TO_MOVE = select(*COLUMNS).join(match_players, match_players.c.match_id == matches.c.id).where(
    match_players.c.account_id == bindparam("account"), matches.c.over.is_(False),
    (match_players.c.seat == matches.c.to_move) | matches.c.to_move.is_(None))
EVENTS = select(tournament_games.c.match_id, tournaments.c.id, tournaments.c.name, tournament_games.c.round).join(
    tournaments, tournaments.c.id == tournament_games.c.tournament_id).where(
    tournament_games.c.match_id.in_(bindparam("ids", expanding=True)))
SEATED = select(match_players.c.match_id, match_players.c.seat, accounts.c.id, accounts.c.name,
                accounts.c.deleted).join(accounts).where(match_players.c.match_id.in_(bindparam("ids", expanding=True)))


def summaries(store: Store, account: int, over: bool | None, limit: int | None = None, query: Any = None
              ) -> list[dict[str, Any]]:
    """The matches of ``account`` (``over``: only finished, only ongoing, or None: both; or those ``query``
    selects), newest change first."""
    query = QUERIES[(None if over is None else False, limit is not None)] if query is None else query
    with store.db.engine.connect() as conn:
        rows = [dict(r) for r in conn.execute(query, {"account": account, "over": over, "limit": limit}).mappings()]
        seated = seats_of(conn, [r["id"] for r in rows])
        events = events_of(conn, [r["id"] for r in rows])
    return [{**summary(store, row, seated.get(row["id"], {}), account), "tournament": events.get(row["id"])}
            for row in rows]


def seats_of(conn: Any, ids: list[str]) -> dict[str, dict[int, tuple[int, str]]]:
    """Per match of ``ids``, per seated seat: its account and name."""
    out: dict[str, dict[int, tuple[int, str]]] = {}
    for start in range(0, len(ids), 500):
        for r in conn.execute(SEATED, {"ids": ids[start:start + 500]}):
            out.setdefault(r.match_id, {})[r.seat] = (r.id, DELETED if r.deleted else r.name)
    return out


def events_of(conn: Any, ids: list[str]) -> dict[str, dict[str, Any]]:
    """Per match of ``ids`` that is an event's game: the event, ``{"id", "name", "round"}``."""
    out: dict[str, dict[str, Any]] = {}
    for start in range(0, len(ids), 500):
        for r in conn.execute(EVENTS, {"ids": ids[start:start + 500]}):
            out[r.match_id] = {"id": r.id, "name": r.name, "round": r.round}
    return out


def summary(store: Store, row: dict[str, Any], seated: dict[int, tuple[int, str]], account: int) -> dict[str, Any]:
    """The summary of a match ``row`` whose seats hold ``seated``, for ``account``."""
    kinds = row.pop("seats")
    players = [seat_name(kind, seated[i][1] if i in seated else None) for i, kind in enumerate(kinds)]
    to_move = row["to_move"]
    if to_move is None and not row["over"]:  # stored before to_move was kept: read from the match itself
        to_move = store.matches.get(row["id"]).state.to_move
    return {**row, "to_move": to_move, "players": players, "seat_info": list(map(seat_entry, kinds, players)),
            "my_seats": sorted(i for i, (a, _) in seated.items() if a == account)}


def turn(store: Store, account: int) -> list[dict[str, Any]]:
    """The ongoing matches where ``account`` is to move: nearest deadline first, those without one last."""
    mine = {s["id"]: s for s in summaries(store, account, over=False, query=TO_MOVE) if s["to_move"] in s["my_seats"]}
    return sorted(mine.values(), key=lambda s: (s["deadline"] is None, s["deadline"] or ""))


def my_matches(store: Store, account: int) -> dict[str, list[dict[str, Any]]]:
    """``account``'s other ongoing matches (not its move) and its recent finished ones, newest change first."""
    ongoing = [s for s in summaries(store, account, over=False) if s["to_move"] not in s["my_seats"]]
    return {"ongoing": ongoing, "finished": summaries(store, account, over=True, limit=FINISHED)}
