"""The next round's pairs of an event, by its format (docs/server.md, "Tournaments and championships"): Berger
tables for round robins, :func:`~hexarena.tournament.pair_swiss` for a Swiss, the seeded bracket for a knockout.
Pairs are of names, (first seat, second seat); a second seat of None is the bye.  No web framework here."""

from __future__ import annotations

from typing import Any

from hexarena.tournament import (Played, berger_rounds, knockout_first_round, knockout_next, knockout_rounds,
                                 knockout_winner, pair_swiss)

from .view import entrants, records

Pair = tuple[str, str | None]


def total_rounds(fmt: str, players: int, swiss_rounds: int) -> int:
    """The rounds an event of ``fmt`` with ``players`` entrants plays."""
    if fmt == "swiss":
        return swiss_rounds
    if fmt == "knockout":
        return knockout_rounds(players)
    cycle = players - 1 if players % 2 == 0 else players
    return cycle * (2 if fmt == "double-round-robin" else 1)


def next_pairs(fmt: str, round_number: int, players: list[Any], games: list[Any]) -> list[Pair]:
    """Round ``round_number``'s pairs of an event of ``fmt`` with the ``players`` rows (seeded) and the ``games``
    rows of the rounds before."""
    by_seed = {p.seed: p.name for p in players}
    if fmt in ("round-robin", "double-round-robin"):
        table = berger_rounds(len(players), double=fmt == "double-round-robin")[round_number - 1]
        return [(by_seed[a], None if b is None else by_seed[b]) for a, b in table]
    if fmt == "swiss":
        names = {p.account_id: p.name for p in players}
        pairing = pair_swiss(entrants(players), records(games, names))
        return [*pairing.games, *([(pairing.bye, None)] if pairing.bye else [])]
    if round_number == 1:
        first = [(by_seed[a], None if b is None else by_seed[b]) for a, b in knockout_first_round(len(players))]
        return knockout_seated(first, players, 1)
    return knockout_seated(knockout_next(bracket_winners(players, games, round_number - 1)), players, round_number)


def bracket_winners(players: list[Any], games: list[Any], round_number: int) -> list[str]:
    """The winners of round ``round_number``'s bracket pairings, in bracket order (a bye's player goes through)."""
    names = {p.account_id: p.name for p in players}
    pairs = bracket_games(games, round_number, names)
    winners = [knockout_winner(played) if played else bye for bye, played in pairs]
    if any(w is None for w in winners):
        raise ValueError(f"round {round_number} of the knockout is not decided")
    return [w for w in winners if w is not None]


def bracket_games(games: list[Any], round_number: int, names: dict[int, str]) -> list[tuple[str, list[Any]]]:
    """Round ``round_number``'s bracket pairings in bracket order (the order of their first boards): per pairing
    its first player and its games in order as the core reads them (none for a bye)."""
    pairs: dict[frozenset[int | None], tuple[str, list[Any]]] = {}
    for g in games:
        if g.round != round_number:
            continue
        key = frozenset((g.seat0, g.seat1))
        _, played = pairs.setdefault(key, (names[g.seat0], []))
        if g.seat1 is not None:
            played.append(Played(g.round, (names[g.seat0], names[g.seat1]), g.result, g.forfeit))
    return list(pairs.values())


def undecided(games: list[Any], round_number: int, names: dict[int, str]) -> list[Pair]:
    """The knockout pairings of round ``round_number`` whose games are all over and drawn so far: the replay of each,
    seats swapped from its last game."""
    out: list[Pair] = []
    for _, played in bracket_games(games, round_number, names):
        if played and all(p.result is not None for p in played) and knockout_winner(played) is None:
            last = played[-1].seats
            out.append((last[1], last[0]))
    return out


def knockout_seated(pairs: list[tuple[str, str]] | list[Pair], players: list[Any], round_number: int) -> list[Pair]:
    """A knockout round's pairs seated: the better seed first in odd rounds, second in even ones (seats balanced);
    a bye stays (player, None)."""
    seed = {p.name: p.seed for p in players}
    out: list[Pair] = []
    for a, b in pairs:
        if b is None:
            out.append((a, None))
            continue
        better, worse = (a, b) if seed[a] < seed[b] else (b, a)
        out.append((better, worse) if round_number % 2 else (worse, better))
    return out
