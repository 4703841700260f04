"""The report's parts for forced openings (``--from``, ``--first-moves``: the
heat map and the table of first-move classes) and the strength ladder
(``--ladder``: its table, its plot, the summary's warnings)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import first_moves, ladder
from .page import esc, img, rate, table
from .plots import plt, png

CSS = ("<style>.warning { border-left: 4px solid #b35806; background: #fff4e5; padding: .2em 1em; max-width: 75ch; }"
       " .heat svg { width: min(100%, 480px); height: auto; }"
       " .heat polygon.heat:hover { stroke: #000; stroke-width: 2.5; }</style>")

NOTES = {
    "first_moves": "Each game's first move (after the --from moves, if any) was forced, one class at a time, "
                   "the games split evenly over the classes; the agents played the rest. The first player's "
                   "score is wins plus half the draws, with its 95% Wilson interval. A fair-swap candidate is a "
                   "first move whose interval holds 50%: under the swap rule, a first player who opens there "
                   "leaves the second player no clearly better choice. Where the package ships a solution "
                   "(docs/solving.md) the proven value stands beside the self-play figure; the agents read those "
                   "solutions too (docs/ai.md), so on solved boards self-play follows the proof.",
    "ladder": "Each option set at each strength (both seats the same agent), weakest first. A figure moves when "
              "two rungs differ beyond their 95% intervals (the intervals do not overlap, or a two-proportion "
              "test, for the mean length Welch's test, gives p < 0.05); a figure that moves describes the "
              "players as much as the game. 'holds' means no such difference was found with these games, not "
              "that there is none.",
}


def _score(row: dict[str, Any]) -> str:
    return rate(row["first_player_score"]) if row["games"] else "–"


def _against(row: dict[str, Any]) -> str:
    verdict = first_moves.against_proof(row)
    return f"<b>{verdict}</b>" if verdict == "disagrees" else verdict


def _first_moves_set(label: str, m: dict[str, Any]) -> str:
    rows = m["classes"]
    proven = any(r["proven"] for r in rows)
    head = ["first move", "same as", "games", "first player's score", "wins 1st / 2nd", "plies (mean)",
            "fair-swap candidate", *(["proven (shipped solution)", "self-play vs proof"] if proven else [])]
    body = [[f"<b>{esc(r['move'])}</b>", esc(", ".join(r["members"][1:])) or "–", r["games"], _score(r),
             f"{r['seat_wins'][0]} / {r['seat_wins'][1]}", r["mean_plies"] if r["games"] else "–",
             "<b>yes</b>" if r["fair"] else "no",
             *([esc(first_moves.proven_text(r["proven"])) if r["proven"] else "–", _against(r)]
               if proven else [])] for r in rows]
    start = f"From the position after {esc(' '.join(m['start']))}. " if m["start"] else ""
    fair = [r["move"] for r in rows if r["fair"]]
    flagged = (f"Fair-swap candidates: <b>{esc(', '.join(fair))}</b>." if fair
               else "No fair-swap candidate: every class's interval excludes 50%.")
    picture = f"<div class='heat'>{m['svg']}</div>" if m["svg"] else \
        "<p class='note'>No first move here has a cell of the board: the table only.</p>"
    return (f"<h3>{esc(label)}</h3><p class='note'>{start}{esc(first_moves.note(m))} {flagged}</p>"
            f"{picture}{table(head, body)}")


def first_moves_section(report: dict[str, Any]) -> str | None:
    """The forced first moves: per option set the heat map and the classes' table; None without them."""
    parts = [_first_moves_set(s["label"], s["metrics"]["forced_first_moves"]) for s in report["sets"]
             if "forced_first_moves" in s["metrics"]]
    return f"{CSS}<p class='note'>{NOTES['first_moves']}</p>" + "".join(parts) if parts else None


def sections(report: dict[str, Any], figs: dict[str, bytes]) -> list[tuple[str, str]]:
    """The report's sections (name, HTML) for forced first moves and the ladder, those that apply."""
    made = [("Forced first moves", first_moves_section(report)), ("Strength ladder", ladder_section(report, figs))]
    return [(name, content) for name, content in made if content is not None]


# the ladder -------------------------------------------------------------------------------
def ladder_section(report: dict[str, Any], figs: dict[str, bytes]) -> str | None:
    """The ladder's table (a row per figure, a column per rung, the verdict) and its plot."""
    lad = report.get("ladder")
    if not lad:
        return None
    several = any(r["set"] for r in lad["rows"])
    head = [*(["option set"] if several else []), "figure", *lad["rungs"], "across the ladder"]
    body = [[*([esc(r["set"])] if several else []), esc(r["figure"]),
             *[ladder.show(v) for v in r["values"]], _verdict(r, lad["rungs"])] for r in lad["rows"]]
    plot = figs.get("ladder")
    picture = img(plot, "the headline figures along the ladder")
    return f"<p class='note'>{NOTES['ladder']}</p>{table(head, body)}{picture}"


def _verdict(row: dict[str, Any], rungs: Sequence[str]) -> str:
    if not row["moves"]:
        return "holds"
    i, j = row["between"]
    return f"<b>moves</b>: {esc(rungs[i])} → {esc(rungs[j])}, {ladder.p_text(row['p'])}"


def ladder_warnings(report: dict[str, Any]) -> str:
    """The summary's plain-language warnings of the figures that move with strength ('' without a ladder)."""
    lad = report.get("ladder")
    if not lad:
        return ""
    if not lad["warnings"]:
        return (f"<p class='note'>Strength ladder ({esc(', '.join(lad['rungs']))}): every headline figure "
                f"holds (no two rungs differ beyond their 95% intervals).</p>")
    items = "".join(f"<li>{esc(w)}</li>" for w in lad["warnings"])
    return (f"{CSS}<div class='warning'><p><b>Moves with strength</b> (the ladder, below):</p><ul>{items}</ul></div>")


PANELS = (("the first player's score", "first player's score"), ("the draw rate", "draw rate"),
          ("the mean length (plies)", "mean length (plies)"), (ladder.FIRST_MOVE, "share of first moves"),
          ("the share of opening choice", "share of opening choices"), ("the chooser's wins", "chooser's wins"))


def ladder_figure(report: dict[str, Any]) -> bytes | None:
    """A panel per headline figure: its value at each rung with the 95% interval, a line per
    option set (and per move or opening choice)."""
    lad = report.get("ladder")
    if not lad:
        return None
    panels = [(title, [r for r in lad["rows"] if r["figure"].startswith(prefix)]) for prefix, title in PANELS]
    panels = [(title, rows) for title, rows in panels if rows]
    columns = min(3, len(panels))
    lines = -(-len(panels) // columns)
    fig, axes = plt.subplots(lines, columns, figsize=(4.2 * columns, 3.0 * lines), squeeze=False)
    xs = list(range(len(lad["rungs"])))
    for ax, (title, rows) in zip(axes.flat, panels, strict=False):
        for k, row in enumerate(rows):
            _line(ax, xs, row, title, k)
        ax.set_title(title, fontsize=10)
        ax.set_xticks(xs, lad["rungs"], fontsize=8)
        if not title.startswith("mean"):
            ax.set_ylim(-0.02, 1.02)
            ax.axhline(0.5, color="grey", lw=0.6, ls="--")
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    return png(fig)


def _line(ax, xs: Sequence[int], row: dict[str, Any], title: str, k: int) -> None:
    """One figure's values along the ladder with error bars (rungs without a value left out)."""
    points = [(x, v) for x, v in zip(xs, row["values"], strict=True) if v and v["value"] is not None]
    if not points:
        return
    name = row["figure"].replace(ladder.FIRST_MOVE, "").replace("the share of opening choice", "")
    name = name.replace("the chooser's wins after", "").strip() if not title.startswith(
        ("first player", "draw", "mean")) else ""
    label = " ".join(part for part in (row["set"], name) if part) or title
    values = [v["value"] for _, v in points]
    low = [v["value"] - v["ci95"][0] for _, v in points]
    high = [v["ci95"][1] - v["value"] for _, v in points]
    ax.errorbar([x + 0.04 * (k - 1) for x, _ in points], values, yerr=[low, high], marker="o", ms=4, capsize=3,
                lw=1.4, color=f"C{k}", label=label)

