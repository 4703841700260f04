"""The solvers' pruning rules for Projective Hex against a plain minimax
(tests/solve_reference_ph.py), each on thousands of positions near the end:
sizes 2 (2 to 10 stones of 12 cells) and 3 (14 to 20 stones of 27; 12 to 20,
3,000 positions, marked slow).

Each rule is a claim about values, checked as such: a dead cell filled with
either colour leaves the value; where the opponent threatens to win at
once on two cells the mover loses, on one the block keeps the value; a
symmetry of the board keeps it; and df-pn, with every rule on, finds it.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import hexarena
from hexarena.ai.positions import PositionKeys
from hexarena.analysis.solve_dfpn import DfpnSolver, dead_cells, neighbour_rings
from hexarena.analysis.solve_search import make_threats
from hexarena.games.base import TO_MOVE, WINNER

from .solve_reference_ph import PlainMinimax, image, with_stone

# (size, fewest stones, most stones, positions); 12 and 13 stones cost the plain minimax most (0.4 and
# 0.07 s a position), so the normal suite starts size 3 at 14 and the slow one at 12
SPREADS = [(2, 2, 10, 1500), (3, 14, 20, 1000), pytest.param((3, 12, 20, 3000), marks=pytest.mark.slow)]


def positions(game, low: int, high: int, count: int, seed: int) -> list[np.ndarray]:
    """``count`` random positions of ``low`` to ``high`` stones, none over."""
    rng = random.Random(seed)
    n, out = game.topology.ncells, []
    while len(out) < count:
        s = game.new_state().array.copy()
        for c in rng.sample(range(n), rng.randint(low, high)):
            game.kernels.apply(s, game.tables, c)
            if s[WINNER] >= 0:
                break
        else:
            out.append(s)
    return out


@pytest.fixture(scope="module", params=SPREADS, ids=lambda p: f"size{p[0]}-from{p[1]}")
def spread(request):
    """A game, its plain minimax and the spread's positions with their plain values."""
    size, low, high, count = request.param
    game = hexarena.load("projective-hex", size=size, opening="none")
    plain = PlainMinimax(game)
    found = positions(game, low, high, count, seed=size)
    return game, plain, [(s, plain.outcome(s)) for s in found]


def wins_at_once(game, s: np.ndarray) -> bool:
    for c in np.flatnonzero(game.stones(s) == 0):
        x = s.copy()
        game.kernels.apply(x, game.tables, int(c))
        if x[WINNER] >= 0:
            return True
    return False


def test_the_positions_are_mixed(spread):
    game, _, valued = spread
    assert {v for _, v in valued} == {1, -1}


def test_dead_cells_keep_the_value(spread):
    game, plain, valued = spread
    rings = neighbour_rings(game)
    checked = 0
    for s, value in valued:
        for c in dead_cells(game, s, rings):
            for colour in (1, 2):
                x = with_stone(game, s, c, colour)
                assert x[WINNER] < 0 and plain.outcome(x) == value, (s.tolist(), c, colour)
                checked += 1
    assert checked >= 200


def test_forced_blocks_keep_the_value(spread):
    """No win at once for the mover: two opponent threats lose; with one, the block is as good as any move."""
    game, plain, valued = spread
    threats = make_threats(game.kernels.apply)
    seen = {0: 0, 1: 0, 2: 0}
    for s, value in valued:
        if wins_at_once(game, s):
            assert value == 1
            continue
        S = np.stack([s, s])
        moves = np.empty((2, game.num_actions), dtype=np.int32)
        n = game.kernels.legal(s, game.tables, moves[0])
        found = threats(S, 0, game.tables, moves, n, game.topology.ncells, s[TO_MOVE])
        seen[found] += 1
        if found == 2:
            assert value == -1, s.tolist()
        elif found == 1:
            after = s.copy()
            game.kernels.apply(after, game.tables, int(moves[0, 0]))
            assert after[WINNER] < 0 and -plain.outcome(after) == value, s.tolist()
    assert min(seen.values()) >= 20, seen


def test_symmetries_keep_the_value(spread):
    game, plain, valued = spread
    perms = PositionKeys(game).perms
    for i, (s, value) in enumerate(valued[:300]):
        x = image(game, s, perms[1 + i % (len(perms) - 1)])
        assert x[WINNER] < 0 and plain.outcome(x) == value, s.tolist()


@pytest.mark.parametrize("dead", [True, False], ids=["dead-cells", "no-dead-cells"])
def test_dfpn_finds_the_plain_value(spread, dead):
    game, _, valued = spread
    dfpn = DfpnSolver(game, table_bits=20, dead_cells=dead)
    for s, value in valued:
        assert dfpn.value(s) == value, s.tolist()
