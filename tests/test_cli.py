"""The command line: formats of DESIGN.md §3, one-line errors with exit code 2."""

import io
import json
import os
import re
import subprocess
import sys

import pytest

from hexarena.cli import main

FINISHED = "B C F G N K # J R O T S W X".split()


def run(argv, stdin=""):
    out = io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(argv, out=out)
    finally:
        sys.stdin = old
    return code, out.getvalue()


def test_games_lists_games_and_options():
    code, out = run(["games", "--json"])
    games = {g["name"]: g for g in json.loads(out)}
    assert code == 0 and "projective-hex" in games
    assert games["projective-hex"]["options"]["opening"]["default"] == "cut-and-choose"
    code, out = run(["games"])
    assert "opening = cut-and-choose" in out


def test_cells_json():
    code, out = run(["cells", "projective-hex", "-o", "size=3", "--json"])
    cells = json.loads(out)
    assert code == 0 and len(cells) == 27
    assert cells[0] == {"name": "A", "xy": [3, 0], "neighbours": ["Y", "B", "E", "D", "Z"], "edge": True}


def test_replay_json_of_the_source_game():
    code, out = run(["replay", "projective-hex", "-o", "opening=none", *FINISHED, "--json"])
    got = json.loads(out)
    assert code == 0
    assert got == {"game": "projective-hex", "options": {"size": 3, "opening": "none"}, "moves": FINISHED,
                   "to_move": None, "over": True, "winner": 1, "reason": "loop", "scores": None, "legal_moves": []}


def test_replay_json_mid_game():
    code, out = run(["replay", "projective-hex", "J", "K", "O", "--json"])
    got = json.loads(out)
    assert code == 0 and got["to_move"] == 1 and got["legal_moves"] == ["black", "white"] and not got["over"]
    assert got["reason"] is None


def test_replay_illegal_move_json_error_and_exit_2():
    code, out = run(["replay", "projective-hex", "-o", "opening=none", "A", "B", "A", "C", "--json"])
    assert code == 2
    assert json.loads(out) == {"error": "'A' is occupied", "index": 2}


@pytest.mark.parametrize("argv,message", [
    (["replay", "chess", "e4"], "unknown game 'chess'; games: "),
    (["replay", "projective-hex", "-o", "size=1"], "bad value 1 for option 'size'"),
    (["replay", "projective-hex", "-o", "sise=4"], "unknown option 'sise'"),
    (["replay", "projective-hex", "-o", "size"], "option 'size' is not key=value"),
    (["replay", "projective-hex", "-o", "opening=none", "A", "ZZ"], "move 2: 'ZZ' is not a move of projective-hex"),
    (["cells", "nope", "--json"], "unknown game 'nope'"),
    (["play", "projective-hex", "--vs", "robot"], "unknown agent kind 'robot'"),
])
def test_bad_input_one_line_exit_2(argv, message, capsys):
    code, out = run(argv)
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and err.startswith("hexarena: error: ")


def test_play_hot_seat_in_the_terminal():
    moves = "\n".join(["moves", "A", "A", "undo", "A", "swap", "record", "quit"])
    code, out = run(["play", "projective-hex", "-o", "opening=swap"], stdin=moves + "\n")
    assert code == 0
    assert "illegal: 'A' is occupied" in out
    assert "undone; player 1 to move" in out
    assert "[projective-hex size=3 opening=swap] 1. A 2. swap *" in out


def test_play_against_random_to_the_end():
    # the human tries every cell in order; occupied ones are refused and retried
    cells = "ABCDEFGHIJKLMNO#PQRSTUVWXYZ"
    code, out = run(["play", "projective-hex", "-o", "opening=none", "--vs", "random", "--seed", "3"],
                    stdin="\n".join(cells) + "\n")
    assert code == 0
    assert "wins with a global loop" in out and "random plays" in out


def test_play_saves_a_json_record(tmp_path):
    path = tmp_path / "game.json"
    code, out = run(["play", "projective-hex", "-o", "opening=none"], stdin=f"A\nB\nsave {path}\nquit\n")
    record = json.loads(path.read_text())
    assert code == 0 and record["moves"] == ["A", "B"] and record["game"] == "projective-hex"


def test_bench_without_openspiel():
    code, out = run(["bench", "projective-hex", "--seconds", "0.05", "--no-openspiel"])
    assert code == 0 and "playouts/s" in out


def test_installed_entry_point_exit_code():
    exe = os.path.join(os.path.dirname(sys.executable), "hexarena")
    bad = subprocess.run([exe, "replay", "projective-hex", "QQ"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert bad.stderr.strip().endswith("'QQ' is not a move of projective-hex: a move is a cell A..Z or # "
                                       "(also written 'hash'), or 'swap' or 'black' or 'white'")
    good = subprocess.run([exe, "replay", "projective-hex", "J", "--json"], capture_output=True, text=True)
    assert good.returncode == 0 and json.loads(good.stdout)["moves"] == ["J"]


@pytest.mark.parametrize("argv,message", [
    (["bench", "projective-hex", f"--seconds={value}"], "is not a positive finite number of seconds")
    for value in ("0", "-1", "nan", "inf", "-inf", "1e400", "x")
] + [
    (["play", "projective-hex", "--seed", value], "is not a seed: an integer 0..4294967295")
    for value in ("-1", "x", "4294967296", "9" * 5000, "١")
] + [
    (["play", "projective-hex", "--vs", spec], "level must be an integer 1..10")
    for spec in ("ai:0", "ai:11", "ai:-3", "ai:1.5", "ai:" + "9" * 5000, "ai:٣")
])
def test_hostile_numbers_are_refused_in_one_line(argv, message, capsys):
    try:
        code, _ = run(argv)
    except SystemExit as e:  # argparse refuses it
        code = e.code
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and message in err and len(err) < 400  # the input cut, the grammar named


def test_replay_a_record_file_json_or_text(tmp_path):
    text = tmp_path / "g.txt"
    text.write_text("[projective-hex size=3 opening=none] 1. A 2. B *\n")
    code, out = run(["replay", "--record", str(text), "--json"])
    assert code == 0 and json.loads(out)["moves"] == ["A", "B"]
    code, out = run(["replay", "--record", str(text), "C", "--json"])  # moves after the record's
    assert code == 0 and json.loads(out)["moves"] == ["A", "B", "C"]
    path = tmp_path / "g.json"
    path.write_text(json.dumps(hexarena_state(FINISHED).record()))
    code, out = run(["replay", "--record", str(path), "--json"])
    got = json.loads(out)
    assert code == 0 and got["over"] and got["winner"] == 1 and got["moves"] == FINISHED
    code, out = run(["replay", "--record", str(path)])
    assert code == 0 and "wins with a global loop" in out


def hexarena_state(moves):
    import hexarena

    s = hexarena.load("projective-hex", opening="none").new_state()
    for m in moves:
        s.play(m)
    return s


@pytest.mark.parametrize("argv,message", [
    (["replay", "--record", "/nonexistent/x.json"], "cannot read /nonexistent/x.json: No such file or directory"),
    (["replay", "--record", "REC", "-o", "size=4"], "no -o with a record file"),
    (["replay"], "name a GAME"),
    (["play"], "name a GAME"),
])
def test_replay_record_errors_in_one_line(argv, message, capsys, tmp_path):
    rec = tmp_path / "r.txt"
    rec.write_text("[projective-hex size=3 opening=none] 1. A *")
    code, out = run([str(rec) if a == "REC" else a for a in argv])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and message in err


def test_ctrl_c_outside_a_game_exits_130_without_traceback():
    code = ("import sys, hexarena.cli as c\n"
            "def boom(*a, **k): raise KeyboardInterrupt\n"
            "c.main = boom\n"
            "c.entry()\n")
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert got.returncode == 130 and got.stderr.strip() == "hexarena: interrupted"


def test_long_hostile_input_is_cut_in_messages(capsys):
    for argv in (["replay", "iqishiqi", "a" * 10_000], ["replay", "x" * 10_000],
                 ["replay", "lisbon", "-o", "y" * 10_000], ["bench", "--seconds", "9" * 10_000]):
        try:
            code, _ = run(argv)
        except SystemExit as e:  # argparse's own refusals
            code = e.code
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and len(err) < 300, err[:400]


def test_bench_json_reports_plies_and_game_length():
    code, out = run(["bench", "push-and-pull", "lisbon", "--seconds", "0.05", "--no-openspiel", "--json"])
    data = json.loads(out)
    assert code == 0 and data["reference"] == {}
    assert [(r["game"], r["setup"]) for r in data["games"]][:1] == [("push-and-pull", "base 7 (127 cells)")]
    for row in data["games"]:
        assert set(row) == {"game", "setup", "options", "playouts_per_s", "plies_per_s", "mean_plies"}
        assert row["mean_plies"] > 10 and row["plies_per_s"] == pytest.approx(row["playouts_per_s"] * row["mean_plies"])


def test_bench_text_shows_plies_per_second():
    code, out = run(["bench", "hex-pushpin", "--seconds", "0.05", "--no-openspiel"])
    assert code == 0 and re.search(r"hexarena hex-pushpin base 4 \(37 cells\) +[\d,]+ playouts/s +[\d,]+ plies/s "
                                   r"+[\d.]+ plies a game", out)


def test_warmup_says_what_it_compiles():
    code, out = run(["warmup", "projective-hex", "--workers", "1"])
    said = re.search(r"projective-hex +[\d.]+ s \((compiled \d+ functions|already cached)\)", out)
    assert code == 0 and "warming numba's cache" in out and said and "warm-up done" in out


def test_warmup_refuses_an_unknown_game():
    code, out = run(["warmup", "chess"])
    assert code == 2
