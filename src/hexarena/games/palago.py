"""Palago / Lambo (Cameron Browne, 2008): bridge tiles on an open plane.

Every tile has six corners coloured alternately blue (even) and white
(odd); orientation k joins blue corners 2k and 2k+2 by a bridge, white
corners 2k+3 and 2k+5 by another, and leaves tips at 2k+1 (white) and
2k+4 (blue).  Groups live on the lattice's vertices; a group is closed when
each of its vertices has all three cells round it filled.  Light (player 0)
owns white, Dark (player 1) blue; a closed group of your colour with a
bridge wins (RULES.md § Palago / Lambo has every ruling).

The board is a hexagon of radius ``tiles - 1`` cells round the start tile
(the farthest a tile can be).  A position keeps a grid of tile numbers (a
byte a cell, four to a word: the copy a playout starts with is small) and,
per placed tile, its cell, orientation and six corner nodes.  Nodes are
(tile, corner) pairs in one union-find: a corner joins the node of a
neighbour tile at the same vertex, and a bridge joins its two corners.  A
root keeps its group's bridges and its open count (empty cells round its
vertices, counted once per vertex), so a tile updates closedness in O(1)
per corner.

Enclosure (the variants): the tiles' colour boundaries are disjoint curves,
one per tile through each edge midpoint, so a closed group's boundary is a
set of loops through edge midpoints, and the region across its outer loop is
the group that immediately surrounds it.  The outer loop holds the
lexicographically least (row, column) midpoint among all the group's
boundary chords (inner loops lie strictly inside it), so the surrounding
group is found, when a group closes, from that one chord without tracing a
loop; a closed group never changes again, and each root keeps the count and
largest size of the closed enemy groups it surrounds.

MCTS's ``enhanced`` plays closing playouts (``pattern_playout``): random tiles, except that a closure that
wins is taken and the opponent's is blocked, so that playouts end by closed groups as searched games do.

>>> import hexarena
>>> s = hexarena.load("palago", tiles=8).new_state()
>>> for m in ("2,0:1", "1,1:0", "-1,1:2"): _ = s.play(m)
>>> s.moves()
['2,0:1', '1,1:0', '-1,1:2']
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from html import escape
from typing import Any, NamedTuple

import numpy as np

from ..board import STEP as BOARD_STEP
from ..board import Topology
from ..kernels import hot, inline, kernel_set, njit, note
from ..render import svg as svg_render
from .base import (DRAW, HEADER, PLY, STEP, TO_MOVE, TURN, WINNER, Game, IllegalMove, Option, choice, int_between,
                   quoted)

# state layout after the shared header
PLACED = HEADER  # tiles on the table, the start tile included
ALLOW = HEADER + 1  # tiles this turn places (2, or 1 for Light's first turn and the pool's last tile)
FIRST = HEADER + 2  # the cell of this turn's first tile, -1 before it
HOW = HEADER + 3  # how the game ended: one of ENDINGS' indices
WIN_NODE = HEADER + 4  # a node of the deciding group, -1 if none
BODY = HEADER + 5  # then (Tables gives the offsets): the grid, per tile cell and orientation, per node 7 arrays

NOT_OVER, CLOSED_WIN, DOUBLE_WIN, EXHAUSTED = range(4)
STANDARD, EAT_ENEMY, MUST_CONTAIN = range(3)
VARIANTS = ("standard", "eat-enemy", "must-contain")
EXHAUSTION = ("largest", "draw")
MAX_TILES = 96  # a radius-95 board: 27,361 cells, set up in well under a second; tile numbers fit the int8 grid

# Corner geometry.  Edge i joins corners i and i+1 and faces NE, E, SE, SW, W, NW (i = 0..5); its step in
# doubled-width coordinates:
EDGE_STEP = ((1, -1), (2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1))
# Corner i of a tile is corner (i + 4) % 6 of the neighbour across edge i, and corner (i + 2) % 6 of the
# neighbour across edge (i + 5) % 6.
# A tile's colour boundaries ("chords", relative to 2k): chord 0 cuts off the white tip (edges 0, 1), chord 1
# runs between the two bridges (edges 2, 5), chord 2 cuts off the blue tip (edges 3, 4); each chord's two sides
# hold the corners SIDES[j].
CHORD_EDGES = ((0, 1), (2, 5), (3, 4))
CHORD_SIDES = ((1, 0), (0, 3), (3, 4))
REGION_CORNERS = (0, 3, 1, 4)  # a tile's four regions by a corner of each (relative to 2k): its bridges, its tips
# the chords bounding the region of each corner (relative to 2k): -1 for none
REGION_CHORDS = ((0, 1), (0, -1), (0, 1), (1, 2), (2, -1), (1, 2))
# the same as arrays, constants in the kernels (not in the tables: each array in the tables made every call
# that passes them cost more, even one not made)
EDGE_STEPS, CHORD_EDGE_ARRAY, CHORD_SIDE_ARRAY, REGION_CHORD_ARRAY = (
    np.array(a, dtype=np.int64) for a in (EDGE_STEP, CHORD_EDGES, CHORD_SIDES, REGION_CHORDS))

LIGHT, DARK = 0, 1


class Tables(NamedTuple):
    """What the kernels read besides the position (``game.tables``)."""

    nbr: np.ndarray  # int32[n, 6]: the neighbour across edge i (NE, E, SE, SW, W, NW), or n (never filled)
    xy: np.ndarray  # int32[n, 2]: doubled-width x and y relative to the start tile
    ncells: int
    tiles: int
    start: int  # the start tile's cell
    variant: int
    anywhere: bool
    eat_size: int
    draw_on_exhaustion: bool
    grid: int  # offsets in the position: n + 1 tile numbers, a byte each, 4 a word (0 empty; the last: off the board)
    gridwords: int  # the words the grid takes
    tcell: int  # per tile: its cell
    tori: int  # per tile: its orientation
    tturn: int  # per tile: the turn it was placed in
    par: int  # per node (6 a tile): union-find parent
    opens: int  # per root: empty cells round its group's vertices
    bridges: int  # per root: bridges in its group
    eats: int  # per root: closed enemy groups it immediately surrounds (of at least eat_size bridges)
    eatmax: int  # per root: the largest of those, in bridges (-1 for none)
    nxt: int  # per node: the next node of its group (a circular list)
    eater: int  # per root of a closed group: a node of the group surrounding it (-1 before it closes)


# --- union-find over corner nodes ------------------------------------------------------------

@inline
def find(s, t, x):
    """The root of node x's group (halving the path)."""
    par = t.par
    while s[par + x] != x:
        s[par + x] = s[par + s[par + x]]
        x = s[par + x]
    return x


@inline
def union(s, t, a, b):
    """Join the groups of nodes a and b; the new root (their counts summed, their member lists spliced)."""
    ra, rb = find(s, t, a), find(s, t, b)
    if ra == rb:
        return ra
    if ra > rb:
        ra, rb = rb, ra
    s[t.par + rb] = ra
    s[t.opens + ra] += s[t.opens + rb]
    s[t.bridges + ra] += s[t.bridges + rb]
    s[t.eats + ra] += s[t.eats + rb]
    s[t.eatmax + ra] = max(s[t.eatmax + ra], s[t.eatmax + rb])
    na, nb = s[t.nxt + ra], s[t.nxt + rb]
    s[t.nxt + ra], s[t.nxt + rb] = nb, na
    return ra


@inline
def owner(node):
    """The player whose colour node's corner has: odd corners are white (Light), even blue (Dark)."""
    return 1 - (node % 6) % 2


# --- the grid: tile numbers as bytes, four to a word --------------------------------------------

@inline
def tile_at(s, grid, c):
    """The tile number on cell c (0: empty), from the grid at offset ``grid``."""
    return (s[grid + (c >> 2)] >> (8 * (c & 3))) & 255


@inline
def put_tile(s, grid, c, number):
    """Write tile ``number`` on the empty cell c."""
    s[grid + (c >> 2)] |= number << (8 * (c & 3))


# --- placing a tile ----------------------------------------------------------------------------

@inline
def lay(s, t, c, k):
    """Put a tile of orientation k on cell c: its nodes, bridges and vertex joins.  Returns the tile."""
    tile = s[PLACED]
    s[PLACED] += 1
    put_tile(s, t.grid, c, tile + 1)
    s[t.tcell + tile], s[t.tori + tile], s[t.tturn + tile] = c, k, s[TURN]
    base = 6 * tile
    for i in range(6):
        node = base + i
        s[t.par + node], s[t.nxt + node] = node, node
        s[t.opens + node], s[t.bridges + node], s[t.eats + node] = 2, 0, 0
        s[t.eatmax + node], s[t.eater + node] = -1, -1
    for a in (2 * k, 2 * k + 3):  # a bridge: its two corners' fresh nodes joined directly, the lower the root
        x, y = base + a % 6, base + (a + 2) % 6
        r, m = min(x, y), max(x, y)
        s[t.par + m] = r
        s[t.opens + r], s[t.bridges + r] = 4, 1
        s[t.nxt + r], s[t.nxt + m] = m, r
    grid, nbr = t.grid, t.nbr
    g0, g1, g2 = tile_at(s, grid, nbr[c, 0]), tile_at(s, grid, nbr[c, 1]), tile_at(s, grid, nbr[c, 2])
    g3, g4, g5 = tile_at(s, grid, nbr[c, 3]), tile_at(s, grid, nbr[c, 4]), tile_at(s, grid, nbr[c, 5])
    for i in range(6):
        u = g0 if i == 0 else g1 if i == 1 else g2 if i == 2 else g3 if i == 3 else g4 if i == 4 else g5
        if u > 0:
            other = 6 * (u - 1) + (i + 4) % 6
        else:
            u = g5 if i == 0 else g0 if i == 1 else g1 if i == 2 else g2 if i == 3 else g3 if i == 4 else g4
            if u == 0:
                continue
            other = 6 * (u - 1) + (i + 2) % 6
        r = union(s, t, base + i, other)  # the vertex had tiles: one more of its cells is filled
        s[t.opens + r] -= 3
    return tile


@njit
def surrounding(s, t, root):
    """A node of the group immediately surrounding the closed group ``root``: across the boundary chord
    through the least (row, column) edge midpoint of all the group's chords (on its outer loop)."""
    best, best_tile, best_chord = np.int64(1) << 60, -1, -1
    node = root
    while True:
        tile, corner = node // 6, node % 6
        c, k = s[t.tcell + tile], s[t.tori + tile]
        rel = (corner - 2 * k) % 6
        for h in range(2):
            j = REGION_CHORD_ARRAY[rel, h]
            if j < 0:
                continue
            for e in range(2):
                edge = (CHORD_EDGE_ARRAY[j, e] + 2 * k) % 6
                y = 2 * t.xy[c, 1] + EDGE_STEPS[edge, 1]
                x = 2 * t.xy[c, 0] + EDGE_STEPS[edge, 0]
                key = np.int64(y) * 1000000 + x
                if key < best:
                    best, best_tile, best_chord = key, tile, j
        node = s[t.nxt + node]
        if node == root:
            break
    k = s[t.tori + best_tile]
    a = 6 * best_tile + (CHORD_SIDE_ARRAY[best_chord, 0] + 2 * k) % 6
    b = 6 * best_tile + (CHORD_SIDE_ARRAY[best_chord, 1] + 2 * k) % 6
    return b if find(s, t, a) == root else a


@inline
def strength(variant, opens, bridges, eats):
    """How strongly a group with these counts wins now (0: it does not): 1 for a standard or must-contain win,
    the number of groups eaten for eat-enemy.  (Scalars, not the tables: numba compiles a helper that reads
    the tables into much slower code here.)"""
    if variant == STANDARD:
        return 1 if opens == 0 and bridges > 0 else 0
    if variant == EAT_ENEMY:
        return eats if eats >= 2 else 0
    return 1 if opens == 0 and eats > 0 else 0


@njit
def eat(s, t, r):
    """The group r closed just now (a variant): note the group surrounding it, which eats it if it is big
    enough; that group's root, or -1 if r is not eaten."""
    w = surrounding(s, t, r)
    s[t.eater + r] = w
    if t.variant != MUST_CONTAIN and s[t.bridges + r] < t.eat_size:
        return -1
    e = find(s, t, w)
    s[t.eats + e] += 1
    s[t.eatmax + e] = max(s[t.eatmax + e], s[t.bridges + r])
    return e


@njit
def variant_scores(s, t, tile, k):
    """For a variant: record what the tile closed, and score the groups of its four regions and the groups
    that ate what it closed; (best score, its root) for Light, then for Dark.  A group's score only grows
    while the closures are recorded, so each is scored as it is met and again when it eats."""
    best0, best1, node0, node1 = 0, 0, -1, -1
    for i in range(4):
        r = find(s, t, 6 * tile + (2 * k + REGION_CORNERS[i]) % 6)
        e = eat(s, t, r) if s[t.opens + r] == 0 and s[t.eater + r] < 0 else -1
        for h in range(2):  # r, then the group that ate it
            g = r if h == 0 else e
            if g < 0:
                break
            v = strength(t.variant, s[t.opens + g], s[t.bridges + g], s[t.eats + g])
            if owner(g) == 0:
                if v > best0:
                    best0, node0 = v, g
            elif v > best1:
                best1, node1 = v, g
    return best0, node0, best1, node1


@inline
def place(s, t, c, k, mover):
    """Lay the tile, record the closed groups it makes, and end the game if it wins for either player
    (both: the mover loses, unless eat-enemy's counts of eaten groups differ).  The standard game's test is
    written here, the variants' apart (with the enclosure code in it this loop ran ~25% slower)."""
    tile = lay(s, t, c, k)
    if t.variant != STANDARD:
        best0, node0, best1, node1 = variant_scores(s, t, tile, k)
    else:
        best0, best1, node0, node1 = 0, 0, -1, -1
        for i in range(4):
            r = find(s, t, 6 * tile + (2 * k + REGION_CORNERS[i]) % 6)
            if s[t.opens + r] == 0:  # closed, by this tile (a closed group touches no empty cell)
                s[t.eater + r] = r
                if s[t.bridges + r] > 0:
                    if owner(r) == 0 and best0 == 0:
                        best0, node0 = 1, r
                    elif owner(r) == 1 and best1 == 0:
                        best1, node1 = 1, r
    if best0 == 0 and best1 == 0:
        return
    if best0 > 0 and best1 > 0:
        w = 1 - mover
        if t.variant == EAT_ENEMY and best0 != best1:
            w = 0 if best0 > best1 else 1
        finish(s, w, DOUBLE_WIN, node0 if w == 0 else node1)
    else:
        finish(s, 0 if best0 > 0 else 1, CLOSED_WIN, node0 if best0 > 0 else node1)


@njit
def finish(s, winner, how, node):
    s[WINNER], s[TO_MOVE], s[HOW], s[WIN_NODE] = winner, -1, how, node


@njit
def exhaustion_scores(s, t):
    """Per player, the exhaustion rule's (first, second) measures: standard: the largest group's bridges;
    eat-enemy: the largest eaten group's bridges, then groups eaten; must-contain: the largest closed group's
    bridges, then closed groups.  Also the node of each player's largest such group (-1 for none)."""
    out = np.full((2, 2), -1, dtype=np.int64)
    out[:, 1] = 0
    nodes = np.full(2, -1, dtype=np.int64)
    for x in range(6 * s[PLACED]):
        if s[t.par + x] != x:
            continue
        p = owner(x)
        if t.variant == STANDARD:
            v = s[t.bridges + x]
        elif t.variant == EAT_ENEMY:
            v = s[t.eatmax + x]
            out[p, 1] += s[t.eats + x]
        else:
            if s[t.opens + x] != 0:
                continue
            v = s[t.bridges + x]
            out[p, 1] += 1
        if v > out[p, 0]:
            out[p, 0], nodes[p] = v, x
    return out, nodes


@njit
def exhaust(s, t):
    """The pool is empty and no one has won: the option's rule decides."""
    if t.draw_on_exhaustion:
        finish(s, DRAW, EXHAUSTED, -1)
        return
    out, nodes = exhaustion_scores(s, t)
    for j in range(2):
        if out[0, j] != out[1, j]:
            w = 0 if out[0, j] > out[1, j] else 1
            finish(s, w, EXHAUSTED, nodes[w])
            return
    finish(s, DRAW, EXHAUSTED, -1)


# --- the kernels -------------------------------------------------------------------------------

@njit
def start(s, t):
    """The start tile, orientation 0, on the centre cell; Light to place one tile."""
    lay(s, t, t.start, 0)
    s[ALLOW], s[FIRST], s[WIN_NODE] = 1, -1, -1


@inline
def has_room(s, grid, nbr, c):
    """Has cell c an empty neighbour (``grid``, ``nbr``: the tables' offset and neighbours)?"""
    for e in range(6):
        if tile_at(s, grid, nbr[c, e]) == 0:
            return True
    return False


@hot
def trial_winner(s, t, c, k, trial):
    """The winner (-1 none) once the mover places tile c:k, tried on ``trial`` (a position's size)."""
    for i in range(s.shape[0]):
        trial[i] = s[i]
    place(trial, t, c, k, trial[TO_MOVE])
    return trial[WINNER]


@njit
def ends_game(s, t, c, k):
    """Would tile ``c:k`` end the game now?"""
    return trial_winner(s, t, c, k, np.empty_like(s)) >= 0


@njit
def legal(s, t, out):
    """The legal actions (3 * cell + orientation) into ``out``; their count."""
    if s[WINNER] >= 0:
        return 0
    n = 0
    grid, nbr = t.grid, t.nbr
    if s[STEP] == 1 and not t.anywhere:  # the second tile: next to the first
        f = s[FIRST]
        for e in range(6):
            m = nbr[f, e]
            if m != t.ncells and tile_at(s, grid, m) == 0:
                for k in range(3):
                    out[n] = 3 * m + k
                    n += 1
        return n
    hole_rule = s[STEP] == 0 and s[ALLOW] == 2 and not t.anywhere
    for tile in range(s[PLACED]):
        c = s[t.tcell + tile]
        for e in range(6):
            m = nbr[c, e]
            if m == t.ncells or tile_at(s, grid, m) != 0:
                continue
            first = True  # count m once: from its earliest placed neighbour
            for d in range(6):
                u = tile_at(s, grid, nbr[m, d])
                if u > 0 and u - 1 < tile:
                    first = False
            if not first:
                continue
            room = not hole_rule or has_room(s, grid, nbr, m)
            for k in range(3):
                if room or ends_game(s, t, m, k):
                    out[n] = 3 * m + k
                    n += 1
    return n


@njit
def apply(s, t, a):
    """Play the legal action a."""
    if advance(s, t, a):
        exhaust(s, t)


@inline
def advance(s, t, a):
    """``apply`` but for the exhaustion rule: True when the pool ran out with no winner, the caller then
    applies it.  (The playout calls ``exhaust`` after its loop: a call in the loop, even one not made, made
    each tile ~0.1 us slower.)"""
    c, k = a // 3, a % 3
    s[PLY] += 1
    place(s, t, c, k, s[TO_MOVE])
    s[STEP] += 1
    if s[WINNER] >= 0:
        return False
    if s[PLACED] == t.tiles:
        return True
    if s[STEP] == s[ALLOW]:
        s[TURN] += 1
        s[TO_MOVE] = 1 - s[TO_MOVE]
        s[STEP], s[FIRST] = 0, -1
        s[ALLOW] = min(2, t.tiles - s[PLACED])
    else:
        s[FIRST] = c
    return False


@inline
def _frontier_grows(s, t, c, front, pos, nf):
    """Add the empty cells next to c to the frontier ``front[:nf]`` (a sparse set: c is in it where
    ``front[pos[c]] == c``); returns its new length."""
    for e in range(6):
        m = t.nbr[c, e]
        if m != t.ncells and tile_at(s, t.grid, m) == 0 and not (0 <= pos[m] < nf and front[pos[m]] == m):
            front[nf], pos[m] = m, nf
            nf += 1
    return nf


@inline
def _frontier_drops(c, front, pos, nf):
    """Take c (a cell just tiled) out of the frontier; returns its new length."""
    nf -= 1
    last = front[nf]
    front[pos[c]], pos[last] = last, pos[c]
    return nf


@inline
def _random_cell(s, t, near, front, nf):
    """A random cell for the next tile: next to the turn's first tile when the second must be (``near`` is
    scratch for six cells), else on the frontier."""
    if s[STEP] == 1 and not t.anywhere:
        count = 0
        for e in range(6):
            m = t.nbr[s[FIRST], e]
            if m != t.ncells and tile_at(s, t.grid, m) == 0:
                near[count] = m
                count += 1
        return near[np.random.randint(count)]
    return front[np.random.randint(nf)]


@njit
def recorded_playout(s, t, actions, movers):
    """Uniformly random legal tiles to the end, in place, writing each action and its mover while the arrays
    have room; returns the number written (for MCTS's AMAF).  It keeps the empty cells next to tiles as a
    sparse set and draws a cell and an orientation from it, drawing again where the hole rule refuses."""
    n = t.ncells
    front = np.empty(6 * t.tiles + 6, dtype=np.int32)
    pos = np.empty(n + 1, dtype=np.int32)  # a sparse set: valid where front[pos[c]] == c
    near = np.empty(6, dtype=np.int32)
    grid = t.grid
    nf = 0
    for tile in range(s[PLACED]):
        nf = _frontier_grows(s, t, s[t.tcell + tile], front, pos, nf)
    written = 0
    while s[WINNER] < 0:
        k = np.random.randint(3)
        c = _random_cell(s, t, near, front, nf)
        if s[STEP] == 0 and s[ALLOW] == 2 and not t.anywhere and not has_room(s, grid, t.nbr, c) and \
                not ends_game(s, t, c, k):
            continue
        written = note(actions, movers, written, 3 * c + k, s[TO_MOVE])
        if advance(s, t, 3 * c + k):
            break
        nf = _frontier_grows(s, t, c, front, pos, _frontier_drops(c, front, pos, nf))
    if s[WINNER] < 0:
        exhaust(s, t)
    return written


@njit
def playout(s, t):
    """Uniformly random legal tiles to the end, in place."""
    none = np.empty(0, dtype=np.int32)
    recorded_playout(s, t, none, none)


# --- the closing playout: MCTS's playouts in `enhanced` ---------------------------------------
# Uniform playouts mostly run the pool out (70% in the standard game), while searched games end by a closed
# group some 20 tiles in.  The closing playout plays a group's closure when it wins, and blocks the
# opponent's, as players do: it keeps the groups that one turn could close ("hot" groups: at most HOT_OPENS
# empty cells round their vertices, all in one cell or in two neighbouring cells) with those cells and the
# group's corners on each (bit masks), refreshed for the four regions of each tile laid (the only groups a
# tile changes).

HOT_OPENS = 6  # two cells hold at most six corners of one colour
HOT_SLOTS = 64
H_ROOT, H_OPENS, H_CELL1, H_SET1, H_CELL2, H_SET2 = range(6)
COLOUR_CORNERS = (42, 21)  # bit masks of the corners of each player's colour: odd (white), even (blue)


@inline
def tip_orientation(colour, corner):
    """The orientation that puts the tip of ``colour`` (0 white, 1 blue) on ``corner``."""
    return ((corner - 1) // 2) % 3 if colour == 0 else ((corner + 2) // 2) % 3


@inline
def tip_corner(colour, k):
    """The corner that orientation k's tip of ``colour`` is on."""
    return (2 * k + 1) % 6 if colour == 0 else (2 * k + 4) % 6


@inline
def corner_count(corners):
    """How many corners a bit mask holds."""
    n = 0
    for j in range(6):
        n += (corners >> j) & 1
    return n


@inline
def closing_orientation(colour, corners):
    """The orientation of a tile that closes a group of ``colour`` whose only open corners on that cell are
    ``corners``: a tip on a lone corner, the bridge across two (the tip on the third), any for three."""
    n = corner_count(corners)
    if n == 3:
        return np.random.randint(3)
    left = corners if n == 1 else COLOUR_CORNERS[colour] & ~corners
    j = 0
    while not (left >> j) & 1:
        j += 1
    return tip_orientation(colour, j)


@inline
def closes(colour, corners, k):
    """Does a tile of orientation k close a group of ``colour`` open only at ``corners`` of its cell?"""
    n = corner_count(corners)
    tip = tip_corner(colour, k)
    return n == 3 or (((corners >> tip) & 1) == 1) == (n == 1)


@inline
def wins_closed(s, t, root, corners):
    """Would closing group ``root`` by a tile on one cell (its corners there: ``corners``) win?  Standard:
    a bridge (the tile adds one across two or three corners); must-contain: it holds an enemy group."""
    if t.variant == STANDARD:
        return s[t.bridges + root] > 0 or corner_count(corners) >= 2
    return t.variant == MUST_CONTAIN and s[t.eats + root] > 0


@inline
def neighbours(nbr, a, b):
    for e in range(6):
        if nbr[a, e] == b:
            return True
    return False


@njit
def open_cells(s, t, root):
    """The empty cells round group ``root``'s vertices when there are one or two: (cell, corners, cell,
    corners), the corners as a bit mask of that cell's corners on the group, the second cell -1 when there
    is one; the first -1 when there are more, or an open vertex lies off the board."""
    c1, m1, c2, m2 = -1, 0, -1, 0
    node = root
    while True:
        tile, i = node // 6, node % 6
        c = s[t.tcell + tile]
        for h in range(2):
            m = t.nbr[c, i if h == 0 else (i + 5) % 6]
            corner = (i + 4) % 6 if h == 0 else (i + 2) % 6
            if m == t.ncells:
                return -1, 0, -1, 0
            if tile_at(s, t.grid, m) != 0:
                continue
            if c1 < 0 or m == c1:
                c1, m1 = m, m1 | (1 << corner)
            elif c2 < 0 or m == c2:
                c2, m2 = m, m2 | (1 << corner)
            else:
                return -1, 0, -1, 0
        node = s[t.nxt + node]
        if node == root:
            return c1, m1, c2, m2


@inline
def note_group(s, t, r, hot, nhot, slot_of):
    """Record, refresh or drop group r in the hot list (``slot_of``: each root's row); the list's length."""
    j = slot_of[r]
    if not (0 <= j < nhot and hot[j, H_ROOT] == r):
        j = -1
    opens = s[t.opens + r]
    c1, m1, c2, m2 = -1, 0, -1, 0
    if 0 < opens <= HOT_OPENS and (t.variant != MUST_CONTAIN or s[t.eats + r] > 0):  # else closing it wins nothing
        c1, m1, c2, m2 = open_cells(s, t, r)
        if c2 >= 0 and not t.anywhere and not neighbours(t.nbr, c1, c2):
            c1 = -1  # the turn's two tiles touch: no one turn fills both
    if c1 < 0:
        if j >= 0:
            hot[j, H_ROOT] = -1
        return nhot
    if j < 0:
        if nhot == hot.shape[0]:
            return nhot
        j, nhot = nhot, nhot + 1
        slot_of[r] = j
    hot[j, H_ROOT], hot[j, H_OPENS], hot[j, H_CELL1], hot[j, H_SET1] = r, opens, c1, m1
    hot[j, H_CELL2], hot[j, H_SET2] = c2, m2
    return nhot


@inline
def placeable(s, t, c, ends):
    """May a tile go on cell c (next to a tile) now?  ``ends``: the tile ends the game (the hole rule)."""
    if t.anywhere:
        return True
    if s[STEP] == 1:
        return neighbours(t.nbr, c, s[FIRST])
    return ends or s[ALLOW] == 1 or has_room(s, t.grid, t.nbr, c)


@inline
def unsafe(danger, c, k):
    """Would tile c:k hand the opponent a win (``danger``: count, then (cell, orientations bit mask) pairs)?"""
    for d in range(danger[0]):
        if danger[2 * d + 1] == c and (danger[2 * d + 2] >> k) & 1:
            return True
    return False


@inline
def closure_wins(s, t, roots, sets, count, colour, k):
    """Does a tile of orientation k on a cell close a group of ``colour`` that then wins?  ``roots[:count]``
    are that colour's groups open only at this cell, ``sets`` their corners on it.  The tile's bridge closes
    the groups at its two corners (merged, with a bridge) when both are among them; its tip closes the group
    at its corner when that one is among them and touches neither bridge corner."""
    tip = tip_corner(colour, k)
    bridge = COLOUR_CORNERS[colour] & ~(1 << tip)
    joined, eats = 0, 0
    for i in range(count):
        if sets[i] & bridge:
            joined |= sets[i]
            eats += s[t.eats + roots[i]]
    if joined & bridge == bridge and (t.variant == STANDARD or eats > 0):
        return True
    for i in range(count):
        if (sets[i] >> tip) & 1 and not sets[i] & bridge:
            return s[t.bridges + roots[i]] > 0 if t.variant == STANDARD else s[t.eats + roots[i]] > 0
    return False


@inline
def drop_stale(s, t, hot, nhot, slot_of):
    """Drop the hot list's rows whose root was merged away or whose open count changed; its new length."""
    j = 0
    while j < nhot:
        r = hot[j, H_ROOT]
        if r < 0 or s[t.par + r] != r or s[t.opens + r] != hot[j, H_OPENS]:
            nhot -= 1  # stale: overwrite it with the last row
            for h in range(6):
                hot[j, h] = hot[nhot, h]
            if hot[j, H_ROOT] >= 0:
                slot_of[hot[j, H_ROOT]] = j
            continue
        j += 1
    return nhot


@inline
def closes_any(sets, count, colour, k):
    """Does a tile of orientation k close one of the groups of ``colour`` open only at its cell (their
    corners there: ``sets[:count]``)?  Its bridge closes those at its two corners when both are among them,
    its tip the one at its corner when that one touches neither bridge corner."""
    tip = tip_corner(colour, k)
    bridge = COLOUR_CORNERS[colour] & ~(1 << tip)
    joined = 0
    for i in range(count):
        if sets[i] & bridge:
            joined |= sets[i]
    if joined & bridge == bridge:
        return True
    for i in range(count):
        if (sets[i] >> tip) & 1 and not sets[i] & bridge:
            return True
    return False


@inline
def noted_danger(s, t, danger, c, lose, block_c, block_k):
    """Note in ``danger`` that the opponent wins by a tile on c in the orientations of the bit mask ``lose``;
    with no block chosen yet, block there in an orientation that does not lose, if one does not and c takes
    a tile.  Returns the block (cell, orientation; the cell -1 for none)."""
    if 2 * danger[0] + 2 < danger.shape[0]:
        danger[2 * danger[0] + 1], danger[2 * danger[0] + 2] = c, lose
        danger[0] += 1
    if block_c < 0 and lose != 7 and placeable(s, t, c, False):
        block_c, block_k = c, np.random.randint(3)
        while (lose >> block_k) & 1:
            block_k = np.random.randint(3)
    return block_c, block_k


@inline
def first_time(cells, i):
    """Whether ``cells[i]`` is not among ``cells[:i]``."""
    for h in range(i):
        if cells[h] == cells[i]:
            return False
    return True


@inline
def eating_choice(s, t, hot, nhot, slot_of, danger, one, trial):
    """Eat-enemy's ``closing_choice``: a closed group wins there by being the second eaten by the group
    round it, which shows only once it closes, so each tile that closes a group open only at its cell is
    tried on ``trial``: one that wins is played, one that makes the opponent win is avoided (``danger``)
    and, if another orientation is safe, blocked.  Returns (the list's new length, cell, orientation)."""
    p = s[TO_MOVE]
    danger[0] = nones = 0
    block_c, block_k = -1, 0
    nhot = drop_stale(s, t, hot, nhot, slot_of)
    for j in range(nhot):
        if hot[j, H_CELL2] < 0 and nones < one.shape[1]:
            one[0, nones], one[1, nones], one[2, nones] = hot[j, H_CELL1], hot[j, H_SET1], owner(hot[j, H_ROOT])
            nones += 1
    light, dark = one[4:6], one[6:8]  # per cell: each colour's groups' corners there
    for i in range(nones):
        c = one[0, i]
        if not first_time(one[0], i):
            continue
        nl = nd = 0
        for h in range(i, nones):
            if one[0, h] == c:
                if one[2, h] == 0:
                    light[0, nl] = one[1, h]
                    nl += 1
                else:
                    dark[0, nd] = one[1, h]
                    nd += 1
        lose = 0
        for k in range(3):
            if not (closes_any(light[0], nl, 0, k) or closes_any(dark[0], nd, 1, k)):
                continue
            w = trial_winner(s, t, c, k, trial)
            if w == p and placeable(s, t, c, True):
                return nhot, c, k
            if w == 1 - p:
                lose |= 1 << k
        if lose:
            block_c, block_k = noted_danger(s, t, danger, c, lose, block_c, block_k)
    return nhot, block_c, block_k


@inline
def closing_choice(s, t, hot, nhot, slot_of, danger, one):
    """The mover's tile by the hot groups: one that closes a group of his that wins (and no winning group of
    the opponent's: the mover would lose), else the first of a two-tile closure that wins, else a block of
    the opponent's one-tile win (a tile on its cell that does not win for him), else of his two-tile one.
    Returns (the list's new length, cell, orientation), the cell -1 for none.  ``danger`` gets the
    opponent's one-tile wins (the caller's random tile avoids them); ``one`` is scratch (8 rows)."""
    p = s[TO_MOVE]
    two = s[STEP] == 0 and s[ALLOW] == 2
    setup_c, setup_k, block_c, block_k, block2_c, block2_k = -1, 0, -1, 0, -1, 0
    danger[0] = nones = 0
    nhot = drop_stale(s, t, hot, nhot, slot_of)
    for j in range(nhot):
        r = hot[j, H_ROOT]
        o, c1, m1, c2, m2 = owner(r), hot[j, H_CELL1], hot[j, H_SET1], hot[j, H_CELL2], hot[j, H_SET2]
        if c2 < 0:
            if nones < one.shape[1]:
                one[0, nones], one[1, nones], one[2, nones], one[3, nones] = r, c1, m1, o
                nones += 1
        elif wins_closed(s, t, r, m1) or wins_closed(s, t, r, m2):
            h = np.random.randint(2)  # which of the two cells first
            c, m = (c1, m1) if h == 0 else (c2, m2)
            if o == p:
                if two and setup_c < 0:
                    setup_c, setup_k = c, closing_orientation(o, m)
            elif block2_c < 0 and corner_count(m) < 3 and placeable(s, t, c, False):
                block2_c, block2_k = c, np.random.randint(3)
                while closes(o, m, block2_k):
                    block2_k = np.random.randint(3)
    mine, theirs = one[4:6], one[6:8]  # per cell: each player's groups open only there, and their corners
    for i in range(nones):  # each cell that closes groups once: its first row
        c = one[1, i]
        if not first_time(one[1], i):
            continue
        nm = nt = 0
        for h in range(i, nones):
            if one[1, h] == c:
                if one[3, h] == p:
                    mine[0, nm], mine[1, nm] = one[0, h], one[2, h]
                    nm += 1
                else:
                    theirs[0, nt], theirs[1, nt] = one[0, h], one[2, h]
                    nt += 1
        lose = 0  # orientations that win for the opponent
        for k in range(3):
            if nt > 0 and closure_wins(s, t, theirs[0], theirs[1], nt, 1 - p, k):
                lose |= 1 << k
        for k in range(3):
            if not (lose >> k) & 1 and nm > 0 and closure_wins(s, t, mine[0], mine[1], nm, p, k) and \
                    placeable(s, t, c, True):
                return nhot, c, k
        if lose:
            block_c, block_k = noted_danger(s, t, danger, c, lose, block_c, block_k)
    if setup_c >= 0:
        return nhot, setup_c, setup_k
    if block_c >= 0:
        return nhot, block_c, block_k
    return nhot, block2_c, block2_k


@njit
def closing_playout(s, t, actions, movers):
    """``recorded_playout`` where each tile is first chosen by ``closing_choice`` (a winning closure, a
    block), else drawn at random among those that do not hand the opponent a win (four draws at most).
    In eat-enemy the closures are tried on a copy (``eating_choice``)."""
    trial = np.empty_like(s)  # tiles tried: the hole rule's, and eat-enemy's closures
    scratch = np.empty(t.ncells + 1 + 6 * t.tiles + 6 + 6 + 6 * t.tiles + 17, dtype=np.int32)
    tables = np.empty((HOT_SLOTS + 8, 16), dtype=np.int32)  # the hot list's rows, then closing_choice's scratch
    written = closing_loop(s, t, actions, movers, scratch, tables[:HOT_SLOTS, :6], tables[HOT_SLOTS:], trial)
    if s[WINNER] < 0:
        exhaust(s, t)
    return written


@hot
def closing_loop(s, t, actions, movers, scratch, hot, one, trial):
    """:func:`closing_playout`'s loop, compiled without reference counting (it allocates nothing: its
    arrays are views of the caller's; with counting, each tile's bookkeeping cost twice as much)."""
    n = t.ncells
    pos, at = scratch[:n + 1], n + 1  # the frontier as a sparse set: valid where front[pos[c]] == c
    front, at = scratch[at:at + 6 * t.tiles + 6], at + 6 * t.tiles + 6
    near, at = scratch[at:at + 6], at + 6
    slot_of, at = scratch[at:at + 6 * t.tiles], at + 6 * t.tiles
    danger = scratch[at:at + 17]
    danger[0] = 0
    grid = t.grid
    nf = nhot = 0
    for tile in range(s[PLACED]):
        nf = _frontier_grows(s, t, s[t.tcell + tile], front, pos, nf)
    eaten = False  # eat-enemy: has some group eaten one (only then can a closure win)?
    for x in range(6 * s[PLACED]):
        if s[t.par + x] == x:
            nhot = note_group(s, t, x, hot, nhot, slot_of)
            eaten = eaten or s[t.eats + x] > 0
    written = 0
    while s[WINNER] < 0:
        if t.variant == EAT_ENEMY:
            nhot, c, k = eating_choice(s, t, hot, nhot, slot_of, danger, one, trial) if eaten else (nhot, -1, 0)
        else:
            nhot, c, k = closing_choice(s, t, hot, nhot, slot_of, danger, one)
        tries = 0
        while c < 0 and tries < 4:
            tries += 1
            k = np.random.randint(3)
            c = _random_cell(s, t, near, front, nf)
            if s[STEP] == 0 and s[ALLOW] == 2 and not t.anywhere and not has_room(s, grid, t.nbr, c) and \
                    trial_winner(s, t, c, k, trial) < 0:
                c = -1
                tries -= 1  # a refusal of the hole rule is not a try
                continue
            if tries < 4 and unsafe(danger, c, k):
                c = -1
        written = note(actions, movers, written, 3 * c + k, s[TO_MOVE])
        if advance(s, t, 3 * c + k):
            break
        tile = s[PLACED] - 1
        for i in range(4):
            r = find(s, t, 6 * tile + (2 * k + REGION_CORNERS[i]) % 6)
            nhot = note_group(s, t, r, hot, nhot, slot_of)
            if t.variant == MUST_CONTAIN and s[t.opens + r] == 0:  # closed now: its surrounding group holds one more
                nhot = note_group(s, t, find(s, t, s[t.eater + r]), hot, nhot, slot_of)
            if t.variant == EAT_ENEMY and s[t.opens + r] == 0:
                eaten = eaten or s[t.eats + find(s, t, s[t.eater + r])] > 0
        nf = _frontier_grows(s, t, c, front, pos, _frontier_drops(c, front, pos, nf))
    return written


KERNELS = kernel_set(legal, apply, playout, recorded_playout=recorded_playout, pattern_playout=closing_playout)


# --- the board ------------------------------------------------------------------------------

def cell_coordinates(radius: int) -> list[tuple[int, int]]:
    """The doubled-width (x, y) of every cell within ``radius`` steps of the start tile, row by row.

    >>> cell_coordinates(1)
    [(-1, -1), (1, -1), (-2, 0), (0, 0), (2, 0), (-1, 1), (1, 1)]
    """
    out = []
    for y in range(-radius, radius + 1):
        reach = 2 * radius - abs(y)
        out += [(x, y) for x in range(-reach, reach + 1, 2)]
    return out


_TOPOLOGIES: dict[int, tuple[Topology, np.ndarray]] = {}


def plane(radius: int) -> tuple[Topology, np.ndarray]:
    """The hexagon of ``radius`` cells round the start tile as a Topology (names ``x,y``), and the
    neighbour table across each tile edge (NE, E, SE, SW, W, NW) with ``ncells`` off the board."""
    if radius not in _TOPOLOGIES:
        xy = np.array(cell_coordinates(radius), dtype=np.int32)
        n = len(xy)
        where = {(int(x), int(y)): c for c, (x, y) in enumerate(xy)}
        nbr = np.full((n, 6), -1, dtype=np.int32)
        across = np.full((n, 6), n, dtype=np.int32)
        for c, (x, y) in enumerate(xy.tolist()):
            for d, (dx, dy) in enumerate(BOARD_STEP):
                nbr[c, d] = where.get((x + dx, y + dy), -1)
            for e, (dx, dy) in enumerate(EDGE_STEP):
                across[c, e] = where.get((x + dx, y + dy), n)
        corners = [(-radius, -radius), (radius, -radius), (2 * radius, 0), (radius, radius), (-radius, radius),
                   (-2 * radius, 0)]
        steps = [(2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)]
        sides = tuple(tuple(where[(cx + i * dx, cy + i * dy)] for i in range(radius + 1))
                      for (cx, cy), (dx, dy) in zip(corners, steps))
        perimeter = tuple(c for side in sides for c in side[:-1]) if radius else (0,)
        edge = np.zeros(n, dtype=np.bool_)
        edge[list(perimeter)] = True
        names = tuple(f"{x},{y}" for x, y in xy.tolist())
        topo = Topology("palago plane", names, xy, nbr, np.zeros((n, 6), dtype=np.int8), edge, sides, perimeter,
                        {name: c for c, name in enumerate(names)})
        _TOPOLOGIES[radius] = (topo, across)
    return _TOPOLOGIES[radius]


def parse_flag(text: str) -> bool:
    """``"true"`` or ``"false"`` in any case; ValueError otherwise."""
    if text.lower() not in ("true", "false"):
        raise ValueError(text)
    return text.lower() == "true"


MOVE = re.compile(r"(-?[0-9]{1,4}),(-?[0-9]{1,4}):([0-9])")
COLOURS = ("white", "blue")  # each player's colour


class Palago(Game):
    """Palago / Lambo: Light (white) and Dark (blue) place bridge tiles, 1 then 2 a turn, to close a group."""

    name = "palago"
    PLAYERS = ("light", "dark")
    OPTIONS = {
        "variant": choice("standard", VARIANTS, "what wins: a closed group with a bridge (standard), a group "
                                                "eating two closed enemy groups, a closed group holding one"),
        "anywhere": Option(False, parse_flag, lambda v: isinstance(v, bool), "true | false",
                           "a turn's two tiles need not be next to each other"),
        "eat_size": int_between(0, 0, MAX_TILES, "eat-enemy: the fewest bridges an eaten group has"),
        "exhausted": choice("largest", EXHAUSTION, "an empty pool: the largest group wins (Lambo), or a draw"),
        "tiles": int_between(48, 2, MAX_TILES, "tiles in the pool, the start tile included"),
    }
    PLANES = ("tile", "orientation 0", "orientation 1", "orientation 2", "placed this turn", "playable now",
              "own colour is white", "share of the pool left")
    OBSERVATION_FORM = "grid"
    MOVE_SEPARATOR = " "
    # AMAF misleads (a tile's worth depends on its neighbours' orientations): against uct, 20 games at 0.25 s a
    # move, enhanced scored 60%, with rave_bias=0.1 40%, without RAVE at c=0.5 75%, at c=0.3 85%; with the
    # closing playouts (patterns, on in enhanced) 94% over 80 games (docs/palago.md)
    MCTS = {"rave": False, "c": 0.3}
    kernels = KERNELS

    @classmethod
    def validate_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        out = super().validate_options(options)
        if out["eat_size"] and out["variant"] != "eat-enemy":
            raise ValueError(f"option 'eat_size' of {cls.name} applies to variant=eat-enemy only "
                             f"(variant is {out['variant']})")
        return out

    def setup(self) -> None:
        o = self.options
        self.radius = o["tiles"] - 1
        self.topology, across = plane(self.radius)
        n, tiles = self.topology.ncells, o["tiles"]
        grid, gridwords = BODY, (n + 1 + 3) // 4
        tcell = grid + gridwords
        tori = tcell + tiles
        tturn = tori + tiles
        par = tturn + tiles
        nodes = 6 * tiles
        offsets = [par + i * nodes for i in range(7)]
        self.tables = Tables(across, self.topology.xy, n, tiles, self.topology.index("0,0"),
                             VARIANTS.index(o["variant"]), o["anywhere"], o["eat_size"],
                             o["exhausted"] == "draw", grid, gridwords, tcell, tori, tturn, *offsets)
        self.num_actions = 3 * n
        self.state_size = par + 7 * nodes
        self.max_game_length = tiles - 1

    def initial_array(self) -> np.ndarray:
        s = super().initial_array()
        start(s, self.tables)
        return s

    # facts ------------------------------------------------------------------------------------
    def tiles(self, s: np.ndarray) -> list[tuple[int, int]]:
        """(cell, orientation) of every tile on the table, in the order placed (the start tile first)."""
        t = self.tables
        return [(int(s[t.tcell + i]), int(s[t.tori + i])) for i in range(int(s[PLACED]))]

    def grid(self, s: np.ndarray) -> np.ndarray:
        """The tile number on every cell (0 for none; the last entries stand for off the board), unpacked from
        the position's grid words (a byte a cell, the lowest byte first)."""
        t = self.tables
        words = s[t.grid: t.grid + t.gridwords].astype(np.int64)
        return ((words[:, None] >> np.arange(0, 32, 8)) & 255).ravel()

    def cell_of(self, x: int, y: int) -> int | None:
        """The cell at doubled-width ``x,y``, or None beyond the board's reach."""
        return self.topology.find(f"{x},{y}")

    def root(self, s: np.ndarray, node: int) -> int:
        t = self.tables
        while s[t.par + node] != node:
            node = int(s[t.par + node])
        return node

    def groups(self, s: np.ndarray) -> dict[int, list[int]]:
        """Every group: its root node -> its nodes (tile * 6 + corner)."""
        out: dict[int, list[int]] = {}
        for node in range(6 * int(s[PLACED])):
            out.setdefault(self.root(s, node), []).append(node)
        return out

    def group_facts(self, s: np.ndarray, root: int) -> dict[str, Any]:
        """A group's owner, bridges, open count, whether closed, and what it has eaten."""
        t = self.tables
        return {"owner": owner(root), "bridges": int(s[t.bridges + root]), "open": int(s[t.opens + root]),
                "closed": s[t.opens + root] == 0, "eats": int(s[t.eats + root]), "eatmax": int(s[t.eatmax + root])}

    def remaining(self, s: np.ndarray) -> int:
        """Tiles left in the pool."""
        return self.options["tiles"] - int(s[PLACED])

    def open_cells(self, s: np.ndarray) -> list[int]:
        """The empty cells next to a tile (where tiles may go, rules permitting), in cell order."""
        grid = self.grid(s)
        return sorted({m for c, _ in self.tiles(s) for m in self.topology.neighbours(c) if not grid[m]})

    def turn_cells(self, s: np.ndarray) -> list[int]:
        """The cells of the tiles placed in the turn in progress, or, between turns, of the last turn."""
        t = self.tables
        turn = int(s[TURN]) if (s[STEP] or s[WINNER] >= 0) else int(s[TURN]) - 1
        return [c for i, (c, _) in enumerate(self.tiles(s)) if i and s[t.tturn + i] == turn]

    # notation ---------------------------------------------------------------------------------
    def action_name(self, s: np.ndarray, action: int) -> str:
        c, k = divmod(int(action), 3)
        return f"{self.topology.name(c)}:{k}"

    def parse_move(self, s: np.ndarray, text: str, legal: list[int]) -> int:
        m = MOVE.fullmatch(text.strip(" "))
        if not m:
            raise self.malformed(text, "a tile 'x,y:k': its doubled-width position from the start tile 0,0 "
                                       "(x + y even, e.g. 2,0 or -1,1) and orientation k of 0, 1 or 2")
        x, y, k = map(int, m.groups())
        if (x + y) % 2 or k > 2:
            what = "x + y must be even" if (x + y) % 2 else "the orientation k is 0, 1 or 2"
            raise self.malformed(text, f"a tile 'x,y:k' where {what}")
        c = self.cell_of(x, y)
        action = 3 * c + k if c is not None else -1
        if action in legal:
            return action
        raise IllegalMove(self.why_illegal(s, f"{x},{y}:{k}", c))

    def why_illegal(self, s: np.ndarray, text: str, cell: int | None = None) -> str:
        t = self.tables
        grid = self.grid(s)
        if cell is None or grid[cell] == 0 and not self.next_to_tile(s, cell):
            return f"{quoted(text)} is not next to a placed tile: a tile goes next to one already on the table"
        if grid[cell]:
            k = int(s[t.tori + grid[cell] - 1])
            return f"{quoted(text)}: {self.topology.name(cell)} holds a tile already ({self.topology.name(cell)}:{k})"
        first = int(s[FIRST])
        if s[STEP] == 1 and not self.options["anywhere"] and cell not in self.topology.neighbours(first):
            return (f"{quoted(text)} is not next to this turn's first tile at {self.topology.name(first)}: a turn's "
                    f"two tiles touch (option anywhere lifts this)")
        return (f"{quoted(text)} fills a hole without ending the game, leaving no place next to it for the "
                f"turn's second tile: a turn's first tile fills a hole only if it wins or loses the game")

    def next_to_tile(self, s: np.ndarray, cell: int) -> bool:
        grid = self.grid(s)
        return any(grid[m] for m in self.topology.neighbours(cell))

    def move_target(self, s: np.ndarray, action: int) -> int | None:
        """The cell a tile goes on (three orientations share it: the player picks one in the chooser)."""
        return int(action) // 3

    def move_picture(self, s: np.ndarray, action: int) -> str | None:
        """The tile in the action's orientation, alone (the web client's chooser shows it)."""
        return tile_picture(int(action) % 3)

    # status, scores, observations ---------------------------------------------------------------------
    def deciding_group(self, s: np.ndarray) -> list[int]:
        """The nodes of the group that won (or, on exhaustion, the winner's largest group)."""
        if s[WIN_NODE] < 0:
            return []
        return self.groups(s)[self.root(s, int(s[WIN_NODE]))]

    def rules_status(self, state) -> str:
        s = state.array
        if state.is_over():
            return self.ending(s)
        p = state.to_move
        left = self.remaining(s)
        return (f"{self.PLAYERS[p]} ({COLOURS[p]}) to move: turn {state.turn}, tile {state.step + 1} of "
                f"{int(s[ALLOW])}; {left} tile{'s' if left != 1 else ''} in the pool")

    def rules_end_reason(self, s: np.ndarray) -> str:
        """The winning group: ``closed-group`` (standard), ``eaten`` (eat-enemy),
        ``contained`` (must-contain), ``double-win`` (the last tile made
        winners for both); or the empty pool: ``largest-group`` (won or tied
        on it), ``pool-exhausted`` (a draw by option)."""
        how = int(s[HOW])
        if how == EXHAUSTED:
            return "pool-exhausted" if self.options["exhausted"] == "draw" else "largest-group"
        if how == DOUBLE_WIN:
            return "double-win"
        return {"standard": "closed-group", "eat-enemy": "eaten", "must-contain": "contained"}[self.options["variant"]]

    def ending(self, s: np.ndarray) -> str:
        """How the game ended, in words."""
        how, w = int(s[HOW]), int(s[WINNER])
        name = self.PLAYERS[w] if w in (0, 1) else ""
        variant = self.options["variant"]
        if how == EXHAUSTED:
            if self.options["exhausted"] == "draw":
                return "the pool is empty: a draw"
            out, _ = exhaustion_scores(s.copy(), self.tables)
            measure = {"standard": "largest group", "eat-enemy": "largest eaten group, then most eaten",
                       "must-contain": "largest closed group, then most closed groups"}[variant]
            figures = f"({out[0, 0]}, {out[0, 1]} against {out[1, 0]}, {out[1, 1]})" if variant != "standard" else \
                f"({out[0, 0]} bridges against {out[1, 0]})"
            if w == DRAW:
                return f"the pool is empty and the {measure} ties {figures}: a draw"
            return f"the pool is empty: {name} wins with the {measure} {figures}"
        facts = self.group_facts(s, self.root(s, int(s[WIN_NODE])))
        what = {"standard": f"a closed {COLOURS[facts['owner']]} group with {facts['bridges']} bridge"
                            f"{'s' if facts['bridges'] != 1 else ''}",
                "eat-enemy": f"a {COLOURS[facts['owner']]} group eating {facts['eats']} closed enemy groups",
                "must-contain": f"a closed {COLOURS[facts['owner']]} group holding {facts['eats']} closed enemy "
                                f"group{'s' if facts['eats'] != 1 else ''}"}[variant]
        if how == DOUBLE_WIN:
            loser = self.PLAYERS[1 - w]
            return f"the last tile made winners for both: {name} wins ({what}; {loser} moved)"
        return f"{name} wins with {what}"

    def scores(self, s: np.ndarray) -> list[float] | None:
        """The bridges of each player's largest group."""
        best = [0, 0]
        t = self.tables
        for node in range(6 * int(s[PLACED])):
            if s[t.par + node] == node:
                p = owner(node)
                best[p] = max(best[p], int(s[t.bridges + node]))
        return [float(b) for b in best]

    def planes(self, s: np.ndarray, player: int) -> np.ndarray:
        """Tiles, each orientation, tiles of the turn in progress, cells where a tile may go now, whether
        ``player`` owns white (on every cell) and the share of the pool left."""
        t = self.tables
        out = self.blank_planes()
        grid = self.grid(s)[: t.ncells]
        filled = grid > 0
        out[0] = filled
        ori = np.where(filled, s[t.tori + np.maximum(grid - 1, 0)], -1)
        for k in range(3):
            out[1 + k] = ori == k
        if s[WINNER] < 0 and s[STEP]:
            out[4, int(s[FIRST])] = 1
        legal = np.empty(self.num_actions, dtype=np.int32)
        n = self.kernels.legal(s.copy(), t, legal)
        out[5, legal[:n] // 3] = 1
        out[6] = player == LIGHT
        out[7] = self.remaining(s) / self.options["tiles"]
        return out

    # pictures ---------------------------------------------------------------------------------
    def bounds(self, s: np.ndarray, margin: int = 1) -> tuple[int, int, int, int]:
        """(xmin, xmax, ymin, ymax) of the tiles placed, widened by ``margin`` cells."""
        xy = self.topology.xy[[c for c, _ in self.tiles(s)]]
        return (int(xy[:, 0].min()) - 2 * margin, int(xy[:, 0].max()) + 2 * margin,
                int(xy[:, 1].min()) - margin, int(xy[:, 1].max()) + margin)

    def ascii(self, state) -> str:
        """Rows by y at the left, x above; a tile is its orientation digit, in brackets for the turn in
        progress (or the last one), ``.`` an empty cell where a tile may go now."""
        s = state.array
        t = self.tables
        x0, x1, y0, y1 = self.bounds(s)
        marked = set(self.turn_cells(s))
        playable = {a // 3 for a in state.legal_actions()}
        width = 2 * (x1 - x0) + 3
        lines = []
        for parity in (0, 1):
            line = [" "] * width
            for x in range(x0, x1 + 1):
                if x % 2 == parity:
                    label = str(x)
                    at = 2 * (x - x0) + 2 - len(label)  # the last digit above the tile's digit
                    for i, ch in enumerate(label):
                        if 0 <= at + i < width:
                            line[at + i] = ch
            lines.append("     " + "".join(line).rstrip())
        for y in range(y0, y1 + 1):
            line = [" "] * width
            for x in range(x0, x1 + 1):
                if (x + y) % 2:
                    continue
                c = self.cell_of(x, y)
                if c is None:
                    continue
                tile = int(self.grid(s)[c])
                if tile:
                    k = str(int(s[t.tori + tile - 1]))
                    token = f"[{k}]" if c in marked else f" {k} "
                else:
                    token = " . " if c in playable else "   "
                at = 2 * (x - x0)
                line[at: at + 3] = token
            lines.append(f"{y:>4} " + "".join(line).rstrip())
        lines.append("tile k: blue bridge joins corners 2k and 2k+2 (corner 0 at the top, clockwise)")
        return "\n".join(lines) + "\n" + self.status(state)

    def svg(self, state, hints: bool = False, **kw: Any) -> str:
        """The tiles as the pieces look (blue and white bridges and tips), closed groups outlined in
        orange, the deciding group in red, this turn's (or the last turn's) tiles ringed."""
        return draw(self, state, hints)


# --- SVG ----------------------------------------------------------------------------------------

SIZE = 26.0  # a tile's circumradius in px
BLUE, WHITE, EDGE, SEA = "#2f6db5", "#f7f7f2", "#3a3a3a", "#d9cfb8"
CLOSED, DECIDING = "#e08a1e", "#d0202a"
OPEN = "#e8dfca"  # an empty cell next to the tiles


def _corner(cx: float, cy: float, i: int) -> tuple[float, float]:
    a = math.radians(60 * i - 90)
    return cx + SIZE * math.cos(a), cy + SIZE * math.sin(a)


def _mid(cx: float, cy: float, e: int) -> tuple[float, float]:
    (ax, ay), (bx, by) = _corner(cx, cy, e % 6), _corner(cx, cy, (e + 1) % 6)
    return (ax + bx) / 2, (ay + by) / 2


def _pt(p: tuple[float, float]) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


def tile_svg(cx: float, cy: float, k: int) -> str:
    """One tile: white ground, the blue bridge (corners 2k to 2k+2, round the white tip), the blue tip."""
    r = SIZE / 2
    hexagon = " ".join(_pt(_corner(cx, cy, i)) for i in range(6))
    a, b = 2 * k, 2 * k + 4
    bridge = (f"M{_pt(_mid(cx, cy, a + 5))} L{_pt(_corner(cx, cy, a))} L{_pt(_mid(cx, cy, a))} "
              f"A{r:.1f},{r:.1f} 0 0 0 {_pt(_mid(cx, cy, a + 1))} L{_pt(_corner(cx, cy, a + 2))} "
              f"L{_pt(_mid(cx, cy, a + 2))} Z")
    tip = f"M{_pt(_corner(cx, cy, b))} L{_pt(_mid(cx, cy, b))} A{r:.1f},{r:.1f} 0 0 1 {_pt(_mid(cx, cy, b - 1))} Z"
    return (f'<polygon points="{hexagon}" fill="{WHITE}"/><path d="{bridge}" fill="{BLUE}"/>'
            f'<path d="{tip}" fill="{BLUE}"/><polygon points="{hexagon}" fill="none" stroke="{EDGE}" '
            f'stroke-width="1.2"/>')


def open_cell_svg(cx: float, cy: float, name: str) -> str:
    """An empty cell next to the tiles: a clickable ``polygon.cell`` named ``name`` for the web client, with
    the name written small."""
    hexagon = " ".join(_pt(_corner(cx, cy, i)) for i in range(6))
    return (f'<polygon class="cell" data-cell="{name}" points="{hexagon}" fill="{OPEN}" stroke="#b3a585" '
            f'stroke-width="1" stroke-dasharray="3,2"/><text x="{cx:.1f}" y="{cy + 3:.1f}" text-anchor="middle" '
            f'font-size="8" fill="#8a7d62">{name}</text>')


@lru_cache(maxsize=3)
def tile_picture(k: int) -> str:
    """A standalone SVG of one tile of orientation k."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 56 56" width="56" height="56">'
            f'{tile_svg(28.0, 28.0, k)}</svg>')


def chord_svg(cx: float, cy: float, k: int, j: int, colour: str, width: float) -> str:
    """Chord j (0: round the white tip, 1: between the bridges, 2: round the blue tip) of a tile, stroked."""
    e0, e1 = ((c + 2 * k) % 6 for c in CHORD_EDGES[j])
    if j == 1:
        d = f"M{_pt(_mid(cx, cy, e0))} L{_pt(_mid(cx, cy, e1))}"
    else:
        r = SIZE / 2
        d = f"M{_pt(_mid(cx, cy, e0))} A{r:.1f},{r:.1f} 0 0 0 {_pt(_mid(cx, cy, e1))}"
    return f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-linecap="round"/>'


def group_outline(game: Palago, s: np.ndarray, nodes: list[int], at, colour: str, width: float) -> list[str]:
    """The boundary chords of a group's regions."""
    out, seen = [], set()
    for node in nodes:
        tile, corner = divmod(node, 6)
        c, k = int(s[game.tables.tcell + tile]), int(s[game.tables.tori + tile])
        for j in REGION_CHORDS[(corner - 2 * k) % 6]:
            if j >= 0 and (tile, j) not in seen:
                seen.add((tile, j))
                out.append(chord_svg(*at(c), k, j, colour, width))
    return out


def draw(game: Palago, state, hints: bool) -> str:
    """The SVG of a Palago position (see :meth:`Palago.svg`)."""
    s = state.array
    x0, x1, y0, y1 = game.bounds(s)
    dx, dy = SIZE * math.sqrt(3) / 2, SIZE * 1.5
    title = game.status(state)
    width = max((x1 - x0) * dx + 2 * SIZE, svg_render.text_width(title, svg_render.TITLE_SIZE) + 16, 320)
    legend = [((BLUE, EDGE), "blue: dark (player 2)"), ((WHITE, EDGE), "white: light (player 1)"),
              (("none", CLOSED), "closed group"), (("none", DECIDING), "deciding group"),
              (("none", svg_render.LAST), "this or last turn's tiles")]
    rows = svg_render.legend_rows(legend, width)
    board_h = (y1 - y0) * dy + 2 * SIZE
    height = 28 + board_h + 18 * len(rows) + 8
    ox = (width - (x1 - x0) * dx) / 2 - x0 * dx
    oy = 28 + SIZE - y0 * dy

    def at(c: int) -> tuple[float, float]:
        x, y = game.topology.xy[c]
        return ox + int(x) * dx, oy + int(y) * dy

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
           f'<rect width="100%" height="100%" fill="{SEA}"/>',
           f'<text x="{width / 2:.1f}" y="18" text-anchor="middle" font-size="{svg_render.TITLE_SIZE}">'
           f'{escape(title)}</text>']
    for c in game.open_cells(s):
        out.append(open_cell_svg(*at(c), game.topology.name(c)))
    for c, k in game.tiles(s):
        out.append(tile_svg(*at(c), k))
    deciding = game.deciding_group(s)
    for root, nodes in game.groups(s).items():
        if s[game.tables.opens + root] == 0 and root not in deciding:
            out += group_outline(game, s, nodes, at, CLOSED, 2.5)
    out += group_outline(game, s, deciding, at, DECIDING, 4.0)
    for c in game.turn_cells(s):
        cx, cy = at(c)
        out.append(f'<circle class="last" cx="{cx:.1f}" cy="{cy:.1f}" r="{SIZE * 0.25:.1f}" fill="none" '
                   f'stroke="{svg_render.LAST}" stroke-width="2.5"/>')
    if hints:
        for c in sorted({a // 3 for a in state.legal_actions()}):
            cx, cy = at(c)
            out.append(f'<circle class="hint" cx="{cx:.1f}" cy="{cy:.1f}" r="{SIZE * 0.15:.1f}" fill="#2a7"/>')
    top = 28 + board_h
    for i, row in enumerate(rows):
        out.append(svg_render.legend_row(row, width, top + 18 * i))
    out.append("</svg>")
    return "\n".join(out)

