"""The solvers' pruning rules for Projective Hex against a plain minimax
(tests/solve_reference_ph.py), each on thousands of positions near the end:
sizes 2 (2 to 10 stones of 12 cells) and 3 (500 positions of 14 to 20 stones of 27; 12 to 20,
3,000 positions, marked slow).

Each rule is a claim about values, checked as such: a dead cell filled with
either colour leaves the value; where the opponent threatens to win at
once on two cells the mover loses, on one the block keeps the value; a
symmetry of the board keeps it; a virtual win (hexarena.search.virtual)
wins whoever moves, even with every cell outside its carrier the
opponent's; a threat wins for the mover, and every move outside the
opponent's threats' carriers loses; and df-pn, with every rule on, finds
the value.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import hexarena
from hexarena.search.positions import PositionKeys
from hexarena.search.dfpn import DfpnSolver, dead_cells
from hexarena.search.loops import compiled
from hexarena.games.base import TO_MOVE, WINNER
from hexarena.games.projective_hex import COLOR0
from hexarena.search.vc import VcDfpn
from hexarena.search.virtual import VIRTUAL_WIN, virtual_analysis

from tests.solve_reference_ph import PlainMinimax, image, with_stone

# (size, fewest stones, most stones, positions); 12 and 13 stones cost the plain minimax most (0.4 and
# 0.07 s a position), so the normal suite starts size 3 at 14 and the slow one at 12
SPREADS = [(2, 2, 10, 1500), (3, 14, 20, 500), pytest.param((3, 12, 20, 3000), marks=pytest.mark.slow)]


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
    _, _, valued = spread
    assert {v for _, v in valued} == {1, -1}


def test_dead_cells_keep_the_value(spread):
    game, plain, valued = spread
    rings = game.dead_cell_rings()
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
    threats = compiled(game.kernels).opponent_wins
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


@pytest.mark.parametrize("search,dead", [(DfpnSolver, True), (DfpnSolver, False), (VcDfpn, True), (VcDfpn, False)],
                         ids=["dead-cells", "no-dead-cells", "virtual", "virtual-no-dead-cells"])
def test_dfpn_finds_the_plain_value(spread, search, dead):
    game, _, valued = spread
    dfpn = search(game, table_bits=20, dead_cells=dead)
    for s, value in valued:
        assert dfpn.value(s) == value, s.tolist()


def colour_of(s: np.ndarray, player: int) -> int:
    return int(s[COLOR0]) if player == 0 else 3 - int(s[COLOR0])


def test_virtual_wins_win_whoever_moves(spread):
    """The colour with a virtual win wins with the opponent to move, even once the opponent
    has every empty cell outside the carrier; and with itself to move."""
    game, plain, valued = spread
    found = 0
    for s, value in valued:
        for player in (0, 1):
            colour = colour_of(s, player)
            code, carrier, _ = virtual_analysis(game, s, colour)
            if code != VIRTUAL_WIN:
                continue
            found += 1
            assert value == (1 if s[TO_MOVE] == player else -1), s.tolist()
            x = s.copy()
            for c in np.flatnonzero(game.stones(s) == 0):
                if c not in carrier:
                    x = with_stone(game, x, int(c), 3 - colour)
            x[TO_MOVE] = 1 - player
            assert x[WINNER] < 0 and plain.outcome(x) == -1, (s.tolist(), sorted(carrier))
    assert found >= 30


def test_threats_win_and_restrict_the_opponent(spread):
    """The mover with a threat wins; facing the opponent's threats, every move outside the
    intersection of their carriers loses (and with no empty cell in it, the mover has lost)."""
    game, plain, valued = spread
    restricted = 0
    for s, value in valued:
        mine = colour_of(s, int(s[TO_MOVE]))
        if virtual_analysis(game, s, mine)[0] != 0:
            assert value == 1, s.tolist()
        code, _, region = virtual_analysis(game, s, 3 - mine)
        if code == VIRTUAL_WIN:
            assert value == -1, s.tolist()
        if code <= 0:
            continue
        empty = [int(c) for c in np.flatnonzero(game.stones(s) == 0)]
        if not set(empty) & region:
            assert value == -1, s.tolist()
        for c in set(empty) - region:
            child = s.copy()
            game.kernels.apply(child, game.tables, c)
            assert child[WINNER] < 0 and plain.outcome(child) == 1, (s.tolist(), c)
            restricted += 1
    assert restricted >= 200
