"""Lisbon (Bill Taylor and João Pedro Neto, 2004): Havannah on a round board.

The 9/8 hexhex board's 45 perimeter cells form one circle (no corners, no
sides).  Turns place 1, 2, 2, 2, 3, 4, 4, 4, 5, 6, ... stones, each stone of a
turn in a different group.  A group wins when its perimeter cells do not all
fit in an arc of 21 steps (two near-opposite cells, or three with every
clockwise gap under half the perimeter), or when it encloses a region of
non-group cells without perimeter cells (a ring).

This module is the game's facade: the options, notation, facts, status and
drawing.  The rules kernels are in :mod:`hexarena.games.lisbon_rules`, the
position text in :mod:`hexarena.games.lisbon_position`.

>>> import hexarena
>>> s = hexarena.load("lisbon", size=(3, 3)).new_state()
>>> for m in "c3 b2 end d4".split(): _ = s.play(m)
>>> print(s)
a      . . .        a1 .. a3
b     . O . .       b1 .. b4
c    . . X . .      c1 .. c5
d   1 . . x .       d2 .. d5
e    2 . . .        e3 .. e5
      3 4 5
black to move: turn 3, 2 stones (1 placed; 'end' stops the turn here)
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ..board import hexhex
from ..kernels import kernel_set, njit
from ..render import ascii as ascii_render
from ..render import svg as svg_render
from . import lisbon_position
from .base import STEP, TO_MOVE, TURN, WINNER, Game, quoted
from .lisbon_rules import (ALLOW, BLACK, BOARD, EDGES, OFF, RING, SEQUENCES, WHITE, WIN_CELL, WIN_HOW, Tables,
                           allowance, apply, groups_around, identity, is_legal, legal, playout, recorded_playout)
from .options import Option, choice, is_int_between, parse_int
from .position import Head


@njit
def planes(s, t, player, out, cols):
    """The observation planes (``Game.planes``): own stones, the opponent's,
    empty cells, stones placed this turn (either side's: only the mover
    places), cells the group restriction refuses the mover now, the share of
    this turn's allowance still to place (on every cell) and the perimeter cells."""
    over = s[WINNER] >= 0
    own, colour, turn = BLACK + player, 1 + s[TO_MOVE], s[TURN]
    left = 0.0 if over else (s[ALLOW] - s[STEP]) / s[ALLOW]  # stones left / allowance
    groups = np.empty(8, dtype=np.int32)
    for c in range(t.ncells):
        stone, j = s[BOARD + c], cols[c]
        out[0, j], out[1, j], out[2, j] = stone == own, stone == 3 - own, stone == 0
        out[3, j] = stone > 0 and s[t.when + c] == turn
        out[4, j] = stone == 0 and not over and groups_around(s, t, c, colour, turn, groups, False) < 0
        out[5, j], out[6, j] = left, t.ppos[c] >= 0


KERNELS = kernel_set(legal, apply, playout, recorded_playout=recorded_playout, is_legal=is_legal, identity=identity,
                     planes=planes)


MAX_SIDE = 16  # the 16/16 board has 721 cells, set up in ~0.03 s


def parse_size(text: str) -> tuple[int, int]:
    """``"9,8"`` -> ``(9, 8)``: two integers of ASCII digits; ValueError otherwise."""
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError(text)
    return parse_int(parts[0]), parse_int(parts[1])


def _is_size(v: Any) -> bool:
    return isinstance(v, tuple) and len(v) == 2 and all(is_int_between(x, 2, MAX_SIDE) for x in v)


def near_opposite(perimeter: int, i: int, j: int) -> bool:
    """Are perimeter positions i and j near-opposite (cyclic distance ⌊P/2⌋)?

    >>> [j for j in range(45) if near_opposite(45, 0, j)]
    [22, 23]
    """
    d = (j - i) % perimeter
    return min(d, perimeter - d) == perimeter // 2


def triple_wins(perimeter: int, i: int, j: int, k: int) -> bool:
    """Are the three clockwise gaps of positions i, j, k each shorter than the
    near-opposite distance ⌊P/2⌋ (the source's "strictly less than a
    half-perimeter"; on 45 cells: at most 21 steps)?

    >>> triple_wins(45, 0, 21, 24), triple_wins(45, 0, 22, 25)
    (True, False)
    """
    a, b, c = sorted((i % perimeter, j % perimeter, k % perimeter))
    return all(g < perimeter // 2 for g in (b - a, c - b, a + perimeter - c))


def edge_witness(perimeter: int, positions: list[int]) -> tuple[int, ...] | None:
    """A near-opposite pair among ``positions``, else a winning triple, else None."""
    pos = sorted(set(positions))
    for i, j in itertools.combinations(pos, 2):
        if near_opposite(perimeter, i, j):
            return i, j
    for tri in itertools.combinations(pos, 3):
        if triple_wins(perimeter, *tri):
            return tri
    return None


class Lisbon(Game):
    """Lisbon on the alternating a/b hexhex board (default 9/8)."""

    name = "lisbon"
    BENCH_SETUPS = (("9/8 (192 cells), progressive", {}), ("9/8 (192 cells), 12*", {"sequence": "12*"}))
    SLOW_TO_COMPILE = True
    PLAYERS = ("black", "white")
    OPTIONS = {
        "size": Option((9, 8), parse_size, _is_size, f"two integers a,b from 2 to {MAX_SIDE} (e.g. 9,8)",
                       "sides clockwise from the top: a, b, a, b, a, b"),
        "sequence": choice("progressive", SEQUENCES, "stones a turn: 1,2,2,2,3,4,4,4,... or 1 then 2 (12*)"),
    }
    PLANES = ("own", "opponent", "empty", "placed this turn", "blocked this turn", "share of the turn left",
              "perimeter")
    WORDS = ("end",)
    CELL_CODES = 5  # identity: a colour, plus 2 for a stone of this turn
    POSITION_FIELDS = ("win",)
    END_KINDS = {"full-board": "exhaustion"}
    kernels = KERNELS
    tables: Tables

    @classmethod
    def validate_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        size = options.get("size")
        if isinstance(size, list) and len(size) == 2:  # a JSON record's [a, b]
            options = {**options, "size": tuple(size)}
        return super().validate_options(options)

    def setup(self) -> None:
        self.topology = hexhex(*self.options["size"])
        n = self.topology.ncells
        self.perimeter = len(self.topology.perimeter)
        ppos = np.full(n, -1, dtype=np.int32)
        ppos[list(self.topology.perimeter)] = np.arange(self.perimeter, dtype=np.int32)
        links = np.where(self.topology.nbr < 0, n, self.topology.nbr).astype(np.int32)
        self.sequence = SEQUENCES.index(self.options["sequence"])
        par = BOARD + n + 1
        self.tables = Tables(links, ppos, n, self.perimeter, self.perimeter // 2 - 1, self.sequence,
                             *(par + i * n for i in range(4)))
        self.num_actions = n + 1
        self.state_size = par + 4 * n

    def initial_array(self) -> np.ndarray:
        s = super().initial_array()
        s[WIN_CELL] = -1
        s[ALLOW] = self.allowance(1)
        s[BOARD + self.topology.ncells] = OFF
        return s

    def allowance(self, turn: int) -> int:
        """Stones turn ``turn`` (from 1) allows under this game's sequence."""
        return int(allowance(turn, self.sequence))

    def write_position(self, s: np.ndarray) -> tuple[str, dict[str, str]]:
        """The rows (``X`` ``O``, lower case for this turn's stones) and ``win=CELL``
        (:mod:`hexarena.games.lisbon_position`)."""
        return lisbon_position.write(self, s)

    def read_position(self, head: Head) -> np.ndarray:
        return lisbon_position.read(self, head)

    # notation -----------------------------------------------------------
    def action_name(self, s: np.ndarray, action: int) -> str:
        return "end" if action == self.topology.ncells else self.topology.name(action)

    def action_of(self, s: np.ndarray, key: str) -> int | None:
        if key == "end":
            return self.topology.ncells
        c = self.topology.find(key)
        return c if c is not None and self.topology.name(c) == key else None

    def why_illegal(self, s: np.ndarray, text: str) -> str:
        if text == "end":
            return "'end' needs at least one stone placed this turn"
        cell = self.topology.index(text)
        if s[BOARD + cell]:
            return f"{quoted(text)} is occupied"
        mate = self.turn_stone_joined(s, cell)
        if mate is not None:
            return f"{quoted(text)} would join the group of {self.topology.name(mate)!r}, placed this turn"
        return f"{quoted(text)} is not a legal move here"

    # facts ----------------------------------------------------------------
    def stones(self, s: np.ndarray) -> np.ndarray:
        """Colour per cell: 0 empty, 1 black, 2 white."""
        return s[BOARD: BOARD + self.topology.ncells]

    def placed_turn(self, s: np.ndarray) -> np.ndarray:
        """The turn each stone was placed in (0 for empty cells)."""
        when = self.tables.when
        return np.where(self.stones(s) > 0, s[when: when + self.topology.ncells], 0)

    def group(self, s: np.ndarray, cell: int) -> list[int]:
        """The cells of the group holding the stone on ``cell`` (flood fill)."""
        board, nbr = self.stones(s), self.topology.nbr
        colour = board[cell]
        seen, todo = {cell}, [cell]
        while todo:
            c = todo.pop()
            for m in nbr[c]:
                if m >= 0 and board[m] == colour and int(m) not in seen:
                    seen.add(int(m))
                    todo.append(int(m))
        return sorted(seen)

    def turn_stone_joined(self, s: np.ndarray, cell: int) -> int | None:
        """The stone of this turn whose group a mover's stone on ``cell`` would join."""
        colour = 1 + int(s[TO_MOVE])
        board, when = self.stones(s), self.placed_turn(s)
        for m in self.topology.neighbours(cell):
            if board[m] == colour:
                mates = [c for c in self.group(s, m) if when[c] == s[TURN]]
                if mates:
                    return mates[0]
        return None

    def blocked(self, s: np.ndarray) -> np.ndarray:
        """bool per cell: empty but refused to the mover by the group restriction."""
        n = self.topology.ncells
        out = np.zeros(n, dtype=bool)
        if s[WINNER] < 0:
            s, groups = s.copy(), np.empty(8, dtype=np.int32)  # a writable array, as the kernel wants
            for c in np.flatnonzero(self.stones(s) == 0):
                out[c] = groups_around(s, self.tables, int(c), 1 + int(s[TO_MOVE]), int(s[TURN]), groups, False) < 0
        return out

    def enclosed(self, s: np.ndarray, group: list[int]) -> list[int]:
        """Non-group cells cut off from every perimeter cell by ``group``."""
        inside = set(group)
        outside = {c for c in self.topology.perimeter if c not in inside}
        todo = list(outside)
        while todo:
            c = todo.pop()
            for m in self.topology.neighbours(c):
                if m not in inside and m not in outside:
                    outside.add(m)
                    todo.append(m)
        return [c for c in range(self.topology.ncells) if c not in inside and c not in outside]

    def win_explanation(self, s: np.ndarray) -> str:
        """Why the game was won, naming the cells ('' if it was not)."""
        if s[WIN_CELL] < 0:
            return ""
        topo, group = self.topology, self.group(s, int(s[WIN_CELL]))
        reasons = []
        if s[WIN_HOW] & EDGES:
            witness = self.witness(group)
            names = " and ".join(f"{topo.name(topo.perimeter[p])} (p{p})" for p in witness)
            reasons.append(("near-opposite edge cells " if len(witness) == 2 else "three edge cells ") + names)
        if s[WIN_HOW] & RING:
            inner = self.enclosed(s, group)
            more = ", ..." if len(inner) > 6 else ""
            reasons.append("a ring around " + ", ".join(topo.name(c) for c in inner[:6]) + more)
        return "; ".join(reasons)

    def witness(self, group: list[int]) -> tuple[int, ...]:
        """The perimeter positions that make ``group`` win by its edge cells:
        a near-opposite pair, else a winning triple (() if none)."""
        ppos = self.tables.ppos
        return edge_witness(self.perimeter, [int(ppos[c]) for c in group if ppos[c] >= 0]) or ()

    # rendering -----------------------------------------------------------
    def rules_status(self, state) -> str:
        """Who is to move, the turn's allowance and stones placed, or who won and how."""
        s = state.array
        if state.is_over():
            w = state.winner()
            if w is None:
                return "the board is full: a draw"
            return f"{self.PLAYERS[w]} wins with {self.win_explanation(s)}"
        early = "; 'end' stops the turn here" if state.step else ""
        return (f"{self.PLAYERS[state.to_move]} to move: turn {state.turn}, {int(s[ALLOW])} stone"
                f"{'s' if s[ALLOW] != 1 else ''} ({state.step} placed{early})")

    def rules_end_reason(self, s: np.ndarray) -> str:
        """``near-opposites`` or ``three-edges`` (the winning group's edge
        cells; first where it also makes a ring), ``ring``, or ``full-board`` (a draw)."""
        if s[WIN_CELL] < 0:
            return "full-board"
        if not s[WIN_HOW] & EDGES:
            return "ring"
        return "near-opposites" if len(self.witness(self.group(s, int(s[WIN_CELL])))) == 2 else "three-edges"

    def ascii(self, state) -> str:
        """Row letters at the left, each row's cells at the right, the
        numbers of the cells' names below the board's lower-left side and
        bottom (a number's cells run up to the right from it); X black, O
        white, lower case for the stones of the turn in progress."""
        s, topo = state.array, self.topology
        board, when = self.stones(s), self.placed_turn(s)
        current = int(s[TURN]) if not state.is_over() else -1

        def char(c: int) -> str:
            ch = ".XO"[int(board[c])]
            return ch.lower() if when[c] == current else ch

        letters = [topo.name(next(c for c in range(topo.ncells) if topo.xy[c, 1] == r)).rstrip("0123456789")
                   for r in range(topo.rows)]
        width = max(map(len, letters)) + 1
        numbers = ascii_render.foot_labels(topo, lambda c: topo.name(c).lstrip("abcdefghijklmnopqrstuvwxyz"))
        text = ascii_render.grid(topo, char, left=lambda r: (letters[r] if r < topo.rows else "").ljust(width) + "  ",
                                 right=lambda r: "      " + ascii_render.row_range(topo, r), extra=numbers)
        return text + "\n" + self.status(state)

    def svg(self, state, hints: bool = False, **kw: Any) -> str:
        """The board with coordinates; a won game rings the winning group's
        stones and outlines its perimeter cells (or, for a ring, the enclosed cells)."""
        s = state.array
        board = self.stones(s)
        group: list[int] = []
        accent: list[int] = []
        if s[WIN_CELL] >= 0:
            group = self.group(s, int(s[WIN_CELL]))
            accent = [c for c in group if self.topology.edge[c]]
            if s[WIN_HOW] & RING:
                accent += self.enclosed(s, group)
        marks = [a for a in state.legal_actions() if a < self.topology.ncells] if hints else []
        turn, legend = self.marked_turn(state)
        last = np.flatnonzero((self.placed_turn(s) == turn) & (board > 0)).tolist()
        return svg_render.board(self.topology, lambda c: int(board[c]), highlight=group, marks=marks,
                                accent=accent, last=last, title=self.status(state),
                                legend=[(BLACK, "Black: player 1"), (WHITE, "White: player 2"), ("last", legend)],
                                **kw)

    def marked_turn(self, state) -> tuple[int, str]:
        """The turn whose stones the SVG rings: the one in progress once it
        has a stone, else the last one; and the legend's words for them."""
        if state.step or state.is_over():
            return state.turn, "this turn's stones"
        return state.turn - 1, "last turn's stones"
