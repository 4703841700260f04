"""The designer's lab (hexarena analyze): agent specs, metrics, reproducibility
across worker counts and reruns, resuming, the report files, the CLI, and
the Ray backend against the local one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hexarena.analysis import endings, lab, metrics, openings
from hexarena.analysis.backends import run_tasks
from hexarena.analysis.selfplay import GameTask, game_seeds, play_task, without_timing
from hexarena.analysis.store import GAMES, RunStore
from hexarena.cli import main

SMALL = {"size": "2"}
AGENTS = lab.parse_agents("mcts:uct:sims=20,random")


def numbers(report: dict) -> dict:
    """The report without how the run went (time, workers): what must not change on a rerun."""
    return {k: v for k, v in report.items() if k != "run"}


def run(out: Path, games: int = 6, workers: int = 1, compare=("opening=none,cut-and-choose",), seed: int = 5,
        backend: str = "local") -> dict:
    """The run's report as JSON (as report.json holds it)."""
    return lab.analyze("projective-hex", SMALL, list(compare), games, AGENTS, seed, out, backend, workers).as_json()


# agent pairs ---------------------------------------------------------------------------
def test_agents_pair():
    assert [a.text for a in lab.parse_agents("mcts:3")] == ["mcts:3", "mcts:3"]
    assert [a.text for a in lab.parse_agents("random,mcts:2")] == ["random", "mcts:2"]
    with pytest.raises(ValueError, match="two agents"):
        lab.parse_agents("random,random,random")


# option sets -------------------------------------------------------------------------
def test_option_sets_and_their_errors():
    sets = lab.option_sets("projective-hex", {"size": "3"}, ["opening=none,swap", "size=2,3"])
    assert [label for label, _ in sets] == ["opening=none size=2", "opening=none size=3", "opening=swap size=2",
                                            "opening=swap size=3"]
    assert sets[0][1] == {"size": 2, "opening": "none"}
    assert lab.option_sets("lisbon", {}, ["sequence=progressive,12*"])[1][1]["sequence"] == "12*"
    assert lab.option_sets("lisbon", {}, ["size=5,4|4,3"])[1] == ("size=4,3",
                                                                   {"size": [4, 3], "sequence": "progressive"})
    for bad, match in [(["opening"], "KEY=V1"), (["opening=none,"], "KEY=V1"), (["opening=none,none"], "twice"),
                       (["opening=none", "opening=swap"], "twice"), (["opening=sometimes"], "opening")]:
        with pytest.raises(ValueError, match=match):
            lab.option_sets("projective-hex", {}, bad)


def test_seeds_depend_on_seed_options_and_index_only():
    a = game_seeds(1, {"size": 2}, 0)
    assert a == game_seeds(1, {"size": 2}, 0)
    assert len({a, game_seeds(2, {"size": 2}, 0), game_seeds(1, {"size": 3}, 0), game_seeds(1, {"size": 2}, 1)}) == 4


# metrics ------------------------------------------------------------------------------
def test_wilson_interval():
    assert metrics.wilson(0, 10) == (0.0, 0.2775)
    assert metrics.wilson(10, 10) == (0.7225, 1.0)
    assert metrics.wilson(120, 200) == (0.5308, 0.6654)  # p = 0.6: Wilson's centre 0.5981


def game(moves, movers, winner, a_seat=0, values=None, index=0):
    return {"index": index, "a_seat": a_seat, "moves": moves, "movers": movers, "winner": winner,
            "legal": [10 - i for i in range(len(moves))], "values": values or [None] * len(moves)}


def test_outcomes_lengths_and_branching():
    results = [game(list("abc"), [0, 1, 0], 0, a_seat=0), game(list("abcd"), [0, 0, 1, 0], 1, a_seat=1, index=1),
               game(list("ab"), [0, 1], None, index=2)]
    o = metrics.outcomes(results)
    assert [w.count for w in o.seat_wins] == [1, 1] and o.draws.count == 1
    assert o.first_player_score.points == 1.5
    assert [w.count for w in o.agent_wins] == [2, 0]
    n = metrics.lengths(results)
    assert (n.plies.mean, n.plies.median, n.turns.max) == (3.0, 3, 3)
    assert n.plies_histogram.as_json() == {"start": 2, "width": 1, "counts": [1, 1, 1]}
    b = metrics.branching(results)
    assert b["mean_by_ply"] == [10, 9, 8, 7] and b["games_by_ply"] == [3, 3, 2, 1]


def test_diversity():
    results = [game(list("abcde"), [0, 1, 0, 1, 0], 0), game(list("abcdf"), [0, 1, 0, 1, 0], 0),
               game(list("abcde"), [0, 1, 0, 1, 0], 0), game(list("xbcd"), [0, 1, 0, 1], 1)]
    assert metrics.diversity(results) == {"games": 4, "distinct_games": 3, "opening_plies": 4,
                                          "distinct_openings": 2}


def test_decisiveness():
    assert metrics.decided_ply([0.5, 0.95, 0.7, 0.92, 1.0], [0, 2, 4, 6, 8]) == 6
    assert metrics.decided_ply([0.95, 0.5], [1, 3]) is None
    won = game(list("abcdef"), [0, 1, 0, 1, 0, 1], 1, values=[0.5, 0.6, 0.5, 0.95, 0.2, 1.0])
    d = metrics.decisiveness([won], (True, True))
    assert d.ply.median == 4 and d.fraction.median == 0.5 and d.never == 0
    assert not metrics.decisiveness([won], (False, False)).available
    assert metrics.decisiveness([won], (True, False)).games == 0  # won by B, who does not search


def test_opening_choices():
    games = [game(["a", "swap", "b"], [0, 1, 0], 1), game(["a", "b"], [0, 1], 0), game(["a", "b"], [0, 1], 1)]
    rows = {r["choice"]: r for r in openings.choices(("swap",), games)["rows"]}
    assert rows["swap"]["games"] == 1 and rows["swap"]["by_seat"] == [0, 1]
    assert rows["swap"]["chooser_wins"]["count"] == 1 and rows["(none)"]["games"] == 2 and "black" not in rows
    rows = {r["choice"]: r for r in openings.choices(("black", "white"), games)["rows"]}
    assert rows["black"]["games"] == rows["white"]["games"] == 0 and rows["(none)"]["games"] == 3
    assert not openings.choices((), games)["available"]


def test_end_reasons():
    results = [dict(game(["a"], [0], 0), reason="loop"), dict(game(["a"], [0], 1), reason="loop"),
               dict(game(["a"], [0], None), reason="tie"), game(["a"], [0], 1)]
    rows = endings.end_reasons(results, {})
    assert [(r["reason"], r["games"], r["seat_wins"]) for r in rows] == \
        [("loop", 2, [1, 1]), ("tie", 1, [0, 0]), ("unrecorded", 1, [0, 1])]
    assert rows[0]["share"]["rate"] == 0.5


# runs ----------------------------------------------------------------------------------
def test_play_task_is_reproducible():
    task = GameTask(0, 1, "projective-hex", {"size": 2, "opening": "swap"}, ("mcts:uct:sims=30", "random"), (7, 8))
    first = without_timing(play_task(task))
    again = without_timing(play_task(task))
    assert first == again and first["a_seat"] == 1 and first["reason"] == "loop"
    assert len(first["moves"]) == len(first["legal"]) == len(first["movers"])
    # B (random) at seat 0
    assert all(v is None for v, m in zip(first["values"], first["movers"], strict=True) if m == 0)
    assert all(0 <= v <= 1 for v, m in zip(first["values"], first["movers"], strict=True) if m == 1)


def test_same_numbers_for_any_worker_count_and_rerun(tmp_path):
    one = run(tmp_path / "one", workers=1)
    two = run(tmp_path / "two", workers=2)
    assert numbers(one) == numbers(two)
    assert one["run"]["played"] == 12
    assert [s["label"] for s in one["sets"]] == ["opening=none", "opening=cut-and-choose"]
    rerun = run(tmp_path / "one", workers=1)
    assert rerun["run"]["played"] == 0 and numbers(rerun) == numbers(one)
    saved = json.loads((tmp_path / "one" / "report.json").read_text())
    assert numbers(saved) == numbers(one)
    page = (tmp_path / "one" / "report.html").read_text()
    assert page.count("data:image/png;base64,") >= 4 and "http" not in page.replace("http://www.w3.org", "")
    assert "<svg" in page and "opening=cut-and-choose" in page and "How games end" in page
    assert [r["reason"] for r in one["sets"][0]["metrics"]["end_reasons"]] == ["loop"]


def test_a_run_resumes_where_it_stopped(tmp_path):
    full = run(tmp_path / "full", games=6, compare=())
    part = run(tmp_path / "part", games=3, compare=())
    assert part["run"]["played"] == 3
    with open(tmp_path / "part" / GAMES, "a") as f:
        f.write('{"set": 0, "index": 3, "mo')  # a line cut short by an interruption
    resumed = run(tmp_path / "part", games=6, compare=())
    assert resumed["run"]["played"] == 3 and numbers(resumed) == numbers(full)
    lines = (tmp_path / "part" / GAMES).read_text().splitlines()
    assert sorted(json.loads(x)["index"] for x in lines) == list(range(6))


def test_a_run_directory_refuses_other_settings(tmp_path):
    RunStore(tmp_path, {"game": "projective-hex", "agents": ["random", "random"]})
    with pytest.raises(ValueError, match="holds a run with other settings.*agents"):
        run(tmp_path, games=2, compare=())


def test_random_agents_report_no_decisiveness(tmp_path):
    report = lab.analyze("lhexus", {"size": "3"}, [], 4, lab.parse_agents("random"), 1, tmp_path, workers=1)
    m = report.sets[0].metrics
    assert not m.decisiveness.available
    assert {r["choice"] for r in m.openings["rows"]} <= {"accept", "decline"}
    assert sum(r["games"] for r in m.openings["rows"]) == 4
    assert "n/a (random agents)" in (tmp_path / "report.html").read_text()


# command line -----------------------------------------------------------------------
def test_cli_analyze(tmp_path, capsys):
    out = tmp_path / "r"
    args = ["analyze", "projective-hex", "-o", "size=2", "--games", "4", "--agents", "mcts:uct:sims=10,random",
            "--workers", "1", "--out", str(out), "--compare", "opening=none|swap"]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "opening=none: first player wins" in printed and str(out / "report.html") in printed
    assert "opening=swap against opening=none: " in printed  # the verdict's paragraph
    report = json.loads((out / "report.json").read_text())
    command = report["run"]["command"]
    assert command.startswith("hexarena analyze projective-hex -o size=2 --compare 'opening=none|swap'")


@pytest.mark.parametrize("args, message", [
    (["--agents", "mcts:99"], "bad agent 'mcts:99'"),
    (["--compare", "opening"], "--compare 'opening'"),
    (["-o", "size=1"], "size"),
])
def test_cli_analyze_errors(tmp_path, capsys, args, message):
    assert main(["analyze", "projective-hex", "--games", "2", "--out", str(tmp_path), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_default_report_directory():
    assert lab.default_out("lisbon", {}, ["sequence=progressive,12*"], ["mcts:6", "mcts:6"], 1) == \
        Path("data/reports/lisbon-compare-sequence")
    assert lab.default_out("projective-hex", {"size": "3"}, [], ["random", "mcts:3"], 7) == \
        Path("data/reports/projective-hex-size-3-randomvsmcts-3-seed-7")


# Ray ---------------------------------------------------------------------------------
def test_ray_backend_matches_local():
    ray = pytest.importorskip("ray")
    settings = lab.settings_of("projective-hex", lab.option_sets("projective-hex", SMALL, ["opening=none,swap"]),
                               AGENTS, 3)
    tasks = lab.tasks_of(settings, 3, set())

    def by_index(results):
        return sorted(map(without_timing, results), key=lambda r: (r["set"], r["index"]))

    local = by_index(run_tasks(tasks, "local", workers=1))
    assert not ray.is_initialized()
    remote = by_index(run_tasks(tasks, "ray", workers=2))
    assert not ray.is_initialized()  # the backend shut down the instance it started
    assert remote == local and len(local) == 6
