"""Triad, a toy ninth game written only in this file (tests/games/test_ninth_game.py registers it and walks the
checklist of docs/design.md, "Adding a game", with it).

Two players place stones in turn on the seven cells of a hexhex board of side 2; three own stones in a straight
line (a rim cell, the centre, the opposite rim cell) win; a full board without one is a draw.

>>> from tests.games.ninth_game import Triad
>>> state = Triad().new_state()
>>> for move in ("c2", "b1", "a2", "e2"): _ = state.play(move)
>>> state.legal_moves()
['d1', 'b3', 'd3']
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from hexarena.board import hexhex
from hexarena.games.base import DRAW, HEADER, PLY, TO_MOVE, TURN, WINNER, Game
from hexarena.games.position import Head, PositionTextError
from hexarena.kernels import kernel_set, njit
from hexarena.render import ascii as ascii_render
from hexarena.render import svg as svg_render

BOARD = HEADER  # ncells entries: 0 empty, 1 / 2 the first / second player's stone


class Tables(NamedTuple):
    """What the kernels read besides the position."""

    lines: np.ndarray  # int32[3, 3]: the cells of each straight line through the centre
    ncells: int


@njit
def legal(s, t, out):
    if s[WINNER] >= 0:
        return 0
    k = 0
    for c in range(t.ncells):
        if s[BOARD + c] == 0:
            out[k] = c
            k += 1
    return k


@njit
def lined(s, lines, stone):
    """Whether ``stone`` fills a line."""
    for i in range(lines.shape[0]):
        if s[BOARD + lines[i, 0]] == stone and s[BOARD + lines[i, 1]] == stone and s[BOARD + lines[i, 2]] == stone:
            return True
    return False


@njit
def apply(s, t, a):
    p = s[TO_MOVE]
    s[BOARD + a] = p + 1
    s[PLY] += 1
    s[TURN] += 1
    if lined(s, t.lines, p + 1):
        s[WINNER], s[TO_MOVE] = p, -1
    elif s[PLY] == t.ncells:
        s[WINNER], s[TO_MOVE] = DRAW, -1
    else:
        s[TO_MOVE] = 1 - p


@njit
def playout(s, t):
    moves = np.empty(t.ncells, dtype=np.int32)
    while s[WINNER] < 0:
        n = legal(s, t, moves)
        apply(s, t, moves[np.random.randint(n)])


@njit
def planes(s, t, player, out, cols):
    for c in range(t.ncells):
        v = s[BOARD + c]
        out[2 if v == 0 else (0 if v == player + 1 else 1), cols[c]] = 1.0


class Triad(Game):
    """Three in a line through the centre of a seven-cell board."""

    name = "triad"
    kernels = kernel_set(legal, apply, playout, planes=planes)
    PLANES = ("own", "opponent", "empty")
    tables: Tables

    def setup(self) -> None:
        self.topology = hexhex(2, naming="doubled")
        centre = next(c for c in range(self.topology.ncells) if not self.topology.edge[c])
        nbr = self.topology.nbr[centre]
        lines = [(int(nbr[d]), centre, int(nbr[d + 3])) for d in range(3)]
        self.tables = Tables(np.array(lines, dtype=np.int32), self.topology.ncells)
        self.num_actions, self.state_size = self.topology.ncells, BOARD + self.topology.ncells

    def action_name(self, s: np.ndarray, action: int) -> str:
        return self.topology.name(action)

    def stones(self, s: np.ndarray) -> np.ndarray:
        return s[BOARD:BOARD + self.topology.ncells]

    def rules_status(self, state: Any) -> str:
        if not state.is_over():
            return f"{self.PLAYERS[state.to_move]} to move"
        w = state.winner()
        return "a draw: the board is full" if w is None else f"{self.PLAYERS[w]} wins with three in a line"

    def rules_end_reason(self, s: np.ndarray) -> str:
        return "full" if s[WINNER] == DRAW else "line"

    def ascii(self, state: Any) -> str:
        stones = self.stones(state.array)
        return ascii_render.lettered(self.topology, lambda c: ".xo"[int(stones[c])]) + "\n" + self.status(state)

    def svg(self, state: Any, hints: bool = False, **kw: Any) -> str:
        stones = self.stones(state.array)
        marks = state.legal_actions() if hints else ()
        return svg_render.board(self.topology, lambda c: int(stones[c]), marks=marks, title=self.status(state), **kw)

    def write_position(self, s: np.ndarray) -> tuple[str, dict[str, str]]:
        return self.positions.board.write(self.stones(s), "XO"), {}

    def read_position(self, head: Head) -> np.ndarray:
        """The array of a position text: its stones, and the header they give, which the text's must be."""
        s = self.initial_array()
        self.stones(s)[:] = self.positions.board.read(head.board, "XO")
        x, o = int((self.stones(s) == 1).sum()), int((self.stones(s) == 2).sum())
        lines = [lined(s, self.tables.lines, stone) for stone in (1, 2)]
        if x - o not in (0, 1) or (lines[0] and x == o) or (lines[1] and x > o):
            raise PositionTextError(f"{x} X and {o} O{' with a line' * any(lines)}: no game reaches that")
        winner = 0 if lines[0] else 1 if lines[1] else DRAW if x + o == self.topology.ncells else -1
        s[PLY], s[TURN], s[WINNER], s[TO_MOVE] = x + o, x + o + 1, winner, -1 if winner >= 0 else (x + o) % 2
        if not np.array_equal(head.header(s.copy()), s):
            raise PositionTextError("the mover, turn, step or ply are not those the stones give")
        return s
