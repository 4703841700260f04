"""Speed figures: random playouts per second for each game, beside
OpenSpiel's C++ rollouts on havannah(8) and hex(11) measured in the same run;
with ``ai=True`` MCTS simulations per second beside OpenSpiel's C++ MCTS
(one random rollout per simulation) on havannah(8).

OpenSpiel is an optional extra (``pip install 'hexarena[bench]'``); when it
is missing the benchmark tries to install it and otherwise reports without
the ratios.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import time
from typing import Any, Callable, TextIO

from . import load

# What each game is measured on: (label, options).
BENCH_SETUPS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "projective-hex": [("n=6 (108 cells, PBeM size 7)", {"size": 6, "opening": "none"}),
                       ("n=7 (147 cells)", {"size": 7, "opening": "none"})],
    "lisbon": [("9/8 (192 cells), progressive", {}), ("9/8 (192 cells), 12*", {"sequence": "12*"})],
    "lhexus": [("base 10 (271 cells)", {"size": 10}), ("base 8 (169 cells)", {"size": 8})],
    "iqishiqi": [("base 8 (169 cells)", {"size": 8})],
    "weituweiqi": [("base 6 (91 cells)", {"size": 6})],
    "hex-pushpin": [("base 4 (37 cells)", {"size": 4}), ("base 6 (91 cells)", {"size": 6})],
    "push-and-pull": [("base 7 (127 cells)", {"size": 7})],
    "palago": [("48 tiles, standard", {}), ("48 tiles, eat-enemy", {"variant": "eat-enemy"}),
               ("48 tiles, must-contain", {"variant": "must-contain"})],
}
OPENSPIEL_REFS = ("havannah(board_size=8)", "hex(board_size=11)")
OPENSPIEL_MCTS_REF = "havannah(board_size=8)"
MCTS_VARIANTS = ("uct", "enhanced")
OPENSPIEL_VERSION = "2.0.2"


def rate(batch: Callable[[int], Any], seconds: float, first: int = 64) -> float:
    """Calls per second of ``batch(k)`` (which does k units), over ``seconds``."""
    batch(4)  # compile / warm up
    done, k, start = 0, first, time.perf_counter()
    while True:
        batch(k)
        done += k
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed
        k = min(k * 2, max(k, int(done / elapsed * 0.25)))


def playout_rate(name: str, options: dict[str, Any], seconds: float) -> float:
    """Random playouts per second of ``name`` with ``options`` (numba loop)."""
    game = load(name, **options)
    s0 = game.new_state()._s
    return rate(lambda k: game.kernels.playouts(s0, game.tables, k), seconds)


def openspiel_available(install: bool = True) -> bool:
    try:
        importlib.import_module("pyspiel")
        return True
    except ImportError:
        pass
    if not install:
        return False
    cmd = [sys.executable, "-m", "pip", "install", "-q", f"open-spiel=={OPENSPIEL_VERSION}"]
    if subprocess.run(cmd, capture_output=True).returncode != 0:
        return False
    importlib.invalidate_caches()
    try:
        importlib.import_module("pyspiel")
        return True
    except ImportError:
        return False


def openspiel_rollout_rate(game_string: str, seconds: float) -> float:
    """Random rollouts per second through OpenSpiel's C++ MCTS bot: its
    RandomRolloutEvaluator does the rollouts at each of few simulations."""
    import pyspiel

    game = pyspiel.load_game(game_string)
    state = game.new_initial_state()
    rollouts_per_eval, sims = 50, 4
    unit = rollouts_per_eval * sims

    def one_step() -> None:
        evaluator = pyspiel.RandomRolloutEvaluator(rollouts_per_eval, 7)
        pyspiel.MCTSBot(game, evaluator, 2.0, sims, 1000, False, 7, False).step(state)

    one_step()
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        one_step()
        done += unit
    return done / (time.perf_counter() - start)


def mcts_rate(name: str, options: dict[str, Any], variant: str, seconds: float) -> float:
    """MCTS simulations per second from the initial position (fresh trees of
    at most half a second each, so the tree never fills up); the tree search
    alone, without a game's proof-number search share (``Config.pns``)."""
    from .ai.mcts import MCTSAgent

    state = load(name, **options).new_state()
    variant += ":pns=0"
    MCTSAgent(simulations=8, variant=variant, seed=1).choose(state)  # compile or load the search
    done, elapsed = 0, 0.0
    while elapsed < seconds:
        bot = MCTSAgent(seconds=min(0.5, seconds), variant=variant, seed=1)
        start = time.perf_counter()
        bot.choose(state)
        elapsed += time.perf_counter() - start
        done += bot.last_simulations
    return done / elapsed


def openspiel_mcts_rate(game_string: str, seconds: float) -> float:
    """Simulations per second of OpenSpiel's C++ MCTS bot (UCT, one random
    rollout per simulation) searching the initial position."""
    import pyspiel

    game = pyspiel.load_game(game_string)
    state = game.new_initial_state()

    def search(sims: int) -> float:
        evaluator = pyspiel.RandomRolloutEvaluator(1, 7)
        bot = pyspiel.MCTSBot(game, evaluator, 2.0, sims, 1000, False, 7, False)
        start = time.perf_counter()
        bot.step(state)
        return time.perf_counter() - start

    search(100)
    sims = 1000
    done, elapsed = 0, 0.0
    while elapsed < seconds:
        dt = search(sims)
        done, elapsed = done + sims, elapsed + dt
        sims = max(1000, min(int(sims / max(dt, 1e-3) * 0.5), 200_000))
    return done / elapsed


def run_bench(games: list[str], seconds: float, openspiel: bool, out: TextIO, ai: bool = False) -> int:
    if ai:
        return run_ai_bench(games, seconds, openspiel, out)
    refs: dict[str, float] = {}
    if openspiel:
        if openspiel_available():
            for ref in OPENSPIEL_REFS:
                refs[ref] = openspiel_rollout_rate(ref, seconds)
                print(f"openspiel {ref:<28} {refs[ref]:>12,.0f} rollouts/s (C++)", file=out)
        else:
            print("note: OpenSpiel is not installed and could not be installed; no ratios", file=out)
    for name in games:
        for label, options in BENCH_SETUPS.get(name, [("default", {})]):
            r = playout_rate(name, options, seconds)
            ratios = "  ".join(f"{r / v:5.2f}x {k.split('(')[0]}" for k, v in refs.items())
            print(f"hexarena {name} {label:<24} {r:>12,.0f} playouts/s  {ratios}", file=out)
    return 0


def run_ai_bench(games: list[str], seconds: float, openspiel: bool, out: TextIO) -> int:
    ref = 0.0
    if openspiel:
        if openspiel_available():
            ref = openspiel_mcts_rate(OPENSPIEL_MCTS_REF, seconds)
            print(f"openspiel {OPENSPIEL_MCTS_REF:<28} {ref:>12,.0f} MCTS simulations/s (C++ MCTSBot, 1 rollout)",
                  file=out)
        else:
            print("note: OpenSpiel is not installed and could not be installed; no ratios", file=out)
    for name in games:
        for label, options in BENCH_SETUPS.get(name, [("default", {})]):
            for variant in MCTS_VARIANTS:
                r = mcts_rate(name, options, variant, seconds)
                ratio = f"{r / ref:5.2f}x havannah MCTS" if ref else ""
                print(f"hexarena {name} {label:<24} {variant:<9} {r:>10,.0f} simulations/s  {ratio}", file=out)
    return 0
