"""Palago's rules as numba kernels: the position's layout, the kernels' tables, and ``start``, ``legal``
and ``apply`` with what they use (the game's facade is :mod:`hexarena.games.palago`, its playouts are in
:mod:`hexarena.games.palago_playouts`).

A position keeps a grid of tile numbers (a byte a cell, four to a word: the copy a playout starts with is
small) and, per placed tile, its cell, orientation and six corner nodes.  Nodes are (tile, corner) pairs in
one union-find: a corner joins the node of a neighbour tile at the same vertex, and a bridge joins its two
corners.  A root keeps its group's bridges and its open count (empty cells round its vertices, counted once
per vertex), so a tile updates closedness in O(1) per corner.

Enclosure (the variants): the tiles' colour boundaries are disjoint curves, one per tile through each edge
midpoint, so a closed group's boundary is a set of loops through edge midpoints, and the region across its
outer loop is the group that immediately surrounds it.  The outer loop holds the lexicographically least
(row, column) midpoint among all the group's boundary chords (inner loops lie strictly inside it), so the
surrounding group is found, when a group closes, from that one chord without tracing a loop; a closed group
never changes again, and each root keeps the count and largest size of the closed enemy groups it
surrounds.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..kernels import hot, inline, njit
from .base import DRAW, HEADER, PLY, STEP, TO_MOVE, TURN, WINNER

# state layout after the shared header
PLACED = HEADER  # tiles on the table, the start tile included
ALLOW = HEADER + 1  # tiles this turn places (2, or 1 for Light's first turn and the pool's last tile)
FIRST = HEADER + 2  # the cell of this turn's first tile, -1 before it
HOW = HEADER + 3  # how the game ended: NOT_OVER, CLOSED_WIN, DOUBLE_WIN or EXHAUSTED
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
