"""``hexarena warmup``: compile every game's rules kernels and the default
AI's search into numba's on-disk cache, so that the first AI move in
``hexarena play`` or the web app does not wait for numba.

``./dev`` runs it in its set-up step whenever it (re)installs the package;
a game's search that is already cached loads in a fraction of a second, so
running it again costs little.  The games are warmed in parallel processes
(numba compiles on one core).
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from typing import TextIO

from . import GAMES, load
from .games import game_class
from .ai.mcts import MCTSAgent, search_ready

WARM_SIMULATIONS = 16  # enough to run every part of the search once


def warm_game(name: str) -> tuple[str, float, bool]:
    """Compile (or load) ``name``'s kernels, facade paths, final scores and
    level-5 AI search at the default options; (name, seconds taken, whether the
    search had to be compiled)."""
    start = time.perf_counter()
    game = load(name)
    compiled = not search_ready(game.kernels)
    state = game.new_state()
    state.play(state.legal_moves()[0])  # the facade: legal list, is_legal, apply
    state.playout(seed=1)  # the random playout kernel
    end = state.array.copy()
    game.kernels.playout(end, game.tables)
    game.scores(end)  # a finished game's scores (Lhexus's exact packing, its search compiled apart)
    # the search as `--vs ai:5` and the web app's AI run it (the proof-number search included)
    MCTSAgent(level=5, simulations=WARM_SIMULATIONS, seed=1).hint(state)
    return name, time.perf_counter() - start, compiled


def warm(games: list[str], out: TextIO, workers: int | None = None) -> int:
    """Warm ``games`` (each in a worker process), saying what is done; the exit code."""
    workers = max(1, min(len(games), workers or os.cpu_count() or 1))
    print(f"warming numba's cache: rules kernels and the AI's search for {len(games)} games "
          f"({workers} processes; compiling takes a few minutes the first time, seconds after)", file=out, flush=True)
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers, initializer=_quiet) as pool:
        for name, seconds, compiled in pool.map(warm_game, games):
            what = "compiled" if compiled else "already cached"
            print(f"  {name:<15} {seconds:6.1f} s ({what})", file=out, flush=True)
    print(f"warm-up done in {time.perf_counter() - start:.0f} s", file=out, flush=True)
    return 0


def _quiet() -> None:
    """In a worker: no "hexarena: compiling ..." lines (hexarena.compiling), warm() says what is done."""
    os.environ["HEXARENA_COMPILE_NOTICE"] = "0"


def default_games() -> list[str]:
    """Every game, the slow ones to compile first (``Game.SLOW_TO_COMPILE``: so the processes finish together)."""
    return sorted(GAMES, key=lambda g: not game_class(g).SLOW_TO_COMPILE)
