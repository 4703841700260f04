"""The MCTS simulation loop, written once and specialised per game.

This file is a template: :func:`hexarena.ai.mcts.compiled_search` copies it
into a cache directory with the line that binds ``legal``, ``apply``,
``playout`` and ``policy`` replaced by imports of one game's kernels, so
that numba compiles them in as plain globals and can cache the result
(functions passed as arguments or captured in closures defeat numba's
cache).  Its tree helpers live in :mod:`hexarena.ai.mcts`.
"""

import numpy as np

from hexarena.ai.mcts import (ACTION, ANTI, CAPACITY, COUNT, DECISIVE, DN, EXPAND, FIRST, GENERIC, GRAVE_REF, MOVER,
                              N, P_ACTION, P_COUNT, P_DRAWS, P_FIRST, P_OR, P_PARENT, P_ROOT, P_USED, PATTERNS, PN,
                              PN_INF, PN_PATH, PROVEN, PRUNED, RAVE, ROOT, SIMS, SOLVER, STAMP, USED, W, _map_children,
                              _new_node, _prove, _reward, _select, _update_amaf)
from hexarena.games.base import TO_MOVE, WINNER
from hexarena.kernels import njit, shuffle_prefix

@njit
def _expand(s, t, ints, flts, meta, node, buf):
    """Allocate the children of ``node`` (position ``s``): the game's
    ``search_moves`` (a count below 0 says it left out legal moves: the node
    is then never proven lost or drawn); False when the tree is full."""
    n = search_moves(s, t, buf)
    if n < 0:
        n = -n
        ints[node, PROVEN] = PRUNED
    if n == 0 or meta[USED] + n > meta[CAPACITY]:
        return False
    shuffle_prefix(buf, n)
    ints[node, FIRST] = meta[USED]
    ints[node, COUNT] = n
    for k in range(n):
        _new_node(ints, flts, meta, buf[k])
    return True


@njit
def _winning_move(s, t, moves, n, k, player, scratch):
    """Sample ``k`` of ``moves[:n]`` (reordering them); the first that wins at once for ``player``, or -1."""
    for j in range(min(n, k)):
        r = j + np.random.randint(0, n - j)
        moves[j], moves[r] = moves[r], moves[j]
        scratch[:] = s
        apply(scratch, t, moves[j])
        if scratch[WINNER] == player:
            return moves[j]
    return -1


@njit
def _playout_step(s, t, cfg, moves, replies, scratch, scratch2):
    """One move of the generic playout: decisive, anti-decisive, then the policy."""
    n = legal(s, t, moves)
    mover = s[TO_MOVE]
    dk, ak = int(cfg[DECISIVE]), int(cfg[ANTI])
    if dk > 0:
        a = _winning_move(s, t, moves, n, dk, mover, scratch)
        if a >= 0:
            return a
    a = moves[policy(s, t, moves, n)]
    if ak > 0:
        scratch[:] = s
        apply(scratch, t, a)
        if scratch[WINNER] < 0 and scratch[TO_MOVE] != mover:
            m = legal(scratch, t, replies)
            threat = _winning_move(scratch, t, replies, m, ak, scratch[TO_MOVE], scratch2)
            if threat >= 0:
                for j in range(n):
                    if moves[j] == threat:  # take the opponent's winning cell first
                        return threat
    return a


@njit
def _simulate(s, t, cfg, seq_a, seq_p, depth, bufs):
    """Play ``s`` to the end; record actions and movers from ``depth`` on; returns the new depth."""
    plain = cfg[DECISIVE] == 0 and cfg[ANTI] == 0
    if GAME_PATTERNS and cfg[PATTERNS] != 0 and plain:
        return depth + pattern_playout(s, t, seq_a[depth:], seq_p[depth:])
    if cfg[GENERIC] == 0:
        playout(s, t)
        return depth
    if GAME_RECORDS and plain:
        return depth + recorded_playout(s, t, seq_a[depth:], seq_p[depth:])
    moves, replies, scratch, scratch2 = bufs
    while s[WINNER] < 0:
        a = _playout_step(s, t, cfg, moves, replies, scratch, scratch2)
        if depth < seq_a.shape[0]:
            seq_a[depth], seq_p[depth] = a, s[TO_MOVE]
            depth += 1
        apply(s, t, a)
    return depth


@njit
def _not_recorded(s, t, actions, movers):
    """Stands in for a game without ``recorded_playout`` or ``pattern_playout`` (never called then)."""
    return 0


@njit
def search(root_state, t, ints, flts, meta, cfg, sims, work, seen):
    """Run ``sims`` simulations from ``meta[ROOT]`` (position ``root_state``); stops early when
    the root is proven; returns the number done.  ``work`` is int32 scratch
    (``work_shape``), ``seen`` int64[2 * num_actions] of zeros kept with the tree
    (AMAF marks stamped by ``meta[STAMP]``)."""
    num_actions = seen.shape[0] // 2
    root = meta[ROOT]
    s = root_state.copy()
    scratch, scratch2 = root_state.copy(), root_state.copy()
    moves, replies, path, amap0, amap1 = work[0], work[1], work[2], work[3], work[4]
    seq_a, seq_p = work[5], work[6]
    bufs = (moves, replies, scratch, scratch2)
    ref_ = np.full(2, -1, np.int64)
    owner = np.full(2, -1, np.int64)
    grave_ref, solver = cfg[GRAVE_REF], cfg[SOLVER] > 0
    done = 0
    for _ in range(sims):
        if solver and ints[root, PROVEN] >= 0:
            break
        s[:] = root_state
        # typed constants: numba would also compile _simulate and _update_amaf for literal 0 and 1 first
        node, length, depth = root, np.int64(1), np.int64(0)
        path[0] = root
        ref_[:] = -1
        winner = -1
        while True:
            if s[WINNER] >= 0:
                ints[node, MOVER] = -1
                ints[node, PROVEN] = s[WINNER]
                winner = s[WINNER]
                break
            if solver and ints[node, PROVEN] >= 0:
                winner = ints[node, PROVEN]
                break
            if ints[node, FIRST] < 0:
                ints[node, MOVER] = s[TO_MOVE]
                grow = (node == root or flts[node, N] >= cfg[EXPAND]) and length < path.shape[0] - 1
                if not (grow and _expand(s, t, ints, flts, meta, node, moves)):
                    depth = _simulate(s, t, cfg, seq_a, seq_p, depth, bufs)
                    winner = s[WINNER]
                    break
            p = ints[node, MOVER]
            if flts[node, N] >= grave_ref:
                ref_[p] = node
            ref = ref_[p] if ref_[p] >= 0 else node
            amap = amap0 if p == 0 else amap1
            if ref != node and owner[p] != ref:
                _map_children(ints, ref, amap)
                owner[p] = ref
            child = _select(ints, flts, node, cfg, ref, amap)
            a = ints[child, ACTION]
            seq_a[depth], seq_p[depth] = a, p
            depth += 1
            apply(s, t, a)
            node = child
            path[length] = node
            length += 1
        # back up: visits and rewards per player, proofs, AMAF
        flts[root, N] += 1.0
        for d in range(1, length):
            flts[path[d], N] += 1.0
            flts[path[d], W] += _reward(winner, ints[path[d - 1], MOVER])
        if solver and ints[path[length - 1], PROVEN] >= 0:
            for d in range(length - 2, -1, -1):
                if not _prove(ints, path[d]):
                    break
        if cfg[RAVE] > 0:
            meta[STAMP] += 1
            _update_amaf(ints, flts, path, length, seq_a, seq_p, depth, winner, seen, meta[STAMP], num_actions)
        done += 1
    meta[SIMS] = done
    return done


# --- proof-number search (Allis), run at the root before the tree search ---------------

@njit
def _pn_leaf(c, t, p, pints, pnum, i, meta_p, moves):
    """Proof and disproof numbers of the new node ``i`` (position ``c``) for
    player ``p``: 0 / INF at an end, else the mover's legal moves count
    against him (the mobility initialisation)."""
    w = c[WINNER]
    if w >= 0:
        pnum[i, PN] = 0 if w == p else PN_INF
        pnum[i, DN] = PN_INF if w == p else 0
        if w != p and w != 1 - p:
            meta_p[P_DRAWS] = 1
        return
    m = legal(c, t, moves)
    if m == 0:  # not over, yet no move: a state outside the protocol; count it as not a win
        pnum[i, PN], pnum[i, DN] = PN_INF, 0
        meta_p[P_DRAWS] = 1
        return
    pnum[i, PN], pnum[i, DN] = (1, m) if pints[i, P_OR] else (m, 1)


@njit
def _pn_backup(pints, pnum, node, root):
    """Recompute the numbers of ``node`` and its ancestors up to ``root`` while
    they change; returns how many levels above ``node`` it stopped (the
    most-proving node is then found again from there)."""
    up = 0
    while True:
        first, count = pints[node, P_FIRST], pints[node, P_COUNT]
        least, total = PN_INF, 0
        key_min, key_sum = (PN, DN) if pints[node, P_OR] else (DN, PN)
        for i in range(first, first + count):
            least = min(least, pnum[i, key_min])
            total = min(PN_INF, total + pnum[i, key_sum])
        unchanged = pnum[node, key_min] == least and pnum[node, key_sum] == total
        pnum[node, key_min], pnum[node, key_sum] = least, total
        if unchanged or node == root:
            return up
        node = pints[node, P_PARENT]
        up += 1


@njit
def proof_search(root_state, t, pints, pnum, meta_p, iterations, moves, replies):
    """Proof-number search for the player to move at ``root_state``: expand
    the most-proving node ``iterations`` times (fewer when the root is
    decided or the arrays are full; more calls go on where the last one
    stopped).  ``meta_p[P_ROOT]`` is the root's node; ``pints[i]`` holds
    ``P_ACTION``, ``P_PARENT``, ``P_FIRST``, ``P_COUNT``, ``P_OR`` (the root's
    player moves there), ``pnum[i]`` the proof and disproof numbers (``PN``,
    ``DN``): proof 0 is a proven win for that player, disproof 0 a proof that
    he cannot win.  Returns the expansions done.  The positions along the
    current path are kept, so each search for the most-proving node starts
    where the last backup stopped changing numbers."""
    p, root = root_state[TO_MOVE], meta_p[P_ROOT]
    path = np.empty(PN_PATH, np.int64)
    states = np.empty((PN_PATH, root_state.shape[0]), root_state.dtype)
    c = root_state.copy()
    path[0], states[0], depth = root, root_state, 0
    done = 0
    while done < iterations and pnum[root, PN] != 0 and pnum[root, DN] != 0:
        node = path[depth]
        while pints[node, P_FIRST] >= 0:  # down to the most-proving node
            if depth + 1 == PN_PATH:
                return done  # a line longer than any game here: stop rather than lose track
            first, count = pints[node, P_FIRST], pints[node, P_COUNT]
            key = PN if pints[node, P_OR] else DN
            best = first
            for i in range(first + 1, first + count):
                if pnum[i, key] < pnum[best, key]:
                    best = i
            states[depth + 1] = states[depth]
            apply(states[depth + 1], t, pints[best, P_ACTION])
            depth += 1
            path[depth] = node = best
        s = states[depth]
        n = legal(s, t, moves)
        used = meta_p[P_USED]
        if used + n > pints.shape[0]:
            break
        for k in range(n):
            i = used + k
            c[:] = s
            apply(c, t, moves[k])
            pints[i, P_ACTION], pints[i, P_PARENT], pints[i, P_FIRST], pints[i, P_COUNT] = moves[k], node, -1, 0
            pints[i, P_OR] = c[TO_MOVE] == p
            _pn_leaf(c, t, p, pints, pnum, i, meta_p, replies)
        pints[node, P_FIRST], pints[node, P_COUNT] = used, n
        meta_p[P_USED] = used + n
        depth -= _pn_backup(pints, pnum, node, root)
        done += 1
    return done


# the game's kernels (numba reads globals when it compiles, after this module has run);
# compiled_search binds them by replacing the next two lines
legal = apply = playout = policy = recorded_playout = pattern_playout = search_moves = None
GAME_RECORDS = GAME_PATTERNS = None
