"""Both players' views of a game: lead changes, drama and clarity as Ludii
measures them, and decisiveness judged from both sides (docs/analysis.md
"Both players' views" gives the definitions and their sources).

A searching agent reports, before each of its moves, its search value: the
expected score (win 1, draw 1/2, loss 0) it sees for itself.  At every ply
each seat's *view* is its own latest value, held until its next move; the
*standing* of the first player is the mean of the views there are, each
read for the first player (seat 1's view ``v`` as ``1 - v``).

>>> standing([0.6, 0.7, 0.3, None], [0, 1, 0, 1])
[0.6, 0.45, 0.3, 0.3]
>>> lead_changes([0.6, 0.45, 0.3, 0.3])
1
>>> clarity_of([0.2, 0.4, 0.9])
[0.13, 0.333333]
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from .metrics import DECILES, decided_ply, spread
from .page import table

if TYPE_CHECKING:
    from .selfplay import GameResult

NARROW = 0.75  # ClarityNarrowness: a move stands out above mean + 0.75 (max - mean)
HOPE = 0.5  # the loser's own value at or above which it still rates itself not losing


def clarity_of(rates: Sequence[float]) -> list[float]:
    """[variance, narrowness] of the win rates of the moves a search rated: their sample
    variance (0 for fewer than two) and the share of them above mean + 0.75 (max - mean)."""
    if not rates:
        return [0.0, 0.0]
    variance = statistics.variance(rates) if len(rates) > 1 else 0.0
    mean = statistics.fmean(rates)
    threshold = mean + NARROW * (max(rates) - mean)
    narrow = sum(1 for r in rates if r > threshold) / len(rates)
    return [round(variance, 6), round(narrow, 6)]


def standing(values: Sequence[float | None], movers: Sequence[int]) -> list[float | None]:
    """The first player's standing before each ply: the mean of both seats' latest views
    (None before any seat has one)."""
    latest: list[float | None] = [None, None]
    out: list[float | None] = []
    for value, mover in zip(values, movers, strict=True):
        if value is not None:
            latest[mover] = value
        views = [v if seat == 0 else 1 - v for seat, v in enumerate(latest) if v is not None]
        out.append(round(statistics.fmean(views), 6) if views else None)
    return out


def _leader(c: float) -> int | None:
    return 0 if c > 0.5 else 1 if c < 0.5 else None


def lead_changes(standings: Sequence[float | None]) -> int:
    """How often the leader (the seat whose standing is above 1/2; none at exactly 1/2) differs
    from the leader at the ply before (plies without a standing skipped)."""
    leaders = [_leader(c) for c in standings if c is not None]
    return sum(1 for a, b in zip(leaders, leaders[1:], strict=False) if a != b)


def deficits(standings: Sequence[float | None], winner: int) -> list[float]:
    """The eventual winner's deficit at each ply with a standing: the leader's share minus the winner's
    (0 when the winner leads)."""
    shares = [c if winner == 0 else 1 - c for c in standings if c is not None]
    return [max(0.0, 1 - 2 * s) for s in shares]


def decided_both(values: Sequence[float | None], movers: Sequence[int], winner: int) -> tuple[int | None, int]:
    """(the winner-only decided ply: from there the winner's own values (of searched moves; a forced
    move has none) all exceed 90%, None if the last does not; the first ply after the loser's last own
    value of at least 1/2, 0 if none). The game is decided from both sides at the larger of the two."""
    own = [i for i, m in enumerate(movers) if m == winner and values[i] is not None]  # not forced moves
    winner_ply = decided_ply(cast("list[float]", [values[i] for i in own]), own)
    hopes = [i for i, m in enumerate(movers) if m != winner and (values[i] or 0.0) >= HOPE]
    return winner_ply, (hopes[-1] + 1 if hopes else 0)


def _by_decile(pairs: Sequence[tuple[float, float]]) -> list[float | None]:
    """Mean of the values (second) by tenth of the game (first: the share of the game played)."""
    sums, counts = [0.0] * DECILES, [0] * DECILES
    for share, value in pairs:
        d = min(DECILES - 1, int(share * DECILES))
        sums[d] += value
        counts[d] += 1
    return [round(s / n, 4) if n else None for s, n in zip(sums, counts, strict=True)]


def _mean(xs: Sequence[float]) -> float | None:
    return round(statistics.fmean(xs), 4) if xs else None


def _clarity(results: Sequence[GameResult]) -> dict[str, Any]:
    """ClarityVariance and ClarityNarrowness: per game the mean over its searched moves, then over games."""
    per_game = []
    for r in results:
        rows = [c for c in r.get("clarity") or [] if c is not None]
        if rows:
            per_game.append((statistics.fmean(c[0] for c in rows), statistics.fmean(c[1] for c in rows)))
    return {"games": len(per_game), "variance": _mean([v for v, _ in per_game]),
            "narrowness": _mean([n for _, n in per_game])}


def _decisive(results: Sequence[GameResult], searching: tuple[bool, bool]) -> dict[str, Any]:
    """Decided from both sides, over the won games in which both seats search."""
    if not all(searching):
        return {"available": False, "reason": "one agent does not search: the loser's view is unknown"}
    both, winner_only, hopeful, never, judged = [], [], 0, 0, 0
    for r in results:
        w = r["winner"]
        if w is None:
            continue
        judged += 1
        winner_ply, loser_ply = decided_both(r["values"], r["movers"], w)
        if winner_ply is None:
            never += 1
            continue
        n = len(r["moves"])
        hopeful += loser_ply > winner_ply
        both.append(round(max(winner_ply, loser_ply) / n, 4))
        winner_only.append(round(winner_ply / n, 4))
    return {"available": True, "games": judged, "never": never, "loser_hopeful": hopeful,
            "fraction": spread(both), "winner_fraction": spread(winner_only)}


def views(results: Sequence[GameResult], searching: tuple[bool, bool]) -> dict[str, Any]:
    """Lead changes, drama, clarity and two-sided decisiveness of one option set's games
    (agents A, B ``searching``)."""
    if not any(searching):
        return {"available": False, "reason": "no agent searches (random agents report no value)"}
    changes, rates, drama_mean, drama_max, behind_share = [], [], [], [], []
    winner_curve: list[tuple[float, float]] = []
    loser_curve: list[tuple[float, float]] = []
    for r in results:
        standings = standing(r["values"], r["movers"])
        if all(c is None for c in standings):
            continue
        n = len(r["moves"])
        changes.append(lead_changes(standings))
        rates.append(changes[-1] / n)
        w = r["winner"]
        if w is None:
            continue
        behind = deficits(standings, w)
        drama_mean.append(statistics.fmean(behind))
        drama_max.append(max(behind))
        behind_share.append(sum(1 for d in behind if d > 0) / len(behind))
        for i, (value, mover) in enumerate(zip(r["values"], r["movers"], strict=True)):
            if value is not None:
                (winner_curve if mover == w else loser_curve).append((i / n, value))
    return {"available": True, "games": len(changes), "lead_changes": spread(changes),
            "lead_change_rate": _mean(rates),
            "drama": {"games": len(drama_mean), "mean": _mean(drama_mean), "max": _mean(drama_max),
                      "behind": _mean(behind_share)},
            "clarity": _clarity(results), "decisive": _decisive(results, searching),
            "winner_value_by_decile": _by_decile(winner_curve), "loser_value_by_decile": _by_decile(loser_curve)}


NOTE = ("From both players' own search values (docs/analysis.md 'Both players' views' gives the definitions, after "
        "Ludii's metrics). The standing is the mean of the two players' latest views of the first player's expected "
        "score; the leader is the player it favours. Lead changes: how often the leader changed, per game and per "
        "move (Ludii's LeadChange). Drama: the eventual winner's deficit, the leader's share minus the winner's, "
        "averaged over the plies of a game, and its largest value (Ludii's Drama, average and maximum), and the "
        "share of the plies at which the winner was behind, over the won games. Clarity: how far the moves a search "
        "rated differ (the variance of their win rates: ClarityVariance) and the share that stand out (above "
        "mean + 0.75 (max − mean): ClarityNarrowness), "
        "averaged over a game's searched moves. Decided from both sides: from the ply on which the winner's own "
        "values stay above 90% and the loser's below 50%.")


def _share(s: dict[str, Any], key: str = "median") -> str:
    return f"{100 * s[key]:.0f}%" if s.get("n") else "–"


def _rows() -> list[tuple[str, Any]]:
    """(row name, the cell of a set's ``views`` metrics)."""
    def decisive(cell):
        return lambda v: cell(v["decisive"]) if v["decisive"]["available"] else "–"

    return [
        ("games with values", lambda v: v["games"]),
        ("lead changes a game: mean (max)", lambda v: f"{v['lead_changes']['mean']:g} ({v['lead_changes']['max']})"),
        ("lead changes per move (LeadChange)", lambda v: f"{v['lead_change_rate']:.3f}"),
        ("drama: the winner's mean deficit (Drama, average)", lambda v: _num(v["drama"]["mean"])),
        ("drama: the winner's largest deficit (Drama, maximum)", lambda v: _num(v["drama"]["max"])),
        ("the plies the eventual winner was behind (share)", lambda v: _num(v["drama"]["behind"])),
        ("clarity: variance of the rated moves' win rates", lambda v: _num(v["clarity"]["variance"])),
        ("clarity: narrowness (share of moves standing out)", lambda v: _num(v["clarity"]["narrowness"])),
        ("decided, both sides: median share of the game", decisive(lambda d: _share(d["fraction"]))),
        ("decided, the winner's view alone: median share", decisive(lambda d: _share(d["winner_fraction"]))),
        ("the loser still ≥ 50% after the winner's decided ply",
         decisive(lambda d: f"{d['loser_hopeful']} of {d['games'] - d['never']}")),
        ("never decided (the winner's last value ≤ 90%)", decisive(lambda d: d["never"])),
    ]


def _num(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


def html(report: dict[str, Any], figure: str) -> str:
    """The section ("" when no set has values): a row per measure, a column per option set, and
    ``figure`` (the plot of both players' values)."""
    sets = [(s["label"], s["metrics"].get("views")) for s in report["sets"]]
    if not any(v and v["available"] for _, v in sets):
        return ""
    rows = [[name, *[cell(v) if v and v["available"] else "–" for _, v in sets]] for name, cell in _rows()]
    return f"<p class='note'>{NOTE}</p>" + table(["", *[label for label, _ in sets]], rows) + figure
