"""The strength ladder: ``--ladder SPEC1,SPEC2,...`` plays every option set at
every rung (both seats the rung's agent) and says, per headline figure,
whether it holds or moves as play gets stronger, as Ludii's skill trace
does for one game: balance measured by self-play is balance for players of
that strength, and a figure that moves with strength is a property of the
players as much as of the game.

A figure *moves* when two rungs' values differ beyond their 95% intervals:
the intervals do not overlap, or a two-proportion test (for a mean, Welch's
test on the normal approximation) gives p < 0.05.

>>> a = {"kind": "proportion", "value": 0.41, "count": 41, "n": 100, "ci95": [0.318, 0.508]}
>>> b = {"kind": "proportion", "value": 0.68, "count": 68, "n": 100, "ci95": [0.584, 0.763]}
>>> round(difference_p(a, b), 5), differs(a, b)
(0.00013, True)
>>> differs(a, {**b, "value": 0.45, "count": 45, "ci95": [0.355, 0.549]})
False
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from ..ai.agents import AgentSpec, parse_agent
from ..games.base import quoted
from .balance import LabSettings
from .metrics import Z95, wilson
from .proportions import ALPHA, z_test

RUNG = "rung"  # a ladder run's agents (A and B): each option set's agents are its rung's, on both seats
TOP_MOVES = 3  # the first moves followed across the ladder: each rung's most chosen, at most this many
FIRST_MOVE = "the share of first move"


def parse_ladder(text: str) -> list[AgentSpec]:
    """``--ladder SPEC1,SPEC2,...``: two or more distinct agent specs, weakest first."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) < 2 or not all(parts):
        raise ValueError(f"--ladder {quoted(text)}: give two or more agent specs, weakest first, separated by "
                         "commas (like mcts:3,mcts:5,mcts:7)")
    if len(set(parts)) != len(parts):
        raise ValueError(f"--ladder {quoted(text)} names an agent twice: each rung is one strength")
    return [parse_agent(part) for part in parts]


def ladder_sets(sets: Sequence[tuple[str, dict[str, Any]]], rungs: Sequence[AgentSpec]
                ) -> list[tuple[str, dict[str, Any]]]:
    """Each option set at each rung, rung by rung: labelled by the rung (and the set's label
    when there are several sets)."""
    return [(rung.text if len(sets) == 1 else f"{label} @ {rung.text}", options)
            for rung in rungs for label, options in sets]


def set_agents(settings: LabSettings, set_index: int) -> tuple[str, str]:
    """Agent A's and B's specs in option set ``set_index``: its rung's on a ladder, else the run's."""
    rungs = settings.ladder
    if not rungs:
        return settings.agents[0], settings.agents[1]
    per_rung = len(settings.sets) // len(rungs)
    rung = rungs[set_index // per_rung]
    return rung, rung


# the figures ----------------------------------------------------------------------------
def _proportion(count: float, n: int) -> dict[str, Any]:
    return {"kind": "proportion", "value": round(count / n, 4) if n else None, "count": count, "n": n,
            "ci95": list(wilson(count, n))}


def _mean(spread: dict[str, Any]) -> dict[str, Any]:
    n = spread.get("n", 0)
    if not n:
        return {"kind": "mean", "value": None, "n": 0, "ci95": [None, None]}
    half = Z95 * spread["sd"] / math.sqrt(n)
    return {"kind": "mean", "value": spread["mean"], "sd": spread["sd"], "n": n,
            "ci95": [round(spread["mean"] - half, 3), round(spread["mean"] + half, 3)]}


def headline(m: dict[str, Any], free_first_move: bool) -> dict[str, dict[str, Any]]:
    """The headline figures of one option set's metrics, each a value with its 95% interval: the
    first player's score, the draw rate, the mean length; the share of each first move (when the
    first moves were free) and of each opening choice, and the chooser's wins after it."""
    o = m["outcomes"]
    n = o["games"]
    figures = {"the first player's score": _proportion(o["first_player_score"]["points"], n),
               "the draw rate": _proportion(o["draws"]["count"], n),
               "the mean length (plies)": _mean(m["lengths"]["plies"])}
    if free_first_move:
        for row in m["first_moves"]:
            figures[f"{FIRST_MOVE} {row['move']}"] = _proportion(row["games"], n)
    if m["openings"]["available"]:
        for row in m["openings"]["rows"]:
            word = row["choice"]
            figures[f"the share of opening choice {word}"] = _proportion(row["games"], n)
            if "chooser_wins" in row:
                figures[f"the chooser's wins after {word}"] = _proportion(row["chooser_wins"]["count"], row["games"])
    return figures


def difference_p(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The two-sided p-value of the difference between two values of one figure: a pooled
    two-proportion z-test, or for means Welch's test on the normal approximation."""
    if a["kind"] == "mean":
        se = math.sqrt(a["sd"] ** 2 / a["n"] + b["sd"] ** 2 / b["n"])
        z = abs(a["value"] - b["value"]) / se if se else (0.0 if a["value"] == b["value"] else math.inf)
        return math.erfc(z / math.sqrt(2))
    return z_test(a["count"], a["n"], b["count"], b["n"])[1]


def differs(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two values of a figure differ beyond their 95% intervals (disjoint, or p < 0.05)."""
    (a_low, a_high), (b_low, b_high) = a["ci95"], b["ci95"]
    return a_high < b_low or b_high < a_low or difference_p(a, b) < ALPHA


def movement(values: Sequence[dict[str, Any] | None]) -> dict[str, Any]:
    """Whether a figure's values along the ladder (None: no games at that rung) move: the pair
    of rungs that differs most clearly (smallest p), or ``moves`` False."""
    known = {i: v for i, v in enumerate(values) if v and v["n"]}
    pairs = [(difference_p(known[i], known[j]), j - i, i, j) for i, j in combinations(sorted(known), 2)
             if differs(known[i], known[j])]
    if not pairs:
        return {"moves": False}
    p, _, i, j = min(pairs, key=lambda x: (x[0], -x[1]))
    return {"moves": True, "between": [i, j], "p": p}


def summarize(rungs: Sequence[str], sets: Sequence[dict[str, Any]], free_first_move: bool) -> dict[str, Any]:
    """The ladder part of a report (``sets``: the report's, rung by rung): per option set and
    headline figure its value at each rung and whether it moves; the warnings in words."""
    per_rung = len(sets) // len(rungs)
    rows, warnings = [], []
    for j in range(per_rung):
        column = [sets[r * per_rung + j] for r in range(len(rungs))]
        label = column[0]["label"].rpartition(" @ ")[0] if per_rung > 1 else ""
        figures = [headline(s["metrics"], free_first_move) for s in column]
        for name in dict.fromkeys(n for f in figures for n in f):
            if name.startswith(FIRST_MOVE) and not _is_top_move(name, figures):
                continue
            values = [f.get(name) or _absent(name, s["metrics"]) for f, s in zip(figures, column, strict=True)]
            row = {"set": label, "figure": name, "values": values, **movement(values)}
            rows.append(row)
            if row["moves"]:
                warnings.append(warning(row, rungs))
    return {"rungs": list(rungs), "rows": rows, "warnings": warnings}


def _absent(name: str, m: dict[str, Any]) -> dict[str, Any] | None:
    """A figure a rung does not have: a share of none of its games, or no value (no chooser)."""
    return _proportion(0, m["outcomes"]["games"]) if name.startswith("the share of") else None


def _is_top_move(name: str, figures: Sequence[dict[str, dict[str, Any]]]) -> bool:
    """Whether the first move of figure ``name`` is among a rung's most chosen (``TOP_MOVES`` rungs' worth)."""
    tops = []
    for f in figures:
        shares = {n: v["value"] or 0 for n, v in f.items() if n.startswith(FIRST_MOVE)}
        if shares:
            tops.append(max(shares, key=lambda n: shares[n]))
    return name in list(dict.fromkeys(tops))[:TOP_MOVES]


def show(value: dict[str, Any] | None) -> str:
    """A figure's value with its interval: '41% [31, 52]' or '17.2 [16.4, 18.0]'."""
    if not value or value["value"] is None:
        return "–"
    low, high = value["ci95"]
    if value["kind"] == "mean":
        return f"{value['value']:.1f} [{low:.1f}, {high:.1f}]"
    return f"{100 * value['value']:.0f}% [{100 * low:.0f}, {100 * high:.0f}]"


def warning(row: dict[str, Any], rungs: Sequence[str]) -> str:
    """'The first player's score moves with strength: 41% [32, 51] at mcts:3, 68% [58, 76] at mcts:7 (p = 0.00013).'"""
    i, j = row["between"]
    where = f"With {row['set']}, t" if row["set"] else "T"
    return (f"{where}{row['figure'][1:]} moves with strength: {show(row['values'][i])} at {rungs[i]}, "
            f"{show(row['values'][j])} at {rungs[j]} ({p_text(row['p'])}).")


def p_text(p: float) -> str:
    """'p = 0.0013', or 'p < 0.0001' below that."""
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.2g}"


def settings_part(rungs: Sequence[AgentSpec]) -> dict[str, Any]:
    """What ``--ladder`` adds to a run's settings (nothing without it): the rungs; agents A and B
    are then each set's rung."""
    return {"ladder": [r.text for r in rungs], "agents": [RUNG, RUNG]} if rungs else {}


def report_part(settings: LabSettings, sets: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The report's ``ladder`` (:func:`summarize`: ``sets`` as JSON), or None without a ladder."""
    if not settings.ladder:
        return None
    free = not settings.start and settings.first_moves is None
    return summarize(settings.ladder, sets, free)
