"""Iqishiqi's rules as kernels, and the drop mechanic Weituweiqi shares
(:mod:`hexarena.games.weituweiqi`): the position's layout, the tables the
kernels read, the scan for legal drops (listed, or one drawn uniformly for
the playouts), the drop, and Iqishiqi's end of the game.

An action is ``cell * 6 + d``: the drop cell and the direction slot ``d`` the
*ball* moves (``hexarena.board.E`` .. ``NE``).  The game's facade is
:mod:`hexarena.games.iqishiqi`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.core import config
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from ..board import Topology
from ..kernels import hot, inline, njit, popcount
from .base import HEADER, PLY, TO_MOVE, TURN, WINNER
from .position import zobrist

# state layout after the shared header
BALL = HEADER  # the ball's cell
ROLE = HEADER + 1  # Weituweiqi: the Blocker, -1 during the auction (always -1 in Iqishiqi)
BOARD = HEADER + 2
# then a word per cell: bits 0-5 its neighbouring stones (bit e: a stone in
# direction slot e), bit 6 (STONE) set for a stone, bits 7-15 a stone's group
# id (a member cell), bits 16-24 its next member in its group's circular list;
# then each group id's size (ncells entries); then, for each of the three line
# orientations (Tables.line), one bit mask per board line of its stones, then of
# its crowded cells (next to a stone), bit i for the line's i-th cell.  One
# word per cell keeps the position small: a playout starts from a copy of it.
STONE, GROUP, NEXT = 64, 7, 16  # the stone bit; where the group id and the next member start
MAX_CELLS = 512  # group ids and next members have 9 bits

CORNER = 2  # owner-table value of a corner (interior -1, edge cells 0 or 1)
NORTH_SIDES = (0, 2, 4)  # top, lower-right, lower-left (hexarena.board side order)


class Tables(NamedTuple):
    """What the kernels read besides the position (``game.tables``).  Few
    fields: a call that passes a tuple of 13 arrays or more cost ~150 ns
    more than one passing 12 (numba 0.68, measured on ``place``)."""

    nbr: np.ndarray  # int32[n, 6]: neighbour per direction, -1 off the board
    rays: np.ndarray  # int32[n, 6, L]: the cells straight from each cell (hexarena.board.rays)
    owner: np.ndarray  # int32[n]: whose edge a rim cell is (0, 1 or CORNER), -1 inside
    ncells: int
    line: np.ndarray  # int32[n, 3]: the board line through each cell in orientation a (slots a and a + 3)
    pos: np.ndarray  # int32[n, 3]: the cell's place on that line, counted in direction slot a
    cells: np.ndarray  # int32[3, lines, L]: the cell at each place of each line, -1 past its end
    length: np.ndarray  # int32[3, lines]: cells per line
    lines: int  # lines per orientation
    arcs: np.ndarray  # int32[64]: per set of neighbour slots, its circular runs (:func:`arc_table`)
    sides: np.ndarray  # int32[n]: bit e set where the cell has a neighbour in slot e


def arc_table() -> np.ndarray:
    """For each 6-bit set of direction slots (a cell's neighbouring stones):
    how many circular runs of consecutive slots it has (bits 0-1) and the
    first slot of each (3 bits each from bit 2).  Stones in consecutive slots
    touch each other, so each run lies in one group."""
    out = np.zeros(64, np.int32)
    for bits in range(64):
        firsts = [e for e in range(6) if bits >> e & 1 and not bits >> (e + 5) % 6 & 1] or ([0] if bits else [])
        out[bits] = len(firsts) | sum(e << (2 + 3 * i) for i, e in enumerate(firsts))
    return out


def line_tables(topo: Topology, lines_: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """``line``, ``pos``, ``cells`` and ``length`` of :class:`Tables` from the
    board and its rays: each line starts at a cell with no neighbour in slot a + 3."""
    n = topo.ncells
    starts = [[c for c in range(n) if topo.nbr[c, a + 3] < 0] for a in range(3)]
    count = max(len(s) for s in starts)
    line, pos = np.zeros((n, 3), np.int32), np.zeros((n, 3), np.int32)
    cells = np.full((3, count, lines_.shape[2] + 1), -1, np.int32)
    length = np.zeros((3, count), np.int32)
    for a in range(3):
        for i, c0 in enumerate(starts[a]):
            members = [c0] + [int(m) for m in lines_[c0, a] if m >= 0]
            length[a, i] = len(members)
            for k, c in enumerate(members):
                line[c, a], pos[c, a], cells[a, i, k] = i, k, c
    return line, pos, cells, length, count


# --- the shared mechanic -------------------------------------------------------

@inline
def _group(s, c):
    """The group id of the stone on ``c``."""
    return (s[BOARD + c] >> GROUP) & 511


@inline
def _line(t, a, b):
    """(slot, distance) of cell ``b`` seen from cell ``a`` along a hex line, or (-1, 0)."""
    for k in range(3):
        if t.line[a, k] == t.line[b, k]:
            j = t.pos[b, k] - t.pos[a, k]
            return (k, j) if j > 0 else (k + 3, -j) if j < 0 else (-1, 0)
    return -1, 0


@hot
def _sight(s, t, dist, seen):
    """For each slot d: ``dist[d]`` empty cells beyond the ball, and ``seen[d]``
    the group id of the stone then met (-1 at the board's edge)."""
    ray = t.rays
    ball = s[BALL]
    for d in range(6):
        k = 0
        seen[d] = -1
        while k < ray.shape[2]:
            m = ray[ball, d, k]
            if m < 0:
                break
            if s[BOARD + m] & STONE:
                seen[d] = _group(s, m)
                break
            k += 1
        dist[d] = k


@inline
def _group_after(s, t, c):
    """Size of the group a drop at ``c`` makes and the ids of the (at most
    three) groups it joins (-1 padded): one stone looked at per run of
    neighbouring stones (:func:`arc_table`)."""
    n = t.ncells
    arcs = t.arcs[s[BOARD + c] & 63]
    g0, g1, g2, size = -1, -1, -1, 1
    for i in range(arcs & 3):
        g = _group(s, t.nbr[c, (arcs >> (2 + 3 * i)) & 7])
        if g != g0 and g != g1:
            size += s[BOARD + n + g]
            if g0 < 0:
                g0 = g
            elif g1 < 0:
                g1 = g
            else:
                g2 = g
    return size, g0, g1, g2


@inline
def _reach(s, t, c, dist, seen):
    """What a drop on the empty cell ``c`` does: ``(n, sees, pushes, room)``.

    ``n`` is the size of the group it makes; bit d of ``sees`` is set when a
    stone of that group sees the ball from the side opposite slot d, bit d of
    ``pushes`` when moreover the n cells beyond the ball in slot d are empty
    (the legal directions); ``room`` is the most empty cells beyond the ball
    in a seen direction.  ``dist``/``seen`` from :func:`_sight`."""
    k, j = _line(t, s[BALL], c)
    size, g0, g1, g2 = _group_after(s, t, c)
    sees, pushes, room = 0, 0, 0
    for d in range(6):
        o = d + 3 if d < 3 else d - 3
        g = seen[o]
        if (k == o and j <= dist[o]) or (g >= 0 and (g == g0 or g == g1 or g == g2)):
            run = j - 1 if k == d and j <= dist[d] else dist[d]
            sees |= 1 << d
            room = max(room, run)
            if run >= size:
                pushes |= 1 << d
    return size, sees, pushes, room


@njit
def reach(s, t, c):
    """:func:`_reach` for the empty cell ``c`` of position ``s``."""
    dist = np.empty(6, dtype=np.int64)
    seen = np.empty(6, dtype=np.int64)
    _sight(s, t, dist, seen)
    return _reach(s, t, c, dist, seen)


@njit
def drop_mask(s, t, c):
    """The directions (bit mask) in which a drop at ``c`` may push the ball."""
    if s[BOARD + c] & STONE or c == s[BALL]:
        return 0
    return reach(s, t, c)[2]


# numba's config sets its settings from the environment when imported: its stubs do not declare them
NO_JIT = bool(config.DISABLE_JIT)  # type: ignore[attr-defined]

if NO_JIT:  # numba's bit-scan intrinsics do not run as plain Python
    def _lowest(bits):
        """The index of the lowest set bit of ``bits`` (not 0)."""
        return (int(bits) & -int(bits)).bit_length() - 1

    def _highest(bits):
        """The index of the highest set bit of ``bits`` (not 0)."""
        return int(bits).bit_length() - 1
else:
    @inline
    def _lowest(bits):
        """The index of the lowest set bit of ``bits`` (not 0)."""
        return np.int64(trailing_zeros(np.uint64(bits)))

    @inline
    def _highest(bits):
        """The index of the highest set bit of ``bits`` (not 0)."""
        return 63 - np.int64(leading_zeros(np.uint64(bits)))



@inline
def _runs(s, t, ball, a):
    """The ball's two runs on its line of orientation ``a`` from the line
    masks, forward (slot ``a``) then backward (slot ``a + 3``), each as
    ``(dist, seen, free, crowded)``: the empty cells before the first stone,
    that stone's group id (-1 at the edge), and the bits (on that line) of
    those empty cells with no stone beside them and with one."""
    n, lines = t.ncells, t.lines
    li, p = t.line[ball, a], t.pos[ball, a]
    stones = np.int64(s[BOARD + 2 * n + a * lines + li])
    near = np.int64(s[BOARD + 2 * n + (3 + a) * lines + li])
    end = t.length[a, li] - p - 1  # cells beyond the ball forward
    j = _lowest((stones >> (p + 1)) | (np.int64(1) << end))
    g = _group(s, t.cells[a, li, p + 1 + j]) if j < end else -1
    run = ((np.int64(1) << j) - 1) << (p + 1)
    below = stones & ((np.int64(1) << p) - 1)
    if below == 0:
        jb, gb = p, -1
    else:
        top = _highest(below)
        jb, gb = p - 1 - top, _group(s, t.cells[a, li, top])
    back = ((np.int64(1) << jb) - 1) << (p - jb)
    return j, g, run & ~near, run & near, jb, gb, back & ~near, back & near


# The scan's scratch (:func:`scratch`): per cell a mark and a group's
# directions, then per slot the ball's sight (dist, seen), its lone cells
# (bits, then their count) and its crowded cells, then a list of drops.
SLOTS = 5 * 6


@njit
def scratch(t, drops=0):
    """Working space for :func:`_scan`: per cell a mark and a group's
    directions, then the ball's runs per slot (``SLOTS`` entries), then
    room for ``drops`` drops (:func:`room`); one allocation, the marks and
    directions zeroed."""
    n = t.ncells
    work = np.empty(2 * n + SLOTS + drops, dtype=np.int32)
    work[:2 * n] = 0
    return work


@njit
def room(t, work):
    """The part of :func:`scratch`'s ``work`` that holds a list of drops."""
    return work[2 * t.ncells + SLOTS:]


@inline
def _join(s, t, c, gmask, epoch):
    """``(size, sees)`` of a drop on the empty cell ``c``: the size of the
    group it makes and the directions in which the groups it joins push the
    ball (``gmask`` entries of this ``epoch``); one stone looked at per
    run of neighbouring stones (:func:`arc_table`)."""
    n = t.ncells
    arcs = t.arcs[s[BOARD + c] & 63]
    size, sees, g0, g1 = 1, 0, -1, -1
    for i in range(arcs & 3):
        g = _group(s, t.nbr[c, (arcs >> (2 + 3 * i)) & 7])
        if g != g0 and g != g1:
            size += s[BOARD + n + g]
            v = gmask[g]
            if v >> 6 == epoch:
                sees |= v & 63
            if g0 < 0:
                g0 = g
            else:
                g1 = g
    return size, sees


@inline
def _fits(dist, size):
    """The directions with at least ``size`` empty cells beyond the ball."""
    return (np.int64(dist[0] >= size) | np.int64(dist[1] >= size) << 1 | np.int64(dist[2] >= size) << 2 |
            np.int64(dist[3] >= size) << 3 | np.int64(dist[4] >= size) << 4 | np.int64(dist[5] >= size) << 5)


@inline
def _scan(s, t, out, start, work, epoch, tally=False):
    """Write the legal drop actions (``cell * 6 + slot``) into ``out`` from
    ``start``; returns the new end.

    Only two kinds of cell can push: empty cells on the ball's lines before
    the first stone (the drop itself sees the ball), and cells next to a
    group the ball sees, if that group plus one could fit beyond the ball.
    The line masks (:func:`_runs`) give each run's empty cells, the stone
    that ends it and its lone cells (no stone beside them: each pushes the
    ball one cell away, if it can move).  The crowded cells on the runs, then
    the empty cells beside each seen group (each once: ``work`` marks them
    ``== epoch``) go through the general rule (:func:`_join`), except a
    cell whose neighbouring stones are one run of slots: it joins that group
    alone and pushes as the group does.  ``work`` (:func:`scratch`) holds the
    directions each seen group pushes (``epoch << 6 | mask``) and the runs;
    ``epoch`` must differ from the previous scans' with this ``work``, and
    not be 0.  With ``tally``, the lone cells' drops are not written but
    counted per slot in ``work``: the playout draws among them without
    listing them (:func:`random_drop`)."""
    nbr, n = t.nbr, t.ncells
    mark, gmask = work[:n], work[n:2 * n]
    dist, seen, free = work[2 * n:2 * n + 6], work[2 * n + 6:2 * n + 12], work[2 * n + 12:2 * n + 18]
    lones, crowd = work[2 * n + 18:2 * n + 24], work[2 * n + 24:2 * n + 30]
    ball, k = s[BALL], start
    for a in range(3):
        dist[a], seen[a], free[a], crowd[a], dist[a + 3], seen[a + 3], free[a + 3], crowd[a + 3] = \
            _runs(s, t, ball, a)
    for o in range(6):  # the directions each group the ball sees pushes it
        g = seen[o]
        if g >= 0:
            if gmask[g] >> 6 != epoch:
                gmask[g] = epoch << 6
            gmask[g] |= 1 << (o + 3 if o < 3 else o - 3)
    for o in range(6):
        d = o + 3 if o < 3 else o - 3
        a = o if o < 3 else d
        bits = free[o] if dist[d] > 0 else 0
        lones[o] = popcount(bits) if tally else 0
        if not tally:
            while bits:
                out[k] = t.cells[a, t.line[ball, a], _lowest(bits)] * 6 + d
                k += 1
                bits &= bits - 1
        bits, p, li = crowd[o], t.pos[ball, a], t.line[ball, a]
        while bits:  # crowded cells on the run: the general rule, their own line's push among them
            b = _lowest(bits)
            bits &= bits - 1
            c = t.cells[a, li, b]
            mark[c] = epoch
            size, sees = _join(s, t, c, gmask, epoch)
            sees |= 1 << d
            j = b - p if b > p else p - b
            while sees:
                e = _lowest(sees)
                sees &= sees - 1
                if (j - 1 if e == o else dist[e]) >= size:
                    out[k] = c * 6 + e
                    k += 1
    for o in range(6):  # the empty cells beside each group the ball sees
        g = seen[o]
        for q in range(o):
            if seen[q] == g:
                g = -1  # met in an earlier slot
        if g < 0:
            continue
        size = s[BOARD + n + g] + 1  # where a drop touching only g pushes: it sees the ball there and fits
        pushes = gmask[g] & 63 & _fits(dist, size)
        if pushes == 0:
            continue  # a drop joining g makes more than its size: no room anywhere
        x = g
        while True:
            empty = t.sides[x] & ~s[BOARD + x]
            while empty:
                c = nbr[x, _lowest(empty)]
                empty &= empty - 1
                if c == ball or mark[c] == epoch:
                    continue
                mark[c] = epoch
                if t.arcs[s[BOARD + c] & 63] & 3 == 1:  # one run of stones: g's alone
                    bits = pushes
                    while bits:
                        out[k] = c * 6 + _lowest(bits)
                        k += 1
                        bits &= bits - 1
                else:
                    size2, sees = _join(s, t, c, gmask, epoch)
                    while sees:
                        e = _lowest(sees)
                        sees &= sees - 1
                        if dist[e] >= size2:
                            out[k] = c * 6 + e
                            k += 1
            x = s[BOARD + x] >> NEXT
            if x == g:
                break
    return k


@njit
def drops(s, t, out, start):
    """Every legal drop action into ``out`` from ``start``, ascending; the new end."""
    k = _scan(s, t, out, start, scratch(t), 1)
    _ascending(out, start, k, np.zeros((t.ncells * 6 >> 6) + 1, dtype=np.int64))
    return k


@inline
def _ascending(out, start, end, bitmap):
    """Sort the distinct actions ``out[start:end]`` through ``bitmap`` (a bit
    per action, zeros): a few words to walk instead of a general sort, which
    cost more than the scan itself."""
    for i in range(start, end):
        bitmap[out[i] >> 6] |= np.int64(1) << (out[i] & 63)
    k = start
    for w in range(bitmap.shape[0]):
        bits = bitmap[w]
        while bits:
            low = _lowest(bits)
            out[k] = (w << 6) + low
            k += 1
            bits ^= np.int64(1) << low


@inline
def _look(s, t, ball, d):
    """(empty cells beyond the ball in slot ``d``, the group id of the stone
    then met or -1): one line of :func:`_sight`."""
    ray, k = t.rays, 0
    while k < ray.shape[2]:
        m = ray[ball, d, k]
        if m < 0:
            break
        if s[BOARD + m] & STONE:
            return k, _group(s, m)
        k += 1
    return k, -1


@hot
def has_drop(s, t):
    """True if the player to move has a legal drop: the cells :func:`_scan`
    would try, each by :func:`_reach`, until one can push (nothing
    allocated: :func:`apply` asks after every drop)."""
    nbr, ray, ball = t.nbr, t.rays, s[BALL]
    l0, l1, l2, l3, l4, l5 = _look(s, t, ball, 0), _look(s, t, ball, 1), _look(s, t, ball, 2), \
        _look(s, t, ball, 3), _look(s, t, ball, 4), _look(s, t, ball, 5)
    dist = (l0[0], l1[0], l2[0], l3[0], l4[0], l5[0])
    seen = (l0[1], l1[1], l2[1], l3[1], l4[1], l5[1])
    for o in range(6):
        for j in range(dist[o]):
            if _reach(s, t, ray[ball, o, j], dist, seen)[2]:
                return True
    for o in range(6):
        g = seen[o]
        if g < 0:
            continue
        x = g
        while True:
            for e in range(6):
                c = nbr[x, e]
                if c >= 0 and not s[BOARD + c] & STONE and c != ball and _reach(s, t, c, dist, seen)[2]:
                    return True
            x = s[BOARD + x] >> NEXT
            if x == g:
                break
    return False


@inline
def place(s, t, c):
    """Put a stone on ``c`` and merge its neighbours' groups into one whose
    id is ``c``; returns the group's size."""
    n = t.ncells
    size, g0, g1, g2 = _group_after(s, t, c)
    s[BOARD + c] = (s[BOARD + c] & 63) | STONE | c << GROUP | c << NEXT  # a group of its own so far
    s[BOARD + n + c] = size
    stones, crowded = BOARD + 2 * n, BOARD + 2 * n + 3 * t.lines
    for a in range(3):
        s[stones + a * t.lines + t.line[c, a]] |= 1 << t.pos[c, a]
    for d in range(6):
        m = t.nbr[c, d]
        if m >= 0:
            if s[BOARD + m] & 63 == 0:
                for a in range(3):
                    s[crowded + a * t.lines + t.line[m, a]] |= 1 << t.pos[m, a]
            s[BOARD + m] |= 1 << (d + 3 if d < 3 else d - 3)
    for g in (g0, g1, g2):
        if g >= 0:
            x = g
            while True:  # relabel g's members
                s[BOARD + x] = (s[BOARD + x] & ~(511 << GROUP)) | c << GROUP
                x = s[BOARD + x] >> NEXT
                if x == g:
                    break
            after_c, after_g = s[BOARD + c] >> NEXT, s[BOARD + g] >> NEXT  # splice the two circular lists
            s[BOARD + c] = (s[BOARD + c] & ~(511 << NEXT)) | after_g << NEXT
            s[BOARD + g] = (s[BOARD + g] & ~(511 << NEXT)) | after_c << NEXT
    return size


@inline
def drop(s, t, a):
    """Apply the drop action ``a``: place the stone, move the ball; the ball's new cell."""
    c, d = a // 6, a % 6
    size = place(s, t, c)
    s[BALL] = t.rays[s[BALL], d, size - 1]
    s[PLY] += 1
    s[TURN] += 1
    s[TO_MOVE] = 1 - s[TO_MOVE]
    return s[BALL]


@inline
def finish(s, winner):
    s[WINNER] = winner
    s[TO_MOVE] = -1


@inline
def random_drop(s, t, out, work, epoch, extra):
    """A uniformly random legal drop, or -1 when there is none: :func:`_scan`
    lists the drops of crowded cells and counts the lone cells' per line;
    a lone cell drawn is found among its line's bits.  With ``extra``
    (Weituweiqi's auction) the action ``ncells * 6`` is one more choice,
    though only when some drop exists."""
    n = t.ncells
    k = _scan(s, t, out, 0, work, epoch, True)
    lones = work[2 * n + 18:2 * n + 24]
    total = k
    for o in range(6):
        total += lones[o]
    if total == 0:
        return -1
    r = int(np.random.random() * (total + extra))
    if r == total:
        return n * 6
    if r < k:
        return out[r]
    r -= k
    o = 0
    while r >= lones[o]:
        r -= lones[o]
        o += 1
    free = np.int64(work[2 * n + 12 + o])
    for _ in range(r):
        free &= free - 1
    a = o if o < 3 else o - 3
    return t.cells[a, t.line[s[BALL], a], _lowest(free)] * 6 + (o + 3 if o < 3 else o - 3)


@njit
def identity(s, t, out, zcell, zfield):
    """What identifies the position (:mod:`hexarena.games.position`): the player to move, the winner, the
    Blocker (Weituweiqi; -1 in its auction and in Iqishiqi); 1 per stone, 2 the ball's cell."""
    out[0] = 3
    out[1], out[2], out[3] = s[TO_MOVE], s[WINNER], s[ROLE]
    k = 4
    for c in range(t.ncells):
        if s[BOARD + c] & STONE or c == s[BALL]:
            out[k], out[k + 1] = c, 2 if c == s[BALL] else 1
            k += 2
    return k, zobrist(out, k, zcell, zfield)


# --- Iqishiqi's rules ----------------------------------------------------------

@inline
def ball_ends(s, t, mover):
    """Corner: the mover wins; edge: its owner wins.  True if the game ended."""
    o = t.owner[s[BALL]]
    if o == CORNER:
        finish(s, mover)
    elif o >= 0:
        finish(s, o)
    return o >= 0


@njit
def legal(s, t, out):
    if s[WINNER] >= 0:
        return 0
    return drops(s, t, out, 0)


@njit
def is_legal(s, t, a):
    """True if action ``a`` (in range, the game not over) is a legal drop
    here, from the drop's own sight of the ball (no list of drops)."""
    return drop_mask(s, t, a // 6) & (1 << (a % 6)) != 0


@njit
def apply(s, t, a):
    mover = s[TO_MOVE]
    drop(s, t, a)
    if not ball_ends(s, t, mover) and not has_drop(s, t):
        finish(s, mover)  # the player to move is stalemated and loses
