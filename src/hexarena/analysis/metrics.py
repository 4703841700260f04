"""Balance metrics of one option set's self-play games (results sorted by index).

Seats are 0 (the first player) and 1; agent A sits at seat ``index % 2``.

>>> wilson(50, 100)
(0.4038, 0.5962)
>>> wilson(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from .balance import Decisiveness, Histogram, Lengths, Outcomes, Proportion, Score, Spread

if TYPE_CHECKING:
    from .selfplay import GameResult

Z95 = 1.959964
DECISIVE = 0.9  # the winner's search value that counts as "decided"
DECILES = 10
OPENING_PLIES = 4  # the moves that make an "opening" when counting distinct ones


def wilson(k: float, n: int, z: float = Z95, digits: int | None = 4) -> tuple[float, float]:
    """The Wilson score interval of the proportion ``k / n`` (95% by default), rounded to ``digits``
    places (None: not rounded)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    return (low, high) if digits is None else (round(low, digits), round(high, digits))


def share(k: int, n: int) -> Proportion:
    """``k`` of ``n`` as a count, a rate and its 95% interval."""
    return Proportion(k, round(k / n, 4) if n else None, wilson(k, n))


def proportion(k: int, n: int) -> dict[str, Any]:
    """:func:`share` as JSON."""
    return share(k, n).as_json()


def outcomes(results: Sequence[GameResult]) -> Outcomes:
    """Wins per seat and per agent, draws, and the first player's score."""
    n = len(results)
    winners = [r["winner"] for r in results]
    seat = [winners.count(0), winners.count(1)]
    draws = winners.count(None)
    a_wins = sum(1 for r in results if r["winner"] is not None and r["winner"] == r["a_seat"])
    first_points = seat[0] + 0.5 * draws
    return Outcomes(n, (share(seat[0], n), share(seat[1], n)), share(draws, n),
                    Score(first_points, round(first_points / n, 4) if n else None, wilson(first_points, n)),
                    (share(a_wins, n), share(n - draws - a_wins, n)))


def spread(values: Sequence[float]) -> dict[str, Any]:
    """Mean, standard deviation, quartiles and extremes of ``values`` (:class:`Spread`) as JSON."""
    return Spread.of(values).as_json()


def histogram(values: Sequence[int], max_bins: int = 30) -> Histogram:
    """Counts of integer ``values`` in bins of equal integer width (at most ``max_bins``)."""
    if not values:
        return Histogram(0, 1, [])
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / max_bins))
    counts = [0] * ((high - low) // width + 1)
    for v in values:
        counts[(v - low) // width] += 1
    return Histogram(low, width, counts)


def turns_of(movers: Sequence[int]) -> int:
    """Turns in a game: runs of moves by the same player."""
    return sum(1 for i, m in enumerate(movers) if i == 0 or m != movers[i - 1])


def lengths(results: Sequence[GameResult]) -> Lengths:
    """Game length in plies (single moves) and in turns."""
    plies = [len(r["moves"]) for r in results]
    turns = [turns_of(r["movers"]) for r in results]
    return Lengths(Spread.of(plies), histogram(plies), Spread.of(turns), histogram(turns))


def branching(results: Sequence[GameResult]) -> dict[str, Any]:
    """Legal moves before each ply: the mean over the games still going, and over all moves."""
    longest = max((len(r["legal"]) for r in results), default=0)
    by_ply, going = [], []
    for ply in range(longest):
        counts = [r["legal"][ply] for r in results if len(r["legal"]) > ply]
        by_ply.append(round(statistics.fmean(counts), 3))
        going.append(len(counts))
    every = [c for r in results for c in r["legal"]]
    return {"mean_by_ply": by_ply, "games_by_ply": going, "overall": spread(every)}


def decided_ply(values: Sequence[float], plies: Sequence[int], threshold: float = DECISIVE) -> int | None:
    """The ply of the winner's first move after which all the winner's values exceed ``threshold``
    (``values`` at the winner's moves, made at ``plies``); None when the last one does not."""
    found = None
    for value, ply in zip(reversed(values), reversed(plies), strict=True):
        if value <= threshold:
            break
        found = ply
    return found


def decisiveness(results: Sequence[GameResult], searching: tuple[bool, bool]) -> Decisiveness:
    """How early the eventual winner's search value stays above 90% (agents A, B ``searching``)."""
    if not any(searching):
        return Decisiveness(False, "no agent searches (random agents report no value)")
    fractions, plies_at, never = [], [], 0
    curve_sum, curve_n = [0.0] * DECILES, [0] * DECILES
    for r in results:
        w = r["winner"]
        if w is None or not searching[0 if w == r["a_seat"] else 1]:
            continue
        own = [i for i, m in enumerate(r["movers"]) if m == w and r["values"][i] is not None]  # not forced moves
        values = cast("list[float]", [r["values"][i] for i in own])
        n = len(r["moves"])
        for i, v in zip(own, values, strict=True):
            d = min(DECILES - 1, i * DECILES // n)
            curve_sum[d] += v
            curve_n[d] += 1
        ply = decided_ply(values, own)
        if ply is None:
            never += 1
            continue
        plies_at.append(ply + 1)  # plies counted from 1
        fractions.append(ply / n)
    curve = [round(s / k, 4) if k else None for s, k in zip(curve_sum, curve_n, strict=True)]
    return Decisiveness(True, threshold=DECISIVE, games=len(fractions) + never, never=never,
                        ply=Spread.of(plies_at), fraction=Spread.of([round(f, 4) for f in fractions]),
                        fraction_by_decile=_decile_counts(fractions), winner_value_by_decile=curve)


def _decile_counts(fractions: Sequence[float]) -> list[int]:
    counts = Counter(min(DECILES - 1, int(f * DECILES)) for f in fractions)
    return [counts[d] for d in range(DECILES)]


def diversity(results: Sequence[GameResult], opening_plies: int = OPENING_PLIES) -> dict[str, Any]:
    """Distinct games and distinct openings (first ``opening_plies`` moves): few of them mean the
    agents repeat themselves and the games are not independent samples of the game."""
    games = {tuple(r["moves"]) for r in results}
    openings = {tuple(r["moves"][:opening_plies]) for r in results}
    return {"games": len(results), "distinct_games": len(games), "opening_plies": opening_plies,
            "distinct_openings": len(openings)}


def first_moves(results: Sequence[GameResult], top: int = 12) -> list[dict[str, Any]]:
    """The most frequent first moves, with the first player's results after each."""
    groups: dict[str, list[GameResult]] = {}
    for r in results:
        if r["moves"]:
            groups.setdefault(r["moves"][0], []).append(r)
    rows = []
    for move, games in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:top]:
        wins = sum(1 for g in games if g["winner"] == 0)
        rows.append({"move": move, "games": len(games), "share": round(len(games) / len(results), 4),
                     "first_player_wins": proportion(wins, len(games))})
    return rows


def representative_index(results: Sequence[GameResult]) -> int | None:
    """The index of a game of median length (the earliest such game)."""
    if not results:
        return None
    ranked = sorted(results, key=lambda r: (len(r["moves"]), r["index"]))
    median = len(ranked[(len(ranked) - 1) // 2]["moves"])
    return min(r["index"] for r in results if len(r["moves"]) == median)
