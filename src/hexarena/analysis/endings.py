"""How an option set's games ended: per end reason (``Game.end_reason``) the
games, their share, the wins of each seat and the draws, and the score
margin where the game scores; and the games settled by a tie-break or by the
board or pool running out (the game's ``END_KINDS``), with their draws.

>>> rows = end_reasons([{"reason": "configurations", "winner": 0, "scores": [3.0, 1.0]},
...                     {"reason": "stones-tiebreak", "winner": 1, "scores": [2.0, 2.0]}],
...                    {"stones-tiebreak": "tie-break"})
>>> [(r["reason"], r["kind"], r["games"], r["margin"]["mean"]) for r in rows]
[('configurations', None, 1, 2.0), ('stones-tiebreak', 'tie-break', 1, 0.0)]
>>> [(k["kind"], k["games"], k["draws"]) for k in end_kinds(rows)]
[('tie-break', 1, 0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .metrics import proportion, spread
from .page import esc, rate, table

if TYPE_CHECKING:
    from .selfplay import GameResult

UNRECORDED = "unrecorded"  # games played before results kept their end reason
KIND_NAMES = {"tie-break": "settled by a tie-break", "exhaustion": "the board or the pool ran out"}
KIND_NOTES = {"tie-break": "the games a tie-break settled (or left tied)",
              "exhaustion": "the games in which the board or the pool of pieces ran out"}
NOTES = ("The rule that ended each game (the game's end reasons: docs/analysis.md), as a share of the set's games "
         "with its 95% interval, then the first player's wins / the second's / draws among them.",
         "The score margin: the difference of the two scores at the end (mean, median and range).")


def end_reasons(results: Sequence[GameResult], kinds: dict[str, str]) -> list[dict[str, Any]]:
    """Per end reason, most frequent first: its kind (of ``kinds``, a game's ``END_KINDS``), the games,
    their share, the wins per seat, the draws and the score margins (None where the game has no scores)."""
    groups: dict[str, list[GameResult]] = {}
    for r in results:
        groups.setdefault(r.get("reason") or UNRECORDED, []).append(r)
    rows = []
    for reason, games in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        margins = [abs(s[0] - s[1]) for g in games if (s := g.get("scores"))]
        rows.append({"reason": reason, "kind": kinds.get(reason), "games": len(games),
                     "share": proportion(len(games), len(results)),
                     "seat_wins": [sum(1 for g in games if g["winner"] == seat) for seat in (0, 1)],
                     "draws": sum(1 for g in games if g["winner"] is None),
                     "margin": spread(margins) if margins else None})
    return rows


def end_kinds(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per kind of ending that occurred (tie-break, exhaustion): the games, their share of all games and
    the draws among them (a count and a share)."""
    total = sum(r["games"] for r in rows)
    out = []
    for kind in KIND_NAMES:
        mine = [r for r in rows if r["kind"] == kind]
        games = sum(r["games"] for r in mine)
        if games:
            draws = sum(r["draws"] for r in mine)
            out.append({"kind": kind, "reasons": [r["reason"] for r in mine], "games": games,
                        "share": proportion(games, total), "draws": draws, "draw_share": proportion(draws, games)})
    return out


def _cell(row: dict[str, Any] | None) -> str:
    if row is None:
        return "–"
    first, second = row["seat_wins"]
    return f"{rate(row['share'])} <small>({first} / {second} / {row['draws']})</small>"


def _margin(row: dict[str, Any] | None) -> str:
    if row is None or row["margin"] is None:
        return "–"
    m = row["margin"]
    return f"{m['mean']:g} <small>(median {m['median']:g}, {m['min']:g}..{m['max']:g})</small>"


def _kind(row: dict[str, Any] | None) -> str:
    if row is None:
        return "–"
    return f"{rate(row['share'])} <small>({row['draws']} drawn: {100 * row['draw_share']['rate']:.0f}%)</small>"


def html(report: dict[str, Any]) -> str:
    """The section: a row per end reason (and its score margins), then per kind, a column per option set."""
    sets = report["sets"]
    by_reason = [{r["reason"]: r for r in s["metrics"]["end_reasons"]} for s in sets]
    by_kind = [{k["kind"]: k for k in s["metrics"].get("end_kinds", [])} for s in sets]
    reasons = list(dict.fromkeys(reason for rows in by_reason for reason in rows))
    rows = [[esc(reason), *[_cell(rows.get(reason)) for rows in by_reason]] for reason in reasons]
    margins = [[f"score margin: {esc(reason)}", *[_margin(rows.get(reason)) for rows in by_reason]]
               for reason in reasons if any((rows.get(reason) or {}).get("margin") for rows in by_reason)]
    present = [kind for kind in KIND_NAMES if any(kind in kinds for kinds in by_kind)]
    kinds = [[f"<i>{esc(KIND_NAMES[kind])}</i>", *[_kind(kinds.get(kind)) for kinds in by_kind]] for kind in present]
    note = " ".join(n for n, shown in zip(NOTES, (True, margins), strict=True) if shown)
    if present:
        note += f" In italics, {' and '.join(KIND_NOTES[kind] for kind in present)}, with the draws among them."
    return f"<p class='note'>{note}</p>" + table(["end", *[s["label"] for s in sets]], rows + margins + kinds)
