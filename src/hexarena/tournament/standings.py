"""Standings and crosstables of an event, from its entrants and rounds.

Points: a win 1, a draw 1/2, a loss 0; the pairing-allocated bye 1 (not a win, no game); a forfeit 1 to the
winner, 0 to the loser (not a game). ``games`` and ``wins`` count games played over the board. The tie-breaks
read every player's final points (at the time the standings are computed):

- ``buchholz``: the sum of the points of every opponent met over the board (a bye or a forfeit adds nothing:
  there is no virtual opponent); ``buchholz_cut1``: the same without the lowest of those opponents;
- ``sonneborn_berger``: the points of the opponents beaten over the board plus half those of the opponents
  drawn with;
- direct encounter: among players tied on everything before it, the points each scored in the games among
  them (forfeits included), applied only when every two of them have met; otherwise it separates no one;
- ``wins``: games won over the board.

The ranking per format: ``swiss`` by points, buchholz_cut1, buchholz, sonneborn_berger, direct encounter,
wins; ``round-robin`` and ``double-round-robin`` by points, sonneborn_berger, direct encounter, wins;
``knockout`` by the stage reached (the last round played, one more for winning it or having its bye), then
points. Ties left after these go to the better (lower) seed, so ranks are 1..N with no two rows sharing one.
Withdrawn players keep their rows (``"withdrawn": true``), ranked like everyone else.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .knockout import knockout_winner
from .model import Entrant, Played, RoundRecord, check_names

FORMATS = ("swiss", "round-robin", "double-round-robin", "knockout")
SYMBOLS = {1.0: "1", 0.5: "½", 0.0: "0"}


@dataclass
class Tally:
    """What one player's rounds add up to."""

    points: float = 0.0
    wins: int = 0
    board: list[tuple[str, float]] = field(default_factory=list)  # (opponent, score) over the board
    finished: list[tuple[str, float]] = field(default_factory=list)  # (opponent, score), forfeits included
    stage: int = 0  # knockout: the last round played, plus one for winning it or having its bye


def points(entrants: Sequence[Entrant], rounds: Sequence[RoundRecord]) -> dict[str, float]:
    """Each entrant's points after ``rounds`` (games going on count nothing yet)."""
    return {name: t.points for name, t in tallies(entrants, rounds).items()}


def tallies(entrants: Sequence[Entrant], rounds: Sequence[RoundRecord], knockout: bool = False
            ) -> dict[str, Tally]:
    """Each entrant's tally after ``rounds``; ``knockout``: with the stage each reached."""
    check_names(entrants, rounds)
    out = {e.name: Tally() for e in entrants}
    for r in rounds:
        if r.bye is not None:
            out[r.bye].points += 1.0
            out[r.bye].stage = r.number + 1
        for g in r.games:
            _count(g, out)
        if knockout:
            _stages(r, out)
    return out


def _count(game: Played, out: dict[str, Tally]) -> None:
    if game.result is None:
        return
    for name in game.seats:
        t, opponent, score = out[name], game.opponent(name), game.score(name)
        t.points += score
        t.finished.append((opponent, score))
        if game.over_the_board:
            t.board.append((opponent, score))
            t.wins += score == 1.0


def _stages(r: RoundRecord, out: dict[str, Tally]) -> None:
    """The knockout stage each player of round ``r`` reached (a bracket pairing's games are the games of the
    round between the same two players)."""
    pairings: dict[frozenset[str], list[Played]] = defaultdict(list)
    for g in r.games:
        pairings[frozenset(g.seats)].append(g)
    for pair, games in pairings.items():
        winner = knockout_winner(games)
        for name in pair:
            out[name].stage = r.number + (name == winner)


def standings(entrants: Sequence[Entrant], rounds: Sequence[RoundRecord], format: str) -> list[dict[str, Any]]:
    """The standings rows, best first: {"rank", "name", "points", "buchholz", "buchholz_cut1",
    "sonneborn_berger", "wins", "games", "withdrawn"} (the module's docstring says how each is counted)."""
    if format not in FORMATS:
        raise ValueError(f"format {format!r}: one of {', '.join(FORMATS)}")
    table = tallies(entrants, rounds, knockout=format == "knockout")
    rows = {e.name: _row(e, table) for e in entrants}
    keys = _ranking(format)
    order = sorted(entrants, key=lambda e: [-k(rows[e.name], table[e.name]) for k in keys] + [e.seed])
    if format != "knockout":
        order = _direct_encounters(order, rows, table, keys)
    return [{"rank": i, **rows[e.name]} for i, e in enumerate(order, 1)]


def _row(e: Entrant, table: dict[str, Tally]) -> dict[str, Any]:
    t = table[e.name]
    met = sorted(table[o].points for o, _ in t.board)
    return {"name": e.name, "points": t.points, "buchholz": sum(met, 0.0), "buchholz_cut1": sum(met[1:], 0.0),
            "sonneborn_berger": sum((score * table[o].points for o, score in t.board), 0.0), "wins": t.wins,
            "games": len(t.board), "withdrawn": e.withdrawn}


Key = Callable[[dict[str, Any], Tally], float]


def _ranking(format: str) -> list[Key]:
    """The keys before direct encounter (greater is better); wins come after it."""
    if format == "knockout":
        return [lambda row, t: t.stage, lambda row, t: row["points"]]
    names = ("points", "buchholz_cut1", "buchholz", "sonneborn_berger") if format == "swiss" else (
        "points", "sonneborn_berger")
    return [_field(n) for n in names]


def _field(name: str) -> Key:
    return lambda row, t: row[name]


def _direct_encounters(order: list[Entrant], rows: dict[str, dict[str, Any]], table: dict[str, Tally],
                       keys: list[Key]) -> list[Entrant]:
    """``order`` with each run of players tied on ``keys`` ordered by direct encounter, then wins, then seed."""
    out: list[Entrant] = []
    i = 0
    while i < len(order):
        tied = [order[i]]
        while i + len(tied) < len(order) and _key(order[i + len(tied)], rows, table, keys) == _key(
                order[i], rows, table, keys):
            tied.append(order[i + len(tied)])
        among = _among(tied, table)
        out += sorted(tied, key=lambda e: (-among.get(e.name, 0.0), -rows[e.name]["wins"], e.seed))
        i += len(tied)
    return out


def _key(e: Entrant, rows: dict[str, dict[str, Any]], table: dict[str, Tally], keys: list[Key]) -> list[float]:
    return [k(rows[e.name], table[e.name]) for k in keys]


def _among(tied: list[Entrant], table: dict[str, Tally]) -> dict[str, float]:
    """Each tied player's points in the games among them, or {} unless every two of them have met."""
    names = {e.name for e in tied}
    if len(names) < 2:
        return {}
    met = {frozenset((e.name, o)) for e in tied for o, _ in table[e.name].finished if o in names}
    if len(met) < len(names) * (len(names) - 1) // 2:
        return {}
    return {n: sum(s for o, s in table[n].finished if o in names) for n in names}


def crosstable(entrants: Sequence[Entrant], rounds: Sequence[RoundRecord]) -> list[dict[str, Any]]:
    """Per entrant, in ``entrants``' order: {"name", "results": {opponent: ["1" | "½" | "0" | "+" | "-", ...]
    in round order ("+"/"-": a forfeit won/lost; games going on are left out)}, "byes": [round, ...]}."""
    check_names(entrants, rounds)
    results: dict[str, dict[str, list[str]]] = {e.name: {} for e in entrants}
    byes: dict[str, list[int]] = {e.name: [] for e in entrants}
    for r in rounds:
        if r.bye is not None:
            byes[r.bye].append(r.number)
        for g in r.games:
            if g.result is not None:
                for name in g.seats:
                    results[name].setdefault(g.opponent(name), []).append(_symbol(g, name))
    return [{"name": e.name, "results": results[e.name], "byes": byes[e.name]} for e in entrants]


def _symbol(game: Played, name: str) -> str:
    score = game.score(name)
    return ("+" if score else "-") if game.forfeit else SYMBOLS[score]
