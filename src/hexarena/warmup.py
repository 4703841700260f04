"""``hexarena warmup``: compile every game's rules kernels and every search
an installed user reaches into numba's on-disk cache, so that no first
move in ``hexarena play``, the web app, the lab or a program waits for
numba (nor says "compiling the AI's search").

Each game's :data:`PATHS` run once, small: the rules and the facade; the
MCTS of every variant (with and without the game's playout policy where it
has one, the proof-number search of ``pns``, a kept tree moved down and
compacted, as ``uct``, ``enhanced``, the levels and the web app's sliced
searches run it); the PUCT search with a network's evaluator; OpenSpiel's
``HexarenaBot`` (with the ``interop`` extra); the exact searches' df-pn
(solvable games).  ``./dev`` runs it in its set-up step whenever it
(re)installs the package; what is cached already loads in a fraction of a
second.  The games are warmed in parallel processes (numba compiles on one
core).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import suppress
from dataclasses import replace
from typing import TextIO

import numpy as np

from . import GAMES, load
from .compiling import compiles
from .extras import missing
from .games import game_class
from .games.base import Game

WARM_SIMULATIONS = 16  # enough to run every part of the search once
WARM_MOVES = 3  # self-play moves: the second and third search reuse the kept tree
WARM_TABLE_BITS = 10  # the df-pn's table (its size changes no compiled signature)


def warm_rules(game: Game) -> None:
    """The facade's paths (legal list, is_legal, apply), the random playout and a finished game's scores."""
    state = game.new_state()
    state.play(state.legal_moves()[0])
    state.playout(seed=1)
    end = state.array.copy()
    game.kernels.playout(end, game.tables)
    game.scores(end)  # a finished game's scores (Lhexus's exact packing, its search compiled apart)


def warm_mcts(game: Game) -> None:
    """Every specialisation of the MCTS search: with the game's policy and without (``-nopolicy``), each with
    the proof-number search (``pns``); a few self-play moves, so the kept tree is moved down; and the
    compaction of a kept tree that has grown past half its room."""
    from .ai.mcts import MCTSAgent, compact, config_of, descend, new_tree

    policies = (True, False) if hasattr(game.kernels, "policy") else (True,)
    for policy in policies:
        config = replace(config_of("enhanced", game), policy=policy, pns=0.25)
        agent = MCTSAgent(simulations=WARM_SIMULATIONS, seed=1, variant=config, solutions=False)
        _self_play(game, agent.choose)
    ints, flts, meta = new_tree(64)
    descend(ints, 0, 0)
    compact(ints, flts, meta, 0)  # the kept tree's new root, an int as descend gives it


def warm_levels(game: Game) -> None:
    """The levels' search as ``--vs ai:5`` and the web app run it, shipped solutions read first."""
    from .ai.mcts import MCTSAgent

    MCTSAgent(level=5, simulations=WARM_SIMULATIONS, seed=1).hint(game.new_state())


def warm_puct(game: Game) -> None:
    """The PUCT search (its descent specialised to the game, its tree), with an evaluator that reads the
    leaves' observation planes as a network does."""
    from .ai.puct import Leaves, PUCTAgent

    def uniform(leaves: Leaves) -> tuple[np.ndarray, np.ndarray]:
        leaves.planes  # noqa: B018  # the observation a network reads
        return np.ones(leaves.legal.shape, np.float32), np.zeros(len(leaves), np.float32)

    _self_play(game, PUCTAgent(uniform, simulations=WARM_SIMULATIONS, batch=4, seed=1).choose)


def warm_openspiel(game: Game) -> None:
    """OpenSpiel's view of the game and ``HexarenaBot`` playing it (with the ``interop`` extra)."""
    if missing("interop"):
        return
    from .interop.openspiel import HexarenaBot, load_game

    state = load_game(game.name, **game.options).new_initial_state()
    bot = HexarenaBot(f"mcts:uct:sims={WARM_SIMULATIONS}", seed=1)
    for _ in range(WARM_MOVES):
        if state.is_terminal():
            break
        state.legal_actions_mask()
        state.observation_tensor(state.current_player())
        str(state)  # the position as OpenSpiel prints it
        state.apply_action(bot.step(state))


def warm_proofs(game: Game) -> None:
    """For a solvable game: the keys of its shipped solutions, the df-pn of ``hexarena solve`` and the AI's
    below the shipped solutions (Projective Hex's, with its virtual connections; each compiles when made)."""
    if not game.SOLVABLE:
        return
    from .search.positions import PositionKeys
    from .search.dfpn import DfpnSolver
    from .search.vc import VcDfpn

    PositionKeys(game).key(game.new_state().array)  # a shipped solution looked up (a State's read-only array)
    DfpnSolver(game, WARM_TABLE_BITS)
    with suppress(ValueError):  # not a game (or a board) the virtual connections know
        VcDfpn(game, WARM_TABLE_BITS)


PATHS: tuple[Callable[[Game], None], ...] = (warm_rules, warm_mcts, warm_levels, warm_puct, warm_openspiel,
                                            warm_proofs)


def _self_play(game: Game, choose: Callable) -> None:
    """``WARM_MOVES`` moves of ``choose`` against itself from the start."""
    state = game.new_state()
    for _ in range(WARM_MOVES):
        if state.is_over():
            break
        state.play(choose(state))


def warm_game(name: str) -> tuple[str, float, int]:
    """Compile (or load) ``name``'s kernels and every search path (:data:`PATHS`) at the default options;
    (name, seconds taken, how many functions numba compiled: 0 when all came from its cache)."""
    start, before = time.perf_counter(), compiles()
    game = load(name)
    for path in PATHS:
        path(game)
    return name, time.perf_counter() - start, compiles() - before


def warm(games: list[str], out: TextIO, workers: int | None = None) -> int:
    """Warm ``games`` (each in a worker process), saying what is done; the exit code."""
    workers = max(1, min(len(games), workers or os.cpu_count() or 1))
    print(f"warming numba's cache: rules kernels and every search for {len(games)} games "
          f"({workers} processes; compiling takes a few minutes the first time, seconds after)", file=out, flush=True)
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers, initializer=_quiet) as pool:
        for name, seconds, compiled in pool.map(warm_game, games):
            what = f"compiled {compiled} functions" if compiled else "already cached"
            print(f"  {name:<15} {seconds:6.1f} s ({what})", file=out, flush=True)
    print(f"warm-up done in {time.perf_counter() - start:.0f} s", file=out, flush=True)
    return 0


def _quiet() -> None:
    """In a worker: no "hexarena: compiling ..." lines (hexarena.compiling), warm() says what is done."""
    os.environ["HEXARENA_COMPILE_NOTICE"] = "0"


def default_games() -> list[str]:
    """Every game, the slow ones to compile first (``Game.SLOW_TO_COMPILE``: so the processes finish together)."""
    return sorted(GAMES, key=lambda g: not game_class(g).SLOW_TO_COMPILE)
