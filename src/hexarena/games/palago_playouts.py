"""Palago's random playouts, numba kernels over the rules of :mod:`hexarena.games.palago_rules`: uniform
ones (``playout``, and ``recorded_playout`` writing the tiles for MCTS's AMAF) and closing ones.

MCTS's ``enhanced`` plays closing playouts (``pattern_playout``): random tiles, except that a closure that
wins is taken and the opponent's is blocked, so that playouts end by closed groups as searched games do.
"""

from __future__ import annotations

import numpy as np

from ..kernels import hot, inline, njit, note
from .base import STEP, TO_MOVE, WINNER
from .palago_rules import (ALLOW, EAT_ENEMY, FIRST, MUST_CONTAIN, PLACED, REGION_CORNERS, STANDARD, advance,
                           ends_game, exhaust, find, has_room, owner, tile_at, trial_winner)

# --- uniform playouts ----------------------------------------------------------------------------

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
