"""The standing championships, one per game, Little Golem style (docs/server.md, "Tournaments and championships"):
a player signs up once per game and stays until they leave; the judge starts a cycle of divisions (each a rated
correspondence round robin made by the judge) when none runs and 4 players or more wait, no sooner than
``championship_wait`` hours after the first waiting sign-up; once every division of a cycle is finished the next
is formed by :func:`~hexarena.tournament.next_divisions` (promotion and relegation) and starts by itself."""

from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select

import hexarena
from hexarena.record_writer import at
from hexarena.tournament import first_divisions, next_divisions, standings

from ..accounts import Account
from ..clocks import seconds
from ..errors import Refused
from ..limits import Limits
from ..schema import accounts, championship_entries, tournament_players, tournaments
from ..seeks import listed_game
from ..store import Store
from ..store.matches import plain_options
from .entry import take_turns
from .rounds import Step, begin
from .rows import COUNTS, event_row, games_of, players_of, rating_in
from .view import entrants, records

LEAST = 4  # players a championship's first cycle needs
SIGNED = select(accounts.c.name, championship_entries.c.account_id, championship_entries.c.joined).join(
    accounts, accounts.c.id == championship_entries.c.account_id)


def division_id(game: str, cycle: int, division: str) -> str:
    """A division's event id, the same in every process: a second making of it breaks the primary key."""
    return "c" + hashlib.sha256(f"{game}:{cycle}:{division}".encode()).hexdigest()[:15]


class Championships:
    """The championships on ``store``'s database, within ``limits`` (their wait and their clock)."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store, self.limits = store, limits

    # sign-ups ----------------------------------------------------------------------------------------------------
    def join(self, account: Account, game: str) -> None:
        """Sign ``account`` up for ``game``'s championship (409 if signed up already)."""
        listed_game(game)
        with self.store.db.write() as conn:
            if self._signed(conn, game, account.id):
                raise Refused(409, f"already signed up for the {game} championship")
            conn.execute(insert(championship_entries).values(game=game, account_id=account.id,
                                                             joined=at(self.store.db.clock())))

    def leave(self, account: Account, game: str) -> None:
        """``account`` leaves ``game``'s championship: not in the next cycle (its games going on are played out)."""
        listed_game(game)
        with self.store.db.write() as conn:
            if not self._signed(conn, game, account.id):
                raise Refused(409, f"not signed up for the {game} championship")
            conn.execute(delete(championship_entries).where(championship_entries.c.game == game,
                                                            championship_entries.c.account_id == account.id))

    @staticmethod
    def _signed(conn: Connection, game: str, account: int) -> bool:
        return conn.execute(select(championship_entries.c.account_id).where(
            championship_entries.c.game == game, championship_entries.c.account_id == account)).first() is not None

    # reading -----------------------------------------------------------------------------------------------------
    def listing(self, account: Account | None) -> list[dict[str, Any]]:
        """Every game's championship, as :meth:`shown`."""
        return [self.shown(game, account, full=False) for game in hexarena.GAMES]

    def shown(self, game: str, account: Account | None, full: bool = True) -> dict[str, Any]:
        """``game``'s championship: its sign-ups, its cycle and divisions; with ``full`` the players signed up and
        when the next cycle may start."""
        listed_game(game)
        with self.store.db.engine.connect() as conn:
            signed = list(conn.execute(SIGNED.where(championship_entries.c.game == game).order_by(
                championship_entries.c.joined, accounts.c.name)))
            cycle, divisions = self._cycle(conn, game)
        out: dict[str, Any] = {
            "game": game, "entrants": len(signed), "cycle": cycle,
            "status": "running" if any(d["status"] != "finished" for d in divisions) else "waiting",
            "divisions": [{k: d[k] for k in ("name", "tournament", "players")} for d in divisions],
            "joined": account is not None and any(s.account_id == account.id for s in signed)}
        if full:
            out |= {"players": [s.name for s in signed], "next_start": self._next_start(signed, out["status"], cycle)}
        return out

    def _next_start(self, signed: list[Any], status: str, cycle: int) -> str | None:
        """When the judge starts the next cycle: a first one once :data:`LEAST` players wait, ``championship_wait``
        hours after the first sign-up; a next one as soon as the last ends (None while one runs or too few wait)."""
        if status == "running" or len(signed) < LEAST:
            return None
        if cycle:
            return at(self.store.db.clock())
        first = min(s.joined for s in signed)
        return at(seconds(first) + self.limits.championship_wait * 3600)

    @staticmethod
    def _cycle(conn: Connection, game: str) -> tuple[int, list[dict[str, Any]]]:
        """``game``'s newest cycle (0: none yet) and its divisions: name, event, players, status."""
        cycle = conn.execute(select(func.max(tournaments.c.cycle)).where(tournaments.c.championship == game)).scalar()
        if cycle is None:
            return 0, []
        counts = COUNTS.subquery()
        rows = conn.execute(select(tournaments.c.id, tournaments.c.division, tournaments.c.status, counts.c.players)
                            .outerjoin(counts, counts.c.tournament_id == tournaments.c.id)
                            .where(tournaments.c.championship == game, tournaments.c.cycle == cycle)
                            .order_by(tournaments.c.division))
        return int(cycle), [{"name": r.division, "tournament": r.id, "players": r.players or 0, "status": r.status}
                            for r in rows]

    # the judge's step --------------------------------------------------------------------------------------------
    def judge(self) -> list[Step]:
        """Start each game's next cycle where it is due; the steps taken."""
        with self.store.db.engine.connect() as conn:
            games = set(conn.execute(select(championship_entries.c.game).distinct()).scalars())
        return [step for game in sorted(games) for step in self.next_cycle(game)]

    def next_cycle(self, game: str) -> list[Step]:
        """``game``'s next cycle if due (:meth:`_next_start`), its divisions made and their round 1 paired, in one
        transaction (the championship's turn taken on PostgreSQL; a division's id is fixed, so a second making
        fails): the steps."""
        with self.store.db.write() as conn:
            take_turns(conn, self.store.db.postgres, f"hexarena:championship:{game}")
            cycle, divisions = self._cycle(conn, game)
            signed = list(conn.execute(SIGNED.where(championship_entries.c.game == game)))
            status = "running" if any(d["status"] != "finished" for d in divisions) else "waiting"
            due = self._next_start(signed, status, cycle)
            if due is None or due > at(self.store.db.clock()):
                return []
            rated = [(s.name, rating_in(conn, s.account_id, game)) for s in signed]
            formed = (next_divisions(self._finals(conn, divisions), self._leaving(conn, divisions, signed),
                                     [r for r in rated if r[0] not in self._names(conn, divisions)])
                      if cycle else first_divisions(rated))
            ids = {s.name: s.account_id for s in signed}
            return [self._division(conn, game, cycle + 1, name, [ids[n] for n in names if n in ids])
                    for name, names in formed.items()]

    def _finals(self, conn: Connection, divisions: list[dict[str, Any]]) -> dict[str, list[str]]:
        """Each division's final order, best first."""
        out = {}
        for d in divisions:
            event = event_row(conn, d["tournament"])
            players = players_of(conn, event.id)
            names = {p.account_id: p.name for p in players}
            table = standings(entrants(players), records(games_of(conn, event.id), names), event.format)
            out[d["name"]] = [row["name"] for row in table]
        return out

    def _names(self, conn: Connection, divisions: list[dict[str, Any]]) -> set[str]:
        return {p.name for d in divisions for p in players_of(conn, d["tournament"])}

    def _leaving(self, conn: Connection, divisions: list[dict[str, Any]], signed: list[Any]) -> set[str]:
        return self._names(conn, divisions) - {s.name for s in signed}

    def _division(self, conn: Connection, game: str, cycle: int, division: str, players: list[int]) -> Step:
        """Division ``division`` of cycle ``cycle``: its event made by the judge, its players entered, its round 1
        paired."""
        event_id = division_id(game, cycle, division)
        stamp = at(self.store.db.clock())
        conn.execute(insert(tournaments).values(
            id=event_id, name=f"{game} championship {cycle}, division {division}", by_id=None, game=game,
            options=default_options(game), format="round-robin", rounds=0,
            clock={"days": self.limits.championship_days}, rated=True, max_players=max(len(players), 2),
            rating_lo=None, rating_hi=None, starts=None, status="upcoming", round=0, created=stamp,
            championship=game, cycle=cycle, division=division))
        for account in players:
            conn.execute(insert(tournament_players).values(
                tournament_id=event_id, account_id=account, rating=rating_in(conn, account, game),
                withdrawn=False, joined=stamp))
        step = Step(event_id)
        begin(conn, self.store.matches, event_row(conn, event_id, lock=True), step)
        return step


def default_options(game: str) -> dict[str, Any]:
    """``game``'s options as a match keeps them, every one at its default."""
    return plain_options(hexarena.load(game).new_state())
