"""Palago's position identity and text (:class:`hexarena.games.palago.Palago` uses them).

The board is written FEN-like over the box of cells that holds the tiles: ``X,Y:ROWS``, where ``X,Y`` is the
doubled-width position of the box's top-left corner (the start tile is ``0,0``), each row (``/`` between
them, ``Y`` the first) runs from the first cell at or right of ``X`` with ``x + y`` even, every other
``x`` after it, to its last tile.  A tile is its orientation as a letter, ``a`` ``b`` ``c`` for 0 1 2, in
upper case for the turn in progress (at the end, the last turn's); empty cells are written as their
number.  Fields, once the game is over: ``how=closed|double|exhausted`` and ``group=X,Y:C``, a corner C
(0 to 5) of the tile on X,Y in the group that decided it.

>>> import hexarena
>>> g = hexarena.load("palago", tiles=8)
>>> s = g.new_state()
>>> for m in ("2,0:1", "1,1:0"): _ = s.play(m)
>>> s.position_text()
'0,0:ab/A 2 2 1 2'
>>> g.from_position_text(s.position_text()) == s
True

A rebuilt position lays the start tile, the earlier turns' tiles (in cell order) and this turn's, recording
the groups each closes as the rules do, so the groups' counts (bridges, open vertices, groups eaten) are
the kernels' own; checked: the tiles on the board, touching, the start tile on 0,0 in orientation 0, the
header the tiles give (one tile on the first turn, then two a turn), no group that has won already while
the game goes on, and at the end the deciding group's owner and the exhaustion rule's result.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np

from ..kernels import TO_MOVE, TURN, WINNER, njit
from .palago_rules import (ALLOW, CLOSED_WIN, DOUBLE_WIN, EXHAUSTED, FIRST, HOW, PLACED, REGION_CORNERS, STANDARD,
                           WIN_NODE, exhaust, find, lay, owner, strength, tile_at, variant_scores)
from .position import Head, PositionTextError, read_row, write_row, zobrist

if TYPE_CHECKING:
    from .palago import Palago

HOWS = ("none", "closed", "double", "exhausted")  # HOW's values as how= writes them (none: not written)
BOX = re.compile(r"(-?[0-9]{1,4}),(-?[0-9]{1,4}):(.*)")


@njit
def _group_vertex(s, t, node):
    """The least ``cell * 6 + corner`` among the nodes of ``node``'s group: one number for the group
    whatever order its tiles were placed in (-1 for no node)."""
    if node < 0:
        return -1
    r = node
    while s[t.par + r] != r:
        r = s[t.par + r]
    best, x = np.int64(1) << 40, r
    while True:
        best = min(best, np.int64(s[t.tcell + x // 6]) * 6 + x % 6)
        x = s[t.nxt + x]
        if x == r:
            break
    return best


@njit
def identity(s, t, out, zcell, zfield):
    """What identifies the position (:mod:`hexarena.games.position`): the player to move, the winner, how
    it ended and the deciding group (:func:`_group_vertex`); per tile its orientation + 1, plus 3 if it was
    placed in the turn in progress (the start tile never is)."""
    out[0] = 4
    out[1], out[2], out[3], out[4] = s[TO_MOVE], s[WINNER], s[HOW], _group_vertex(s, t, s[WIN_NODE])
    n = s[PLACED]
    tiles = np.empty(n, dtype=np.int64)
    for i in range(n):
        current = i > 0 and s[t.tturn + i] == s[TURN]
        tiles[i] = np.int64(s[t.tcell + i]) * 8 + 1 + s[t.tori + i] + (3 if current else 0)
    tiles.sort()
    k = 5
    for i in range(n):
        out[k], out[k + 1] = tiles[i] >> 3, tiles[i] & 7
        k += 2
    return k, zobrist(out, k, zcell, zfield)


@njit
def lay_tiles(s, t, cells, orientations):
    """Lay the tiles in order, recording the groups each closes as :func:`~.palago_rules.place` does (the
    variants' eaten groups), without ending the game."""
    for j in range(cells.shape[0]):
        k = orientations[j]
        tile = lay(s, t, cells[j], k)
        if t.variant != STANDARD:
            variant_scores(s, t, tile, k)
            continue
        for i in range(4):
            r = find(s, t, 6 * tile + (2 * k + REGION_CORNERS[i]) % 6)
            if s[t.opens + r] == 0:
                s[t.eater + r] = r


@njit
def has_won(s, t):
    """Does some group win now (its strength by the variant)?"""
    for x in range(6 * s[PLACED]):
        if s[t.par + x] == x and strength(t.variant, s[t.opens + x], s[t.bridges + x], s[t.eats + x]) > 0:
            return True
    return False


def write(game: Palago, s: np.ndarray) -> tuple[str, dict[str, str]]:
    """The box of rows and, once over, ``how`` and ``group`` (see the module's docstring)."""
    t, xy = game.tables, game.topology.xy
    tiles = {}
    for i, (c, k) in enumerate(game.tiles(s)):
        current = i > 0 and s[t.tturn + i] == s[TURN]
        tiles[(int(xy[c, 0]), int(xy[c, 1]))] = "ABC"[k] if current else "abc"[k]
    x0, y0 = min(x for x, _ in tiles), min(y for _, y in tiles)
    rows = []
    for y in range(y0, max(y for _, y in tiles) + 1):
        last = max(x for x, yy in tiles if yy == y)
        rows.append(write_row("".join(tiles.get((x, y), " ") for x in range(x0 + (x0 + y) % 2, last + 1, 2))))
    fields = {"how": HOWS[int(s[HOW])]} if s[HOW] else {}
    if s[WIN_NODE] >= 0:
        vertex = int(_group_vertex(s, t, s[WIN_NODE]))
        fields["group"] = f"{game.topology.name(vertex // 6)}:{vertex % 6}"
    return f"{x0},{y0}:" + "/".join(rows), fields


def read_tiles(game: Palago, board: str) -> dict[int, str]:
    """The tiles (cell -> letter) of a board's text; PositionTextError for a malformed box or a tile beyond
    the board."""
    m = BOX.fullmatch(board)
    if not m:
        raise PositionTextError(f"{board[:40]!r} is no Palago board: it is X,Y:ROWS, the box's top-left corner "
                                f"and its rows of tiles (a b c, upper case this turn's) and empty runs, '/' between")
    x0, y0 = int(m[1]), int(m[2])
    tiles = {}
    for i, text in enumerate(m[3].split("/")):
        y = y0 + i
        for j, ch in enumerate(read_row(text, "abcABC", f"row {y} {text!r}", 2 * game.radius + 1)):
            if ch != " ":
                x = x0 + (x0 + y) % 2 + 2 * j
                c = game.cell_of(x, y)
                if c is None:
                    raise PositionTextError(f"a tile on {x},{y} is beyond the board's reach ({game.radius} cells "
                                            f"round the start tile, tiles={game.options['tiles']})")
                tiles[c] = ch
    return tiles


def read(game: Palago, head: Head) -> np.ndarray:
    """The array of a Palago position text (see the module's docstring)."""
    t = game.tables
    tiles = read_tiles(game, head.board)
    _check_tiles(game, head, tiles)
    s = game.initial_array()
    for current in (False, True):
        s[TURN] = head.turn if current else 0
        cells = [c for c in sorted(tiles) if c != t.start and tiles[c].isupper() == current]
        lay_tiles(s, t, np.array(cells, dtype=np.int64), np.array(["abc".index(tiles[c].lower()) for c in cells],
                                                                   dtype=np.int64))
    s = head.header(s)
    first = [c for c in tiles if tiles[c].isupper()]
    s[ALLOW] = 1 if head.turn == 1 else min(2, game.options["tiles"] - (s[PLACED] - head.step))
    s[FIRST] = first[0] if head.step == 1 and not head.over() else -1
    if not head.over() and has_won(s, t):
        raise PositionTextError("a group has won already: the game would be over")
    if head.over():
        _ended(game, head, s)
    elif s[PLACED] == t.tiles:
        raise PositionTextError(f"all {t.tiles} tiles are down: the game is over (how=exhausted)")
    return s


def _check_tiles(game: Palago, head: Head, tiles: dict[int, str]) -> None:
    """The start tile, the tiles touching, their number and the header: the first turn places one tile,
    each later turn two (the turn in progress ``STEP`` of them)."""
    t = game.tables
    if tiles.get(t.start) != "a":
        raise PositionTextError("the start tile lies on 0,0 in orientation 0 (a), from the first turn on")
    seen, todo = {t.start}, [t.start]
    while todo:
        for m in game.topology.neighbours(todo.pop()):
            if m in tiles and m not in seen:
                seen.add(m)
                todo.append(m)
    if len(seen) != len(tiles):
        loose = game.topology.name(min(set(tiles) - seen))
        raise PositionTextError(f"the tile on {loose} touches no other: every tile goes next to one on the table")
    placed, current = len(tiles), sum(ch.isupper() for ch in tiles.values())
    start = 1 if head.turn == 1 else 2 * head.turn - 2
    if placed > t.tiles or (head.step, placed, head.ply) != (current, start + current, placed - 1) or \
            current > (1 if head.turn == 1 else 2) - (not head.over()) or \
            (not head.over() and head.to_move != (head.turn - 1) % 2):
        raise PositionTextError(f"{placed} tiles, {current} of this turn (upper case), for turn {head.turn} step "
                                f"{head.step} ply {head.ply}: the first turn places 1 tile, each later one 2 (at "
                                f"most {t.tiles} in all), the light player moving in odd turns, a ply per tile")


def _ended(game: Palago, head: Head, s: np.ndarray) -> None:
    """End the rebuilt game as ``how=`` and ``group=`` say; PositionTextError where the rules disagree."""
    t = game.tables
    how = HOWS.index(head.fields["how"]) if head.fields.get("how") in HOWS[1:] else -1
    if how < 0:
        raise PositionTextError(f"a finished game says how it ended: how= one of {', '.join(HOWS[1:])}")
    s[HOW], s[TO_MOVE], s[WIN_NODE] = how, -1, _group_node(game, s, head.fields.get("group"))
    if how == EXHAUSTED:
        ended = s.copy()
        ended[WINNER] = -1
        exhaust(ended, t)
        if s[PLACED] != t.tiles or has_won(s, t) or ended[WINNER] != head.winner or \
                (s[WIN_NODE] >= 0) != (ended[WIN_NODE] >= 0):
            raise PositionTextError("how=exhausted: all tiles down with no group that won, the exhaustion rule's "
                                    "result, and a corner of the winner's largest group (group=) where it names one")
    elif how in (CLOSED_WIN, DOUBLE_WIN):
        r = find(s, t, s[WIN_NODE]) if s[WIN_NODE] >= 0 else -1
        if r < 0 or owner(r) != head.winner or not strength(t.variant, s[t.opens + r], s[t.bridges + r],
                                                            s[t.eats + r]):
            raise PositionTextError("group= names a corner of the winner's group that won")


def _group_node(game: Palago, s: np.ndarray, text: str | None) -> int:
    """The node ``tile * 6 + corner`` of ``group=X,Y:C`` (-1 when absent)."""
    if text is None:
        return -1
    cell, _, corner = text.rpartition(":")
    c = game.topology.find(cell)
    if c is None or corner not in tuple("012345") or not tile_at(s, game.tables.grid, c):
        raise PositionTextError(f"group={text!r}: group is X,Y:C, a corner C (0 to 5) of a tile on the board")
    return 6 * (int(tile_at(s, game.tables.grid, c)) - 1) + int(corner)
