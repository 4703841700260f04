"""Lisbon's position text (:meth:`Lisbon.write_position <hexarena.games.lisbon.Lisbon.write_position>`,
:meth:`~hexarena.games.lisbon.Lisbon.read_position`): the rows with ``X`` ``O`` for stones, lower case for
the stones of the turn in progress; ``win=CELL``, the stone that won, once a group has won.

>>> import hexarena
>>> g = hexarena.load("lisbon", size=(3, 3))
>>> s = g.new_state()
>>> for m in "c3 b2 end d4".split(): _ = s.play(m)
>>> s.position_text()
'3/1O2/2X2/2x1/3 1 3 1 4'
>>> g.from_position_text(s.position_text()) == s
True

A rebuilt position lays the earlier turns' stones as placed in turn 0 and this turn's as placed now, so the
union-find roots and arcs are the kernels' own; what it checks: each stone of this turn in its own group,
``STEP`` stones of this turn (fewer than the turn allows while the game goes on), no group that has won
already, and at the end the stone that won.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..kernels import DRAW, TURN, njit
from .lisbon_rules import ALLOW, BLACK, BOARD, STONES, WHITE, WIN_CELL, WIN_HOW, groups_around, place
from .position import Head, PositionTextError, cell_named

if TYPE_CHECKING:
    from .lisbon import Lisbon

CELLS = "XOxo"  # by identity code from 1: black, white, this turn's black, this turn's white


def write(game: Lisbon, s: np.ndarray) -> tuple[str, dict[str, str]]:
    """The rows and the field ``win`` (see the module's docstring)."""
    n, when = game.topology.ncells, game.tables.when
    codes = s[BOARD: BOARD + n] + 2 * ((s[when: when + n] == s[TURN]) & (s[BOARD: BOARD + n] > 0))
    board = game.positions.board.write(codes, CELLS)
    return board, ({"win": game.topology.name(int(s[WIN_CELL]))} if s[WIN_CELL] >= 0 else {})


@njit
def lay(s, t, colours, turn, skip):
    """Place the stones ``colours`` (per cell, 0 for none) but the one on ``skip``, in cell order, as placed in
    ``turn`` (0: some earlier turn); the first cell whose stone would join a group that holds a stone of
    ``turn`` (the group restriction), or -1."""
    groups = np.empty(8, dtype=np.int32)
    for c in range(t.ncells):
        if colours[c] and c != skip:
            k = groups_around(s, t, c, colours[c], turn if turn else -1, groups, True)
            if k < 0:
                return c
            place(s, t, c, colours[c], turn, groups, k)
            s[STONES] += 1
    return -1


@njit
def lay_last(s, t, c, colour, turn):
    """Place the stone that won on ``c``: its win bits (0: it wins nothing; -1: the group restriction)."""
    groups = np.empty(8, dtype=np.int32)
    k = groups_around(s, t, c, colour, turn, groups, True)
    if k < 0:
        return -1
    s[STONES] += 1
    return place(s, t, c, colour, turn, groups, k)


@njit
def has_won(s, t):
    """Has some group won: its perimeter cells beyond every arc of L steps, or a ring?  A ring is a hole in
    its colour's stones: Euler's formula on the triangular lattice gives holes = groups - (stones - links +
    triangles)."""
    links, n = t.links, t.ncells
    for colour in (BLACK, WHITE):
        holes = 0
        for c in range(n):
            if s[BOARD + c] != colour:
                continue
            if s[t.par + c] == c:
                holes += 1
                if s[t.arcl + c] > t.longest:
                    return True
            holes -= 1
            e, se, sw = s[BOARD + links[c, 0]] == colour, s[BOARD + links[c, 1]] == colour, \
                s[BOARD + links[c, 2]] == colour
            holes += e + se + sw - (e and se) - (se and sw)
        if holes > 0:
            return True
    return False


def read(game: Lisbon, head: Head) -> np.ndarray:
    """The array of a Lisbon position text (see the module's docstring)."""
    n, t = game.topology.ncells, game.tables
    codes = game.positions.board.read(head.board, CELLS)
    current = (codes > 2).astype(np.int32)
    colours = codes - 2 * current
    s = head.header(game.initial_array())
    s[ALLOW] = game.allowance(head.turn)
    _check_turn(game, head, colours[current == 1], int(s[ALLOW]))
    lay(s, t, np.where(current == 1, 0, colours), 0, -1)
    win = cell_named(game.topology, head.fields["win"], "win") if "win" in head.fields else -1
    bad = lay(s, t, np.where(current == 1, colours, 0), head.turn, win)
    if bad >= 0:
        raise PositionTextError(f"{game.topology.name(bad)} joins a group that holds another stone of this turn "
                                f"(lower case): each stone of a turn goes to a different group")
    if has_won(s, t):
        raise PositionTextError("a group has won already" + (f" before the stone on {head.fields['win']}"
                                                             if win >= 0 else ": the game would be over"))
    if head.winner in (0, 1):
        _won_by(game, s, head, win, colours, current)
    elif head.winner == DRAW and s[STONES] != n:
        raise PositionTextError(f"a draw (1/2-1/2) is a full board without a winner; this one has {n - s[STONES]} "
                                f"empty cells")
    if s[STONES] > head.ply:
        raise PositionTextError(f"ply {head.ply} with {s[STONES]} stones: a stone is a move")
    return s


def _check_turn(game: Lisbon, head: Head, placed: np.ndarray, allow: int) -> None:
    """The stones of this turn (their colours ``placed``) against the header: STEP of them, one colour (the
    mover's, or the winner's), fewer than the turn allows while it goes on; ``win`` exactly when won."""
    if head.step != len(placed):
        raise PositionTextError(f"step {head.step} with {len(placed)} stones of this turn (lower case): the step "
                                f"counts them")
    mover = head.to_move if not head.over() else head.winner if head.winner in (0, 1) else None
    colours = set(placed.tolist()) | ({mover + 1} if mover is not None and len(placed) else set())
    if len(colours) > 1:
        raise PositionTextError("the stones of this turn (lower case) are the mover's"
                                + ("" if head.over() else f", player {head.to_move + 1}'s ({'xo'[head.to_move]})"))
    if head.step >= allow + head.over():
        raise PositionTextError(f"step {head.step} in turn {head.turn}, which allows {allow} stone"
                                f"{'s' * (allow != 1)}: the turn would have ended")
    if ("win" in head.fields) != (head.winner in (0, 1)):
        raise PositionTextError("win=CELL names the stone that won, in a won game (1-0, 0-1) only")


def _won_by(game: Lisbon, s: np.ndarray, head: Head, win: int, colours: np.ndarray, current: np.ndarray) -> None:
    """Place the winning stone last, and end the game with it (PositionTextError if it does not win)."""
    name = game.topology.name(win)
    if colours[win] != head.winner + 1 or not current[win]:
        raise PositionTextError(f"win={name}: the winner's stone of this turn (lower case) that won")
    how = lay_last(s, game.tables, win, head.winner + 1, head.turn)
    if how <= 0:
        raise PositionTextError(f"win={name}: the stone on {name} " + ("joins a group that holds another stone of "
                                "this turn" if how < 0 else "does not win: no ring, no edge cells beyond an arc"))
    s[WIN_HOW], s[WIN_CELL] = how, win
