"""Iqishiqi (João Pedro Neto, 2003): drop shared stones to push a neutral ball.

A drop makes a group of N stones (stones are one shared colour); some stone
of that group must see the ball along a hex line, and the ball moves exactly
N cells straight away from it over empty cells.  North owns the N, SE and
SW edges, South the S, NE and NW edges; a ball on an edge wins for the
edge's owner, on a corner for the mover; a player with no legal drop loses.

This module also holds the drop/push kernels Weituweiqi reuses
(:mod:`hexarena.games.weituweiqi`).  An action is ``cell * 6 + d``: the drop
cell and the direction slot ``d`` the *ball* moves (``hexarena.board.E`` ..
``NE``).  Names are the source's doubled-width cells, with the ball's
direction as a suffix only where the drop could push it several ways.

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

import re
from abc import abstractmethod
from typing import Any, NamedTuple

import numpy as np
from numba.core import config, types
from numba.extending import intrinsic
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from ..board import DIRECTIONS, STEP, Topology, hexhex, rays
from ..kernels import hot, inline, kernel_set, njit, note
from ..render import svg as svg_render
from .base import (HEADER, PLY, TO_MOVE, TURN, WINNER, AmbiguousMove, Game, IllegalMove, MalformedMove, Option, State,
                   int_between, quoted)
from .pushing import direction_index

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


def line_tables(topo: Topology, lines_: np.ndarray) -> tuple[np.ndarray, ...]:
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
    ray, n = t.rays, t.ncells
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


if config.DISABLE_JIT:  # numba's bit-scan intrinsics do not run as plain Python
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


if config.DISABLE_JIT:
    def _popcount(bits):
        """The number of set bits of ``bits`` (0 <= bits < 2**63)."""
        return bin(int(bits)).count("1")
else:
    @intrinsic
    def _ctpop(typingctx, bits):
        """LLVM's population count of an int64 (one instruction where the CPU has it)."""
        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])
        return types.int64(types.int64), codegen

    @inline
    def _popcount(bits):
        """The number of set bits of ``bits`` (0 <= bits < 2**63)."""
        return _ctpop(np.int64(bits))


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
    listing them (:func:`_draw`)."""
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
        lones[o] = _popcount(bits) if tally else 0
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
    out[start:k].sort()
    return k


@inline
def _look(s, t, ball, d):
    """(empty cells beyond the ball in slot ``d``, the group id of the stone
    then met or -1): one line of :func:`_sight`."""
    ray, n, k = t.rays, t.ncells, 0
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
    nbr, ray, n, ball = t.nbr, t.rays, t.ncells, s[BALL]
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


# --- Iqishiqi's rules ----------------------------------------------------------

@inline
def _ball_ends(s, t, mover):
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
    if not _ball_ends(s, t, mover) and not has_drop(s, t):
        finish(s, mover)  # the player to move is stalemated and loses


@njit
def playout(s, t):
    """Uniformly random legal drops to the end (in place)."""
    work = scratch(t, 6 * t.ncells)
    out = room(t, work)
    _random_drops(s, t, out[:0], out[:0], out, work)


@njit
def recorded_playout(s, t, actions, movers):
    """``playout`` that also writes each drop and its mover into ``actions``
    and ``movers`` while they have room; returns the number written (for
    MCTS's AMAF)."""
    work = scratch(t, 6 * t.ncells)
    return _random_drops(s, t, actions, movers, room(t, work), work)


@inline
def _draw(s, t, out, work, epoch, extra):
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


@hot
def _random_drops(s, t, actions, movers, out, work):
    """The playout's loop (``out`` and ``work`` as :func:`_scan` takes them)."""
    written = 0
    while s[WINNER] < 0:
        a = _draw(s, t, out, work, s[PLY] + 1, 0)
        if a < 0:
            finish(s, 1 - s[TO_MOVE])
            break
        mover = s[TO_MOVE]
        written = note(actions, movers, written, a, mover)
        drop(s, t, a)
        _ball_ends(s, t, mover)
    return written


KERNELS = kernel_set(legal, apply, playout, recorded_playout=recorded_playout, is_legal=is_legal)


# --- the facade ------------------------------------------------------------------

_MOVE = re.compile(r"([a-z]+[0-9]+)(e|w|ne|nw|se|sw|n)?")
MAX_SIZE = 13  # the family's largest base: 469 cells, set up in ~0.04 s


def size_option(default: int) -> Option:
    return int_between(default, 3, MAX_SIZE, "base of the hexhex board (cells per side)")


class PushGame(Game, abstract=True):
    """What Iqishiqi and Weituweiqi share: the board, the ball, drops and
    their notation.  Subclasses set ``kernels`` and the end rules."""

    BLOCK: str | None = None  # the name of a non-drop move (Weituweiqi's "block")

    def setup(self) -> None:
        n = self.options["size"]
        self.topology = topo = hexhex(n, naming="doubled")
        owner = np.full(topo.ncells, -1, dtype=np.int32)
        for side, cells in enumerate(topo.sides):
            for c in cells:
                owner[c] = CORNER if owner[c] >= 0 else (0 if side in NORTH_SIDES else 1)
        self.owner = owner
        lines = rays(topo)
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
        state = self.new_state()
        state._s = s
        return state

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

    def parse_move(self, s: np.ndarray, text: str, legal: list[int]) -> int:
        key = self.normalize(text)
        if key == self.BLOCK:
            if self.num_actions - 1 in legal:
                return self.num_actions - 1
            raise IllegalMove(f"{key!r} is only possible during the auction")
        cell, suffix = _MOVE.fullmatch(key).groups()
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
    def ascii(self, state, hints: bool = False, edges: bool = False) -> str:
        """The board as the source draws it (``x`` stones, ``O`` the ball),
        column letters above and below, row numbers at the right.  With
        ``hints``, ``+`` marks the legal drop cells and each one's directions
        for the ball are listed; with ``edges``, a ring of marks around the
        board says whose edge is where (``EDGE_STYLE``)."""
        s, topo = state._s, self.topology
        board, ball = self.stones(s), self.ball(s)
        moves = self.hint_moves(state) if hints else []
        marks = {c for c, _ in moves}
        points = {(int(x), int(r)): "O" if c == ball else "x" if board[c] else "+" if c in marks else "."
                  for c, (x, r) in enumerate(topo.xy)}
        if edges:
            for c in topo.perimeter:
                for slot in range(6):
                    kind = self.edge_kind(c, slot) if topo.nbr[c, slot] < 0 else None
                    if kind is not None:
                        dx, dr = STEP[slot]
                        points[(int(topo.xy[c, 0]) + dx, int(topo.xy[c, 1]) + dr)] = self.EDGE_STYLE[kind][1]
        x0, x1 = min(x for x, _ in points), max(x for x, _ in points)
        pad = " " * (3 - int(topo.xy[:, 0].min()) + x0)
        header = [" " * 3 + line for line in _column_header(topo)]
        lines = list(header)
        for r in range(min(r for _, r in points), max(r for _, r in points) + 1):
            row = "".join(points.get((x, r), " ") for x in range(x0, x1 + 1))
            label = f"  {r + 1}" if 0 <= r < topo.rows else ""
            lines.append((pad + row + label).rstrip())
        lines += [*header, self.status(state)]
        if moves:
            by_cell: dict[int, list[str]] = {}
            for c, d in moves:
                by_cell.setdefault(c, []).append(DIRECTIONS[d])
            lines.append("drops (ball's directions): " +
                         "  ".join(f"{topo.name(c)} {','.join(ds)}" for c, ds in by_cell.items()))
        return "\n".join(lines)

    @abstractmethod
    def rules_status(self, state, legend: bool = True) -> str:
        """Who is to move or who won and how; ``legend`` adds what the edges mean."""

    EDGE_STYLE: tuple[tuple[str, str], ...] = ()  # (SVG colour, ASCII mark) of each kind of edge

    @abstractmethod
    def edge_kind(self, c: int, slot: int) -> int | None:
        """The kind of board edge (an index of ``EDGE_STYLE``) beyond rim cell
        ``c`` in direction ``slot``, None where there is none."""

    def _edge_colour(self, c: int, slot: int) -> str | None:
        kind = self.edge_kind(c, slot)
        return None if kind is None else self.EDGE_STYLE[kind][0]

    def svg(self, state, hints: bool = False, **kw: Any) -> str:
        """Stones dark, the ball red, each player's edges coloured; with
        ``hints`` the legal drop cells dotted with arrows for the ball's directions."""
        s = state._s
        board, ball = self.stones(s), self.ball(s)
        moves = self.hint_moves(state) if hints else []
        n = self.topology.ncells
        last = svg_render.last_cell(state.history, lambda a: a // 6 if a < n * 6 else None)
        legend = [*self.edge_legend(s), ("last", "last drop")]
        return svg_render.board(self.topology, lambda c: svg_render.BALL if c == ball else int(board[c]),
                                marks=[c for c, _ in moves], arrows=moves, border=self._edge_colour,
                                last=last, legend=legend, title=self.status(state, legend=False), **kw)

    @abstractmethod
    def edge_legend(self, s: np.ndarray) -> list[tuple[svg_render.Swatch, str]]:
        """The SVG legend's words for each kind of edge (``EDGE_STYLE``)."""


def _column_header(topo: Topology) -> list[str]:
    """The column letters over each doubled x (``a`` .. ``z``, ``aa`` ..), one
    line per letter position: two lines once names need two letters."""
    letters = {int(x): re.sub(r"[0-9]+$", "", name) for name, (x, _) in zip(topo.names, topo.xy)}
    x0, x1 = min(letters), max(letters)
    width = max(len(v) for v in letters.values())
    cols = [letters[x].rjust(width) for x in range(x0, x1 + 1)]
    return ["".join(col[i] for col in cols) for i in range(width)]


class Iqishiqi(PushGame):
    """Iqishiqi on the hexhex board of base ``size``: North (first) and South."""

    name = "iqishiqi"
    PLAYERS = ("North", "South")
    OPTIONS = {"size": size_option(8)}
    MCTS = {"rave": False, "c": 0.5}  # AMAF misleads where a cell's worth depends on the ball: docs/ai.md
    kernels = KERNELS

    def rules_status(self, state, legend: bool = True) -> str:
        s = state._s
        if state.is_over():
            ball = self.ball(s)
            o = int(self.owner[ball])
            how = ("the ball on a corner" if o == CORNER else "the ball on its edge" if o >= 0 else
                   "stalemate")
            return f"{self.PLAYERS[state.winner()]} wins ({how}: {self.topology.name(ball)})"
        return f"{self.PLAYERS[state.to_move]} to move" + (" (North: N, SE, SW edges; South: S, NE, NW)" if legend else "")

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

    def planes(self, s: np.ndarray, player: int) -> np.ndarray:
        """Stones, the ball, empty cells, ``player``'s edge cells and the
        opponent's (a corner, which wins for whoever pushes there, is in both)."""
        out = self.blank_planes()
        board, owner = self.stones(s), self.owner
        out[0] = board != 0
        out[1, self.ball(s)] = 1
        out[2] = board == 0
        out[2, self.ball(s)] = 0
        out[3] = (owner == player) | (owner == CORNER)
        out[4] = (owner == 1 - player) | (owner == CORNER)
        return out
