"""The Iqishiqi family's shared mechanic: a neutral piece (Iqishiqi's ball,
Hex Pushpin's pin, Push and Pull's markers) that moves straight along hex
lines over empty cells, the family's direction notation and board sizes, and
:class:`PushGame`, the facade Iqishiqi and Weituweiqi share.

Kernels index ``rays`` (:func:`hexarena.board.rays`): ``rays[c, d, k]`` is
the (k+1)-th cell going straight from ``c`` in direction slot ``d``, -1 past
the edge.  ``board`` is any int array over the cells where 0 means empty.

>>> from hexarena.board import hexhex, rays
>>> import numpy as np
>>> t = hexhex(3); r = rays(t); board = np.zeros(t.ncells, np.int32)
>>> board[t.index("c5")] = 9
>>> t.name(first_along(board, r, t.index("c1"), 0)), empty_run(board, r, t.index("c1"), 0)
('c5', 3)
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..board import DIRECTIONS, hexhex
from ..board import rays as ray_table
from ..kernels import hot
from ..render import svg as svg_render
from . import pushing_draw
from .base import TO_MOVE, AmbiguousMove, Game, IllegalMove, MalformedMove, State, quoted
from .options import Option, int_between
from .position import Head, PositionTextError, player_field
from .iqishiqi_rules import (BALL, BOARD, CORNER, MAX_CELLS, NORTH_SIDES, ROLE, STONE, Tables, arc_table, drop_mask,
                             has_drop, line_tables, place, reach)

OPPOSITE = tuple((d + 3) % 6 for d in range(6))


@hot
def first_along(board, rays, c, d):
    """The first occupied cell going straight from ``c`` in direction ``d``, or -1."""
    for k in range(rays.shape[2]):
        m = rays[c, d, k]
        if m < 0 or board[m] != 0:
            return m
    return -1


@hot
def empty_run(board, rays, c, d):
    """How many empty cells follow ``c`` in direction ``d`` before an occupied
    cell or the board's edge."""
    k = 0
    while k < rays.shape[2]:
        m = rays[c, d, k]
        if m < 0 or board[m] != 0:
            break
        k += 1
    return k


def direction_index(text: str) -> int:
    """The slot of a direction name (``e``, ``se``, ``sw``, ``w``, ``nw``, ``ne``);
    ValueError listing the names otherwise."""
    try:
        return DIRECTIONS.index(text.lower())
    except ValueError:
        raise ValueError(f"{text!r} is not a direction; directions: {', '.join(DIRECTIONS)}") from None


# --- the facade Iqishiqi and Weituweiqi share ------------------------------------

_MOVE = re.compile(r"([a-z]+[0-9]+)(e|w|ne|nw|se|sw|n)?")
MAX_SIZE = 13  # the family's largest base: 469 cells, set up in ~0.04 s


def size_option(default: int) -> Option:
    return int_between(default, 3, MAX_SIZE, "base of the hexhex board (cells per side)")


class PushGame(Game, abstract=True):
    """What Iqishiqi and Weituweiqi share: the board, the ball, drops and
    their notation.  Subclasses set ``kernels`` and the end rules."""

    BLOCK: str | None = None  # the name of a non-drop move (Weituweiqi's "block")
    tables: Tables

    def setup(self) -> None:
        n = self.options["size"]
        self.topology = topo = hexhex(n, naming="doubled")
        owner = np.full(topo.ncells, -1, dtype=np.int32)
        for side, rim in enumerate(topo.sides):
            for c in rim:
                owner[c] = CORNER if owner[c] >= 0 else (0 if side in NORTH_SIDES else 1)
        self.owner = owner
        lines = ray_table(topo)
        line, pos, cells, length, count = line_tables(topo, lines)
        sides = ((topo.nbr >= 0) << np.arange(6)).sum(axis=1).astype(np.int32)
        self.tables = Tables(topo.nbr, lines, owner, topo.ncells, line, pos, cells, length, count, arc_table(), sides)
        self.num_actions = topo.ncells * 6 + (1 if self.BLOCK else 0)
        if topo.ncells > MAX_CELLS:
            raise ValueError(f"a board of {topo.ncells} cells is more than the {MAX_CELLS} a position can hold")
        self.state_size = BOARD + 2 * topo.ncells + 6 * count
        self.centre = topo.at(2 * (n - 1), n - 1)

    def initial_array(self) -> np.ndarray:
        s = super().initial_array()
        s[BALL], s[ROLE] = self.centre, -1
        return s

    def position(self, stones: list[str], ball: str, to_move: int = 0) -> State:
        """A state with ``stones`` and the ball on the named cells, ``to_move``
        to move and no history (for studying diagrams; the game goes on from it)."""
        return State(self, self.position_array(stones, ball, to_move))

    def position_array(self, stones: list[str], ball: str, to_move: int = 0) -> np.ndarray:
        """The array :meth:`position` makes its state of (a subclass's
        ``position`` may set more of it first)."""
        s = self.initial_array()
        topo = self.topology
        cells = [self._cell(name) for name in stones]
        s[BALL] = self._cell(ball)
        if s[BALL] in cells or len(set(cells)) != len(cells):
            raise ValueError("stones and the ball need distinct cells")
        for c in cells:
            place(s, self.tables, c)
        s[TO_MOVE] = to_move
        if topo.edge[s[BALL]]:
            raise ValueError(f"the ball on {ball!r} is on the edge: the game would be over")
        return s

    # position text -------------------------------------------------------
    def write_position(self, s: np.ndarray) -> tuple[str, dict[str, str]]:
        """The rows (``x`` a stone, ``O`` the ball) and ``blocker=1|2`` (Weituweiqi's, once declared)."""
        codes = self.stones(s).copy()
        codes[s[BALL]] = 2
        rows = self.positions.board.write(codes, "xO")
        return rows, ({"blocker": str(int(s[ROLE]) + 1)} if s[ROLE] >= 0 else {})

    def read_position(self, head: Head) -> np.ndarray:
        """The array of a position text (any header: :meth:`position` studies diagrams too); checked: one
        ball, and while the game goes on the ball off the edge with a drop to play (else it would be over),
        once over the ball on the edge or no drop left, the edge's winner where it decides alone."""
        codes = self.positions.board.read(head.board, "xO")
        balls = np.flatnonzero(codes == 2)
        if len(balls) != 1:
            raise PositionTextError(f"{len(balls)} balls (O) on the board: there is one")
        s = head.header(self.initial_array())
        s[BALL] = balls[0]
        for c in np.flatnonzero(codes == 1):
            place(s, self.tables, c)
        if "blocker" in head.fields:
            s[ROLE] = player_field(head.fields["blocker"], "blocker")
        ended = bool(self.topology.edge[balls[0]]) or not has_drop(s, self.tables)
        if ended != head.over():
            raise PositionTextError("a game is over exactly when the ball is on the edge or no drop is left" +
                                    (f": the ball is on {self.topology.name(balls[0])}" if ended else ""))
        winner = self.edge_winner(s)
        if head.over() and winner is not None and winner != head.winner:
            raise PositionTextError(f"the ball on {self.topology.name(balls[0])} wins for player {winner + 1}")
        return s

    def edge_winner(self, s: np.ndarray) -> int | None:
        """Who has won with the ball where it is, if that alone decides (None: it depends on the mover)."""
        return None

    def _cell(self, name: str) -> int:
        c = self.topology.find(name.strip(" ").lower())
        if c is None:
            example = ", ".join(self.topology.names[:3])
            raise MalformedMove(f"{quoted(name)} is not a cell of this board (cells are named like {example})")
        return c

    # notation -----------------------------------------------------------
    def action_name(self, s: np.ndarray, action: int) -> str:
        if action == self.topology.ncells * 6 and self.BLOCK:
            return self.BLOCK
        c, d = divmod(action, 6)
        name = self.topology.name(c)
        return name + DIRECTIONS[d] if bin(drop_mask(s, self.tables, c)).count("1") > 1 else name

    def normalize(self, text: str) -> str:
        """A cell, maybe with the ball's direction glued on (``e8``, ``e8ne``;
        ``n`` is ``ne``), in any case, or ``block`` where the game has it."""
        key = text.strip(" ").lower()
        m = _MOVE.fullmatch(key)
        if key == self.BLOCK or (m and self.topology.find(m.group(1)) is not None):
            return key + "e" if m and m.group(2) == "n" else key
        name = self.topology.names[0]
        block = f", or {self.BLOCK!r}" if self.BLOCK else ""
        raise self.malformed(text, f"a cell (like {name}), maybe followed by the ball's direction "
                                   f"({', '.join(DIRECTIONS)}; like {name}ne){block}")

    def parse_move(self, s: np.ndarray, text: str, legal: Sequence[int]) -> int:
        key = self.normalize(text)
        if key == self.BLOCK:
            if self.num_actions - 1 in legal:
                return self.num_actions - 1
            raise IllegalMove(f"{key!r} is only possible during the auction")
        m = _MOVE.fullmatch(key)
        assert m is not None, "normalize() let through only cells and moves"
        cell, suffix = m.groups()
        c = self.topology.index(cell)
        dirs = [a % 6 for a in legal if a // 6 == c and a < self.topology.ncells * 6]
        if not dirs:
            raise IllegalMove(self.why_illegal(s, cell))
        if suffix is None:
            if len(dirs) > 1:
                choices = ", ".join(cell + DIRECTIONS[d] for d in dirs)
                raise AmbiguousMove(f"{key!r} can push the ball {len(dirs)} ways; say which: {choices}")
            return c * 6 + dirs[0]
        d = direction_index(suffix)
        if d not in dirs:
            can = ", ".join(DIRECTIONS[x] for x in dirs)
            raise IllegalMove(f"{key!r}: a drop on {cell} cannot push the ball {DIRECTIONS[d]}; it can push it: {can}")
        return c * 6 + d

    def why_illegal(self, s: np.ndarray, text: str) -> str:
        c = self.topology.index(text)
        if c == s[BALL]:
            return f"{text!r} holds the ball"
        if s[BOARD + c] & STONE:
            return f"{text!r} is occupied"
        size, sees, _, room = reach(s, self.tables, c)
        if not sees:
            return f"{text!r} cannot push the ball: no stone of its group of {size} sees the ball"
        return (f"{text!r} makes a group of {size}, so the ball must move exactly {size} cells, "
                f"but there are at most {room} empty cells beyond it")

    # facts ----------------------------------------------------------------
    def stones(self, s: np.ndarray) -> np.ndarray:
        n = self.topology.ncells
        return (s[BOARD: BOARD + n] >> 6) & 1

    def ball(self, s: np.ndarray) -> int:
        return int(s[BALL])

    def move_target(self, s: np.ndarray, action: int) -> int | None:
        """The drop's cell (its push direction is picked by name); None for ``block``."""
        return action // 6 if action < self.topology.ncells * 6 else None

    def hint_moves(self, state) -> list[tuple[int, int]]:
        """The legal drops as (cell, slot the ball moves)."""
        return [divmod(a, 6) for a in state.legal_actions() if a < self.topology.ncells * 6]

    # rendering -----------------------------------------------------------
    def ascii(self, state: State, hints: bool = False, edges: bool = False) -> str:
        """The board as the source draws it (``x`` stones, ``O`` the ball),
        column letters above and below, row numbers at the right.  With
        ``hints``, ``+`` marks the legal drop cells and each one's directions
        for the ball are listed; with ``edges``, a ring of marks around the
        board says whose edge is where (``EDGE_STYLE``)."""
        return pushing_draw.ascii_board(self, state, hints, edges)

    def svg(self, state: State, hints: bool = False, **kw: Any) -> str:
        """Stones dark, the ball red, each player's edges coloured; with
        ``hints`` the legal drop cells dotted with arrows for the ball's directions."""
        return pushing_draw.svg_board(self, state, hints, **kw)

    @abstractmethod
    def rules_status(self, state, legend: bool = True) -> str:
        """Who is to move or who won and how; ``legend`` adds what the edges mean."""

    EDGE_STYLE: tuple[tuple[str, str], ...] = ()  # (SVG colour, ASCII mark) of each kind of edge

    @abstractmethod
    def edge_kind(self, c: int, slot: int) -> int | None:
        """The kind of board edge (an index of ``EDGE_STYLE``) beyond rim cell
        ``c`` in direction ``slot``, None where there is none."""

    @abstractmethod
    def edge_legend(self, s: np.ndarray) -> list[tuple[svg_render.Swatch, str]]:
        """The SVG legend's words for each kind of edge (``EDGE_STYLE``)."""
