"""The figures docs/analysis.md quotes, regenerated from the runs that make them.

Every number of the "Results" section of docs/analysis.md sits in a block
this script writes, between ``<!-- figures NAME: COMMAND -->`` and
``<!-- /figures NAME -->``: the command's report rendered as Markdown
(tables, the verdict's paragraph).  The prose around the blocks names no
figure of its own, so the docs cannot go stale unnoticed.  Writing also
copies the runs' plots the docs show into docs/img/ (the check compares
the numbers the plots are drawn from, not the pictures, whose pixels
depend on the fonts and the matplotlib build):

    python bench/docs_figures.py                 # play (or resume) the runs, rewrite the blocks
    python bench/docs_figures.py --check         # exit 1 naming the blocks that differ, write nothing
    python bench/docs_figures.py --only lisbon-sequence --runs /tmp/fresh

The runs live in ``--runs`` (default ``data/docs-figures/NAME``, resumed
when there: the games already there are not replayed).  A fresh directory
plays every game with the code as it is; ``tests/analysis/test_docs_figures.py``
(slow) does that and fails when the docs differ.  All runs together are
about 1,500 CPU seconds (docs/analysis.md "Results" has each one's).
"""

from __future__ import annotations

import argparse
import difflib
import io
import json
import re
import shlex
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "analysis.md"
IMAGES = ROOT / "docs" / "img"
RUNS = ROOT / "data" / "docs-figures"
Report = dict[str, Any]


@dataclass(frozen=True)
class Figure:
    """A block of the docs: ``hexarena analyze`` with ``command``, rendered by ``parts``."""

    name: str
    command: str  # the arguments after "hexarena analyze"
    parts: tuple[str, ...]  # names of PARTS, in order
    images: tuple[tuple[str, str], ...] = ()  # (a plot of the report: plot-NAME.png's NAME, the image in docs/img)


def pct(p: dict[str, Any] | None) -> str:
    """A proportion as "48.3% [42.7, 54.0]"."""
    if not p or p.get("rate") is None:
        return "–"
    lo, hi = p["ci95"]
    return f"{100 * p['rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def spread(s: dict[str, Any]) -> str:
    return f"{s['mean']:.1f} ± {s['sd']:.1f} (median {s['median']:g}, {s['min']}..{s['max']})" if s.get("n") else "–"


def share(s: dict[str, Any]) -> str:
    return f"{100 * s['median']:.0f}%" if s.get("n") else "–"


def table(report: Report, rows: Sequence[tuple[str, Callable[[dict[str, Any]], Any]]]) -> str:
    """A Markdown table: a row per (name, cell of a set's metrics), a column per option set; rows whose
    cells are all empty left out."""
    sets = report["sets"]
    body = [[name, *[str(cell(s["metrics"])) for s in sets]] for name, cell in rows]
    body = [row for row in body if any(c not in ("", "–") for c in row[1:])]
    several = len(sets) > 1
    head = [f"{report['games']} games{' each' * several}", *[f"`{s['label']}`" if several else "" for s in sets]]
    return markdown(head, body)


def markdown(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def by_set(report: Report, head: Sequence[str], rows: Sequence[tuple[dict[str, Any], Sequence[str]]]) -> str:
    """A Markdown table of (option set, cells) rows, with a column naming the set when there are several."""
    if len(report["sets"]) == 1:
        return markdown(head, [cells for _, cells in rows])
    return markdown(["option set", *head], [[f"`{s['label']}`", *cells] for s, cells in rows])


def _views(m: dict[str, Any], cell: Callable[[dict[str, Any]], Any]) -> Any:
    v = m.get("views") or {}
    return cell(v) if v.get("available") else "–"


def _decisive(m: dict[str, Any], cell: Callable[[dict[str, Any]], Any]) -> Any:
    return _views(m, lambda v: cell(v["decisive"]) if v["decisive"]["available"] else "–")


def outcomes(report: Report) -> str:
    return table(report, [
        ("first player wins", lambda m: pct(m["outcomes"]["seat_wins"][0])),
        ("draws", lambda m: pct(m["outcomes"]["draws"]) if m["outcomes"]["draws"]["count"] else ""),
        ("first player's score", lambda m: pct(m["outcomes"]["first_player_score"])),
        ("length, plies (mean ± sd)", lambda m: spread(m["lengths"]["plies"])),
        ("length, turns (mean ± sd)", lambda m: spread(m["lengths"]["turns"])),
        ("legal moves a ply (mean)", lambda m: f"{m['branching']['overall']['mean']:.1f}"),
        ("distinct games / openings (4 plies)",
         lambda m: f"{m['diversity']['distinct_games']} / {m['diversity']['distinct_openings']}"),
    ])


def decisiveness(report: Report) -> str:
    return table(report, [
        ("decided at, the winner's view (median share of the game)",
         lambda m: share(m["decisiveness"]["fraction"]) if m["decisiveness"]["available"] else "–"),
        ("decided at, both views (median share)", lambda m: _decisive(m, lambda d: share(d["fraction"]))),
        ("the loser still ≥ 50% after the winner's decided ply",
         lambda m: _decisive(m, lambda d: f"{d['loser_hopeful']} of {d['games'] - d['never']}")),
        ("lead changes a game (mean)", lambda m: _views(m, lambda v: f"{v['lead_changes']['mean']:.2f}")),
        ("drama: the winner's mean deficit", lambda m: _views(m, lambda v: f"{v['drama']['mean']:.3f}")),
        ("the plies the eventual winner was behind (share)",
         lambda m: _views(m, lambda v: f"{v['drama']['behind']:.3f}")),
        ("clarity: variance / narrowness", lambda m: _views(
            m, lambda v: f"{v['clarity']['variance']:.3f} / {v['clarity']['narrowness']:.3f}"
            if v["clarity"]["games"] else "–")),
    ])


def openings(report: Report) -> str:
    """Per option set with a protocol: each choice, how often, by which seat, and how the chooser did."""
    rows = []
    for s in report["sets"]:
        o = s["metrics"]["openings"]
        if not o["available"]:
            continue
        for r in o["rows"]:
            if r["games"]:
                chooser = pct(r.get("chooser_wins")) if "chooser_wins" in r else "–"
                by = " / ".join(map(str, r["by_seat"])) if "by_seat" in r else "–"
                ply = f"{r['mean_ply']:.1f}" if r.get("mean_ply") else "–"
                rows.append((s, [f"`{r['choice']}`", str(r["games"]), ply, by, chooser]))
    if not rows:
        return ""
    return by_set(report, ["the choice", "games", "at ply (mean)", "by seat 1 / 2", "the chooser wins"], rows)


def first_moves(report: Report, top: int = 5) -> str:
    rows = [(s, [f"`{r['move']}`", str(r["games"]), pct(r["first_player_wins"])])
            for s in report["sets"] for r in s["metrics"]["first_moves"][:top]]
    return by_set(report, ["first move", "games", "first player wins"], rows)


def endings(report: Report) -> str:
    """A row per end reason (share, wins per seat, draws, score margin) and per kind of ending."""
    rows = []
    for s in report["sets"]:
        for r in s["metrics"]["end_reasons"]:
            m = r["margin"]
            margin = f"{m['mean']:.2f} (median {m['median']:g})" if m else "–"
            rows.append((s, [f"`{r['reason']}`", pct(r["share"]),
                             f"{r['seat_wins'][0]} / {r['seat_wins'][1]} / {r['draws']}", margin]))
        for k in s["metrics"]["end_kinds"]:
            rows.append((s, [f"*{k['kind']}* ({', '.join(k['reasons'])})", pct(k["share"]),
                             f"{k['draws']} drawn ({100 * k['draw_share']['rate']:.0f}%)", ""]))
    return by_set(report, ["end", "share of the games", "first / second / draws", "score margin"], rows)


def verdict(report: Report) -> str:
    return "\n".join(f"> {line}  " for line in report["verdict"]["summary"].splitlines()).rstrip()


def opening_lines(report: Report, runs: Path, top: int = 3) -> str:
    """The most frequent openings (first 4 plies) of the run's games."""
    games = [json.loads(line) for line in (runs / "games.jsonl").read_text().splitlines()]
    games = [g for g in games if g["index"] < report["games"]]
    counts = Counter(" ".join(g["moves"][:4]) for g in games)
    return "Most frequent openings (4 plies): " + ", ".join(f"`{line}` ({n})" for line, n in counts.most_common(top))


def forced_first_moves(report: Report) -> str:
    """Per option set, a row per first-move class: its games, the first player's score, the proven value."""
    from hexarena.analysis.first_moves import against_proof, proven_text

    rows = []
    for s in report["sets"]:
        for r in s["metrics"].get("forced_first_moves", {}).get("classes", []):
            same = f" ({' '.join(r['members'][1:])})" if len(r["members"]) > 1 else ""
            proven = proven_text(r["proven"]) if r["proven"] else "–"
            rows.append((s, [f"`{r['move']}`{same}", str(r["games"]), pct(r["first_player_score"]),
                             "yes" if r["fair"] else "no", proven, against_proof(r)]))
    return by_set(report, ["first move (its class)", "games", "first player's score", "fair-swap candidate",
                           "proven", "self-play vs proof"], rows)


def ladder(report: Report) -> str:
    """A row per headline figure (per option set), a column per rung, and whether it moves."""
    from hexarena.analysis.ladder import p_text, show

    lad = report["ladder"]
    several = any(r["set"] for r in lad["rows"])
    rows = []
    for r in lad["rows"]:
        moves = (f"**moves**: {lad['rungs'][r['between'][0]]} → {lad['rungs'][r['between'][1]]}, {p_text(r['p'])}"
                 if r["moves"] else "holds")
        rows.append([*([f"`{r['set']}`"] if several else []), r["figure"], *map(show, r["values"]), moves])
    return markdown([*(["option set"] if several else []), "figure", *lad["rungs"], "across the ladder"], rows)


PARTS: dict[str, Callable[..., str]] = {"outcomes": outcomes, "decisiveness": decisiveness, "openings": openings,
                                        "first_moves": first_moves, "endings": endings, "verdict": verdict,
                                        "opening_lines": opening_lines, "forced_first_moves": forced_first_moves,
                                        "ladder": ladder}
FIGURES = (
    Figure("ph3-first-moves",
           "projective-hex -o size=3 -o opening=none --first-moves all --games 60 --agents mcts:6",
           ("forced_first_moves",)),
    Figure("ph3-first-moves-engine",
           "projective-hex -o size=3 -o opening=none --first-moves all --games 600 "
           "--agents mcts:enhanced:sims=1000:solutions=off", ("forced_first_moves",)),
    Figure("ph2-first-moves", "projective-hex -o size=2 -o opening=none --first-moves all --games 60",
           ("forced_first_moves",)),
    Figure("ph2-first-moves-engine",
           "projective-hex -o size=2 -o opening=none --first-moves all --games 60 "
           "--agents mcts:enhanced:sims=1000:solutions=off", ("forced_first_moves",)),
    Figure("weituweiqi-ladder", "weituweiqi --ladder mcts:3,mcts:6,mcts:8 --games 60",
           ("verdict", "ladder", "endings", "openings")),
    Figure("ph3-openings", "projective-hex -o size=3 --compare opening=none,swap,cut-and-choose --games 200",
           ("verdict", "outcomes", "openings", "first_moves", "decisiveness"),
           (("outcomes", "analysis-ph-openings-outcomes.png"), ("openings", "analysis-ph-openings-choices.png"),
            ("views", "analysis-ph-openings-views.png"))),
    Figure("ph3-openings-mcts8",
           "projective-hex -o size=3 --compare opening=none,swap,cut-and-choose --games 100 --agents mcts:8",
           ("verdict", "outcomes", "openings", "first_moves", "decisiveness")),
    Figure("lisbon-sequence", "lisbon --compare 'sequence=progressive,12*' --games 300",
           ("verdict", "outcomes", "endings", "decisiveness"),
           (("outcomes", "analysis-lisbon-outcomes.png"), ("lengths", "analysis-lisbon-lengths.png"),
            ("branching", "analysis-lisbon-branching.png"), ("views", "analysis-lisbon-views.png"))),
    Figure("palago-anywhere", "palago --compare anywhere=false,true --games 300",
           ("verdict", "outcomes", "endings", "decisiveness"),
           (("outcomes", "analysis-palago-outcomes.png"), ("branching", "analysis-palago-branching.png"))),
    Figure("palago-must-contain", "palago -o variant=must-contain --games 200",
           ("verdict", "outcomes", "endings", "decisiveness")),
    Figure("lhexus-6", "lhexus -o size=6 --games 200", ("verdict", "outcomes", "endings", "openings", "decisiveness")),
    Figure("weituweiqi", "weituweiqi --games 200",
           ("verdict", "outcomes", "endings", "openings", "opening_lines", "decisiveness")),
)


def run(figure: Figure, runs: Path, workers: int | None) -> Report:
    """Play (or resume) the figure's run in ``runs/NAME``; its report."""
    from hexarena.cli import main

    where = runs / figure.name
    argv = ["analyze", *shlex.split(figure.command), "--out", str(where)]
    if workers:
        argv += ["--workers", str(workers)]
    printed = io.StringIO()
    if main(argv, printed) != 0:
        raise SystemExit(f"hexarena analyze {figure.command} failed: {printed.getvalue()}")
    return json.loads((where / "report.json").read_text())


def block(figure: Figure, report: Report, runs: Path) -> str:
    """The figure's block, markers included."""
    parts = [PARTS[p](report, runs / figure.name) if p == "opening_lines" else PARTS[p](report) for p in figure.parts]
    body = "\n\n".join(p for p in parts if p)
    return (f"<!-- figures {figure.name}: hexarena analyze {figure.command} -->\n{body}\n"
            f"<!-- /figures {figure.name} -->")


def marked(name: str) -> re.Pattern[str]:
    return re.compile(rf"<!-- figures {re.escape(name)}: .*?<!-- /figures {re.escape(name)} -->", re.S)


def stale_blocks(runs: Path = RUNS, only: Sequence[str] = (), workers: int | None = None,
                 doc: Path = DOC) -> dict[str, tuple[str, str]]:
    """Each figure's block as the docs have it and as the runs give it, for those that differ."""
    text = doc.read_text()
    stale = {}
    for figure in FIGURES:
        if only and figure.name not in only:
            continue
        found = marked(figure.name).search(text)
        new = block(figure, run(figure, runs, workers), runs)
        old = found.group(0) if found else ""
        if old != new:
            stale[figure.name] = (old, new)
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a block differs")
    ap.add_argument("--runs", type=Path, default=RUNS, help="where the runs live (a fresh directory replays all)")
    ap.add_argument("--only", action="append", default=[], choices=[f.name for f in FIGURES], help="these figures")
    ap.add_argument("--workers", type=int, default=None, help="processes per run (default: the CPU count)")
    args = ap.parse_args(argv)
    stale = stale_blocks(args.runs, args.only, args.workers)
    for name, (old, new) in stale.items():
        print(f"{name}: {'differs' if old else 'missing from the docs'}", file=sys.stderr)
        sys.stderr.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True), "docs", "runs"))
    if args.check:
        return 1 if stale else 0
    missing = [name for name, (old, _) in stale.items() if not old]
    if missing:
        raise SystemExit(f"put the markers of {', '.join(missing)} in {DOC} first")
    text = DOC.read_text()
    for old, new in stale.values():
        text = text.replace(old, new)
    DOC.write_text(text)
    print(f"rewrote {len(stale)} block(s) of {DOC}", file=sys.stderr)
    copy_images(args.runs, args.only)
    return 0


def copy_images(runs: Path, only: Sequence[str] = ()) -> None:
    """The runs' plots that the docs show, into docs/img."""
    for figure in FIGURES:
        if not only or figure.name in only:
            for plot, image in figure.images:
                (IMAGES / image).write_bytes((runs / figure.name / f"plot-{plot}.png").read_bytes())


if __name__ == "__main__":
    sys.exit(main())
