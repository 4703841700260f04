"""The terminal front end (``hexarena play``): commands, messages, files."""

import ast
import io
import json
import os
import subprocess
import sys
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

import hexarena
import hexarena.ai
import hexarena.compiling
import hexarena.play
from hexarena.cli import main
from hexarena.info import rules_text

ROOT = Path(__file__).resolve().parent.parent
SRC = str(Path(__file__).resolve().parents[1] / "src")
OPEN = ["-o", "opening=none"]  # Projective Hex without the cut-and-choose opening
LEGEND = "A B C"  # the 3/4 board's letter legend: once per board printed


def run(argv, stdin=""):
    out = io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin) if isinstance(stdin, str) else stdin
    try:
        code = main(argv, out=out)
    finally:
        sys.stdin = old
    return code, out.getvalue()


def play(stdin, *extra):
    return run(["play", "projective-hex", *OPEN, *extra], stdin="\n".join(stdin) + "\n")


# --- rules ----------------------------------------------------------------------

@pytest.mark.parametrize("name", hexarena.GAMES)
def test_rules_summary_of_every_game_is_in_the_package(name):
    text = rules_text(name)
    assert len(text) > 400 and all(f"\n{part}" in text for part in ("Board:", "Notation:"))
    code, out = run(["play", name], stdin="rules\nquit\n")
    assert code == 0 and text in out


def test_rules_files_are_package_data():
    """Every summary is matched by pyproject's package-data, so wheels carry them."""
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["hexarena"]
    files = sorted((ROOT / "src" / "hexarena" / "rules").glob("*.txt"))
    assert {f.stem for f in files} == set(hexarena.GAMES)
    assert all(any(fnmatch(f"rules/{f.name}", g) for g in globs) for f in files)


# --- commands that do not move ---------------------------------------------------

def test_help_moves_record_rules_do_not_reprint_the_board():
    code, out = play(["help", "moves", "record", "rules", "A", "quit"])
    assert code == 0 and out.count(LEGEND) == 2  # the start, then after the move only
    assert "A, B, C, D" in out  # 'moves' separates the moves with commas


def test_moves_with_spaces_read_clearly():
    code, out = run(["play", "hex-pushpin"], stdin="moves\nquit\n")
    assert "e4 2, " in out or "e4 1, " in out and ", pass" in out


def test_the_humans_move_is_shown():
    code, out = play(["A", "B", "quit"])
    assert "player 1 plays A" in out and "player 2 plays B" in out
    code, out = play(["A", "quit"], "--vs", "random", "--seed", "1")
    assert "you play A" in out and out.index("you play A") < out.index("random plays")


def test_push_and_pull_shows_the_whole_placement():
    code, out = run(["play", "push-and-pull"], stdin="o5 -2 2\nquit\n")
    assert "player 1 plays o5 -2 2" in out and "last move: o5 -2 2" in out  # under the board


def test_status_is_public_in_every_game():
    for name in hexarena.GAMES:
        s = hexarena.load(name).new_state()
        assert s.game.status(s) in str(s)


# --- the program ----------------------------------------------------------------

def _compiling_hint(monkeypatch):
    """The AI's hint as on a cold cache: numba compiles a new kernel in it first."""
    import numba

    real = hexarena.ai.mcts.MCTSAgent.hint

    def hint(agent, state):
        numba.njit(lambda x: x + 1)(1)
        return real(agent, state)

    monkeypatch.setattr(hexarena.ai.mcts.MCTSAgent, "hint", hint)


def test_the_ai_says_it_is_preparing_while_numba_compiles(monkeypatch):
    monkeypatch.setattr(hexarena.compiling, "_said", set())
    _compiling_hint(monkeypatch)
    code, out = run(["play", "projective-hex", "-o", "size=2", *OPEN, "--vs", "ai:1", "--first", "second",
                     "--seed", "1"], stdin="quit\n")
    assert code == 0
    think, prepare, move = (out.index(s) for s in ("ai:1 is thinking...", "preparing the AI for projective-hex, "
                                                   "once: ~", "ai:1 plays"))
    assert think < prepare < move
    code, out = run(["play", "projective-hex", "-o", "size=2", *OPEN, "--vs", "ai:1", "--first", "second"],
                    stdin="quit\n")
    assert "preparing" not in out and "ai:1 is thinking..." in out  # said once per process


def test_the_ai_says_nothing_of_compiling_once_its_search_is_cached(tmp_path):
    """Two processes: the first compiles the search (its module written anew in a new cache) and says so, the
    second loads it from numba's cache and says nothing."""
    env = dict(os.environ, HEXARENA_CACHE=str(tmp_path), PYTHONPATH=SRC)
    hexarena_cli = [sys.executable, "-c", "from hexarena.cli import entry; entry()"]
    argv = [*hexarena_cli, "play", "projective-hex", "-o", "size=3", "-o", "opening=swap", "--vs", "ai:1",
            "--first", "second"]  # opening none is answered from its proof, unsearched
    first, second = (subprocess.run(argv, input="quit\n", env=env, capture_output=True, text=True, timeout=300)
                     for _ in "12")
    assert first.returncode == 0 and "preparing the AI" in first.stdout, first.stderr
    assert "preparing" not in second.stdout and "ai:1 plays" in second.stdout


def test_any_agent_spec_is_an_opponent():
    code, out = play(["quit"], "--vs", "mcts:uct:sims=20", "--first", "second", "--seed", "1")
    assert code == 0 and "mcts:uct:sims=20 is thinking..." in out and "mcts:uct:sims=20 plays" in out
    with pytest.raises(hexarena.play.PlayError, match="--vs: bad agent 'mcts' .*; or human"):
        hexarena.play.opponent("mcts", seed=None)


def test_undo_at_your_first_turn_keeps_the_programs_opening():
    code, out = play(["undo", "record", "quit"], "--vs", "random", "--seed", "2", "--first", "second")
    assert "nothing to undo: you have not moved yet" in out
    opening = out.split("random plays ")[1].split()[0]
    assert f"1. {opening} *" in out and out.count("random plays") == 1


def test_undo_against_the_program_goes_back_to_your_turn():
    code, out = play(["A", "undo", "record", "quit"], "--vs", "random", "--seed", "2")
    assert "undone; your move" in out and "[projective-hex size=3 opening=none] *" in out


# --- resign, save, load ------------------------------------------------------------

def test_resign_ends_the_game_and_the_record_says_so(tmp_path):
    path = tmp_path / "resigned.json"
    code, out = play(["A", "resign", "B", "record", f"save {path}", "undo", "B", "record", "quit"])
    assert code == 0
    assert "player 2 resigns: player 1 wins" in out and "illegal: 'B': the game is over" in out
    assert "[projective-hex size=3 opening=none] 1. A resign 1-0" in out
    saved = hexarena.from_record(json.loads(path.read_text()))
    assert saved.resigned == 1 and saved.winner() == 0
    assert "resignation taken back" in out and "[projective-hex size=3 opening=none] 1. A 2. B *" in out
    code, out = play(["resign"], "--vs", "random", "--first", "second", "--seed", "1")
    assert "player 2 resigns: player 1 wins" in out and "resign 1-0" in out


def test_save_after_the_end_then_load_it(tmp_path):
    path = tmp_path / "end.json"
    moves = "B C F G N K # J R O T S W X".split()  # the source's game: white wins
    code, out = play([*moves, "record", f"save {path}", "quit"])
    assert "game over" in out and f"saved {path}" in out
    record = json.loads(path.read_text())
    assert record["result"]["over"] and record["moves"] == moves
    code, out = run(["play", "--load", str(path)], stdin="record\nquit\n")
    assert code == 0 and "wins with a global loop" in out and "1. B 2. C" in out


@pytest.mark.parametrize("where", ["missing/dir/x.json", ".", "file/x.json"])
def test_save_to_a_bad_path_says_so_and_the_game_goes_on(tmp_path, where):
    (tmp_path / "file").write_text("")
    path = tmp_path / where
    code, out = play(["A", f"save {path}", "B", "record", "quit"])
    line = next(x for x in out.split("\n") if "cannot save" in x)
    assert line.startswith(f"player 2> cannot save to {path}: ") and code == 0
    assert "1. A 2. B *" in out


def test_load_at_the_prompt_json_and_text(tmp_path):
    text = tmp_path / "game.txt"
    text.write_text("[lisbon size=9,8 sequence=progressive] 1. h8 2. g7,end *\n")
    code, out = play(["A", f"load {text}", "record", f"load {tmp_path / 'none.json'}", "record", "quit"])
    assert f"loaded {text}: lisbon, 3 moves" in out
    assert out.count("[lisbon size=9,8 sequence=progressive] 1. h8 2. g7,end *") == 2
    assert f"cannot read {tmp_path / 'none.json'}: No such file or directory" in out


@pytest.mark.parametrize("content,message", [
    ("{not json", "a text record starts with"), ('{"game": "chess"}', "unknown game"), ("[lisbon] 1. zz9 *", "zz9"),
])
def test_play_load_refuses_a_bad_record_in_one_line(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, out = run(["play", "--load", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and message in err and str(path) in err


def test_play_load_checks_the_game_and_takes_no_options(tmp_path, capsys):
    path = tmp_path / "g.txt"
    path.write_text("[lisbon size=9,8 sequence=progressive] 1. h8 *")
    assert run(["play", "projective-hex", "--load", str(path)])[0] == 2
    assert "is a record of lisbon, not projective-hex" in capsys.readouterr().err
    assert run(["play", "lisbon", "-o", "size=3,3", "--load", str(path)])[0] == 2
    assert "no -o" in capsys.readouterr().err
    code, out = run(["play", "lisbon", "--load", str(path)], stdin="record\n")
    assert code == 0 and "1. h8 *" in out


# --- interruptions and layering -------------------------------------------------------

class Interrupted(io.StringIO):
    def readline(self, *args):
        raise KeyboardInterrupt


def test_ctrl_c_ends_play_with_one_line_and_code_130():
    code, out = run(["play", "projective-hex"], stdin=Interrupted())
    assert code == 130 and out.rstrip().split("\n")[-1] == "interrupted: the game is abandoned"


def test_the_terminal_front_end_does_not_import_the_cli():
    tree = ast.parse((ROOT / "src" / "hexarena" / "play.py").read_text())
    modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "cli" not in modules and not any(m and m.endswith(".cli") for m in modules)
