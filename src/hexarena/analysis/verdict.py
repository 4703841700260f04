"""The report's verdict: each option set's first-player score against 50%,
each pair of sets compared (:func:`proportions.compare_proportions`: the
difference with its 95% interval, a test, the games that would settle it),
and a paragraph written from those numbers for the top of the report.

>>> sets = [{"label": "a", "metrics": {"outcomes": _outcomes(46, 0, 100)}},
...         {"label": "b", "metrics": {"outcomes": _outcomes(52, 0, 100)}}]
>>> print(summary(of(sets)))  # doctest: +NORMALIZE_WHITESPACE
a: the first player scores 46.0% [36.6, 55.7] over 100 games: no advantage measured (the interval holds 50%).
b: the first player scores 52.0% [42.3, 61.5] over 100 games: no advantage measured (the interval holds 50%).
b against a: 52.0% vs 46.0%, a difference of +6.0 points [-7.7, +19.4] (z = 0.85, p = 0.396): not significant;
about 2,100 games each would measure it to ±3 points.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from .metrics import proportion, wilson
from .page import esc, table
from .proportions import MARGIN, compare_proportions, games_needed, one_proportion_test, planning_rate

NOTE = ("Differences of proportions with Newcombe's hybrid score interval (95%); tests: two-proportion z test, or "
        "Fisher's exact test when a cell of the 2x2 table expects fewer than 5 games; each test on its own at 5% "
        "(no correction for several comparisons). 'Games for ±3 points': the games each set would need for the "
        "interval to reach 3 points either side, at the rates seen. A draw counts half a point in the score. "
        "docs/analysis.md 'The verdict' gives the sources.")


def _outcomes(first_wins: int, draws: int, games: int) -> dict[str, Any]:
    """The outcome numbers the verdict reads (as :func:`metrics.outcomes` gives them), for examples."""
    points = first_wins + 0.5 * draws
    return {"games": games, "draws": proportion(draws, games),
            "first_player_score": {"points": points, "rate": round(points / games, 4),
                                   "ci95": list(wilson(points, games))}}


def set_verdict(label: str, outcomes: dict[str, Any], diversity: dict[str, Any] | None = None) -> dict[str, Any]:
    """One set's first-player score against 50%: which seat it favours when the interval excludes 50%; whether
    its agents replayed the same games or openings (fewer than a quarter distinct: the games are not
    independent samples)."""
    n, score = outcomes["games"], outcomes["first_player_score"]
    low, high = score["ci95"]
    z, p = one_proportion_test(score["points"], n)
    return {"label": label, "games": n, "score": score, "draws": outcomes["draws"], "z": round(z, 3),
            "p": round(p, 4), "favours": "first" if low > 0.5 else "second" if high < 0.5 else None,
            "games_needed": games_needed(planning_rate(score["points"], n)),
            "repeated": _repeated(diversity, n)}


def _repeated(diversity: dict[str, Any] | None, games: int) -> str | None:
    """What the agents replayed, if fewer than a quarter of the games or openings are distinct."""
    if diversity is None:
        return None
    for key, what in (("distinct_games", "games"), ("distinct_openings", "openings")):
        if diversity[key] * 4 < games:
            return f"{diversity[key]} distinct {what} of {games}"
    return None


def compared(count: int, rungs: int = 1) -> list[tuple[int, int]]:
    """The pairs of sets (indices) a verdict compares: every pair; on a ladder of ``rungs``
    (sets rung by rung) an option set at one rung against the next, and the option sets
    against each other at each rung.

    >>> compared(3)
    [(0, 1), (0, 2), (1, 2)]
    >>> compared(4, rungs=2)  # sets a, b at two rungs: a@1 a@2, b@1 b@2; a@1 b@1, a@2 b@2
    [(0, 2), (1, 3), (0, 1), (2, 3)]
    """
    per_rung = count // rungs
    if rungs == 1:
        return list(itertools.combinations(range(count), 2))
    along = [(i, i + per_rung) for i in range(count - per_rung)]
    across = [(r * per_rung + i, r * per_rung + j) for r in range(rungs)
              for i, j in itertools.combinations(range(per_rung), 2)]
    return along + across


def of(sets: Sequence[dict[str, Any]], rungs: int = 1) -> dict[str, Any]:
    """The verdict of a report's option sets (each with ``label`` and ``metrics``; on a ladder
    of ``rungs``, rung by rung)."""
    verdicts = [set_verdict(s["label"], s["metrics"]["outcomes"], s["metrics"].get("diversity")) for s in sets]
    pairs = []
    for a, b in ((verdicts[i], verdicts[j]) for i, j in compared(len(verdicts), rungs)):
        pair = {"sets": [a["label"], b["label"]],
                "score": compare_proportions(a["score"]["points"], a["games"], b["score"]["points"], b["games"])}
        if a["draws"]["count"] or b["draws"]["count"]:
            pair["draws"] = compare_proportions(a["draws"]["count"], a["games"], b["draws"]["count"], b["games"])
        pairs.append(pair)
    result = {"sets": verdicts, "pairs": pairs, "margin": MARGIN}
    result["summary"] = summary(result)
    return result


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _points(x: float) -> str:
    return f"{100 * x:+.1f}"


def _about(n: int) -> str:
    """``n`` to two significant digits, with thousands separators."""
    digits = max(0, len(str(n)) - 2)
    return f"{round(n, -digits):,}"


def _set_sentence(v: dict[str, Any], alone: bool) -> str:
    low, high = v["score"]["ci95"]
    who = "The first player" if alone else f"{v['label']}: the first player"
    draws = v["draws"]["rate"]
    drawn = f" ({_pct(draws)}% draws)" if draws else ""
    lean = {"first": "the first player has the advantage", "second": "the second player has the advantage",
            None: "no advantage measured (the interval holds 50%)"}[v["favours"]]
    text = (f"{who} scores {_pct(v['score']['rate'])}% [{_pct(low)}, {_pct(high)}] over {v['games']} games{drawn}: "
            f"{lean}.")
    if alone and (high - low) / 2 > MARGIN:
        text += f" About {_about(v['games_needed'])} games would measure it to ±3 points."
    return text


def _measure(c: dict[str, Any]) -> str:
    low, high = c["ci95"]
    if (high - low) / 2 <= MARGIN:
        return "already measured to ±3 points"
    return f"about {_about(c['games_needed'])} games each would measure it to ±3 points"


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _test(c: dict[str, Any]) -> str:
    if c["test"] == "fisher":
        return f"Fisher's exact test, {_p(c['p'])}"
    return f"z = {c['z']:.2f}, {_p(c['p'])}"


def _pair_sentence(pair: dict[str, Any], what: str = "score") -> str:
    c = pair[what]
    a, b = pair["sets"]
    low, high = c["ci95"]
    verdict = "significant at 5%" if c["significant"] else "not significant"
    subject = f"{b} against {a}" if what == "score" else f"Draws, {b} against {a}"
    return (f"{subject}: {_pct(c['rates'][1])}% vs {_pct(c['rates'][0])}%, a difference of "
            f"{_points(c['difference'])} points [{_points(low)}, {_points(high)}] ({_test(c)}): {verdict}; "
            f"{_measure(c)}.")


def summary(v: dict[str, Any]) -> str:
    """The paragraph: each set's score and the seat it favours, which is closest to balance, each pair."""
    alone = len(v["sets"]) == 1
    parts = [_set_sentence(s, alone) for s in v["sets"]]
    if len(v["sets"]) > 2:
        best, *rest = sorted(v["sets"], key=lambda s: abs(s["score"]["rate"] - 0.5))
        if abs(best["score"]["rate"] - 0.5) < abs(rest[0]["score"]["rate"] - 0.5):
            parts.append(f"Closest to balance: {best['label']} ({_pct(best['score']['rate'])}%).")
    for pair in v["pairs"]:
        parts.append(_pair_sentence(pair))
        if "draws" in pair:
            parts.append(_pair_sentence(pair, "draws"))
    for s in v["sets"]:
        if s["repeated"]:
            who = "The agents" if alone else f"In {s['label']}, the agents"
            parts.append(f"{who} repeated themselves ({s['repeated']}): the games are not independent samples, "
                         "and the intervals claim more than is known.")
    return "\n".join(parts)


def _pair_row(pair: dict[str, Any], what: str) -> list[Any]:
    c = pair[what]
    low, high = c["ci95"]
    a, b = pair["sets"]
    return [f"{esc(b)} − {esc(a)}" + (" (draws)" if what == "draws" else ""),
            f"{_pct(c['rates'][1])}% − {_pct(c['rates'][0])}%", _points(c["difference"]),
            f"[{_points(low)}, {_points(high)}]", "Fisher's exact" if c["test"] == "fisher" else f"z = {c['z']:.2f}",
            _p(c["p"]).removeprefix("p = "), "yes" if c["significant"] else "no", f"{c['games_needed']:,}"]


def html(report: dict[str, Any]) -> str:
    """The section: each set against 50%, and each pair's differences."""
    v = report["verdict"]
    rows = [[esc(s["label"]), f"{_pct(s['score']['rate'])}%",
             f"[{_pct(s['score']['ci95'][0])}, {_pct(s['score']['ci95'][1])}]", f"z = {s['z']:.2f}",
             _p(s["p"]).removeprefix("p = "), s["favours"] or "neither", f"{s['games_needed']:,}"] for s in v["sets"]]
    parts = [f"<p class='note'>{NOTE}</p>",
             table(["first player's score against 50%", "score", "95% interval", "test", "p", "favours",
                    "games for ±3 points"], rows)]
    if v["pairs"]:
        pair_rows = [_pair_row(p, what) for p in v["pairs"] for what in ("score", "draws") if what in p]
        parts.append(table(["difference of the first player's score", "rates", "points", "95% interval", "test",
                            "p", "significant", "games each for ±3 points"], pair_rows))
    return "".join(parts)


def summary_html(report: dict[str, Any]) -> str:
    """The summary paragraph for the top of the report, a line per sentence."""
    return "<p class='verdict'>" + "<br>".join(esc(line) for line in report["verdict"]["summary"].splitlines()) + "</p>"
