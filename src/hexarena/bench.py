"""Speed figures: random playouts per second, plies (atomic moves) per second
and the mean game length for each game, beside OpenSpiel's C++ rollouts and
plies per second on havannah(8) and hex(11) measured in the same run; with
``ai=True`` MCTS simulations per second beside OpenSpiel's C++ MCTS (one
random rollout per simulation) on havannah(8).  Plies per second is the fair
comparison: games whose random games are short play many playouts.

Every figure is per second of this process's CPU time (``time.process_time``;
all the loops measured, OpenSpiel's included, run on one thread), so that
other work on a shared machine slows the figures less and the ratios, taken
from one run, hardly at all.

OpenSpiel is an optional extra (``pip install 'hexarena[bench]'``); when it
is missing the benchmark tries to install it and otherwise reports without
the ratios.
"""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, TextIO

from . import load
from .games import game_class

def bench_setups(name: str) -> tuple[tuple[str, dict[str, Any]], ...]:
    """What game ``name`` is measured on: ``(label, options)`` pairs (``Game.BENCH_SETUPS``)."""
    return game_class(name).BENCH_SETUPS


OPENSPIEL_REFS = ("havannah(board_size=8)", "hex(board_size=11)")
OPENSPIEL_MCTS_REF = "havannah(board_size=8)"
MCTS_VARIANTS = ("uct", "enhanced")
OPENSPIEL_VERSION = "2.0.2"
clock = time.process_time  # CPU seconds of this process (see the module's docstring)


def rate(batch: Callable[[int], Any], seconds: float, first: int = 64) -> float:
    """Calls per second of ``batch(k)`` (which does k units), over ``seconds``."""
    return measure(batch, seconds, first)[0]


def measure(batch: Callable[[int], Any], seconds: float, first: int = 64) -> tuple[float, list[Any]]:
    """Units per second of ``batch(k)`` (which does k units) over ``seconds``,
    and what each timed call returned."""
    batch(4)  # compile / warm up
    done, k, results, start = 0, first, [], clock()
    while True:
        results.append(batch(k))
        done += k
        elapsed = clock() - start
        if elapsed >= seconds:
            return done / elapsed, results
        k = min(k * 2, max(k, int(done / elapsed * 0.25)))


@dataclass(frozen=True)
class PlayoutSpeed:
    """One game setup's random playouts: playouts and plies per second, mean plies per game."""

    playouts_per_s: float
    plies_per_s: float
    mean_plies: float


def playout_speed(name: str, options: dict[str, Any], seconds: float) -> PlayoutSpeed:
    """Random playouts of ``name`` with ``options`` (the game's numba loop
    from the initial position), timed over ``seconds``."""
    game = load(name, **options)
    s0 = game.initial_array()
    per_s, counts = measure(lambda k: game.kernels.counted_playouts(s0, game.tables, k), seconds)
    games = sum(int(c[:3].sum()) for c in counts)
    plies = sum(int(c[3]) for c in counts)
    mean = plies / games
    return PlayoutSpeed(per_s, per_s * mean, mean)


def playout_rate(name: str, options: dict[str, Any], seconds: float) -> float:
    """Random playouts per second of ``name`` with ``options`` (numba loop)."""
    return playout_speed(name, options, seconds).playouts_per_s


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
    done, start = 0, clock()
    while clock() - start < seconds:
        one_step()
        done += unit
    return done / (clock() - start)


def openspiel_mean_plies(game_string: str, games: int = 200, seed: int = 7) -> float:
    """The mean length in plies of uniformly random games of OpenSpiel's
    ``game_string`` (played through its Python API: only lengths are wanted)."""
    import pyspiel

    game, rng, plies = pyspiel.load_game(game_string), random.Random(seed), 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return plies / games


def openspiel_playout_speed(game_string: str, seconds: float) -> PlayoutSpeed:
    """OpenSpiel's C++ rollouts per second, and plies per second: that times
    the mean random game's length (the rollouts start a move or two into the
    game, so this is a slight overestimate in OpenSpiel's favour)."""
    per_s = openspiel_rollout_rate(game_string, seconds)
    mean = openspiel_mean_plies(game_string)
    return PlayoutSpeed(per_s, per_s * mean, mean)


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
        start = clock()
        bot.choose(state)
        elapsed += clock() - start
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
        start = clock()
        bot.step(state)
        return clock() - start

    search(100)
    sims = 1000
    done, elapsed = 0, 0.0
    while elapsed < seconds:
        dt = search(sims)
        done, elapsed = done + sims, elapsed + dt
        sims = max(1000, min(int(sims / max(dt, 1e-3) * 0.5), 200_000))
    return done / elapsed


def setups(games: list[str]) -> list[tuple[str, str, dict[str, Any]]]:
    """(game, setup label, options) for every setup the bench measures of ``games``."""
    return [(name, label, options) for name in games for label, options in bench_setups(name)]


def run_bench(games: list[str], seconds: float, openspiel: bool, out: TextIO, ai: bool = False,
              as_json: bool = False) -> int:
    """Measure ``games`` and print a line per figure, or (``as_json``) one JSON object at the end."""
    if ai:
        return run_ai_bench(games, seconds, openspiel, out, as_json)
    text = None if as_json else out
    refs: dict[str, PlayoutSpeed] = {}
    if openspiel and _openspiel_or_note(out):
        for ref in OPENSPIEL_REFS:
            refs[ref] = r = openspiel_playout_speed(ref, seconds)
            _say(text, f"openspiel {ref:<49} {r.playouts_per_s:>10,.0f} rollouts/s {r.plies_per_s:>12,.0f} plies/s"
                       f"  {r.mean_plies:6.1f} plies a game (C++)")
    rows = []
    for name, label, options in setups(games):
        r = playout_speed(name, options, seconds)
        rows.append({"game": name, "setup": label, "options": options, **asdict(r)})
        ratios = "  ".join(f"{r.plies_per_s / v.plies_per_s:5.2f}x {k.split('(')[0]}" for k, v in refs.items())
        _say(text, f"hexarena {name + ' ' + label:<50} {r.playouts_per_s:>10,.0f} playouts/s {r.plies_per_s:>12,.0f} "
                   f"plies/s  {r.mean_plies:6.1f} plies a game  {ratios}")
    if as_json:
        print(json.dumps({"reference": {k: {"rollouts_per_s": v.playouts_per_s, "plies_per_s": v.plies_per_s}
                                        for k, v in refs.items()}, "games": rows}), file=out)
    elif refs:
        print("(ratios: plies/s against OpenSpiel's plies/s)", file=out)
    return 0


def run_ai_bench(games: list[str], seconds: float, openspiel: bool, out: TextIO, as_json: bool = False) -> int:
    text = None if as_json else out
    ref = 0.0
    if openspiel and _openspiel_or_note(out):
        ref = openspiel_mcts_rate(OPENSPIEL_MCTS_REF, seconds)
        _say(text, f"openspiel {OPENSPIEL_MCTS_REF:<59} {ref:>10,.0f} MCTS simulations/s (C++ MCTSBot, 1 rollout)")
    rows = []
    for name, label, options in setups(games):
        for variant in MCTS_VARIANTS:
            r = mcts_rate(name, options, variant, seconds)
            rows.append({"game": name, "setup": label, "options": options, "variant": variant,
                         "simulations_per_s": r})
            ratio = f"{r / ref:5.2f}x havannah MCTS" if ref else ""
            _say(text, f"hexarena {name + ' ' + label:<50} {variant:<9} {r:>10,.0f} simulations/s  {ratio}")
    if as_json:
        reference = {OPENSPIEL_MCTS_REF: {"simulations_per_s": ref}} if ref else {}
        print(json.dumps({"reference": reference, "games": rows}), file=out)
    return 0


def _openspiel_or_note(out: TextIO) -> bool:
    """Is OpenSpiel there (installing it if it can)?  If not, say so on stderr."""
    if openspiel_available():
        return True
    print("note: OpenSpiel is not installed and could not be installed; no ratios", file=sys.stderr)
    return False


def _say(out: TextIO | None, line: str) -> None:
    if out is not None:
        print(line, file=out, flush=True)
