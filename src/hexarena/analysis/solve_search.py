"""The solver's search: alpha-beta negamax over a game's kernels with a
transposition table keyed by symmetry-canonical position hashes.

Scores are for the player to move.  In *distance* mode a win ``d`` plies
after the search's root scores ``WIN - d`` (a loss ``-(WIN - d)``, a draw
0), so the search prefers the fastest win and the longest defence; the
table keeps scores relative to the stored position (``WIN - plies from
there``) and converts on the way in and out, as chess programs do with mate
scores.  In *value* mode every win scores ``WIN`` (no distances): with the
window (-WIN, WIN) the first win found cuts, which proves values much
faster.

The search runs on explicit stacks (one row per ply: the position, its
moves, the window, the best so far), never recursion.  A turn of several
steps (the same player moving again, as in cut-and-choose's three opening
stones) keeps the sign; only a change of mover negates.  The solvable games
(``Game.SOLVABLE``) are acyclic, so a position's value never depends on the
path to it and the table is exact.

The kernels ``legal`` and ``apply`` are bound by :func:`make_search` in a
closure, so numba compiles the search once per process and game (closures
over jitted functions cannot be cached on disk).
"""

from __future__ import annotations

from functools import cache

import numba
import numpy as np

from ..ai.positions import PositionKeys, canonical_key
from ..kernels import DRAW, TO_MOVE, WINNER, njit

WIN = 1 << 20  # a win's score before its distance is taken off
INF = 1 << 30  # beyond every score: an open window's bound
# stats: nodes entered, table hits that ended a node, aborted (1 when the node budget ran out)
NODES, HITS, ABORTED = range(3)


@njit
def to_table(v, h, distance):
    """A score at ply ``h`` of the search as the position's own score (for the table)."""
    if not distance or v >= INF or v <= -INF:
        return v
    if v > WIN // 2:
        return v + h
    if v < -WIN // 2:
        return v - h
    return v


@njit
def from_table(v, h, distance):
    """The inverse of :func:`to_table`."""
    if not distance or v >= INF or v <= -INF:
        return v
    if v > WIN // 2:
        return v - h
    if v < -WIN // 2:
        return v + h
    return v


@njit
def terminal_score(winner, mover, ply, distance):
    """The score for ``mover`` of a game that ended (``winner``) at ``ply``."""
    if winner == DRAW:
        return 0
    best = WIN - ply if distance else WIN
    return best if winner == mover else -best


class Table:
    """The transposition table: ``2**bits`` slots of (key, lower bound,
    upper bound, best move in the canonical frame), always replaced."""

    def __init__(self, bits: int) -> None:
        size = 1 << bits
        self.key = np.zeros(size, dtype=np.uint64)
        self.lo = np.zeros(size, dtype=np.int32)
        self.hi = np.zeros(size, dtype=np.int32)
        self.move = np.zeros(size, dtype=np.int32)
        self.clear()

    def clear(self) -> None:
        self.key[:] = 0
        self.lo[:] = -INF
        self.hi[:] = INF
        self.move[:] = -1

    @property
    def arrays(self) -> tuple:
        return self.key, self.lo, self.hi, self.move

    def used(self) -> int:
        return int(np.count_nonzero(self.key))


def search_keys(keys: PositionKeys) -> tuple:
    """The searches' ``keys`` argument: (offset, cells, fields, perms, action
    maps, their inverses, zcell, zfield)."""
    inverse = np.zeros_like(keys.actions)
    for j, row in enumerate(keys.actions):
        inverse[j, row] = np.arange(row.shape[0], dtype=np.int32)
    return keys.offset, keys.cells, keys.fields, keys.perms, keys.actions, inverse, keys.zcell, keys.zfield


def max_plies(game) -> int:
    """More plies than any game of ``game`` lasts (passes come between
    stones at most): the searches' stack depth."""
    return 4 * game.topology.ncells + 8


@njit
def ply_stacks(root, max_ply, num_actions):
    """The stacks both searches start with, a row per ply (``max_ply + 2``):
    the positions (the first is ``root``), their moves, their move counts
    and their position keys."""
    depth = max_ply + 2
    S = np.empty((depth, root.shape[0]), dtype=root.dtype)
    S[0, :] = root
    moves = np.empty((depth, num_actions), dtype=np.int32)
    return S, moves, np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.uint64)


@cache
def make_threats(apply):
    """``threats(S, h, t, moves, n, cells, mover)`` bound to one game's
    ``apply``, for the forced blocks of both searches: how many of the
    placements ``moves[h, :n]`` would win at once for the opponent if it were
    to move (0, 1 or 2 meaning two or more), trying each on ``S[h + 1]``; with
    one, it is moved to the front."""

    @numba.njit
    def threats(S, h, t, moves, n, cells, mover):
        found = 0
        for i in range(n):
            if moves[h, i] >= cells:
                continue  # not a placement (swap, a colour choice)
            S[h + 1, :] = S[h]
            S[h + 1, TO_MOVE] = 1 - mover
            apply(S[h + 1], t, moves[h, i])
            if S[h + 1, WINNER] == 1 - mover:
                found += 1
                if found == 2:
                    return 2
                moves[h, 0], moves[h, i] = moves[h, i], moves[h, 0]
        return found

    return threats


@cache
def make_search(legal, apply):
    """``search(root, t, alpha, beta, distance, keys, table, max_nodes, max_ply, stats, threats) -> score``
    bound to one game's kernels (see the module's docstring); ``keys`` is
    (offset, cells, fields, perms, action maps, their inverses, zcell, zfield)
    from :class:`hexarena.ai.positions.PositionKeys`; ``root`` must not be over.

    ``threats`` >= 0 turns on the placement games' forced blocks: where the
    state entry ``threats`` is non-zero (the colours are settled), a cell on
    which the opponent would win at once must be taken (action = cell; the
    opponent's stone is tried by flipping ``TO_MOVE``), unless the mover wins
    at once; two such cells lose in two plies."""

    threats_of = make_threats(apply)

    @numba.njit
    def search(root, t, alpha_root, beta_root, distance, keys, table, max_nodes, max_ply, stats, threats):
        offset, cells, fields, perms, amaps, ainv, zcell, zfield = keys
        tkey, tlo, thi, tmove = table
        mask = np.uint64(tkey.shape[0] - 1)
        S, moves, count, key = ply_stacks(root, max_ply, amaps.shape[1])
        D = S.shape[0]
        nxt = np.zeros(D, dtype=np.int64)
        alpha = np.zeros(D, dtype=np.int64)
        beta = np.zeros(D, dtype=np.int64)
        alpha0 = np.zeros(D, dtype=np.int64)
        best = np.zeros(D, dtype=np.int64)
        best_move = np.zeros(D, dtype=np.int32)
        played = np.zeros(D, dtype=np.int32)
        sign = np.ones(D, dtype=np.int64)
        sym = np.zeros(D, dtype=np.int64)
        ENTER, NEXT, TAKE, FINISH, RETURN = 0, 1, 2, 3, 4

        alpha[0], beta[0] = alpha_root, beta_root
        h, state, v, a = 0, ENTER, 0, -1
        while True:
            if state == ENTER:
                stats[NODES] += 1
                if stats[NODES] > max_nodes:
                    stats[ABORTED] = 1
                    return 0
                s = S[h]
                mover = s[TO_MOVE]
                if distance:  # nothing beats a win next ply nor loses faster than a loss next ply
                    alpha[h] = max(alpha[h], -(WIN - h - 1))
                    beta[h] = min(beta[h], WIN - h - 1)
                    if alpha[h] >= beta[h]:
                        v, state = alpha[h], RETURN
                        continue
                k, g = canonical_key(s, offset, cells, fields, perms, zcell, zfield)
                key[h], sym[h] = k, g
                slot = k & mask
                hint = -1
                if tkey[slot] == k:
                    lo = from_table(np.int64(tlo[slot]), h, distance)
                    hi = from_table(np.int64(thi[slot]), h, distance)
                    if lo >= beta[h] or lo == hi:
                        stats[HITS] += 1
                        v, state = lo, RETURN
                        continue
                    if hi <= alpha[h]:
                        stats[HITS] += 1
                        v, state = hi, RETURN
                        continue
                    alpha[h] = max(alpha[h], lo)
                    beta[h] = min(beta[h], hi)
                    if tmove[slot] >= 0:
                        hint = ainv[g, tmove[slot]]
                alpha0[h] = alpha[h]
                n = legal(s, t, moves[h])
                count[h], nxt[h], best[h], best_move[h] = n, 0, -INF, -1
                # a move that wins at once is the best there is: play it first
                win_at = -1
                for i in range(n):
                    S[h + 1, :] = s
                    apply(S[h + 1], t, moves[h, i])
                    if S[h + 1, WINNER] == mover:
                        win_at = i
                        break
                if win_at < 0 and threats >= 0 and s[threats] != 0:
                    blocks = threats_of(S, h, t, moves, n, cells, mover)
                    if blocks >= 2:  # two cells win for the opponent: lost whatever is played
                        v, state = -(WIN - h - 2) if distance else -WIN, RETURN
                        continue
                    if blocks == 1:  # the only move that does not lose at once is the block
                        count[h] = n = 1
                first = win_at if win_at >= 0 else -1
                if first < 0 and hint >= 0:
                    for i in range(n):
                        if moves[h, i] == hint:
                            first = i
                            break
                if first > 0:
                    moves[h, 0], moves[h, first] = moves[h, first], moves[h, 0]
                state = NEXT
            elif state == NEXT:
                if nxt[h] >= count[h]:
                    state = FINISH
                    continue
                a = moves[h, nxt[h]]
                nxt[h] += 1
                S[h + 1, :] = S[h]
                apply(S[h + 1], t, a)
                mover = S[h, TO_MOVE]
                if S[h + 1, WINNER] >= 0:
                    v, state = terminal_score(S[h + 1, WINNER], mover, h + 1, distance), TAKE
                    continue
                played[h] = a
                sg = 1 if S[h + 1, TO_MOVE] == mover else -1
                sign[h + 1] = sg
                if sg == 1:
                    alpha[h + 1], beta[h + 1] = alpha[h], beta[h]
                else:
                    alpha[h + 1], beta[h + 1] = -beta[h], -alpha[h]
                h += 1
                state = ENTER
            elif state == TAKE:  # v is the score of move a at ply h
                if v > best[h]:
                    best[h], best_move[h] = v, a
                if v > alpha[h]:
                    alpha[h] = v
                state = FINISH if alpha[h] >= beta[h] else NEXT
            elif state == FINISH:
                v = best[h]
                lo, hi = -INF, INF
                if v <= alpha0[h]:
                    hi = v
                elif v >= beta[h]:
                    lo = v
                else:
                    lo = hi = v
                slot = key[h] & mask
                lo_t, hi_t = to_table(lo, h, distance), to_table(hi, h, distance)
                if tkey[slot] == key[h]:  # keep what the table knew too
                    lo_t, hi_t = max(lo_t, np.int64(tlo[slot])), min(hi_t, np.int64(thi[slot]))
                tkey[slot], tlo[slot], thi[slot] = key[h], lo_t, hi_t
                tmove[slot] = amaps[sym[h], best_move[h]] if best_move[h] >= 0 else -1
                state = RETURN
            else:  # RETURN: v is node h's score
                if h == 0:
                    return v
                v = v * sign[h]
                h -= 1
                a = played[h]
                state = TAKE

    return search
