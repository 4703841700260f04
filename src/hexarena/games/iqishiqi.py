"""Iqishiqi (João Pedro Neto, 2003): drop shared stones to push a neutral ball.

A drop makes a group of N stones (stones are one shared colour); some stone
of that group must see the ball along a hex line, and the ball moves exactly
N cells straight away from it over empty cells.  North owns the N, SE and
SW edges, South the S, NE and NW edges; a ball on an edge wins for the
edge's owner, on a corner for the mover; a player with no legal drop loses.

An action is ``cell * 6 + d``: the drop cell and the direction slot ``d``
the *ball* moves (``hexarena.board.E`` .. ``NE``).  Names are the source's
doubled-width cells, with the ball's direction as a suffix only where the
drop could push it several ways.  The rules' kernels, which Weituweiqi
shares, are in :mod:`hexarena.games.iqishiqi_rules`, the playouts in
:mod:`hexarena.games.iqishiqi_playouts`, the facade shared with Weituweiqi
in :mod:`hexarena.games.pushing` and its drawing in
:mod:`hexarena.games.pushing_draw`.

>>> import hexarena
>>> s = hexarena.load("iqishiqi", size=4).new_state()
>>> s.play("c4")  # a lone stone west of the ball pushes it one cell east
96
>>> print(s)
   abcdefghijklm
      . . . .     1
     . . . . .    2
    . . . . . .   3
   . x . . O . .  4
    . . . . . .   5
     . . . . .    6
      . . . .     7
   abcdefghijklm
South to move (North: N, SE, SW edges; South: S, NE, NW)
"""

from __future__ import annotations

import numpy as np

from ..kernels import kernel_set, njit
from ..render import svg as svg_render
from .iqishiqi_playouts import playout, recorded_playout
from .iqishiqi_rules import BALL, BOARD, CORNER, NORTH_SIDES, STONE, apply, identity, is_legal, legal
from .pushing import PushGame, size_option


@njit
def planes(s, t, player, out, cols):
    """The observation planes (``Game.planes``): stones, the ball, empty
    cells, ``player``'s edge cells and the opponent's (a corner, which wins
    for whoever pushes there, is in both)."""
    ball = s[BALL]
    for c in range(t.ncells):
        stone, owner, j = (s[BOARD + c] & STONE) != 0, t.owner[c], cols[c]
        corner = owner == CORNER
        out[0, j], out[1, j], out[2, j] = stone, c == ball, not stone and c != ball
        out[3, j], out[4, j] = corner or owner == player, corner or owner == 1 - player


KERNELS = kernel_set(legal, apply, playout, recorded_playout=recorded_playout, is_legal=is_legal, identity=identity,
                     planes=planes)


class Iqishiqi(PushGame):
    """Iqishiqi on the hexhex board of base ``size``: North (first) and South."""

    name = "iqishiqi"
    BENCH_SETUPS = (("base 8 (169 cells)", {"size": 8}),)
    SLOW_TO_COMPILE = True
    PLAYERS = ("North", "South")
    OPTIONS = {"size": size_option(8)}
    MCTS = {"rave": False, "c": 0.5}  # AMAF misleads where a cell's worth depends on the ball: docs/ai.md
    kernels = KERNELS

    def rules_status(self, state, legend: bool = True) -> str:
        s = state.array
        if state.is_over():
            ball = self.ball(s)
            o = int(self.owner[ball])
            how = ("the ball on a corner" if o == CORNER else "the ball on its edge" if o >= 0 else
                   "stalemate")
            return f"{self.PLAYERS[state.winner()]} wins ({how}: {self.topology.name(ball)})"
        edges = " (North: N, SE, SW edges; South: S, NE, NW)" if legend else ""
        return f"{self.PLAYERS[state.to_move]} to move{edges}"

    def edge_winner(self, s: np.ndarray) -> int | None:
        """The edge's owner when the ball is on a side (a corner wins for the mover)."""
        o = int(self.owner[self.ball(s)])
        return o if o in (0, 1) else None

    def rules_end_reason(self, s: np.ndarray) -> str:
        """The ball on a ``corner`` or an ``edge``, or ``stalemate`` (no legal drop)."""
        o = int(self.owner[self.ball(s)])
        return "corner" if o == CORNER else "edge" if o >= 0 else "stalemate"

    EDGE_STYLE = (("#2b6cd8", "N"), ("#d83a2b", "S"), ("#9a48c0", "*"))  # North's, South's, a corner's

    def edge_legend(self, s: np.ndarray) -> list[tuple[svg_render.Swatch, str]]:
        (north, _), (south, _), (corner, _) = self.EDGE_STYLE
        return [(north, "North's edges: player 1"), (south, "South's: player 2"), (corner, "corners: the mover's")]

    def edge_kind(self, c: int, slot: int) -> int | None:
        """0 for North's edges (N, SE, SW), 1 for South's (S, NE, NW),
        ``CORNER`` where two sides meet."""
        owners = {0 if side in NORTH_SIDES else 1 for side in range(6)
                  if c in self.topology.sides[side] and slot in ((side + 4) % 6, (side + 5) % 6)}
        return owners.pop() if len(owners) == 1 else CORNER if owners else None

    PLANES = ("stones", "ball", "empty", "own edge", "opponent edge")
