"""Push and Pull's playouts and playout policy for the AI: uniformly random
steps, or the policy's, to the end in one compiled loop, and :func:`policy`,
which keeps the owed markers movable and weighs placements and marker moves
by the markers' mobility.

The policy's playout reads the markers' empty runs from bits: the occupied
cells as 64-bit words, kept as the playout goes, and each ray's cells as
words (:func:`bit_tables`), laid out so that the ray's cells come in rising
bit order, so a run is the ray's bits below the first occupied one
(:func:`run_bits`, the same count as walking the ray).
"""

from __future__ import annotations

import numpy as np

from ..kernels import hot, inline, njit, note, popcount
from .base import PLY, STEP, TO_MOVE, WINNER
from .push_and_pull_rules import (BOARD, EMPTY, MARK, MOVED, NEUTRAL, OWN, PHASE, PLACE, PLACED, STONE, advance, asked,
                                  marker_line, options_along, owed_bits, owed_cells, owed_cells_from_runs,
                                  owed_reach, placements)


ONE = np.uint64(1)


def bit_tables(rays_: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ray_bits, ray_layout, cell_bits)`` for :func:`run_bits`, in ``W``
    words of 64 cells: ``cell_bits[c]`` holds cell c's bit in two layouts,
    ``W`` words each, by cell number and by reversed cell number;
    ``ray_bits[m, d]`` the cells of the ray from m in direction d in the
    layout where they rise, the one starting at word ``ray_layout[d]``
    (hexhex numbering runs along rows, so each direction's rays rise or fall)."""
    n = rays_.shape[0]
    words = -(-n // 64)
    cell_bits = np.zeros((n, 2 * words), dtype=np.uint64)
    for c in range(n):
        for half, place in ((0, c), (words, n - 1 - c)):
            cell_bits[c, half + place // 64] = ONE << np.uint64(place % 64)
    ray_bits = np.zeros((n, 6, words), dtype=np.uint64)
    ray_layout = np.zeros(6, dtype=np.int64)
    for d in range(6):
        steps = [np.diff(np.concatenate(([m], rays_[m, d][rays_[m, d] >= 0]))) for m in range(n)]
        if all(np.all(step > 0) for step in steps):
            ray_layout[d] = 0
        elif all(np.all(step < 0) for step in steps):
            ray_layout[d] = words
        else:
            raise ValueError(f"the rays in direction {d} neither all rise nor all fall in cell numbers")
        for m in range(n):
            for c in rays_[m, d][rays_[m, d] >= 0]:
                ray_bits[m, d] |= cell_bits[c, ray_layout[d]: ray_layout[d] + words]
    return ray_bits, ray_layout, cell_bits


@inline
def run_bits(t, m, d, occ, at):
    """How many empty cells follow cell m in direction d, the occupied cells
    being the bits of ``occ[at:at + 2W]`` (:func:`occupy`): the ray's bits
    below its first occupied one, counted (as
    :func:`~hexarena.games.push_and_pull_rules.runs_from` walks it)."""
    bits = t.ray_bits
    at += t.ray_layout[d]
    if bits.shape[2] == 2:  # up to 128 cells (sizes 5 to 7): the loop below written out, which compiles straight
        first, second = bits[m, d, 0], bits[m, d, 1]
        blocked = first & occ[at]
        if blocked != 0:
            return popcount(first & below(blocked))
        blocked = second & occ[at + 1]
        return popcount(first) + popcount(second & below(blocked) if blocked != 0 else second)
    count = 0
    for w in range(bits.shape[2]):
        ray = bits[m, d, w]
        blocked = ray & occ[at + w]
        if blocked != 0:
            return count + popcount(ray & below(blocked))
        count += popcount(ray)
    return count


@inline
def below(bits):
    """The bits below the lowest set bit of the nonzero uint64 ``bits``."""
    return (bits & (~bits + ONE)) - ONE


@inline
def occupy(t, occ, at, c):
    """Mark cell c occupied in ``occ[at:at + 2W]``."""
    for w in range(t.cell_bits.shape[1]):
        occ[at + w] |= t.cell_bits[c, w]


@inline
def vacate(t, occ, at, c):
    """Mark cell c empty in ``occ[at:at + 2W]``."""
    for w in range(t.cell_bits.shape[1]):
        occ[at + w] &= ~t.cell_bits[c, w]


@njit
def occupancy(s, t):
    """``uint64[4W]``: the occupied cells of ``s`` as bits in its first half
    (the second is scratch for a board changed by a trial move)."""
    occ = np.zeros(2 * t.cell_bits.shape[1], dtype=np.uint64)
    for c in range(t.ncells):
        if s[BOARD + c] != EMPTY:
            occupy(t, occ, 0, c)
    return occ


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
    # two allocations: a playout's allocations cost as much as its steps
    scratch = np.empty(3 * t.ncells + 12, dtype=np.int32)
    occ = np.zeros(2 * t.cell_bits.shape[1], dtype=np.uint64)  # filled by the loop's first scan
    return _run_playout(s, t, actions, movers, use_policy, scratch, occ)


@hot
def _run_playout(s, t, actions, movers, use_policy, scratch, occ):
    """:func:`run_playout`'s loop, compiled without reference counting (it allocates nothing)."""
    rays_, n = t.rays, t.ncells
    base = n + rays_.shape[2]
    empties, where, cells, runs = scratch[:n], scratch[n:2 * n], scratch[2 * n:3 * n], scratch[3 * n:]
    count = 0  # where[c] is read only for cells in empties[:count], written when they are put there
    for c in range(n):
        if s[BOARD + c] == EMPTY:
            empties[count], where[c] = c, count
            count += 1
        else:
            occupy(t, occ, 0, c)
    written = 0
    while s[WINNER] < 0:
        mover = s[TO_MOVE]
        if s[PHASE] == PLACE:
            if use_policy:
                a = policy_placement(s, t, empties, count, cells, runs, occ)
            else:
                a = random_placement(s, t, empties, count, cells, runs)
            count = _take(empties, where, count, a)
            written = note(actions, movers, written, a, mover)
            s[PLY] += 1  # apply's placement, here so that the loop is compiled as one
            s[STEP] += 1
            s[BOARD + a] = NEUTRAL
            occupy(t, occ, 0, a)
            s[STONE] = a
            advance(s, t, OWN)
        else:
            q = asked(s)
            m = s[MARK + q]
            d, dist = marker_line(s, t, q)
            toward, away, zero = options_along(s, t, q, d, dist)
            if use_policy:
                v = marker_choice(s, t, q, runs, occ, d, dist, toward, away, zero)
            else:
                v = -toward + np.random.randint(0, toward + away + zero)
                if v >= 0 and not zero:
                    v += 1
            written = note(actions, movers, written, base + v, mover)
            s[PLY] += 1  # apply's marker move, here so that the loop is compiled as one
            s[STEP] += 1
            if v != 0:
                land = rays_[m, d, -v - 1] if v < 0 else rays_[m, (d + 3) % 6, v - 1]
                count = _take(empties, where, count, land)
                empties[count], where[m] = m, count
                count += 1
                s[BOARD + m] = EMPTY
                s[BOARD + land] = 2 + q
                vacate(t, occ, 0, m)
                occupy(t, occ, 0, land)
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
def policy_placement(s, t, empties, count, cells, runs, occ):
    """:func:`policy`'s placement drawn from the empty cells ``empties[:count]``:
    the best by :func:`score` of ``SAMPLES`` drawn among the safest (as
    :func:`safe_placements` ranks them), found from the owed markers' lines;
    the markers' mobility with each stone from their runs (``runs``: 12 ints
    of scratch; ``occ``: the board's :func:`occupancy`)."""
    line, L = t.line, t.rays.shape[2]
    p = s[TO_MOVE]
    for q in range(2):  # each marker's runs, read by owed_cells_from_runs and for the mobilities
        for e in range(6):
            runs[6 * q + e] = run_bits(t, s[MARK + q], e, occ, 0)
    pool, k = empties, count
    if owed_bits(s) != 0:
        pool, k = cells, owed_cells_from_runs(s, t, cells, 0, runs)
        if k == 0 and s[PLACED] != placements(s) - 1:
            k = owed_cells_from_runs(s, t, cells, 1, runs)
        if k == 0:
            pool, k = empties, count
    mine, theirs, at_mine, at_theirs = s[MARK + p], s[MARK + 1 - p], 6 * p, 6 - 6 * p
    own0, other0 = runs_mobility(runs, at_mine), runs_mobility(runs, at_theirs)
    best, best_v = pool[0], -1e300
    for _ in range(min(k, SAMPLES)):
        c = pool[np.random.randint(0, k)]
        own = mobility_with_stone(runs, at_mine, line, L, mine, c, own0)
        other = mobility_with_stone(runs, at_theirs, line, L, theirs, c, other0)
        v = noisy(own, other)
        if v > best_v:
            best, best_v = c, v
    return best


@inline
def policy_marker_move(s, t, q, runs):
    """:func:`policy`'s move v for player q's marker (asked now): the best by
    :func:`score` after it, moving an owed marker first (``runs``: 12 ints
    of scratch), as the policy's playout finds it (:func:`marker_choice`)."""
    d, dist = marker_line(s, t, q)
    toward, away, zero = options_along(s, t, q, d, dist)
    return marker_choice(s, t, q, runs, occupancy(s, t), d, dist, toward, away, zero)


@inline
def marker_choice(s, t, q, runs, occ, d, dist, toward, away, zero):
    """:func:`policy_marker_move` given the board's :func:`occupancy` ``occ``,
    the marker's :func:`marker_line` (d, dist) and its
    :func:`~hexarena.games.push_and_pull_rules.options_along` (toward, away,
    zero).  The runs after a trial move are read without making it: the
    moved marker's runs off its line pass neither its old cell nor its new
    one, and the other marker's change only on the lines through those two
    cells (read from a copy of the bits with the move made)."""
    line, L = t.line, t.rays.shape[2]
    p = s[TO_MOVE]
    m, o = s[MARK + q], s[MARK + 1 - q]
    back = (d + 3) % 6
    owed = s[MOVED + q] == 0
    for e in range(6):
        runs[6 + e] = run_bits(t, o, e, occ, 0)
    still = runs_mobility(runs, 6)  # the other marker's, when neither m nor the landing cell is on its lines
    em = line[o, m]  # d * L + k where m is on the other marker's line, else -1
    dm = em // L if em >= 0 else -1
    words = t.cell_bits.shape[1]
    best, best_v = 0, -1e300
    for v in range(-toward, away + 1):
        if v == 0 and not zero:
            continue
        land = m if v == 0 else (t.rays[m, d, -v - 1] if v < 0 else t.rays[m, back, v - 1])
        for e in range(6):
            if e != d and e != back:
                runs[e] = run_bits(t, land, e, occ, 0)
        runs[d], runs[back] = dist - 1 + v, away - v
        moved = runs_mobility(runs, 0)
        other = still
        el = line[o, land]
        if v != 0 and (dm >= 0 or el >= 0):  # the other marker's runs change only on the lines through m, land
            dl = el // L if el >= 0 else -1
            for w in range(words):  # the board after the move, in the second half of occ
                occ[words + w] = (occ[w] & ~t.cell_bits[m, w]) | t.cell_bits[land, w]
            kept_m = runs[6 + dm] if dm >= 0 else 0
            kept_l = runs[6 + dl] if dl >= 0 else 0
            if dm >= 0:
                runs[6 + dm] = run_bits(t, o, dm, occ, words)
            if dl >= 0:
                runs[6 + dl] = run_bits(t, o, dl, occ, words)
            other = runs_mobility(runs, 6)
            if dl >= 0:
                runs[6 + dl] = kept_l
            if dm >= 0:
                runs[6 + dm] = kept_m
        x = noisy(moved, other) if q == p else noisy(other, moved)
        if owed and v != 0:
            x += MOVE_BONUS
        if x > best_v:
            best, best_v = v, x
    return best
