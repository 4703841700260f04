"""Swiss pairing, FIDE Dutch-style, by weighted matching.

The rules, in strict priority (a rule gives way only where every rule above it leaves no other choice):

1. every active player is paired once: one game each, or the bye when their number is odd; a withdrawn
   player is never paired;
2. no two players meet twice (a repeat only when no pairing of the others avoids one);
3. the bye goes to the lowest-ranked player of the lowest score group who has not had one, and never a second
   bye while another player can have a first; the first candidate in that order that leaves a pairing without
   repeats of the others has it;
4. score groups are paired top-down: as few pairs as possible cross the boundary below the top group, then
   below the second, and so on (so a player floats to the next group down rather than two groups down, and a
   float near the top is avoided before one lower down);
5. seats (FIDE's colours): as few absolute preferences as possible go unmet (a player two or more games
   ahead in one seat, or in it the last two games), then as few strong ones (one game ahead), then as few
   mild ones (even: the other seat from the last game);
6. within a score group the top half meets the bottom half in order (1 v 5, 2 v 6, ... in a group of eight),
   the group's lowest-ranked player floats down and meets the next group's highest-ranked.

The rules are weights of one maximum-weight matching (networkx's blossom algorithm, on integers): each rule's
weight is larger than everything the rules below it can add up to over a whole pairing, so the matching is
the best pairing in that order. For speed, past ``FIRST_WINDOW + 1`` players each player is joined only to the
players within ``FIRST_WINDOW`` places of them in the ranking or of their half-group partner; the window
doubles until every player is paired without a repeat (the whole graph last). The tests check on random
events that this pairs as well as the whole graph; ``bench/tournament_pairing.py`` times it (200 players:
under 1 s a round on this project's 2-core machine, the whole graph 3-4 s).

Seats of a pair: both preferences when they differ; else the stronger one (absolute, strong, mild; between two
absolute ones the wider imbalance); else the pair alternates from the last round they had different seats; else
the higher-ranked player's. With no preference on either side (the first round) the higher-ranked player takes
the first seat when their seed is odd. What this guarantees: among the pairings that are best on rules 1-4, the
chosen one leaves the fewest absolute, then strong, preferences unmet (checked against every pairing of random
events of up to 9 players in tests/tournament/test_swiss.py). A player's first-seat count goes more than 1 past
their second-seat count only when rules 1-4 leave them facing a player due the same seat at least as strongly:
over 500 simulated events of 10 players and 7 rounds with random results, 484 ended with every player within 1,
the other 16 with one player 3 apart (4,984 of 5,000 players within 1). Not done from FIDE's C.04.3: the rules on
floats (no float in the same direction twice in a row) and the topscorer exceptions of the last round.

Ranking within the event: by points, then seed (seeds are by rating, best first).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import networkx as nx

from .model import Entrant, Pairing, RoundRecord, check_names
from .standings import points

FIRST_WINDOW = 16  # places in the ranking a player is first joined to (then 32, 64, ...)


@dataclass
class Standing:
    """One active player as the pairing sees them."""

    name: str
    seed: int
    score: float
    opponents: set[str] = field(default_factory=set)
    byes: int = 0
    seats: list[int] = field(default_factory=list)  # 0 first, 1 second, per game played over the board
    position: int = 0  # 0 = the best-ranked of the players being paired
    group: int = 0  # 0 = the top score group of the players being paired

    @property
    def difference(self) -> int:
        """First seats minus second seats."""
        return self.seats.count(0) - self.seats.count(1)


def seat_preference(seats: Sequence[int]) -> tuple[int | None, int]:
    """The seat (0 first, 1 second) a player with these past seats is due and how strongly: 3 absolute
    (two or more ahead in one seat, or the last two in one seat), 2 strong (one ahead), 1 mild (even:
    the other seat from the last game), 0 none (no game yet, seat None).

    >>> seat_preference([0, 1, 0]), seat_preference([1, 0]), seat_preference([0, 0]), seat_preference([])
    ((1, 2), (1, 1), (1, 3), (None, 0))
    """
    if not seats:
        return None, 0
    difference = seats.count(0) - seats.count(1)
    if abs(difference) >= 2:
        return int(difference > 0), 3
    if len(seats) >= 2 and seats[-1] == seats[-2]:
        return 1 - seats[-1], 3
    if difference:
        return int(difference > 0), 2
    return 1 - seats[-1], 1


def standings_for_pairing(entrants: Sequence[Entrant], history: Sequence[RoundRecord]) -> list[Standing]:
    """The active entrants, best-ranked first (points, then seed), with their opponents, byes and seats."""
    check_names(entrants, history)
    score = points(entrants, history)
    players = {e.name: Standing(e.name, e.seed, score[e.name]) for e in entrants if not e.withdrawn}
    for r in history:
        if r.bye in players:
            players[r.bye].byes += 1
        for g in r.games:
            for seat, name in enumerate(g.seats):
                if name in players:
                    players[name].opponents.add(g.opponent(name))
                    if not g.forfeit:
                        players[name].seats.append(seat)
    return sorted(players.values(), key=lambda p: (-p.score, p.seed))


def pair_swiss(entrants: Sequence[Entrant], history: Sequence[RoundRecord]) -> Pairing:
    """The next round of a Swiss for the entrants not withdrawn, from the rounds played so far (the module's
    docstring gives the rules and their order); games in board order (by their better-ranked player). A lone
    active player has the bye; none, an empty pairing."""
    players = standings_for_pairing(entrants, history)
    if len(players) < 2:
        return Pairing((), players[0].name if players else None)
    candidates = bye_candidates(players) if len(players) % 2 else [None]
    for bye in candidates:
        pairs = match([p for p in players if p is not bye], repeats=False)
        if pairs is not None:
            return _pairing(pairs, bye)
    tried = [(match([p for p in players if p is not bye], repeats=True) or [], bye) for bye in candidates]
    pairs, bye = min(tried, key=lambda t: sum(v.name in u.opponents for u, v in t[0]))
    return _pairing(pairs, bye)


def bye_candidates(players: Sequence[Standing]) -> list[Standing]:
    """Who may have the bye, in the order they are offered it: fewest byes so far, then lowest score, then
    lowest ranked."""
    place = {p.name: i for i, p in enumerate(players)}
    return sorted(players, key=lambda p: (p.byes, p.score, -place[p.name]))


def _pairing(pairs: list[tuple[Standing, Standing]], bye: Standing | None) -> Pairing:
    games = sorted((seat_order(u, v) for u, v in pairs), key=lambda g: min((-p.score, p.seed) for p in g))
    return Pairing(tuple((a.name, b.name) for a, b in games), bye.name if bye else None)


def match(players: list[Standing], repeats: bool) -> list[tuple[Standing, Standing]] | None:
    """The best pairing of ``players`` (an even number) by rules 2 and 4-6, each pair (higher-ranked, lower);
    None when ``repeats`` is false and every pairing has one."""
    _place(players)
    weight = Weights(players)
    for window in _windows(len(players)):
        graph = nx.Graph()
        graph.add_nodes_from(range(len(players)))
        graph.add_weighted_edges_from((i, j, weight.of(players[i], players[j])) for i, j in candidate_edges(
            players, window) if repeats or players[j].name not in players[i].opponents)
        found = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(found) == len(players):
            return [(players[min(e)], players[max(e)]) for e in found]
    return None


def _windows(n: int) -> Iterator[int]:
    window = FIRST_WINDOW
    while window < n:
        yield window
        window *= 2
    yield n


def _place(players: list[Standing]) -> None:
    """Number the positions (best first) and the score groups (top first) of ``players``."""
    scores = sorted({p.score for p in players}, reverse=True)
    for i, p in enumerate(players):
        p.position, p.group = i, scores.index(p.score)


def candidate_edges(players: list[Standing], window: int) -> Iterator[tuple[int, int]]:
    """The pairs (i, j), i < j, within ``window`` places of each other or of i's half-group partner."""
    bounds = _group_bounds(players)
    for i, p in enumerate(players):
        start, end = bounds[p.group]
        partner = i + (end - start) // 2
        for j in range(i + 1, len(players)):
            if j - i <= window or (players[j].group == p.group and abs(j - partner) <= window):
                yield i, j


def _group_bounds(players: list[Standing]) -> dict[int, tuple[int, int]]:
    """Each score group's first position and the position after its last."""
    bounds: dict[int, tuple[int, int]] = {}
    for p in players:
        start, _ = bounds.get(p.group, (p.position, 0))
        bounds[p.group] = (start, p.position + 1)
    return bounds


class Weights:
    """The weight of each possible pair: rules 2 and 4-6 as digits of one integer, each rule's unit larger
    than the most all the rules below it can add up to over a whole pairing."""

    def __init__(self, players: list[Standing]) -> None:
        self.bounds = _group_bounds(players)
        groups, pairs, n = len(self.bounds), len(players) // 2, len(players)
        caps = [pairs] + [pairs] * (groups - 1) + [pairs, pairs, pairs, pairs * 2 * n]  # per pairing, top rule first
        self.units = [1] * len(caps)
        for level in range(len(caps) - 2, -1, -1):
            self.units[level] = self.units[level + 1] * (caps[level + 1] + 1)
        self.top = 2 * self.units[0]

    def of(self, u: Standing, v: Standing) -> int:
        """The weight of pairing ``u`` with the lower-ranked ``v`` (the higher, the better)."""
        return self.top - sum(unit * cost for unit, cost in zip(self.units, self.costs(u, v), strict=True))

    def costs(self, u: Standing, v: Standing) -> list[int]:
        """Per rule, top first: a repeat; each score-group boundary crossed; an unmet absolute, strong, mild
        seat preference; the distance from the Dutch order."""
        crossed = [int(u.group <= g < v.group) for g in range(len(self.bounds) - 1)]
        return [int(v.name in u.opponents), *crossed, *seat_conflict(u, v), self.order(u, v)]

    def order(self, u: Standing, v: Standing) -> int:
        """0 for the Dutch pairing: half a group apart in a group, the bottom of one group with the top of
        the next across groups."""
        (start, end), (next_start, _) = self.bounds[u.group], self.bounds[v.group]
        if u.group == v.group:
            return abs(2 * (v.position - u.position) - (end - start))
        return (end - 1 - u.position) + (v.position - next_start)


def seat_conflict(u: Standing, v: Standing) -> tuple[int, int, int]:
    """(absolute, strong, mild): which preference goes unmet when ``u`` meets ``v`` (both due the same seat:
    the weaker of the two)."""
    (due_u, strength_u), (due_v, strength_v) = seat_preference(u.seats), seat_preference(v.seats)
    unmet = min(strength_u, strength_v) if due_u is not None and due_u == due_v else 0
    return int(unmet == 3), int(unmet == 2), int(unmet == 1)


def seat_order(u: Standing, v: Standing) -> tuple[Standing, Standing]:
    """(first seat, second seat) for ``u`` and the lower-ranked ``v`` (the module's docstring gives the rule)."""
    (due_u, strength_u), (due_v, strength_v) = seat_preference(u.seats), seat_preference(v.seats)
    if due_u is None:
        seat_u = 1 - u.seed % 2 if due_v is None else 1 - due_v
    elif due_v is None or due_u != due_v:
        seat_u = due_u
    elif (strength_u, abs(u.difference)) != (strength_v, abs(v.difference)):
        seat_u = due_u if (strength_u, abs(u.difference)) > (strength_v, abs(v.difference)) else 1 - due_u
    else:
        seat_u = _alternate(u.seats, v.seats, due_u)
    return (u, v) if seat_u == 0 else (v, u)


def _alternate(seats_u: list[int], seats_v: list[int], due: int) -> int:
    """u's seat: the other one from the last round (counting back) u and v had different seats; u's due seat
    when they never had."""
    for a, b in zip(reversed(seats_u), reversed(seats_v), strict=False):
        if a != b:
            return 1 - a
    return due

