"""Push and Pull's playouts and playout policy for the AI: uniformly random
steps, or the policy's, to the end in one compiled loop, and :func:`policy`,
which keeps the owed markers movable and weighs placements and marker moves
by the markers' mobility.
"""

from __future__ import annotations

import numpy as np

from ..kernels import hot, inline, njit, note
from .base import PLY, STEP, TO_MOVE, WINNER
from .push_and_pull_rules import (BOARD, EMPTY, MARK, MOVED, NEUTRAL, OWN, PHASE, PLACE, PLACED, STONE, advance, asked,
                                  marker_line, marker_options, owed_bits, owed_cells, owed_reach, placements, runs_from)


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
    # one allocation: a playout's allocations cost as much as its steps
    scratch = np.empty(3 * t.ncells + 12, dtype=np.int32)
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
