"""The lab's forced openings (--first-moves, --from: classes under the board's
symmetries, the split over classes, resume, the heat map) and its strength
ladder (--ladder: the figures along the ladder and the warnings)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

import hexarena
from hexarena.analysis import first_moves, heatmap, lab, ladder
from hexarena.analysis.store import GAMES
from hexarena.cli import main

PH2 = {"size": "2", "opening": "none"}
RANDOM = lab.parse_agents("random")
SVG = "{http://www.w3.org/2000/svg}"


def numbers(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "run"}


def forced_run(out, games=6, **kw) -> dict:
    """The run's report as JSON (as report.json holds it)."""
    return lab.analyze("projective-hex", PH2, [], games, RANDOM, 3, out, workers=1, first_moves="all", **kw).as_json()


# classes --------------------------------------------------------------------------------
def test_projective_hex_size_3_first_moves_make_six_classes():
    classes = first_moves.move_classes(hexarena.load("projective-hex", size=3, opening="none").new_state())
    assert classes == [["A", "C", "M", "Q", "W", "Z"], ["B", "R", "V"], ["D", "G", "H", "L", "X", "Y"],
                       ["E", "F", "N", "P", "S", "U"], ["I", "K", "T"], ["J", "O", "#"]]
    assert sorted(m for c in classes for m in c) == sorted(hexarena.load("projective-hex", size=3).topology.names)


def test_classes_keep_the_position_and_undeclared_symmetries_give_one_move_a_class():
    g = hexarena.load("projective-hex", size=3, opening="none")
    after_j = first_moves.move_classes(first_moves.position_after(g, ["J"]))
    assert len(after_j) == 14 and ["O", "#"] in after_j  # only the symmetries that keep J in place
    lhexus = hexarena.load("lhexus", size=3).new_state()
    assert first_moves.declared_symmetries(lhexus.game) is None
    assert first_moves.move_classes(lhexus) == [[m] for m in lhexus.legal_moves()]
    pushpin = hexarena.load("hex-pushpin", size=3).new_state()
    assert first_moves.chosen_classes(pushpin, "f2 1, pass") == [["f2 1", "d2 1", "c3 1", "g3 1", "d4 1", "f4 1"],
                                                                 ["pass"]]


# forced first moves in a run ---------------------------------------------------------------
def test_first_moves_are_forced_split_over_classes_and_valued(tmp_path):
    report = forced_run(tmp_path, games=6)
    games = [json.loads(line) for line in (tmp_path / GAMES).read_text().splitlines()]
    reps = ["a1", "b1", "b2"]
    for r in games:
        assert r["moves"][0] == r["forced"][0] == reps[(r["index"] // 2) % 3] and r["values"][0] is None
    m = report["sets"][0]["metrics"]["forced_first_moves"]
    assert [(c["move"], c["games"]) for c in m["classes"]] == [("a1", 2), ("b1", 2), ("b2", 2)]
    assert [c["proven"] for c in m["classes"]] == [{"result": "loss", "plies": 12}, {"result": "win", "plies": 9},
                                                   {"result": "win", "plies": 9}]
    assert m["symmetries"] == 6 and m["classes"][0]["members"] == ["a1", "a2", "c1", "c4", "d2", "d4"]
    page = (tmp_path / "report.html").read_text()
    assert "Forced first moves" in page and "first player loses in 12" in page


def test_from_starts_every_game_after_its_moves_and_refuses_bad_ones(tmp_path):
    report = lab.analyze("projective-hex", PH2, [], 2, RANDOM, 1, tmp_path, workers=1, start=["b2", "a1"]).as_json()
    games = [json.loads(line) for line in (tmp_path / GAMES).read_text().splitlines()]
    assert all(r["moves"][:2] == ["b2", "a1"] == r["forced"] for r in games)
    assert report["sets"][0]["metrics"]["first_moves"][0]["move"] == "b2"
    with pytest.raises(ValueError, match=r"--from: move 2 \('b2'\): 'b2' is occupied"):
        lab.analyze("projective-hex", PH2, [], 2, RANDOM, 1, tmp_path / "bad", start=["b2", "b2"])


def test_resume_with_forced_openings_gives_the_same_report(tmp_path):
    full = forced_run(tmp_path / "full", games=6)
    part = forced_run(tmp_path / "part", games=3)
    assert part["run"]["played"] == 3
    resumed = forced_run(tmp_path / "part", games=6)
    assert resumed["run"]["played"] == 3 and numbers(resumed) == numbers(full)
    with pytest.raises(ValueError, match="other settings"):
        lab.analyze("projective-hex", PH2, [], 6, RANDOM, 3, tmp_path / "full", workers=1, first_moves="b1")


def test_heat_map_colours_each_class_cell_with_a_tooltip(tmp_path):
    m = forced_run(tmp_path, games=6)["sets"][0]["metrics"]["forced_first_moves"]
    root = ET.fromstring(m["svg"])
    cells = {p.get("data-cell"): p for p in root.iter(f"{SVG}polygon") if p.get("data-cell")}
    for row in m["classes"]:
        for cell in row["members"]:
            polygon = cells[cell]
            assert polygon.get("fill") == heatmap.colour(row["first_player_score"]["rate"])
            tip = polygon.find(f"{SVG}title").text
            assert tip.startswith(f"{row['move']} (class: ") and f"{row['games']} games" in tip and "[" in tip
    assert root.find(f".//{SVG}linearGradient") is not None and "0%" in m["svg"] and "100%" in m["svg"]
    assert (heatmap.colour(0.5), heatmap.colour(0.0), heatmap.colour(1.0)) == ("#f7f7f7", "#542788", "#b35806")


# the ladder -----------------------------------------------------------------------------------
def metrics_of(first_points: float, games: int, draws: int = 0, plies=(20.0, 3.0)) -> dict:
    return {"outcomes": {"games": games, "first_player_score": {"points": first_points},
                         "draws": {"count": draws}},
            "lengths": {"plies": {"n": games, "mean": plies[0], "sd": plies[1]}},
            "first_moves": [{"move": "j5", "games": games}],
            "openings": {"available": True, "rows": [{"choice": "block", "games": games,
                                                       "chooser_wins": {"count": 0}}]}}


def test_ladder_warning_on_fixed_numbers():
    sets = [{"label": "mcts:3", "metrics": metrics_of(41, 100)}, {"label": "mcts:5", "metrics": metrics_of(50, 100)},
            {"label": "mcts:7", "metrics": metrics_of(68, 100, plies=(20.5, 3.0))}]
    lad = ladder.summarize(["mcts:3", "mcts:5", "mcts:7"], sets, free_first_move=True)
    assert lad["warnings"] == ["The first player's score moves with strength: 41% [32, 51] at mcts:3, "
                               "68% [58, 76] at mcts:7 (p = 0.00013)."]
    rows = {r["figure"]: r for r in lad["rows"]}
    assert not rows["the mean length (plies)"]["moves"] and not rows["the chooser's wins after block"]["moves"]
    assert set(rows) == {"the first player's score", "the draw rate", "the mean length (plies)",
                         "the share of first move j5", "the share of opening choice block",
                         "the chooser's wins after block"}
    a = {"kind": "mean", "value": 17.0, "sd": 3.0, "n": 60, "ci95": [16.2, 17.8]}
    assert ladder.differs(a, {**a, "value": 19.0, "ci95": [18.2, 19.8]})
    assert not ladder.differs(a, {**a, "value": 17.5, "ci95": [16.7, 18.3]})


def test_a_ladder_run_plays_each_rung_and_reports_it(tmp_path):
    rungs = ladder.parse_ladder("random,mcts:uct:sims=8")
    report = lab.analyze("projective-hex", PH2, [], 2, RANDOM, 1, tmp_path, workers=1, ladder=rungs).as_json()
    assert [s["label"] for s in report["sets"]] == ["random", "mcts:uct:sims=8"]
    games = [json.loads(line) for line in (tmp_path / GAMES).read_text().splitlines()]
    assert {r["set"]: r["values"][0] is None for r in games} == {0: True, 1: False}  # the rung's agents played
    assert report["ladder"]["rungs"] == ["random", "mcts:uct:sims=8"]
    assert report["ladder"]["rows"][0]["figure"] == "the first player's score"
    page = (tmp_path / "report.html").read_text()
    assert "Strength ladder" in page and (tmp_path / "plot-ladder.png").exists()


# command line -----------------------------------------------------------------------------------
def test_cli_first_moves_and_from(tmp_path, capsys):
    out = tmp_path / "r"
    assert main(["analyze", "projective-hex", "-o", "size=2", "-o", "opening=none", "--from", "b2", "--first-moves",
                 "a1, c1", "--games", "4", "--agents", "random", "--workers", "1", "--out", str(out)]) == 0
    report = json.loads((out / "report.json").read_text())
    assert [c["move"] for c in report["sets"][0]["metrics"]["forced_first_moves"]["classes"]] == ["a1", "c1"]
    assert "--from b2 --first-moves 'a1, c1'" in report["run"]["command"]


@pytest.mark.parametrize("args, message", [
    (["--first-moves", "zz"], "--first-moves: 'zz' is not a move of projective-hex"),
    (["--first-moves", "a1,c4"], "'c4' and 'a1' are one first move under the board's symmetries"),
    (["--first-moves", "all", "--games", "2"], "--games 2 is fewer than the 3 first-move classes"),
    (["--from", "a1 a1"], "--from: move 2 ('a1'): 'a1' is occupied"),
    (["--from", "a1,,b1"], "--from 'a1,,b1': give moves"),
    (["--ladder", "mcts:3"], "--ladder 'mcts:3': give two or more agent specs"),
    (["--ladder", "mcts:3,mcts:3"], "names an agent twice"),
    (["--ladder", "mcts:3,mcts:99"], "bad agent 'mcts:99'"),
    (["--ladder", "random,mcts:3", "--agents", "random"], "--ladder sets the agents"),
])
def test_cli_bad_input(tmp_path, capsys, args, message):
    base = ["analyze", "projective-hex", "-o", "size=2", "-o", "opening=none", "--out", str(tmp_path)]
    assert main([*base, *(args if "--games" in args else [*args, "--games", "6"])]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_default_report_directory_names_the_forced_openings_and_the_ladder():
    forced = lab.default_out("projective-hex", {"size": "3"}, [], ["mcts:6", "mcts:6"], 1,
                             ["from", "J A", "first-moves", "all"])
    assert forced.name == "projective-hex-size-3-from-j-a-first-moves-all"
    assert lab.default_out("weituweiqi", {}, [], ["mcts:6", "mcts:6"], 1, ["ladder", "mcts:3,mcts:8"]).name == \
        "weituweiqi-ladder-mcts-3-mcts-8"
