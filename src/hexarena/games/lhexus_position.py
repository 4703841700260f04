"""Lhexus's position text (:meth:`Lhexus.write_position <hexarena.games.lhexus.Lhexus.write_position>`,
:meth:`~hexarena.games.lhexus.Lhexus.read_position`): the rows with ``X`` (black) ``O`` (white), lower case
for the stones of the turn in progress; ``first=black`` or ``first=white``, player 1's colour once player 2
has chosen; ``passes=N``, the passes in a row just played.

>>> import hexarena
>>> g = hexarena.load("lhexus", size=3)
>>> s = g.new_state()
>>> for m in "c3 decline b2 c4 end b3".split(): _ = s.play(m)
>>> s.position_text()
'3/1Xx1/2OO1/4/3 2 5 1 6 first=white'
>>> g.from_position_text(s.position_text()) == s
True

A rebuilt position joins the earlier turns' stones into their groups as a turn's end does, then grows them
with this turn's stones, each of which must be a growth stone (touching a group as it stood at the turn's
start, none grown twice).  Also checked: the colours chosen from turn 3 on, this turn's stones the mover's,
the passes, and at the end the winner the scores give.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..kernels import STEP, TURN, WINNER, njit
from .lhexus_rules import (BLACK, BOARD, COLOUR0, GROWTH, PASSES, STONES, TCOUNT, WHITE, _commit_turn, _finish,
                          _place, classify)
from .position import RESULTS, Head, PositionTextError, flag_field

if TYPE_CHECKING:
    from .lhexus import Lhexus

CELLS = "XOxo"  # by identity code from 1: black, white, this turn's black, this turn's white
COLOURS = ("none", "black", "white")  # COLOUR0's values as ``first=`` writes them (none: not written)


def write(game: Lhexus, s: np.ndarray) -> tuple[str, dict[str, str]]:
    """The rows and the fields ``first`` and ``passes`` (see the module's docstring)."""
    n, when = game.topology.ncells, game.tables.when
    board = s[BOARD: BOARD + n]
    codes = board + 2 * ((s[when: when + n] == s[TURN]) & (board > 0))
    fields = {"first": COLOURS[int(s[COLOUR0])]} if s[COLOUR0] else {}
    if s[PASSES]:
        fields["passes"] = str(int(s[PASSES]))
    return game.positions.board.write(codes, CELLS), fields


@njit
def lay(s, t, colours, current, turn, colour):
    """Lay the stones ``colours`` (per cell, 0 for none) not of this turn (``current``) and join them into
    groups as a turn's end does, then place this turn's as ``colour``'s growth stones in ``turn``; the first
    of these that is no growth stone there (-1 if none)."""
    n = t.ncells
    for c in range(n):
        if colours[c] and not current[c]:
            s[BOARD + c] = colours[c]
            s[t.par + c], s[t.when + c], s[t.size + c], s[t.nxt + c] = c, 0, 1, c
            s[t.tlist + s[TCOUNT]] = c
            s[TCOUNT] += 1
            s[STONES + colours[c] - 1] += 1
    _commit_turn(s, t)
    s[TURN], s[STEP] = turn, 0  # STEP counted by _place
    for c in range(n):
        if current[c]:
            if classify(s, t, c, colour) != GROWTH:
                return c
            _place(s, t, c, colour, GROWTH)
    return -1


def read(game: Lhexus, head: Head) -> np.ndarray:
    """The array of an Lhexus position text (see the module's docstring)."""
    codes = game.positions.board.read(head.board, CELLS)
    current = (codes > 2).astype(np.int32)
    colours = codes - 2 * current
    first = flag_field(head, "first", COLOURS)
    passes = flag_field(head, "passes", ("0", "1", "2"))
    colour = _check(head, colours, current, first, passes)
    s = game.initial_array()
    bad = lay(s, game.tables, colours, current, head.turn, colour)
    if bad >= 0:
        raise PositionTextError(f"{game.topology.name(bad)} (lower case: placed this turn) is no growth stone: it "
                                f"must touch one of the mover's groups as they stood at the turn's start, a group "
                                f"no other stone of this turn grew")
    s = head.header(s)
    s[COLOUR0], s[PASSES] = first, passes
    if head.over():
        ended = s.copy()
        _finish(ended, game.tables)
        if ended[WINNER] != head.winner:
            results = {v: k for k, v in RESULTS.items()}
            raise PositionTextError(f"the scores give {results[ended[WINNER]]}, not {results[head.winner]}")
    return s


def _check(head: Head, colours: np.ndarray, current: np.ndarray, first: int, passes: int) -> int:
    """The header against the board: the opening's turns 1 and 2, the colours from turn 3 on, this turn's
    stones (the mover's, ``STEP`` of them), the passes; the colour the mover places."""
    stones, placed = int(np.count_nonzero(colours)), int(current.sum())
    if head.step != placed:
        raise PositionTextError(f"step {head.step} with {placed} stones of this turn (lower case): the step counts "
                                f"them")
    if head.turn <= 2:
        want = (0, 0) if head.turn == 1 else (1, 1)
        if (stones, head.to_move) != want or first or passes or placed or (stones and colours.max() != WHITE):
            raise PositionTextError(f"turn {head.turn} of Lhexus is " + (
                "player 1's White stone on an empty board (1 1 0 0)" if head.turn == 1 else
                "player 2's answer to the one White stone (O), not placed this turn (2 2 0 1)"))
        return WHITE
    if not first:
        raise PositionTextError(f"turn {head.turn}: first=black or first=white (player 1's colour) is chosen by turn 3")
    if head.over():
        if passes != 2 or placed:
            raise PositionTextError("a finished game of Lhexus ends with the second pass in a row: passes=2, no "
                                    "stones of this turn")
        return BLACK
    colour = first if head.to_move == 0 else 3 - first
    if passes > 1:
        raise PositionTextError(f"passes={passes} with the game going on: the second pass in a row ends it")
    if (colours[current == 1] != colour).any():
        raise PositionTextError(f"the stones of this turn (lower case) are the mover's: {COLOURS[colour]}")
    return colour
