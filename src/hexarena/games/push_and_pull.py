"""Push and Pull (Bill Taylor and João Pedro Neto): neutral stones that drag
two markers around; a marker that can no longer be moved loses for its owner.

A placement puts a neutral stone on an empty cell; each marker that sees it
along a hex line may then move along that line toward it (pull, written
negative) or away (push), over and onto empty cells.  The first turn is one
placement, later turns two; over a turn both markers must move.  Atomic
steps: the cell, then the mover's own marker's move (if it sees the stone and
can move), then the opponent's; ``play("o5 -2 2")`` takes a whole placement.

>>> import hexarena
>>> s = hexarena.load("push-and-pull").new_state()
>>> _ = s.play("o5 -2 2")
>>> s.moves()
['o5', '-2', '2']
>>> [s.game.topology.name(c) for c in s.game.markers(s.array)]
['k5', 'u11']
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

import numpy as np

from ..board import hexhex, rays
from ..kernels import hot, inline, kernel_set, njit, note
from ..render import ascii as ascii_render
from ..render import svg as svg_render
from .base import DRAW, HEADER, PLY, STEP, TO_MOVE, TURN, WINNER, Game, IllegalMove, int_between
from .iqishiqi import MAX_SIZE

# state layout after the shared header
MARK = HEADER  # 2 entries: each player's marker cell
MOVED = HEADER + 2  # 2 entries: 1 once that marker moved this turn
STONE = HEADER + 4  # the placement being resolved (-1 between placements)
PHASE = HEADER + 5  # PLACE, or whose marker's move is asked: OWN / OTHER
PLACED = HEADER + 6  # placements finished this turn
ENDING = HEADER + 7  # why the game ended: NOT_OVER, STUCK, BOTH_STUCK, NO_TURN
BOARD = HEADER + 8  # ncells entries: EMPTY, NEUTRAL, or 2 + owner for a marker
PLACE, OWN, OTHER = range(3)
NOT_OVER, STUCK, BOTH_STUCK, NO_TURN = range(4)
EMPTY, NEUTRAL = 0, 1



class Tables(NamedTuple):
    """What the kernels read besides the position (``game.tables``)."""

    rays: np.ndarray  # int32[n, 6, L]: the cells straight from each cell (hexarena.board.rays)
    line: np.ndarray  # int32[n, n]: d * L + k where rays[m, d, k] == c, else -1 (c not on a line from m)
    ncells: int
# Actions: a cell c (placement) or ncells + L + v (the asked marker moves v, negative toward the stone).


@inline
def empty_run(board, rays_, c, d):
    """How many empty cells follow ``c`` in direction ``d`` before an occupied
    cell or the edge (:func:`hexarena.games.pushing.empty_run`, inlined here:
    a call costs more than the walk)."""
    k, L = 0, rays_.shape[2]
    while k < L:
        m = rays_[c, d, k]
        if m < 0 or board[m] != EMPTY:
            break
        k += 1
    return k


@inline
def placements(s):
    """Placements in the current turn: 1 on the first turn, then 2."""
    return 1 if s[TURN] == 1 else 2


@inline
def asked(s):
    """The player whose marker's move is asked now."""
    return s[TO_MOVE] if s[PHASE] == OWN else 1 - s[TO_MOVE]


@inline
def reach(board, rays_, m, mask, bit):
    """Set ``bit`` in ``mask`` on every empty cell whose stone would let the
    marker on ``m`` move (it sees the cell and can step toward or away)."""
    for d in range(6):
        back = rays_[m, (d + 3) % 6, 0]
        push = back >= 0 and board[back] == EMPTY
        for k in range(empty_run(board, rays_, m, d)):
            if k >= 1 or push:
                mask[rays_[m, d, k]] |= bit


@njit
def owed_reach(s, rays_, n):
    """Per empty cell, the bits (1: first player's, 2: second's) of the markers
    owed a move this turn that a stone there would let move."""
    mask = np.zeros(n, dtype=np.int32)
    board = s[BOARD:BOARD + n]
    for p in range(2):
        if s[MOVED + p] == 0:
            reach(board, rays_, s[MARK + p], mask, 1 << p)
    return mask


@inline
def owed_bits(s):
    return (1 - s[MOVED]) | ((1 - s[MOVED + 1]) << 1)


@inline
def lets_move(s, t, m, c):
    """Would a stone on the empty cell ``c`` let the marker on ``m`` move
    (``c`` seen along a line, and a step toward or away possible)?"""
    e = t.line[m, c]
    if e < 0:
        return False
    rays_ = t.rays
    L = rays_.shape[2]
    d, k = e // L, e % L
    for i in range(k):
        if s[BOARD + rays_[m, d, i]] != EMPTY:
            return False
    if k >= 1:
        return True
    back = rays_[m, (d + 3) % 6, 0]
    return back >= 0 and s[BOARD + back] == EMPTY


@njit
def owed_cells(s, t, out, want, runs):
    """The empty cells whose stone lets the owed markers move into ``out``:
    with ``want`` 0 those that let every owed marker move (``mask == owed``
    of :func:`owed_reach`), with 1 those that let any owed one move; their
    number (with no marker owed: 0, those cells are not listed).  Read from
    the markers' empty runs, kept in ``runs`` (12 ints of scratch, from the
    inlined :func:`runs_from`)."""
    rays_, line, L = t.rays, t.line, t.rays.shape[2]
    owed = owed_bits(s)
    if owed == 0:
        return 0
    for p in range(2):
        runs_from(s, rays_, s[MARK + p], runs, 6 * p)
    k = 0
    for p in range(2):
        if not owed & (1 << p) or (p == 1 and owed == 3 and want == 0):
            continue
        m, at, other = s[MARK + p], 6 * p, 6 * (1 - p)
        mo = s[MARK + 1 - p]
        for d in range(6):
            push = runs[at + (d + 3) % 6] > 0
            for i in range(runs[at + d]):
                if i == 0 and not push:
                    continue
                c = rays_[m, d, i]
                if owed == 3:  # does the other marker move with it too?
                    e = line[mo, c]
                    both = False
                    if e >= 0:
                        d2, k2 = e // L, e % L
                        both = k2 < runs[other + d2] and (k2 >= 1 or runs[other + (d2 + 3) % 6] > 0)
                    if (want == 0 and not both) or (want == 1 and p == 1 and both):
                        continue  # not moving both; or listed already with the first marker's
                out[k] = c
                k += 1
    return k


@inline
def movable(s, rays_, m):
    """Could some placement let the marker on m move (its :func:`mobility` > 0)?"""
    free = 0  # the directions whose first cell is empty
    for d in range(6):
        x = rays_[m, d, 0]
        if x >= 0 and s[BOARD + x] == EMPTY:
            y = rays_[m, d, 1]
            if y >= 0 and s[BOARD + y] == EMPTY:
                return True  # a stone on y: a step toward it
            free |= 1 << d
    return (free & (free >> 3) & 7) != 0  # a stone next to it, pushed away into an empty cell behind


@inline
def check(s, t):
    """The loss and draw rules, on the board as it stands, before a placement
    that begins a turn or is a turn's last."""
    rays_ = t.rays
    owed = owed_bits(s)
    can = 0
    for p in range(2):
        if owed & (1 << p) and movable(s, rays_, s[MARK + p]):
            can |= 1 << p
    stuck = owed & ~can
    if stuck == 3:
        s[WINNER], s[ENDING] = DRAW, BOTH_STUCK
    elif stuck:
        s[WINNER], s[ENDING] = (1 if stuck == 1 else 0), STUCK
    elif s[PLACED] == placements(s) - 1 and not _last_placement_exists(s, t, owed):
        s[WINNER], s[ENDING] = 1 - s[TO_MOVE], NO_TURN
    if s[WINNER] >= 0:
        s[TO_MOVE] = -1


@inline
def _last_placement_exists(s, t, owed):
    """Is there an empty cell whose stone lets every owed marker move (each owed one can move)?"""
    n = t.ncells
    if owed == 0:
        for c in range(n):
            if s[BOARD + c] == EMPTY:
                return True
        return False
    if owed != 3:
        return True
    rays_, m, other = t.rays, s[MARK], s[MARK + 1]
    for d in range(6):  # the first marker's cells (as owed_cells lists them) that move the second too
        back = rays_[m, (d + 3) % 6, 0]
        push = back >= 0 and s[BOARD + back] == EMPTY
        i = 0
        while i < rays_.shape[2]:
            c = rays_[m, d, i]
            if c < 0 or s[BOARD + c] != EMPTY:
                break
            if (i >= 1 or push) and lets_move(s, t, other, c):
                return True
            i += 1
    return False


@inline
def marker_line(s, t, p):
    """(direction to the placed stone, its distance) when player p's marker
    sees it, else (-1, 0)."""
    rays_ = t.rays
    m = s[MARK + p]
    if s[STONE] < 0:
        return -1, 0
    e = t.line[m, s[STONE]]
    if e < 0:
        return -1, 0
    L = rays_.shape[2]
    d, k = e // L, e % L
    for i in range(k):
        if s[BOARD + rays_[m, d, i]] != EMPTY:
            return -1, 0
    return d, k + 1


@inline
def marker_options(s, t, p):
    """(how far toward the stone, how far away, whether 0 is allowed) for
    player p's marker: it may move v for ``-toward <= v <= away``, v != 0
    unless allowed; (0, 0, False) when it does not see the stone or cannot move."""
    d, dist = marker_line(s, t, p)
    if d < 0:
        return 0, 0, False
    rays_, m, back = t.rays, s[MARK + p], (d + 3) % 6
    run = 0  # empty_run, written out
    while run < rays_.shape[2]:
        x = rays_[m, back, run]
        if x < 0 or s[BOARD + x] != EMPTY:
            break
        run += 1
    if dist == 1 and run == 0:
        return 0, 0, False
    return dist - 1, run, not (s[MOVED + p] == 0 and s[PLACED] == placements(s) - 1)


@inline
def can_move(s, t, p):
    """Does player p's marker see the stone and have a move?"""
    toward, away, zero = marker_options(s, t, p)
    return toward + away > 0 or zero


@njit
def marker_moves(s, t, p, out, k):
    """Append player p's marker's legal moves (ascending) to ``out`` at ``k``;
    the new count.  Nothing when it does not see the stone or cannot move."""
    toward, away, zero = marker_options(s, t, p)
    base = t.ncells + t.rays.shape[2]
    for v in range(-toward, away + 1):
        if v != 0 or zero:
            out[k] = base + v
            k += 1
    return k


@njit
def legal(s, t, out):
    rays_, n = t.rays, t.ncells
    if s[WINNER] >= 0:
        return 0
    if s[PHASE] != PLACE:
        return marker_moves(s, t, asked(s), out, 0)
    k = 0
    if s[PLACED] == placements(s) - 1:  # the turn's last: it must let every owed marker move
        mask, owed = owed_reach(s, rays_, n), owed_bits(s)
        for c in range(n):
            if mask[c] == owed and s[BOARD + c] == EMPTY:
                out[k] = c
                k += 1
        return k
    for c in range(n):
        if s[BOARD + c] == EMPTY:
            out[k] = c
            k += 1
    return k


@inline
def advance(s, t, phase):
    """Ask the next marker (from ``phase``) that sees the stone and can move;
    with none left, finish the placement (and maybe the turn)."""
    rays_, n = t.rays, t.ncells
    while phase <= OTHER:
        s[PHASE] = phase
        if can_move(s, t, asked(s)):
            return
        phase += 1
    s[PHASE], s[STONE] = PLACE, -1
    s[PLACED] += 1
    if s[PLACED] == placements(s):
        s[TO_MOVE] = 1 - s[TO_MOVE]
        s[TURN] += 1
        s[STEP] = 0
        s[PLACED] = 0
        s[MOVED] = 0
        s[MOVED + 1] = 0
    check(s, t)


@njit
def apply(s, t, a):
    rays_, n = t.rays, t.ncells
    s[PLY] += 1
    s[STEP] += 1
    if s[PHASE] == PLACE:
        s[BOARD + a] = NEUTRAL
        s[STONE] = a
        advance(s, t, OWN)
        return
    p = asked(s)
    v = a - n - rays_.shape[2]
    if v != 0:
        d, dist = marker_line(s, t, p)
        m = s[MARK + p]
        land = rays_[m, d, -v - 1] if v < 0 else rays_[m, (d + 3) % 6, v - 1]
        s[BOARD + m] = EMPTY
        s[BOARD + land] = 2 + p
        s[MARK + p] = land
        s[MOVED + p] = 1
    advance(s, t, s[PHASE] + 1)


@njit
def is_legal(s, t, a):
    """Is ``a`` (in range, the game not over) legal?  As :func:`legal` lists them."""
    rays_, n = t.rays, t.ncells
    if s[PHASE] == PLACE:
        if a >= n or s[BOARD + a] != EMPTY:
            return False
        if s[PLACED] != placements(s) - 1:
            return True
        owed, bits = owed_bits(s), 0
        for p in range(2):
            if owed & (1 << p) and lets_move(s, t, s[MARK + p], a):
                bits |= 1 << p
        return bits == owed
    if a < n:
        return False
    toward, away, zero = marker_options(s, t, asked(s))
    v = a - n - rays_.shape[2]
    return -toward <= v <= away and (v != 0 or zero)


@njit
def playout(s, t):
    """Uniformly random legal steps to the end (in place); every placement
    fills a cell, so the game ends."""
    none = s[:0]  # no room to note moves (a view: no allocation)
    run_playout(s, t, none, none, False)


@njit
def recorded_playout(s, t, actions, movers):
    """``playout`` that also writes each step and its mover into ``actions``
    and ``movers`` while they have room; the number written (MCTS's AMAF)."""
    return run_playout(s, t, actions, movers, False)


@njit
def policy_playout(s, t, actions, movers):
    """``recorded_playout`` playing :func:`policy`'s choices (in one compiled loop)."""
    return run_playout(s, t, actions, movers, True)


@njit
def run_playout(s, t, actions, movers, use_policy):
    """Play ``s`` to the end, each step uniformly among the legal ones or
    (``use_policy``) as :func:`policy` picks it, noting the steps while
    ``actions`` has room; the number noted.

    The same steps as ``legal`` then ``apply``, with the empty cells kept in
    a list (a placement is drawn from it, not from a scan of the board) and
    the last placement of a turn drawn from the cells on the owed markers'
    lines; ``apply``'s two branches are written out in the loop (its
    ``advance`` inlined), which numba compiles faster as one function (the
    replay tests hold it to ``apply``)."""
    scratch = np.empty(3 * t.ncells + 12, dtype=np.int32)  # one allocation: a playout's allocations cost as much as its steps
    return _run_playout(s, t, actions, movers, use_policy, scratch)


@hot
def _run_playout(s, t, actions, movers, use_policy, scratch):
    """:func:`run_playout`'s loop, compiled without reference counting (it allocates nothing)."""
    rays_, n = t.rays, t.ncells
    base = n + rays_.shape[2]
    empties, where, cells, runs = scratch[:n], scratch[n:2 * n], scratch[2 * n:3 * n], scratch[3 * n:]
    count = 0  # where[c] is read only for cells in empties[:count], written when they are put there
    for c in range(n):
        if s[BOARD + c] == EMPTY:
            empties[count], where[c] = c, count
            count += 1
    written = 0
    while s[WINNER] < 0:
        mover = s[TO_MOVE]
        if s[PHASE] == PLACE:
            if use_policy:
                a = policy_placement(s, t, empties, count, cells, runs)
            else:
                a = random_placement(s, t, empties, count, cells, runs)
            count = _take(empties, where, count, a)
            written = note(actions, movers, written, a, mover)
            s[PLY] += 1  # apply's placement, here so that the loop is compiled as one
            s[STEP] += 1
            s[BOARD + a] = NEUTRAL
            s[STONE] = a
            advance(s, t, OWN)
        else:
            q = asked(s)
            m = s[MARK + q]
            if use_policy:
                v = policy_marker_move(s, t, q, runs)
            else:
                toward, away, zero = marker_options(s, t, q)
                v = -toward + np.random.randint(0, toward + away + zero)
                if v >= 0 and not zero:
                    v += 1
            written = note(actions, movers, written, base + v, mover)
            s[PLY] += 1  # apply's marker move, here so that the loop is compiled as one
            s[STEP] += 1
            if v != 0:
                d, _ = marker_line(s, t, q)
                land = rays_[m, d, -v - 1] if v < 0 else rays_[m, (d + 3) % 6, v - 1]
                count = _take(empties, where, count, land)
                empties[count], where[m] = m, count
                count += 1
                s[BOARD + m] = EMPTY
                s[BOARD + land] = 2 + q
                s[MARK + q] = land
                s[MOVED + q] = 1
            advance(s, t, s[PHASE] + 1)
    return written


@inline
def _take(empties, where, count, c):
    """Remove cell c from the list ``empties[:count]`` (``where`` its places); the new count."""
    i, last = where[c], empties[count - 1]
    empties[i], where[last] = last, i
    where[c] = -1
    return count - 1


@inline
def random_placement(s, t, empties, count, cells, runs):
    """A uniformly random legal placement: any empty cell, or on the turn's
    last placement one that lets every owed marker move."""
    if s[PLACED] == placements(s) - 1 and owed_bits(s) != 0:
        k = owed_cells(s, t, cells, 0, runs)
        return cells[np.random.randint(0, k)]
    return empties[np.random.randint(0, count)]


# --- the playout policy (hexarena.games.base: ``policy``) ---------------------------
# Uniform play loses ~98% of games by a placement that leaves the owed markers
# unmovable by any single last placement.  The policy places where every owed
# marker can move, and moves markers (both are the mover's to move) to keep
# his own mobile and the opponent's hemmed in.  It tries moves on a copy of
# the board only: no state copy, no apply.
SAMPLES = 4  # placements weighed among the equally safe ones
NOISE = 2.0  # random spread added to the scores, so playouts differ
STUCK_SCORE = 100.0  # a marker no placement could move loses for its owner when owed
MOVE_BONUS = 50.0  # moving a marker still owed a move this turn


@inline
def mobility(board, rays_, m):
    """How many empty cells a stone could go on to let the marker on ``m`` move."""
    count, L = 0, rays_.shape[2]
    for d in range(6):
        run = 0  # empty_run, written out: a call here costs more than the walk
        while run < L:
            x = rays_[m, d, run]
            if x < 0 or board[x] != EMPTY:
                break
            run += 1
        if run > 0:
            back = rays_[m, (d + 3) % 6, 0]
            count += run if back >= 0 and board[back] == EMPTY else run - 1
    return count


@inline
def score(board, rays_, mine, theirs):
    """The board as seen by the owner of the marker on ``mine``: his
    marker's mobility minus the other's, STUCK_SCORE for each that no
    placement could move, plus noise."""
    return noisy(mobility(board, rays_, mine), mobility(board, rays_, theirs))


@njit
def safe_placements(s, rays_, n, moves, count, out):
    """Write into ``out`` the indices of the placements in ``moves[:count]``
    that let every owed marker move (else those that let one move, else
    all); their number."""
    owed = owed_bits(s)
    mask = owed_reach(s, rays_, n)
    for want in (owed, -1):  # -1: any owed marker
        k = 0
        for i in range(count):
            bits = mask[moves[i]]
            if bits == want or (want == -1 and bits != 0):
                out[k] = i
                k += 1
        if k > 0:
            return k
    for i in range(count):
        out[i] = i
    return count


@njit
def policy(s, t, moves, count):
    """The index of the step to play among ``moves[:count]``: a placement,
    the best by :func:`score` (with the stone on it) of ``SAMPLES`` drawn
    among the safest (:func:`safe_placements`); a marker move, the best of
    all by :func:`score` after it, moving an owed marker first."""
    rays_, n = t.rays, t.ncells
    p = s[TO_MOVE]
    board = s[BOARD:BOARD + n].copy()  # trials change it and put it back
    best, best_v = 0, -1e300
    if s[PHASE] == PLACE:
        safe = np.arange(count)
        k = count if owed_bits(s) == 0 else safe_placements(s, rays_, n, moves, count, safe)
        for _ in range(min(k, SAMPLES)):
            i = safe[np.random.randint(0, k)]
            board[moves[i]] = NEUTRAL
            v = score(board, rays_, s[MARK + p], s[MARK + 1 - p])
            board[moves[i]] = EMPTY
            if v > best_v:
                best, best_v = i, v
        return best
    q = asked(s)
    m = s[MARK + q]
    d, _ = marker_line(s, t, q)
    owed = s[MOVED + q] == 0
    for i in range(count):
        v = moves[i] - n - rays_.shape[2]
        land = m if v == 0 else (rays_[m, d, -v - 1] if v < 0 else rays_[m, (d + 3) % 6, v - 1])
        board[m] = EMPTY
        board[land] = 2 + q
        x = score(board, rays_, land, s[MARK + 1 - q]) if q == p else score(board, rays_, s[MARK + p], land)
        board[land] = EMPTY
        board[m] = 2 + q
        if owed and v != 0:
            x += MOVE_BONUS
        if x > best_v:
            best, best_v = i, x
    return best

@inline
def runs_from(s, rays_, m, runs, at):
    """The empty run from cell m in each direction into ``runs[at:at + 6]``
    (the board read in the position ``s``)."""
    L = rays_.shape[2]
    for d in range(6):
        r = 0
        while r < L:
            x = rays_[m, d, r]
            if x < 0 or s[BOARD + x] != EMPTY:
                break
            r += 1
        runs[at + d] = r


@inline
def runs_mobility(runs, at):
    """:func:`mobility` from a marker's runs ``runs[at:at + 6]`` (a stone on
    the k-th cell of a run lets it move unless k = 0 and nothing is empty
    behind it)."""
    count = 0
    for d in range(6):
        r = runs[at + d]
        if r > 0:
            count += r if runs[at + (d + 3) % 6] > 0 else r - 1
    return count


@inline
def mobility_with_stone(runs, at, line, L, m, c, unchanged):
    """:func:`mobility` of the marker on m (runs ``runs[at:at + 6]``,
    mobility ``unchanged``) once a stone is on the empty cell c."""
    e = line[m, c]
    if e < 0:
        return unchanged
    d = at + e // L
    k = e % L
    if k >= runs[d]:
        return unchanged
    saved = runs[d]
    runs[d] = k
    count = runs_mobility(runs, at)
    runs[d] = saved
    return count


@inline
def noisy(own, other):
    """:func:`score` from the two mobilities."""
    v = own - other + NOISE * np.random.random()
    if own == 0:
        v -= STUCK_SCORE
    if other == 0:
        v += STUCK_SCORE
    return v


@inline
def policy_placement(s, t, empties, count, cells, runs):
    """:func:`policy`'s placement drawn from the empty cells ``empties[:count]``:
    the best by :func:`score` of ``SAMPLES`` drawn among the safest (as
    :func:`safe_placements` ranks them), found from the owed markers' lines;
    the markers' mobility with each stone from their runs (``runs``: 12 ints
    of scratch)."""
    rays_, line, L = t.rays, t.line, t.rays.shape[2]
    p = s[TO_MOVE]
    pool, k = empties, count
    if owed_bits(s) != 0:
        pool, k = cells, owed_cells(s, t, cells, 0, runs)
        if k == 0 and s[PLACED] != placements(s) - 1:
            k = owed_cells(s, t, cells, 1, runs)
        if k == 0:
            pool, k = empties, count
    mine, theirs = s[MARK + p], s[MARK + 1 - p]
    runs_from(s, rays_, mine, runs, 0)
    runs_from(s, rays_, theirs, runs, 6)
    own0, other0 = runs_mobility(runs, 0), runs_mobility(runs, 6)
    best, best_v = pool[0], -1e300
    for _ in range(min(k, SAMPLES)):
        c = pool[np.random.randint(0, k)]
        own = mobility_with_stone(runs, 0, line, L, mine, c, own0)
        other = mobility_with_stone(runs, 6, line, L, theirs, c, other0)
        v = noisy(own, other)
        if v > best_v:
            best, best_v = c, v
    return best


@inline
def policy_marker_move(s, t, q, runs):
    """:func:`policy`'s move v for player q's marker (asked now): the best by
    :func:`score` after it, moving an owed marker first (``runs``: 12 ints
    of scratch)."""
    rays_, line = t.rays, t.line
    p = s[TO_MOVE]
    m, o = s[MARK + q], s[MARK + 1 - q]
    d, dist = marker_line(s, t, q)
    back = (d + 3) % 6
    toward, away, zero = marker_options(s, t, q)
    owed = s[MOVED + q] == 0
    runs_from(s, rays_, o, runs, 6)
    still = runs_mobility(runs, 6)  # the other marker's, when neither m nor the landing cell is on its lines
    best, best_v = 0, -1e300
    for v in range(-toward, away + 1):
        if v == 0 and not zero:
            continue
        land = m if v == 0 else (rays_[m, d, -v - 1] if v < 0 else rays_[m, back, v - 1])
        s[BOARD + m] = EMPTY
        s[BOARD + land] = 2 + q
        for e in range(6):
            if e != d and e != back:
                r = 0
                while r < rays_.shape[2]:
                    x = rays_[land, e, r]
                    if x < 0 or s[BOARD + x] != EMPTY:
                        break
                    r += 1
                runs[e] = r
        runs[d], runs[back] = dist - 1 + v, away - v
        moved = runs_mobility(runs, 0)
        other = still
        if line[o, m] >= 0 or line[o, land] >= 0:
            runs_from(s, rays_, o, runs, 6)
            other = runs_mobility(runs, 6)
        s[BOARD + land] = EMPTY
        s[BOARD + m] = 2 + q
        x = noisy(moved, other) if q == p else noisy(other, moved)
        if owed and v != 0:
            x += MOVE_BONUS
        if x > best_v:
            best, best_v = v, x
    return best


KERNELS = kernel_set(legal, apply, playout, recorded_playout=recorded_playout, policy=policy,
                     policy_playout=policy_playout, is_legal=is_legal)


# the markers' starting cells as offsets (doubled x, rows) from the centre: g5 and s9 on base 7
START_OFFSETS = ((-6, -2), (6, 2))
NOT_SEEN = ("0", "--")
_MARKER = re.compile(r"[+-]?[1-9][0-9]{0,2}|0|--")  # a marker's move: signed distance, 0 or -- for none


def lines(rays_: np.ndarray) -> np.ndarray:
    """``int32[n, n]``: ``d * L + k`` where ``rays_[m, d, k] == c``, else -1."""
    n, _, length = rays_.shape
    out = np.full((n, n), -1, dtype=np.int32)
    m, d, k = np.nonzero(rays_ >= 0)
    out[m, rays_[m, d, k]] = d * length + k
    return out


class PushAndPull(Game):
    """Push and Pull on the hexhex board of base size (default 7), doubled-width names."""

    name = "push-and-pull"
    PLAYERS = ("first", "second")
    OPTIONS = {"size": int_between(7, 5, MAX_SIZE, "base of the hexhex board (markers start at g5, s9 on base 7)")}
    kernels = KERNELS

    def setup(self) -> None:
        self.topology = hexhex(self.options["size"], naming="doubled")
        self.rays = rays(self.topology)
        n = self.topology.ncells
        self.reach = self.rays.shape[2]
        self.tables = Tables(self.rays, lines(self.rays), n)
        self.num_actions = n + 2 * self.reach + 1
        self.state_size = BOARD + n
        cx, cy = self.topology.xy[n // 2]
        self.starts = tuple(self.topology.at(int(cx) + dx, int(cy) + dy) for dx, dy in START_OFFSETS)

    def initial_array(self) -> np.ndarray:
        s = super().initial_array()
        s[STONE] = -1
        for p, c in enumerate(self.starts):
            s[MARK + p] = c
            s[BOARD + c] = 2 + p
        check(s, self.tables)
        return s

    # facts ------------------------------------------------------------------
    def markers(self, s: np.ndarray) -> tuple[int, int]:
        """Each player's marker cell."""
        return int(s[MARK]), int(s[MARK + 1])

    def stone(self, s: np.ndarray) -> int | None:
        """The stone whose marker moves are being asked, if any."""
        return None if s[STONE] < 0 else int(s[STONE])

    def owed(self, s: np.ndarray) -> list[int]:
        """The players whose markers have not moved yet this turn."""
        return [p for p in (0, 1) if not s[MOVED + p]]

    def last_placement(self, s: np.ndarray) -> bool:
        return int(s[PLACED]) == int(placements(s)) - 1

    def ending(self, s: np.ndarray) -> str:
        """Why the game ended ('' while it goes on)."""
        kind = int(s[ENDING])
        if kind == STUCK:
            return f"{self.PLAYERS[1 - int(s[WINNER])]}'s marker cannot be moved"
        if kind == BOTH_STUCK:
            return "neither marker can be moved"
        if kind == NO_TURN:
            return f"{self.PLAYERS[1 - int(s[WINNER])]} cannot move both markers with the last placement"
        return ""

    # notation -----------------------------------------------------------------
    def action_name(self, s: np.ndarray, action: int) -> str:
        n = self.topology.ncells
        return self.topology.name(action) if action < n else str(action - n - self.reach)

    def normalize(self, text: str) -> str:
        """A cell, then up to two marker moves; or one or two marker moves:
        words split by spaces, in any case.  A marker move is an integer
        (``-2``, ``2``, one optional ``+``: ``+2``), ``0`` or ``--``; it is
        written back without ``+`` and ``--`` as ``0``."""
        words = [w for w in text.lower().split(" ") if w]
        head = words[:1] if words and self.topology.find(words[0]) is not None else []
        moves = words[len(head):]
        if not words or len(moves) > 2 or not all(_MARKER.fullmatch(w) for w in moves):
            raise self.malformed(text, "a cell (o5), a marker's move (-2, +2, 0, --), or both (o5 -2 2)")
        return " ".join(head + ["0" if w == "--" else w.lstrip("+") for w in moves])

    def parse_steps(self, s: np.ndarray, text: str, legal_: list[int]) -> list[int]:
        """A step (``o5``, ``-2``), or a placement with its marker moves
        (``o5 -2 2``; ``0`` or ``--`` where a marker does not move or does not
        see the stone), or the rest of one (``-2 2``) -- all or nothing."""
        key = self.normalize(text)
        words = key.split()
        scratch, actions = s.copy(), []
        slot = int(s[PHASE])
        if words[0][0].isalpha() != (slot == PLACE):
            raise IllegalMove(self.why_illegal(s, words[0]))
        if slot == PLACE:
            actions.append(self._step(scratch, words.pop(0), key))
            slot = OWN
        if len(words) > OTHER - slot + 1:
            raise IllegalMove(f"{key!r}: only the opponent's marker is still to move with this stone")
        for word in words:
            if scratch[WINNER] < 0 and scratch[PHASE] == slot:
                actions.append(self._step(scratch, word, key))
            elif word != "0":
                who = "own" if slot == OWN else "opponent's"
                raise IllegalMove(f"{key!r}: the {who} marker cannot move with this stone; write 0 or -- for it")
            slot += 1
        return actions

    def _step(self, scratch: np.ndarray, word: str, key: str) -> int:
        """The action of the step ``word`` (normalized) in ``scratch``, applied there."""
        names = {self.action_name(scratch, a): a for a in self._legal(scratch)}
        if word not in names:
            why = self.why_illegal(scratch, word)
            raise IllegalMove(why if word == key else f"{key!r}: {why}")
        self.kernels.apply(scratch, self.tables, names[word])
        return names[word]

    def write_moves(self, positions, actions) -> list[tuple[int, str]]:
        """A placement with its marker moves as one (``o5 -2 2``; ``--`` for a
        marker that does not see the stone or cannot move); an unfinished one
        as far as it goes (``o5``, ``o5 -2``)."""
        out: list[tuple[int, list[str]]] = []
        for i, (s, a) in enumerate(zip(positions, actions)):
            if s[PHASE] == PLACE:
                out.append((i, [self.action_name(s, a)]))
                continue
            words = out[-1][1]
            words += ["--"] * (int(s[PHASE]) - len(words)) + [self.action_name(s, a)]
            out[-1] = (i, words)
        for i, words in out:
            after = positions[i + 1]
            done = after[WINNER] >= 0 or after[PHASE] == PLACE
            words += ["--"] * ((3 if done else int(after[PHASE])) - len(words))
        return [(i, " ".join(words)) for i, words in out]

    def move_target(self, s: np.ndarray, action: int) -> int | None:
        """A placement's cell, or where the asked marker's move takes it (its own cell for 0)."""
        n = self.topology.ncells
        if action < n:
            return action
        p = int(asked(s))
        d, _ = marker_line(s, self.tables, p)
        m, v = int(s[MARK + p]), action - n - self.reach
        return m if v == 0 else int(self.rays[m, d, -v - 1] if v < 0 else self.rays[m, (d + 3) % 6, v - 1])

    def _legal(self, s: np.ndarray) -> list[int]:
        out = np.empty(self.num_actions, dtype=np.int32)
        return [int(a) for a in out[:legal(s, self.tables, out)]]

    def why_illegal(self, s: np.ndarray, text: str) -> str:
        if s[PHASE] != PLACE:
            p = int(asked(s))
            options = ", ".join(self.action_name(s, a) for a in self._legal(s))
            return (f"{text!r}: now {self.PLAYERS[p]}'s marker (on {self.topology.name(int(s[MARK + p]))}) moves "
                    f"along its line to the stone on {self.topology.name(int(s[STONE]))}; choose one of: {options} "
                    f"(negative: toward the stone, 0: not moved)")
        cell = self.topology.find(text)
        if cell is None:
            return (f"{text!r}: no marker moves now; a placement is a cell ('o5'), optionally with the markers' "
                    f"moves ('o5 -2 2')")
        if s[BOARD + cell] > NEUTRAL:
            return f"{text!r} holds {self.PLAYERS[int(s[BOARD + cell]) - 2]}'s marker"
        if s[BOARD + cell]:
            return f"{text!r} is occupied"
        owed = " and ".join(f"{self.PLAYERS[p]}'s (on {self.topology.name(int(s[MARK + p]))})" for p in self.owed(s))
        return (f"{text!r}: this is the turn's last placement, so its stone must let every marker not yet "
                f"moved this turn move: {owed}")

    # observations ---------------------------------------------------------------
    PLANES = ("own marker", "opponent marker", "stones", "empty", "placed stone",
              "own marker owed", "opponent marker owed", "last placement", "marker move asked")

    def planes(self, s: np.ndarray, player: int) -> np.ndarray:
        """The markers (own, opponent's), neutral stones, empty cells, the
        stone whose marker moves are being asked; then constant planes: each
        marker still owed a move this turn, whether the next placement is the
        turn's last, whether a marker move is being asked."""
        n = self.topology.ncells
        board = s[BOARD:BOARD + n]
        out = self.blank_planes()
        out[0] = board == 2 + player
        out[1] = board == 3 - player
        out[2] = board == NEUTRAL
        out[3] = board == EMPTY
        if s[STONE] >= 0:
            out[4, int(s[STONE])] = 1
        out[5] = s[MOVED + player] == 0
        out[6] = s[MOVED + 1 - player] == 0
        out[7] = self.last_placement(s)
        out[8] = s[PHASE] != PLACE
        return out

    # rendering --------------------------------------------------------------------
    def ascii(self, state) -> str:
        """Column letters and row numbers; ``o`` a stone, ``1`` / ``2`` the
        first / second player's marker."""
        s = state._s
        char = {EMPTY: ".", NEUTRAL: "o", 2: "1", 3: "2"}
        board = s[BOARD:BOARD + self.topology.ncells]
        return ascii_render.lettered(self.topology, lambda c: char[int(board[c])]) + "\n" + self.status(state)

    def rules_status(self, state) -> str:
        """Who is to place or move which marker, or who won and how."""
        s = state._s
        if state.is_over():
            w = state.winner()
            return f"{'a draw' if w is None else self.PLAYERS[w] + ' wins'}: {self.ending(s)}"
        who = self.PLAYERS[state.to_move]
        if s[PHASE] != PLACE:
            p = int(asked(s))
            whose = "own" if p == state.to_move else f"{self.PLAYERS[p]}'s"
            return f"{who} moves the {whose} marker (toward the stone on {self.topology.name(int(s[STONE]))}: negative)"
        owed = ", ".join(f"{self.PLAYERS[p]}'s" for p in self.owed(s)) or "none"
        return f"{who} to place ({int(s[PLACED]) + 1} of {int(placements(s))}); markers still to move: {owed}"

    def rules_end_reason(self, s: np.ndarray) -> str:
        """A marker ``stuck``, ``both-stuck`` (a draw), or ``no-full-turn``
        (the last placement cannot move both markers)."""
        return {STUCK: "stuck", BOTH_STUCK: "both-stuck", NO_TURN: "no-full-turn"}[int(s[ENDING])]

    def svg(self, state, hints: bool = False, **kw: Any) -> str:
        """The board; ``hints=True`` dots the legal placements or, while a
        marker's move is asked, draws an arrow to each cell it may move to."""
        s = state._s
        n = self.topology.ncells
        board = s[BOARD:BOARD + n]
        marks: list[int] = []
        arrows: list[tuple[int, int]] = []
        if hints and s[PHASE] == PLACE:
            marks = state.legal_actions()
        elif hints:
            m = int(s[MARK + int(asked(s))])
            arrows = [(m, to) for to in map(lambda a: self.move_target(s, a), state.legal_actions()) if to != m]
        pieces = {int(s[MARK]): "marker1", int(s[MARK + 1]): "marker2"}
        stone = [] if s[STONE] < 0 else [int(s[STONE])]
        neutral = lambda c: svg_render.NEUTRAL if board[c] == NEUTRAL else 0  # noqa: E731
        last = svg_render.last_cell(state.history, lambda a: a if a < n else None)
        legend = [("marker1", "player 1's marker"), ("marker2", "player 2's marker"), (svg_render.NEUTRAL, "stones"),
                  ("last", "last placement")]
        return svg_render.board(self.topology, neutral, highlight=stone, marks=marks, pieces=pieces, paths=arrows,
                                last=last, legend=legend, title=self.status(state), **kw)
