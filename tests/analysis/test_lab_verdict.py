"""The lab's verdict, endings, both players' views and provenance (issue 33,
part B): end reasons counted, the statistics against textbook values, drama,
lead changes and clarity on hand-made values, provenance recorded, no empty
report section, integer ticks, the command line's spellings."""

from __future__ import annotations

import json
import math
import re
from types import SimpleNamespace

import pytest

import hexarena
from hexarena.search import solutions
from hexarena.ai.agents import parse_agent
from hexarena.analysis import drama, endings, lab, plots, proportions, report, verdict
from hexarena.analysis.balance import Histogram, Lengths, Spread
from hexarena.analysis.provenance import games_provenance, provenance
from hexarena.analysis.selfplay import GameTask, play_task
from tests.games.test_game_hooks import REASONS  # every game's end reasons


def game(winner, values, movers, reason="loop", scores=None, clarity=None, index=0):
    return {"index": index, "a_seat": index % 2, "moves": [f"m{i}" for i in range(len(values))], "movers": movers,
            "values": values, "winner": winner, "reason": reason, "scores": scores,
            "legal": [5] * len(values), **({"clarity": clarity} if clarity is not None else {})}


# how games ended ------------------------------------------------------------------
def test_end_reasons_counted_with_margins_and_kinds():
    kinds = hexarena.game_class("lhexus").END_KINDS
    results = [game(0, [None], [0], "configurations", [4.0, 1.0]), game(1, [None], [0], "configurations", [2.0, 3.0]),
               game(1, [None], [0], "stones-tiebreak", [2.0, 2.0]), game(None, [None], [0], "tie", [1.0, 1.0]),
               {**game(0, [None], [0], scores=None), "reason": None}]
    rows = {r["reason"]: r for r in endings.end_reasons(results, kinds)}
    assert rows["configurations"]["games"] == 2 and rows["configurations"]["seat_wins"] == [1, 1]
    assert rows["configurations"]["margin"]["mean"] == 2.0 and rows["configurations"]["kind"] is None
    assert rows["tie"]["draws"] == 1 and rows["unrecorded"]["margin"] is None
    assert rows["stones-tiebreak"]["share"]["rate"] == 0.2
    [tiebreak] = endings.end_kinds(list(rows.values()))
    assert (tiebreak["kind"], tiebreak["games"], tiebreak["draws"]) == ("tie-break", 2, 1)
    assert tiebreak["share"]["rate"] == 0.4 and tiebreak["draw_share"]["rate"] == 0.5


def test_the_pool_running_out_in_played_games():
    """Palago with 8 tiles and exhausted=draw: random games empty the pool, drawn."""
    options = {"tiles": 8, "exhausted": "draw"}
    results = [play_task(GameTask(0, i, "palago", options, ("random", "random"), (i, i + 50))) for i in range(8)]
    rows = endings.end_reasons(results, hexarena.game_class("palago").END_KINDS)
    assert sum(r["games"] for r in rows) == 8 and {r["reason"] for r in rows} <= {"closed-group", "pool-exhausted"}
    exhausted = [k for k in endings.end_kinds(rows) if k["kind"] == "exhaustion"]
    pool = sum(r["games"] for r in rows if r["reason"] == "pool-exhausted")
    assert pool and exhausted[0]["games"] == exhausted[0]["draws"] == pool
    assert all(r["margin"] is not None for r in rows)  # Palago scores: its largest groups' bridges


def test_end_kinds_name_real_reasons():
    for name in hexarena.GAMES:
        kinds = hexarena.game_class(name).END_KINDS
        assert set(kinds) <= REASONS[name] and set(kinds.values()) <= set(endings.KIND_NAMES)
    assert hexarena.game_class("lhexus").END_KINDS["stones-tiebreak"] == "tie-break"


# the statistics ----------------------------------------------------------------------
@pytest.mark.parametrize("counts, interval", [
    # Newcombe (1998), Table II, method 10 (the hybrid score interval)
    ((56, 70, 48, 80), (0.0524, 0.3339)), ((9, 10, 3, 10), (0.1705, 0.8090)), ((6, 7, 2, 7), (0.0582, 0.8062)),
    ((5, 56, 0, 29), (-0.0381, 0.1926)), ((0, 10, 0, 20), (-0.1611, 0.2775)),
])
def test_newcombe_interval_against_the_paper(counts, interval):
    _, low, high = proportions.difference_interval(*counts)
    assert (round(low, 4), round(high, 4)) == interval


def test_z_test_by_hand():
    # 56/70 against 48/80: pooled 104/150; se = sqrt(0.69333 * 0.30667 * (1/70 + 1/80)) = 0.075467; z = 0.2 / se
    z, p = proportions.z_test(56, 70, 48, 80)
    assert round(z, 3) == 2.650 and round(p, 4) == 0.0080  # 2 * (1 - Phi(2.650))
    assert proportions.z_test(0, 10, 0, 10) == (0.0, 1.0)


def test_fisher_exact_tea_tasting_and_scipy():
    assert proportions.fisher_exact(3, 4, 1, 4) == pytest.approx(34 / 70)  # Fisher's lady: 3 of 4 cups right
    assert proportions.fisher_exact(4, 4, 0, 4) == pytest.approx(2 / 70)
    stats = pytest.importorskip("scipy.stats")
    for a, n1, c, n2 in [(1, 9, 11, 14), (7, 12, 2, 10), (0, 5, 5, 5), (3, 20, 3, 20)]:
        expected = stats.fisher_exact([[a, n1 - a], [c, n2 - c]]).pvalue
        assert proportions.fisher_exact(a, n1, c, n2) == pytest.approx(expected, rel=1e-9)


def test_games_needed_formula():
    # 1.959964^2 * (0.46 * 0.54 + 0.52 * 0.48) / 0.03^2 = 3.841459 * 0.498 / 0.0009 = 2125.6
    assert proportions.games_needed(0.46, 0.52) == 2126
    assert proportions.games_needed(0.5) == 1068  # 3.841459 * 0.25 / 0.0009 = 1067.07
    assert proportions.planning_rate(0, 12) == 1 / 14 and proportions.planning_rate(3, 12) == 0.25


def test_compare_proportions_picks_its_test():
    big = proportions.compare_proportions(46, 100, 52, 100)
    assert (big["test"], big["difference"], big["ci95"], big["z"]) == ("z", 0.06, [-0.0773, 0.1942], 0.849)
    assert not big["significant"] and big["games_needed"] == 2126
    small = proportions.compare_proportions(1, 4, 3, 4)
    assert small["test"] == "fisher" and small["z"] is None and small["p"] == round(34 / 70, 4)
    halves = proportions.compare_proportions(1.5, 4, 3, 4)  # a draw's half point: no exact test
    assert halves["test"] == "z"


def test_verdict_paragraph():
    sets = [{"label": f"opening={name}", "metrics": {"outcomes": verdict._outcomes(wins, 0, 200)}}
            for name, wins in (("none", 172), ("swap", 28), ("cut-and-choose", 69))]
    v = verdict.of(sets)
    assert [s["favours"] for s in v["sets"]] == ["first", "second", "second"] and len(v["pairs"]) == 3
    text = v["summary"]
    assert "opening=swap: the first player scores 14.0% [9.9, 19.5] over 200 games: the second player" in text
    assert "Closest to balance: opening=cut-and-choose (34.5%)." in text
    assert "opening=swap against opening=none: 14.0% vs 86.0%, a difference of -72.0 points" in text
    alone = verdict.of(sets[:1])["summary"]
    assert alone.startswith("The first player scores 86.0%") and "games would measure it to ±3 points" in alone


# both players' views ------------------------------------------------------------------
def test_standing_lead_changes_and_drama_by_hand():
    values = [0.6, 0.7, 0.3, 0.8, 0.2, 0.9]
    movers = [0, 1, 0, 1, 0, 1]
    c = drama.standing(values, movers)
    # the mean of seat 0's latest view and 1 - seat 1's latest
    assert c == [0.6, 0.45, 0.3, 0.25, 0.2, 0.15]
    assert drama.lead_changes(c) == 1  # first leads at ply 1, second from ply 2 on
    assert drama.lead_changes([0.6, 0.5, 0.4, None, 0.7]) == 3  # first, none, second, first
    assert drama.deficits(c, winner=1) == [pytest.approx(0.2), 0, 0, 0, 0, 0]
    assert drama.deficits([0.5, 0.4], winner=0) == [0.0, pytest.approx(0.2)]
    assert drama.standing([None, 0.4], [0, 1]) == [None, 0.6]  # one agent searches: its view alone


def test_views_of_a_set():
    won = game(1, [0.6, 0.7, 0.3, 0.8, 0.2, 0.9], [0, 1, 0, 1, 0, 1], clarity=[[0.01, 0.1], None, [0.03, 0.3]] * 2)
    hopeful = game(0, [0.6, 0.4, 0.95, 0.55, 0.97, 0.6], [0, 1, 0, 1, 0, 1], index=1)
    v = drama.views([won, hopeful], (True, True))
    assert v["games"] == 2 and v["lead_changes"]["mean"] == 0.5
    assert v["lead_change_rate"] == round((1 / 6 + 0 / 6) / 2, 4)
    assert v["drama"]["games"] == 2 and v["drama"]["behind"] == round((1 / 6 + 0) / 2, 4)
    assert v["drama"]["max"] == pytest.approx(0.1)  # (0.2 + 0) / 2
    assert v["clarity"] == {"games": 1, "variance": 0.02, "narrowness": 0.2}
    d = v["decisive"]
    # hopeful: the winner's values exceed 90% from ply 2 (0-based) on, the loser is still >= 50% at ply 5
    assert drama.decided_both(hopeful["values"], hopeful["movers"], 0) == (2, 6)
    forced_first = [None, None, *hopeful["values"][2:]]  # a forced first move has no value
    assert drama.decided_both(forced_first, hopeful["movers"], 0) == (2, 6)
    assert (d["games"], d["never"], d["loser_hopeful"]) == (2, 1, 1)
    assert not drama.views([won], (False, False))["available"]
    assert not drama.views([won], (True, False))["decisive"]["available"]


def test_clarity_of_a_search():
    assert drama.clarity_of([0.5]) == [0.0, 0.0] and drama.clarity_of([]) == [0.0, 0.0]
    assert drama.clarity_of([0.1, 0.1, 0.1, 0.9]) == [0.16, 0.25]  # mean 0.3, threshold 0.75: one of four
    agent = parse_agent("mcts:uct:sims=60").make(3)
    state = hexarena.load("projective-hex", size=4).new_state()
    agent.hint(state)
    rates = agent.root_rates(state)
    assert rates and all(0 <= r <= 1 for r in rates) and len(rates) <= len(state.legal_moves())
    state.play(state.legal_moves()[0])
    assert agent.root_rates(state) is None  # its last search was not of this position


def test_each_game_forgets_the_proofs_searched_before():
    """Below the shipped proof of Projective Hex size 3 a bounded search proves moves and remembers them; a
    self-play game starts from what is shipped alone, so its moves do not depend on the games its process
    played before."""
    state = hexarena.load("projective-hex", size=3, opening="none").new_state()
    for move in "A # J O K V I N".split():
        state.play(move)
    assert solutions.stored_value(state) is None  # below the shipped positions
    proven = solutions.perfect_move(state)
    assert proven is not None and proven.result == 1 and solutions.stored_value(state) == (1, -1)  # remembered
    play_task(GameTask(0, 0, "projective-hex", {"size": 2}, ("random", "random"), (1, 2)))
    assert solutions.stored_value(state) is None


# provenance, old files, the report ---------------------------------------------------
def test_provenance_of_games_and_reports(tmp_path):
    p = provenance()
    assert p["version"] == hexarena.__version__ and set(p) == {"version", "commit", "dirty"}
    assert p["commit"] is None or re.fullmatch(r"[0-9a-f]{40}", p["commit"])
    out = lab.analyze("projective-hex", {"size": "4"}, [], 2, lab.parse_agents("mcts:uct:sims=20,random"), 1,
                      tmp_path, workers=1)
    rows = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert all(r["provenance"] == p for r in rows) and all(len(r["clarity"]) == len(r["moves"]) for r in rows)
    assert out.run.provenance == p and out.run.games_provenance == [{"provenance": p, "games": 2}]
    page = (tmp_path / "report.html").read_text()
    assert "made by" in page and hexarena.__version__ in page
    assert games_provenance([{}, {"provenance": p}, {}]) == [{"provenance": None, "games": 2},
                                                             {"provenance": p, "games": 1}]


def sections(page: str) -> list[tuple[str, str]]:
    """(heading, content) of each of the page's sections."""
    parts = re.split(r"<h2>(.*?)</h2>", page.split("</h1>", 1)[1])
    return list(zip(parts[1::2], parts[2::2], strict=True))


def test_no_empty_section(tmp_path):
    """Random agents on a game without an opening protocol: no decisiveness, no views, no opening choices."""
    out = lab.analyze("projective-hex", {"size": "2", "opening": "none"}, [], 4, lab.parse_agents("random"), 1,
                      tmp_path, workers=1)
    names = [name for name, _ in sections(report.render_html(out))]
    assert names[:3] == ["Summary", "Verdict", "Outcomes"]
    assert not {"Decisiveness", "Both players&#x27; views", "Opening choices"} & set(names)
    assert all(re.sub(r"<[^>]+>|\s", "", content) for _, content in sections(report.render_html(out)))


def test_old_games_make_a_report(tmp_path):
    results = [play_task(GameTask(0, i, "projective-hex", {"size": 4, "opening": "none"},
                                  ("mcts:uct:sims=10", "mcts:uct:sims=10"), (i, 9))) for i in range(2)]
    old = [{k: v for k, v in r.items() if k not in ("clarity", "provenance", "reason")} for r in results]
    m = report.set_metrics("projective-hex", {"size": 4, "opening": "none"}, old, (True, True), ["a", "b"])
    assert m.views["clarity"]["games"] == 0 and m.views["available"]
    assert [r["reason"] for r in m.end_reasons] == ["unrecorded"]
    assert games_provenance(old) == [{"provenance": None, "games": 2}]


def test_cli_spellings_and_palago_moves_drawn(tmp_path):
    sets = lab.option_sets("palago", {"tiles": "6"}, ["anywhere=false,true"])
    assert [label for label, _ in sets] == ["anywhere=false", "anywhere=true"]
    out = lab.analyze("palago", {"tiles": "6"}, ["anywhere=false,true"], 2, lab.parse_agents("random"), 1, tmp_path,
                      workers=1)
    page = (tmp_path / "report.html").read_text()
    outside_records = re.sub(r"<pre>.*?</pre>", "", page)  # a record's text header is the record format's own
    assert "-o anywhere=true" in page and "True" not in outside_records and "False" not in outside_records
    first_moves = dict(sections(page))["First moves"]
    assert first_moves.count("<svg") == sum(len(s.metrics.first_moves) for s in out.sets) > 0
    # a run directory written with the old spelling of the labels still resumes
    settings = json.loads((tmp_path / "run.json").read_text())
    (tmp_path / "run.json").write_text(json.dumps({**settings, "labels": ["anywhere=False", "anywhere=True"]}))
    assert lab.analyze("palago", {"tiles": "6"}, ["anywhere=false,true"], 2, lab.parse_agents("random"), 1,
                       tmp_path, workers=1).run.played == 0


def test_integer_ticks(monkeypatch):
    monkeypatch.setattr(plots, "png", lambda fig: fig)  # keep the figure to read its axes
    plies = Spread(4, mean=5.5)
    m = SimpleNamespace(lengths=Lengths(plies, Histogram(5, 1, [3, 1]), plies, Histogram(5, 1, [3, 1])),
                        branching={"mean_by_ply": [4.0, 3.5, 3.0], "games_by_ply": [4, 4, 1]})
    lengths, branching = plots.lengths([("a", m)]), plots.branching([("a", m)])
    for ticks in (lengths.axes[0].get_xticks(), lengths.axes[0].get_yticks(), branching.axes[0].get_xticks()):
        assert len(ticks) and all(math.isclose(t, round(t)) for t in ticks)
