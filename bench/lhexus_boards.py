"""The boards of ``bench/lhexus_scoring.py``: colours per cell (0 empty, 1
black, 2 white) of base-N Lhexus positions, in four families.

- ``fill``: one colour on each cell with a probability drawn from [0.5, 1];
- ``playout``: positions along the game's random (filling) playouts;
- ``mcts``: positions along games of ``mcts:2`` against ``mcts:uct:sims=40``;
- ``dense``: legal games where one player grows every group each turn and
  places a new group while he can, never on a random tenth of the cells
  (5 to 15%), while the other passes: the issue's dense boards.
"""

from __future__ import annotations

from typing import cast

import numpy as np

import hexarena
from hexarena.ai import parse_agent
from hexarena.ai.agents import Searcher
from hexarena.games.base import State
from hexarena.games.lhexus_rules import BOARD
from hexarena.kernels import seed as seed_numba

FAMILIES = ("fill", "playout", "mcts", "dense")


def colours(state: State) -> np.ndarray:
    """The colour of each cell of ``state`` (int8)."""
    n = state.game.topology.ncells
    return state.array[BOARD: BOARD + n].astype(np.int8)


def fill_boards(size: int, count: int, rng: np.random.Generator) -> list[np.ndarray]:
    """One-colour boards, each cell black with a probability from [0.5, 1]."""
    n = hexarena.load("lhexus", size=size).topology.ncells
    return [(rng.random(n) < rng.uniform(0.5, 1.0)).astype(np.int8) for _ in range(count)]


def playout_boards(size: int, count: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Every third position (from a random ply) of seeded recorded playouts."""
    game = hexarena.load("lhexus", size=size)
    out: list[np.ndarray] = []
    seed = int(rng.integers(1 << 30))
    while len(out) < count:
        seed += 1
        start = game.new_state()
        actions = np.zeros(game.num_actions * 8, np.int32)
        movers = np.zeros_like(actions)
        seed_numba(seed)
        written = game.kernels.recorded_playout(start.array.copy(), game.tables, actions, movers)
        state = game.new_state()
        for i, a in enumerate(actions[:written]):
            state.apply(int(a))
            if i % 3 == seed % 3:
                out.append(colours(state))
    return out[:count]


def mcts_boards(size: int, count: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Every other position of seeded ``mcts:2`` vs ``mcts:uct:sims=40`` games."""
    game = hexarena.load("lhexus", size=size)
    out: list[np.ndarray] = []
    specs = [parse_agent("mcts:2"), parse_agent("mcts:uct:sims=40")]
    while len(out) < count:
        seeds = rng.integers(1 << 30, size=2)
        agents = [spec.make(int(s)) for spec, s in zip(specs, seeds, strict=True)]
        state = game.new_state()
        while (mover := state.to_move) is not None:
            state.play(cast(Searcher, agents[mover]).hint(state)[0])
            if state.ply % 2 == 0:
                out.append(colours(state))
    return out[:count]


def dense_game(size: int, rng: np.random.Generator, holes: float) -> list[np.ndarray]:
    """The positions after each turn of a legal game where the second
    player (Black, declining the White stone) fills the board but for a
    random ``holes`` share of cells and the first player passes."""
    state = hexarena.load("lhexus", size=size).new_state()
    n = state.game.topology.ncells
    avoid = rng.random(n) < holes
    state.apply(int(rng.integers(n)))
    state.play("decline")
    out = []
    while not state.is_over():
        if state.to_move == 0:
            state.play("end")
            continue
        grow, new = state.game.growth_cells(state.array)  # type: ignore[attr-defined]
        cells = np.flatnonzero(grow & ~avoid)
        if len(cells):
            state.apply(int(rng.choice(cells)))
            continue
        cells = np.flatnonzero(new & ~avoid)
        state.apply(int(rng.choice(cells)) if len(cells) else n)
        out.append(colours(state))
    return out


def dense_boards(size: int, count: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Positions of :func:`dense_game` from half full on (holes 5 to 15%)."""
    out: list[np.ndarray] = []
    while len(out) < count:
        out += [b for b in dense_game(size, rng, rng.uniform(0.05, 0.15)) if (b > 0).mean() >= 0.5]
    return out[:count]


def boards(family: str, size: int, count: int, seed: int) -> list[np.ndarray]:
    """``count`` boards of ``family`` (one of :data:`FAMILIES`)."""
    make = {"fill": fill_boards, "playout": playout_boards, "mcts": mcts_boards, "dense": dense_boards}[family]
    return make(size, count, np.random.default_rng([seed, FAMILIES.index(family)]))
