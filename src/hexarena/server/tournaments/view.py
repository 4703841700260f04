"""The event object and the event summary (docs/server.md, "Tournaments and championships"), built from the rows
by :mod:`hexarena.tournament`'s standings and crosstable.  No web framework here."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from hexarena.tournament import Entrant, Played, RoundRecord, crosstable, standings

RESULTS = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}


def entrants(players: list[Any]) -> list[Entrant]:
    """The core's entrants of the ``players`` rows (before the start, seeded in the order they joined)."""
    return [Entrant(p.name, p.seed or i + 1, p.rating, p.withdrawn) for i, p in enumerate(players)]


def records(games: list[Any], names: dict[int, str]) -> list[RoundRecord]:
    """The core's rounds of the ``games`` rows (in order of round and board; ``names``: per account its name)."""
    out = []
    for number, rows in groupby(games, key=lambda g: g.round):
        played, byes = [], []
        for g in rows:
            if g.seat1 is None:
                byes.append(names[g.seat0])
            else:
                played.append(Played(number, (names[g.seat0], names[g.seat1]), g.result, g.forfeit))
        out.append(RoundRecord(number, tuple(played), byes[0] if byes else None, tuple(byes[1:])))
    return out


def pairings(games: list[Any], names: dict[int, str]) -> list[dict[str, Any]]:
    """Per round paired so far: its games (seats, match, result from seat 0's side, board, forfeit, the match's
    ply: moves made), its bye and
    ``byes`` (every bye of the round: a knockout's first round may have several; ``bye`` is the first)."""
    out = []
    for number, rows in groupby(games, key=lambda g: g.round):
        shown: dict[str, Any] = {"round": number, "games": [], "bye": None, "byes": []}
        for g in rows:
            if g.seat1 is None:
                shown["byes"].append(names[g.seat0])
                shown["bye"] = shown["byes"][0]
            else:
                shown["games"].append({"seats": [names[g.seat0], names[g.seat1]], "match": g.match_id,
                                       "result": RESULTS.get(g.result), "board": g.board, "forfeit": g.forfeit,
                                       "ply": g.ply or 0})
        out.append(shown)
    return out


def summary(event: Any, players: int) -> dict[str, Any]:
    """An event as the lists show it (its clock and whether it is rated too: the events page's rows show them)."""
    return {"id": event.id, "name": event.name, "game": event.game, "format": event.format, "status": event.status,
            "players": players, "round": event.round, "rounds": event.rounds, "starts": event.starts,
            "clock": event.clock, "rated": event.rated}


def event_object(event: Any, players: list[Any], games: list[Any], entry: dict[str, Any]) -> dict[str, Any]:
    """The event object of ``event`` (its row) with its ``players`` and ``games`` rows; ``entry``: whether one may
    join now (and why not)."""
    names = {p.account_id: p.name for p in players}
    field, rounds = entrants(players), records(games, names)
    table = standings(field, rounds, event.format)
    crossed = {row["name"]: row for row in crosstable(field, rounds)}
    return {**summary(event, len(players)), "by": event.by or "hexarena", "options": event.options,
            "max_players": event.max_players,
            "rating_range": None if event.rating_lo is None else [event.rating_lo, event.rating_hi],
            "players": [{"name": p.name, "seed": p.seed, "rating": round(p.rating, 1), "withdrawn": p.withdrawn}
                        for p in players],
            "standings": table, "crosstable": [crossed[row["name"]] for row in table],
            "pairings": pairings(games, names), "entry": entry,
            "championship": None if event.championship is None else {
                "game": event.championship, "cycle": event.cycle, "division": event.division}}
