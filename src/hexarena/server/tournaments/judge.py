"""The judge's steps on the events (docs/server.md, "Tournaments and championships"): an event started (by its
creator, or by the judge at its ``starts``), the results of its finished games read into its rows, a drawn knockout
game replayed, the next round paired or the event finished.  Each step is one write transaction with the event row
locked and its state checked again under the lock, so it happens once across processes and restarts."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, func, select, update

from hexarena.record_writer import at

from ..accounts import Account
from ..errors import Refused
from ..rating import outcome
from ..schema import matches, tournament_games, tournament_players, tournaments
from ..scoring import needs_scoring
from ..store import Store
from ..store.matches import Match
from ..store.notify import notify
from .pairing import undecided
from .rounds import Step, begin, insert_round, pair_next
from .rows import event_row, event_topic, games_of, players_of

log = logging.getLogger("hexarena.server")
# the current round's games with their match's end: what tells whether an event has a step to take
CURRENT = select(tournament_games.c.result, matches.c.over).select_from(
    tournament_games.join(tournaments, tournaments.c.id == tournament_games.c.tournament_id)
    .outerjoin(matches, matches.c.id == tournament_games.c.match_id)).where(
    tournaments.c.status == "running", tournament_games.c.round == tournaments.c.round)


class Judge:
    """The events' steps on ``store``; ``final_of(match)``: a costly game's final scoring, or None while the scorer
    works (:meth:`~..core.Server.final_of`)."""

    def __init__(self, store: Store, final_of: Callable[[Match], dict[str, Any] | None]) -> None:
        self.store, self.final_of = store, final_of

    def running(self) -> list[str]:
        """The events running, and the upcoming ones whose start time has come."""
        now = at(self.store.db.clock())
        with self.store.db.engine.connect() as conn:
            return list(conn.execute(select(tournaments.c.id).where(
                (tournaments.c.status == "running")
                | ((tournaments.c.status == "upcoming") & (tournaments.c.starts <= now))).order_by(
                tournaments.c.created)).scalars())

    def due(self, event_id: str) -> bool:
        """Whether ``event_id`` may have a step to take (read without a lock): a game over but not counted yet, or
        every game of the round counted, or an upcoming event (its start time came)."""
        with self.store.db.engine.connect() as conn:
            status = conn.execute(select(tournaments.c.status).where(tournaments.c.id == event_id)).scalar()
            rows = conn.execute(CURRENT.where(tournaments.c.id == event_id)).all()
        if status != "running":
            return status == "upcoming"
        return any(r.result is None and r.over for r in rows) or all(r.result is not None for r in rows)

    def advance(self, event_id: str) -> Step | None:
        """The event's next step, if it has one: its start when due, the results of its finished games counted,
        and when its round is over the next paired (or a drawn knockout game replayed, or the event finished)."""
        if not self.due(event_id):
            return None
        step = Step(event_id)
        with timed(step), self.store.db.write() as conn:
            event = event_row(conn, event_id, lock=True)
            if event.status == "upcoming":
                self._start_due(conn, event, step)
                notify(conn, event_topic(event.id))
                return step
            if event.status != "running":
                return None
            self._count(conn, event, step)
            notify(conn, event_topic(event.id))
            current = games_of(conn, event.id, event.round)
            if any(g.result is None for g in current):
                return step
            if event.format == "knockout" and self._replay(conn, event, current, step):
                return step
            pair_next(conn, self.store.matches, event, step)
        return step

    def start(self, event_id: str, account: Account) -> Step:
        """Its creator starts ``event_id``: entry closed, round 1 paired (403 for anyone else, 409 if started or
        with fewer than 2 entrants)."""
        step = Step(event_id)
        with timed(step), self.store.db.write() as conn:
            event = event_row(conn, event_id, lock=True)
            if event.by_id != account.id:
                raise Refused(403, "only the event's creator may start it")
            if event.status != "upcoming":
                raise Refused(409, f"the event has started already (it is {event.status})")
            if entrants(conn, event.id) < 2:
                raise Refused(409, "an event needs 2 entrants or more to start")
            begin(conn, self.store.matches, event, step)
            notify(conn, event_topic(event.id))
        return step

    def _start_due(self, conn: Connection, event: Any, step: Step) -> None:
        """An upcoming event whose start time came: started, or with fewer than 2 entrants finished unplayed."""
        if event.starts is None or event.starts > at(self.store.db.clock()):
            return
        if entrants(conn, event.id) < 2:
            conn.execute(update(tournaments).where(tournaments.c.id == event.id).values(status="finished"))
            return
        begin(conn, self.store.matches, event, step)

    def _count(self, conn: Connection, event: Any, step: Step) -> None:
        """Read the result of each finished game of the current round into its row (a costly game's once its final
        scoring is known); a loss on time that withdraws its player (:func:`timeout_withdraws`) withdraws them."""
        for game in games_of(conn, event.id, event.round):
            if game.result is not None or game.match_id is None:
                continue
            match = self.store.matches.load(conn, game.match_id, lock=False)
            if not match.state.is_over() or (needs_scoring(match.state) and self.final_of(match) is None):
                continue
            conn.execute(update(tournament_games).where(
                tournament_games.c.tournament_id == event.id, tournament_games.c.round == game.round,
                tournament_games.c.board == game.board, tournament_games.c.result.is_(None)).values(
                result=outcome(match.state)))
            loser = match.state.timed_out
            if loser is not None and timeout_withdraws(event.clock, match, loser):
                withdraw_running(conn, event.id, match.accounts[loser], step)

    def _replay(self, conn: Connection, event: Any, current: list[Any], step: Step) -> bool:
        """Replay each drawn knockout pairing of the round, seats swapped (boards after the round's last); whether
        any was."""
        players = players_of(conn, event.id)
        replays = undecided(current, event.round, {p.account_id: p.name for p in players})
        if replays:
            step.made += insert_round(conn, self.store.matches, event, event.round, replays, players,
                                      max(g.board for g in current) + 1)
        return bool(replays)


@contextmanager
def timed(step: Step) -> Iterator[None]:
    """Log (INFO, logger ``hexarena.server``) how long a step that paired a round took, its transaction included:
    bench/tournament.py reads it."""
    began = time.perf_counter()
    yield
    if step.paired is not None:
        log.info("hexarena: event %s round %d paired in %.3f s (%d matches)", step.event_id, step.paired,
                 time.perf_counter() - began, len(step.made))


def entrants(conn: Connection, event_id: str) -> int:
    return int(conn.execute(select(func.count()).where(tournament_players.c.tournament_id == event_id)).scalar() or 0)


def timeout_withdraws(clock: dict[str, int], match: Match, loser: int) -> bool:
    """Whether the loss on time of seat ``loser`` withdraws its player: always with a correspondence clock; with a
    real-time one when they had not moved in that game."""
    return "days" in clock or loser not in match.state.movers()


def withdraw_running(conn: Connection, event_id: str, account: int | None, step: Step) -> None:
    """Withdraw ``account`` from running event ``event_id``: never paired again, its later games forfeits; its game
    going on (if any) to resign once committed (``step.resign``)."""
    if account is None:
        return
    conn.execute(update(tournament_players).where(tournament_players.c.tournament_id == event_id,
                                                  tournament_players.c.account_id == account).values(withdrawn=True))
    going = select(tournament_games.c.match_id).join(matches, matches.c.id == tournament_games.c.match_id).where(
        tournament_games.c.tournament_id == event_id, matches.c.over.is_(False),
        (tournament_games.c.seat0 == account) | (tournament_games.c.seat1 == account))
    step.resign += [(match_id, account) for match_id in conn.execute(going).scalars()]
