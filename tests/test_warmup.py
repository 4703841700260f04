"""``hexarena warmup`` leaves nothing for numba to compile: after it, a new
process that runs every search path an installed user reaches compiles
nothing and says nothing; and numba's cache stamps do not depend on the
order a process imports hexarena's modules in (else warm-up and user throw
away each other's cache)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[1] / "src")
GAME = "projective-hex"  # small and solvable: every path applies to it
TIMEOUT = 600  # a cold compile on a loaded machine; the test fails with the process's output past it

# Every search path of an installed user, each as a user calls it; prints {path: [what numba compiled]}.
PATHS = """
import json, sys
from numba.core import event

compiled = []


class Listener(event.Listener):
    def on_start(self, ev):
        d = ev.data["dispatcher"]
        compiled.append(f"{d.py_func.__module__}.{d.py_func.__name__}{ev.data['args']}")

    def on_end(self, ev):
        pass


event.register("numba:compile", Listener())
import numpy as np
import hexarena
from hexarena.ai import parse_agent
from hexarena.ai.mcts import MCTSAgent, drain

game = hexarena.load(sys.argv[1])


def self_play(choose, moves=4):
    state = game.new_state()
    for _ in range(moves):
        state.play(choose(state))


def spec(text):
    return lambda: self_play(parse_agent(text).make(1).choose)


def compacted():
    import hexarena.ai.mcts as mcts
    calls, real = [], mcts.compact
    mcts.compact = lambda *a: calls.append(1) or real(*a)
    agent = MCTSAgent(simulations=200, seed=1)
    agent.max_nodes = 0  # the least room: the kept tree is compacted at the next move
    self_play(agent.choose)
    mcts.compact = real
    assert calls, "no kept tree was compacted"


def sliced():
    drain(MCTSAgent(level=3, seed=1).hinting(game.new_state(), 0.01, 0.5))


def puct():
    from hexarena.ai.puct import PUCTAgent

    def network(leaves):
        leaves.planes
        return np.ones(leaves.legal.shape, np.float32), np.zeros(len(leaves), np.float32)

    self_play(PUCTAgent(network, simulations=32, batch=4, seed=1).choose, 2)


def bot():
    from hexarena.interop.openspiel import HexarenaBot, load_game

    state = load_game(game.name).new_initial_state()
    bots = [HexarenaBot("ai:2", seed=1), HexarenaBot("mcts:uct:sims=30", seed=2)]
    for _ in range(4):
        action = bots[state.current_player()].step(state)
        state.observation_tensor(state.current_player())
        str(state)
        state.apply_action(action)


def vc_dfpn():
    from hexarena.search.solutions import perfect_move
    state = hexarena.load(game.name, size=3, opening="none").new_state()
    state.play(perfect_move(state).move)
    state.play(state.legal_moves()[0])  # below the shipped proof: the AI proves its move with a df-pn
    assert perfect_move(state) is not None


def dfpn():
    from hexarena.search.dfpn import DfpnSolver
    DfpnSolver(game, 10).value(game.new_state().array, 2000)


paths = {"rules": lambda: game.new_state().playout(seed=1), "ai:5": spec("ai:5"), "uct": spec("mcts:uct:sims=50"),
         "nopolicy": spec("mcts:enhanced-nopolicy:sims=50"), "pns": spec("mcts:enhanced:sims=50:pns=0.5:pns_pick=1"),
         "variants": lambda: [spec(f"mcts:{v}:sims=30")() for v in ("rave", "grave", "solver", "decisive")],
         "tree reuse": compacted, "sliced": sliced, "PUCT": puct, "HexarenaBot": bot, "AI df-pn": vc_dfpn,
         "solver df-pn": dfpn}
found = {}
for name, run in paths.items():
    del compiled[:]
    run()
    found[name] = list(compiled)
print(json.dumps(found))
"""


def _run(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"{argv[:4]} still running after {TIMEOUT} s; its output so far: {e.stdout!r} {e.stderr!r}")


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def second_process(tmp_path_factory):
    """Warm ``GAME`` in a fresh numba cache (and hexarena's), then run every path in a new process: what each
    compiled, what the process said on stderr, and the cache files it added."""
    root = tmp_path_factory.mktemp("warm")
    env = dict(os.environ, PYTHONPATH=SRC, NUMBA_CACHE_DIR=str(root / "numba"), HEXARENA_CACHE=str(root / "hexarena"),
               HEXARENA_COMPILE_NOTICE="1")
    warm = _run([sys.executable, "-c", "from hexarena.cli import entry; entry()", "warmup", GAME, "--workers", "1"],
                env)
    assert warm.returncode == 0, warm.stderr
    before = _files(root)
    run = _run([sys.executable, "-c", PATHS, GAME], env)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.splitlines()[-1]), run.stderr, _files(root) - before


@pytest.mark.slow
@pytest.mark.timeout(2 * TIMEOUT + 60)  # a fresh cache: the warm-up compiles from nothing
@pytest.mark.parametrize("path", ["rules", "ai:5", "uct", "nopolicy", "pns", "variants", "tree reuse", "sliced",
                                  "PUCT", "HexarenaBot", "AI df-pn", "solver df-pn"])
def test_after_warmup_a_new_process_compiles_nothing(second_process, path):
    compiled, _, _ = second_process
    assert compiled[path] == []


@pytest.mark.slow
@pytest.mark.timeout(2 * TIMEOUT + 60)  # a fresh cache: the warm-up compiles from nothing
def test_after_warmup_a_new_process_says_nothing_and_adds_nothing_to_the_cache(second_process):
    _, stderr, added = second_process
    assert "compiling" not in stderr
    assert added == set()


IMPORTS = """
import os, sys
from hexarena.kernel_cache import sources
if sys.argv[1] == "games first":
    import hexarena
    for name in hexarena.GAMES:
        hexarena.load(name)
import hexarena.ai.mcts
print(sorted(os.path.basename(f) for f in sources({"hexarena.ai.mcts"})))
"""


def test_a_modules_sources_do_not_depend_on_what_was_imported_before():
    env = dict(os.environ, PYTHONPATH=SRC)
    runs = [_run([sys.executable, "-c", IMPORTS, order], env) for order in ("games first", "mcts first")]
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    assert runs[0].stdout == runs[1].stdout
