"""The report of a run: every number as JSON (``report.json``), a
self-contained HTML page (``report.html``: tables, PNG plots embedded in
base64, the representative game's SVG inline; no network) and the plots
as PNG files (``plot-NAME.png``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import hexarena

from . import drama, endings, ladder, metrics, openings, plots, report_extras, verdict
from .balance import BalanceReport, LabSettings, Proportion, RunInfo, Score, SetMetrics, SetReport, Spread
from .page import cli_options, cli_value, esc as _esc, img as _img, position_svg, rate as _rate, table as _table
from .provenance import provenance_text
from .selfplay import GameResult

JSON_NAME, HTML_NAME = "report.json", "report.html"


def set_metrics(game: str, options: dict[str, Any], results: Sequence[GameResult],
                searching: tuple[bool, bool], agents: Sequence[str]) -> SetMetrics:
    """Every metric of one option set's games (``results`` sorted by index)."""
    loaded = hexarena.load(game, **options)
    words = loaded.opening_words()
    ends = endings.end_reasons(results, loaded.END_KINDS)
    return SetMetrics(metrics.outcomes(results), ends, endings.end_kinds(ends), drama.views(results, searching),
                      metrics.lengths(results), metrics.branching(results), metrics.decisiveness(results, searching),
                      openings.choices(words, results), metrics.first_moves(results), metrics.diversity(results),
                      representative(game, options, results, agents))


def representative(game: str, options: dict[str, Any], results: Sequence[GameResult],
                   agents: Sequence[str]) -> dict[str, Any] | None:
    """The game of median length as a record (without timestamps), its text form and final position."""
    index = metrics.representative_index(results)
    if index is None:
        return None
    r = next(r for r in results if r["index"] == index)
    state = hexarena.load(game, **options).new_state()
    for move in r["moves"]:
        state.play(move)
    record = state.record()
    record.pop("timestamps", None)
    record["players"] = [agents[0] if r["a_seat"] == seat else agents[1] for seat in (0, 1)]
    return {"index": index, "plies": len(r["moves"]), "winner": r["winner"], "record": record,
            "text": state.record_text(), "svg": state.svg()}


def build(settings: LabSettings, games: int, reproducible: bool, per_set: Sequence[SetMetrics],
          run: RunInfo) -> BalanceReport:
    """The report: the run's settings, each option set's metrics, the verdict and the ladder's figures (read
    from the sets' JSON), and how the run went."""
    sets = [SetReport(label, options, m) for label, options, m in zip(settings.labels, settings.sets, per_set,
                                                                       strict=True)]
    plain = [s.as_json() for s in sets]
    return BalanceReport(title(settings), settings.game, settings.agents, settings.seed, games, reproducible, sets,
                         verdict.of(plain, rungs=len(settings.ladder or [None])), run,
                         ladder.report_part(settings, plain))


def title(settings: LabSettings) -> str:
    """The game, the options the sets share (when several), the sets and the agents."""
    sets, options = " vs ".join(settings.labels), settings.sets
    shared = [f"{k}={cli_value(v)}" for k, v in options[0].items() if all(o.get(k) == v for o in options)]
    game = f"{settings.game} ({' '.join(shared)})" if len(options) > 1 and shared else settings.game
    return f"{game}: {sets} ({settings.agents[0]} vs {settings.agents[1]})"


def write(report: BalanceReport, directory: str | Path) -> tuple[Path, Path]:
    """Write report.json, report.html and the plots into ``directory``; the first two's paths."""
    directory = Path(directory)
    j, h = directory / JSON_NAME, directory / HTML_NAME
    plain = report.as_json()
    j.write_text(json.dumps(plain, indent=1) + "\n")
    figs = figures(report, plain)
    for name, png in figs.items():
        (directory / f"plot-{name}.png").write_bytes(png)
    h.write_text(render_html(report, figs, plain))
    return j, h


def figures(report: BalanceReport, plain: dict[str, Any] | None = None) -> dict[str, bytes]:
    """The report's plots as PNG bytes by name (those that apply); ``plain``: its JSON, if made already."""
    sets = [(s.label, s.metrics) for s in report.sets]
    made = {"outcomes": plots.outcomes(sets), "lengths": plots.lengths(sets), "branching": plots.branching(sets),
            "decisiveness": plots.decisiveness(sets), "openings": plots.openings(sets), "views": plots.views(sets),
            "ladder": report_extras.ladder_figure(plain or report.as_json())}
    return {name: png for name, png in made.items() if png is not None}


# HTML ------------------------------------------------------------------------------
CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { margin-top: 1.8em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .6em 0; } td, th { border: 1px solid #ccc; padding: .25em .6em; }
th { background: #f3f3f3; text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
p.note { color: #555; font-size: .92em; max-width: 75ch; } img { max-width: 100%; }
.game { display: flex; gap: 2em; flex-wrap: wrap; align-items: flex-start; }
.game svg { max-width: 420px; height: auto; }
pre { white-space: pre-wrap; background: #f7f7f7; padding: .6em; max-width: 60ch; }
p.verdict { font-size: 1.05em; line-height: 1.5; max-width: 90ch; background: #f5f8fc; padding: .6em .8em;
  border-left: 4px solid #4a78b0; }
td.n { white-space: nowrap; } td.n svg { width: 170px; height: auto; vertical-align: middle; }
"""

NOTES = {
    "diversity": "Distinct games and openings: deterministic agents at a fixed budget may replay the same "
                 "game; when few games are distinct, the intervals overstate what is known (the games are not "
                 "independent). Vary the agents (another level or variant) or the seed to get more.",
    "outcomes": "Wins by seat: the first player is the one who moves first (in openings with a swap or a colour "
                "choice, the player who opens). Intervals are 95% Wilson score intervals; a balanced game has "
                "the first player's score (wins + half the draws) near 50%.",
    "lengths": "Game length in plies (single moves, including protocol moves such as 'swap' and 'end') "
               "and in turns (a player's run of moves).",
    "branching": "Mean number of legal moves before each ply, over the games still going at that ply.",
    "decisiveness": "For each game won by a searching agent: the ply from which the winner's own search value "
                    "(its estimated win rate at each of its moves) stays above 90% to the end, as a share of the "
                    "game. Small shares: games decided early; near 1: decided at the end.",
    "openings": "The first opening-protocol move of each game (swap, colour choice, accept/decline, block), "
                "who made it and how the chooser did. '(none)': no such move (no swap, an auction ended "
                "without a block).",
}


def _summary(report: BalanceReport) -> str:
    sets = report.sets
    head = ["", *[s.label for s in sets]]

    def row(name: str, cell: Callable[[SetMetrics], Any]) -> list[Any]:
        return [name, *[cell(s.metrics) for s in sets]]

    agent_a, agent_b = report.agents
    rows = [
        row("games", lambda m: m.outcomes.games),
        row("first player wins", lambda m: _share(m.outcomes.seat_wins[0])),
        row("second player wins", lambda m: _share(m.outcomes.seat_wins[1])),
        row("draws", lambda m: _share(m.outcomes.draws)),
        row("first player's score", lambda m: _share(m.outcomes.first_player_score)),
        row(f"A ({agent_a}) wins", lambda m: _share(m.outcomes.agent_wins[0])),
        row(f"B ({agent_b}) wins", lambda m: _share(m.outcomes.agent_wins[1])),
        row("length, plies: mean ± sd", lambda m: _spread(m.lengths.plies)),
        row("length, plies: min / median / max", lambda m: _range(m.lengths.plies)),
        row("length, turns: mean ± sd", lambda m: _spread(m.lengths.turns)),
        row("legal moves a ply: mean", lambda m: m.branching["overall"].get("mean", "–")),
        row("legal moves at the first ply", lambda m: (m.branching["mean_by_ply"] or ["–"])[0]),
        row("decided at, the winner's view (share of game): median",
            lambda m: _decided(m.decisiveness.available, m.decisiveness.fraction, "median")),
        row("decided at, the winner's view (share of game): mean",
            lambda m: _decided(m.decisiveness.available, m.decisiveness.fraction, "mean")),
        row("decided at, both views (share of game): median", _both_views),
        row("winner's value never stays > 90%", lambda m: m.decisiveness.never if m.decisiveness.available else "–"),
        row("distinct games", lambda m: _few(m.diversity["distinct_games"], m.diversity["games"])),
        row("distinct openings (first 4 plies)",
            lambda m: _few(m.diversity["distinct_openings"], m.diversity["games"])),
    ]
    return _table(head, rows)


def _share(p: Proportion | Score) -> str:
    return _rate(p.as_json())


def _few(distinct: int, games: int) -> str:
    """A count of distinct games or openings, flagged when the agents repeat themselves."""
    return f"<b>{distinct} (repeated play!)</b>" if distinct * 4 < games else str(distinct)


def _spread(s: Spread) -> str:
    return f"{s.mean} ± {s.sd}" if s.n else "–"


def _range(s: Spread) -> str:
    return f"{s.min} / {s.median} / {s.max}" if s.n else "–"


def _decided(available: bool, fraction: Spread, key: str) -> str:
    if not available:
        return "n/a (random agents)"
    return f"{100 * getattr(fraction, key):.0f}%" if fraction.n else "–"


def _both_views(m: SetMetrics) -> str:
    """When both players' views agree the game is decided (:mod:`.drama`), as a share of the game."""
    if not m.views["available"]:
        return "–"
    decisive = m.views["decisive"]
    fraction = Spread(**decisive["fraction"]) if decisive["available"] else Spread(0)
    return _decided(decisive["available"], fraction, "median")


def _openings(report: BalanceReport) -> str:
    parts = []
    for s in report.sets:
        o = s.metrics.openings
        if not o["available"]:
            continue
        rows = [[_esc(r["choice"]), r["games"], _rate(r["share"]), r.get("mean_ply") or "–",
                 " / ".join(map(str, r["by_seat"])) if "by_seat" in r else "–", _rate(r.get("chooser_wins")),
                 _rate(r["seat_wins"][0])] for r in o["rows"]]
        parts.append(f"<h3>{_esc(s.label)}</h3>" + _table(
            ["choice", "games", "share", "mean ply", "by seat 1 / 2", "chooser wins", "first player wins"], rows))
    return "".join(parts)


def _first_moves(report: BalanceReport) -> str:
    drawn = hexarena.game_class(report.game).DRAW_MOVES  # the move's text says little: draw the position
    parts = []
    for s in report.sets:
        rows = [[_esc(r["move"]), *([position_svg(report.game, s.options, [r["move"]])] if drawn else []),
                 r["games"], f"{100 * r['share']:.1f}%", _rate(r["first_player_wins"])]
                for r in s.metrics.first_moves]
        head = ["first move", *(["after it"] if drawn else []), "games", "share", "first player wins"]
        parts.append(f"<h3>{_esc(s.label)}</h3>" + _table(head, rows) if rows else "")
    return "".join(parts)


def _games(report: BalanceReport) -> str:
    parts = []
    for s in report.sets:
        g = s.metrics.representative
        if g is None:
            continue
        winner = "draw" if g["winner"] is None else f"player {g['winner'] + 1} wins"
        players = " vs ".join(g["record"]["players"])
        parts.append(f"<h3>{_esc(s.label)}: game {g['index']}, {g['plies']} plies, {winner}</h3>"
                     f"<div class='game'><div>{g['svg']}</div><div><p>{_esc(players)}</p>"
                     f"<pre>{_esc(g['text'])}</pre><details><summary>JSON record</summary>"
                     f"<pre>{_esc(json.dumps(g['record']))}</pre></details></div></div>")
    return "".join(parts)


def _settings(report: BalanceReport) -> str:
    run = report.run
    rows: list[list[Any]] = [["game", _esc(report.game)],
            ["option sets", "<br>".join(f"{_esc(s.label)}: <code>{_esc(cli_options(s.options))}</code>"
                                        for s in report.sets)],
            ["agents (A, B)", _esc(", ".join(report.agents)) + " — colours alternate: A moves first in even games"],
            ["games per set", report.games], ["seed", report.seed],
            ["reproducible", "yes (same seed, same numbers)" if report.reproducible
             else "no: a time-budget agent's moves depend on the machine's speed"],
            ["this run", _esc(f"{run.played} games played in {run.seconds} s, backend {run.backend}, "
                              f"{run.workers} workers; all the report's games took {run.game_cpu_seconds} "
                              f"CPU seconds")],
            ["command", f"<code>{_esc(run.command)}</code>"],
            ["made by", _esc(provenance_text(run.provenance))],
            ["games played by", "<br>".join(f"{g['games']} games: {_esc(provenance_text(g['provenance']))}"
                                            for g in run.games_provenance)]]
    return "<table>" + "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows) + "</table>"


def _noted(name: str, content: str) -> str:
    """``content`` after its section's note; nothing when there is no content (no empty sections)."""
    return f"<p class='note'>{NOTES[name]}</p>{content}" if content else ""


def render_html(report: BalanceReport, figs: dict[str, bytes] | None = None,
                plain: dict[str, Any] | None = None) -> str:
    """The report as one self-contained HTML page (``figs``: its plots, made if not given; ``plain``: its JSON,
    which the sections of other modules read, made if not given)."""
    plain = report.as_json() if plain is None else plain
    figs = figures(report, plain) if figs is None else figs
    sections = [
        ("Summary", verdict.summary_html(plain) + report_extras.ladder_warnings(plain) + _summary(report)
         + f"<p class='note'>{NOTES['diversity']}</p>"),
        ("Verdict", verdict.html(plain)),
        ("Outcomes", f"<p class='note'>{NOTES['outcomes']}</p>" + _img(figs.get("outcomes"), "outcomes")),
        ("How games end", endings.html(plain)),
        ("Game length", f"<p class='note'>{NOTES['lengths']}</p>" + _img(figs.get("lengths"), "lengths")),
        ("Branching factor", f"<p class='note'>{NOTES['branching']}</p>" + _img(figs.get("branching"), "branching")),
        ("Decisiveness", _noted("decisiveness", _img(figs.get("decisiveness"), "decisiveness"))),
        ("Both players' views", drama.html(plain, _img(figs.get("views"), "both players' values"))),
        ("Opening choices", _noted("openings", _img(figs.get("openings"), "openings") + _openings(report))),
        ("First moves", _first_moves(report)),
        *report_extras.sections(plain, figs),
        ("Representative games (median length)", _games(report)),
        ("Settings", _settings(report)),
    ]
    body = "".join(f"<h2>{_esc(name)}</h2>{content}" for name, content in sections if content)
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{_esc(report.title)}</title>"
            f"<style>{CSS}</style></head><body><main><h1>{_esc(report.title)}</h1>{body}</main></body></html>\n")
