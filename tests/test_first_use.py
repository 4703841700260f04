"""The line said on stderr when numba compiles a part of hexarena for the first
time (hexarena.compiling): only when it really compiles, once per process and
part; the rules and the AI's search are announced with the game's name."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest

import hexarena
import hexarena.ai
import hexarena.ai.mcts
from hexarena import compiling
from hexarena.ai import preparing
from hexarena.ai.mcts import MCTSAgent, compiling_search

SRC = str(Path(__file__).resolve().parents[1] / "src")


@pytest.fixture
def fresh(monkeypatch):
    """Nothing said yet in this process, and the line not silenced (conftest silences it for the suite)."""
    monkeypatch.setattr(compiling, "_said", set())
    monkeypatch.setenv("HEXARENA_COMPILE_NOTICE", "1")


def _new_kernel():
    @numba.njit
    def twice(x):
        return 2 * x
    return twice


def test_said_once_when_numba_compiles(fresh, capsys):
    kernel = _new_kernel()
    with compiling.announcing("k", "hexarena: compiling k"):
        assert kernel(2) == 4
        assert kernel(3) == 6
    with compiling.announcing("k", "hexarena: compiling k"):
        _new_kernel()(1)  # compiles again, but k was said
    with compiling.announcing("other", "hexarena: compiling other"):
        kernel(4)  # compiled already: nothing to say
    assert capsys.readouterr().err == "hexarena: compiling k\n"


def test_silenced_by_the_environment(fresh, capsys, monkeypatch):
    monkeypatch.setenv("HEXARENA_COMPILE_NOTICE", "0")
    with compiling.announcing("k", "hexarena: compiling k"):
        _new_kernel()(1)
    assert capsys.readouterr().err == ""


def test_nothing_said_when_loading_from_numbas_cache(tmp_path):
    """The same cached kernel in two processes: the first compiles and says so, the second loads it silently."""
    (tmp_path / "kern.py").write_text("import numba\n\n@numba.njit(cache=True)\ndef inc(x):\n    return x + 1\n")
    script = textwrap.dedent("""
        from hexarena.compiling import announcing
        import kern
        with announcing("kern", "hexarena: compiling kern"):
            print(kern.inc(1))
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([SRC, str(tmp_path)]), HEXARENA_COMPILE_NOTICE="1",
               NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True) for _ in "12"]
    assert [(r.stdout, r.stderr) for r in runs] == [("2\n", "hexarena: compiling kern\n"), ("2\n", "")]


def test_the_rules_and_the_search_announce_their_game(fresh, monkeypatch):
    said = []
    real = compiling.announcing

    def spy(key, text):
        said.append((key, text))
        return real(key, text)

    monkeypatch.setattr(compiling, "announcing", spy)
    monkeypatch.setattr(hexarena.ai.mcts, "announcing", spy)
    state = hexarena.load("projective-hex", size=2).new_state()  # a new Game: its Game.calls are made anew
    state.legal_moves()
    assert said[0] == ("projective-hex: rules", "hexarena: compiling projective-hex's rules once (numba), a few "
                                                "seconds; `hexarena warmup` does it ahead")
    with hexarena.load("lhexus", size=3).compiling_rules():
        pass
    assert said[-1] == ("lhexus: rules", "hexarena: compiling lhexus's rules once (numba), about a minute; "
                                         "`hexarena warmup` does it ahead")
    MCTSAgent(level=1, simulations=8, seed=1, solutions=False).choose(state)  # a search, not a stored proof
    assert ("projective-hex: AI search", "hexarena: compiling the AI's search for projective-hex once (numba), "
            "about 30 s; `hexarena warmup` does it ahead") in said


def test_a_front_ends_own_notice_replaces_the_librarys(fresh, capsys):
    game = hexarena.load("lisbon")
    said = []
    with preparing(game, said.append), compiling_search(game):
        _new_kernel()(1)
    assert said == ["preparing the AI for lisbon, once: ~30 s (numba compiles its search; `hexarena warmup` does "
                    "it ahead)"]
    assert capsys.readouterr().err == ""


def test_a_front_end_says_nothing_when_numba_does_not_compile(fresh):
    game = hexarena.load("lisbon")
    kernel = _new_kernel()
    kernel(1)
    said = []
    with preparing(game, said.append):
        kernel(2)  # compiled already (as a search loaded from numba's cache)
    assert said == []
