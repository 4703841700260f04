"""A round written: its tournament_games rows and their matches, in the caller's transaction (the event row locked:
docs/server.md, "Tournaments and championships", "Robustness"); and the seeds fixed at the start."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Connection, insert, update

from ..schema import tournament_games, tournament_players, tournaments
from ..store.matches import Match, Matches, game_of
from .pairing import Pair, next_pairs, total_rounds
from .rows import games_of, players_of, rating_in

FIRST_SEAT_WINS, SECOND_SEAT_WINS = 1.0, 0.0


@dataclass
class Step:
    """What a committed change of an event leaves to tell: the matches it made (to remember and start), the
    round it paired (to mail), the matches whose withdrawn player resigns, whether the event finished."""

    event_id: str
    made: list[Match] = field(default_factory=list)
    paired: int | None = None
    resign: list[tuple[str, int]] = field(default_factory=list)
    finished: bool = False


def seat_kind(player: Any) -> str:
    """A seat's kind for an entrant: the AI's accounts are played by the server (``ai:N``)."""
    return "human" if player.ai_level is None else f"ai:{player.ai_level}"


def new_match(conn: Connection, matches: Matches, event: Any, first: Any, second: Any) -> Match:
    """An event's game: a match of its game and options (an opening protocol is among them), both entrants seated,
    its clock started, rated as the event is."""
    state = game_of(event.game, event.options).new_state()
    return matches.insert(conn, state, [seat_kind(first), seat_kind(second)], [None, None], "",
                          [first.account_id, second.account_id], event.clock, event.rated)


def forfeit_result(fmt: str, first: Any, second: Any) -> float | None:
    """The result of a pairing with a withdrawn player, not played: the other wins; with both withdrawn, nobody
    plays (None) but in a knockout, where the first seat goes through."""
    if first.withdrawn and second.withdrawn:
        return FIRST_SEAT_WINS if fmt == "knockout" else None
    return SECOND_SEAT_WINS if first.withdrawn else FIRST_SEAT_WINS


def insert_round(conn: Connection, matches: Matches, event: Any, number: int, pairs: list[Pair], players: list[Any],
                 first_board: int = 1) -> list[Match]:
    """Round ``number``'s ``pairs`` as tournament_games rows from board ``first_board`` (a withdrawn player's game
    a forfeit without a match, a bye its own row, never to a withdrawn player but in a knockout, whose bracket
    slot it keeps: their next game is a forfeit); the matches made.  A second pairing
    of the same round breaks the unique (tournament, round, board): its transaction is rolled back."""
    by_name = {p.name: p for p in players}
    made, board = [], first_board
    for a, b in pairs:
        first, second = by_name[a], None if b is None else by_name[b]
        row = {"tournament_id": event.id, "round": number, "board": board, "seat0": first.account_id,
               "seat1": None if second is None else second.account_id, "result": None, "forfeit": False}
        if second is None:
            if first.withdrawn and event.format != "knockout":  # a knockout's bye keeps its bracket slot
                continue
            row["result"] = FIRST_SEAT_WINS  # the bye: over at once
        elif first.withdrawn or second.withdrawn:
            row.update(result=forfeit_result(event.format, first, second), forfeit=True)
            if row["result"] is None:
                continue
        else:
            match = new_match(conn, matches, event, first, second)
            row["match_id"] = match.id
            made.append(match)
        conn.execute(insert(tournament_games).values(**row))
        board += 1
    return made


def pair_next(conn: Connection, matches: Matches, event: Any, step: Step) -> None:
    """Pair the round after ``event``'s current one, or finish the event after its last (the event row locked)."""
    players, games = players_of(conn, event.id), games_of(conn, event.id)
    number = event.round + 1
    active = sum(not p.withdrawn for p in players)
    if number > event.rounds or (event.format == "swiss" and active < 2):
        conn.execute(update(tournaments).where(tournaments.c.id == event.id).values(status="finished"))
        step.finished = True
        return
    pairs = next_pairs(event.format, number, players, games)
    step.made += insert_round(conn, matches, event, number, pairs, players)
    step.paired = number
    conn.execute(update(tournaments).where(tournaments.c.id == event.id).values(round=number))


def seed(conn: Connection, event: Any) -> int:
    """Fix the seeds at the start: by rating in the event's game (read again now), best first, then by who joined
    first; the number of entrants."""
    players = players_of(conn, event.id)
    rated = sorted(((rating_in(conn, p.account_id, event.game), p.joined, p.account_id) for p in players),
                   key=lambda r: (-r[0], r[1], r[2]))
    for number, (rating, _, account) in enumerate(rated, 1):
        conn.execute(update(tournament_players).where(
            tournament_players.c.tournament_id == event.id, tournament_players.c.account_id == account).values(
            seed=number, rating=rating))
    return len(rated)


def begin(conn: Connection, matches: Matches, event: Any, step: Step) -> None:
    """Start ``event`` (its row locked, its status upcoming, two entrants or more): seeds fixed, rounds computed,
    round 1 paired."""
    count = seed(conn, event)
    rounds = total_rounds(event.format, count, event.rounds)
    conn.execute(update(tournaments).where(tournaments.c.id == event.id).values(status="running", rounds=rounds,
                                                                                 round=0))
    pair_next(conn, matches, SimpleNamespace(**{**vars(event), "status": "running", "rounds": rounds, "round": 0}),
              step)
