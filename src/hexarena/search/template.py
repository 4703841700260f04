"""The exact searches' loops, written once and specialised per game.

This file is a template: :func:`hexarena.search.loops.compiled` has it
written with the line that binds ``legal``, ``apply``, ``prune`` and
``prune_work`` replaced by imports of one game's kernels and the df-pn's
pruning (:mod:`hexarena.specialise`), so that numba compiles them in as
globals and caches the result.  :mod:`hexarena.search.dfpn` says how the
df-pn works, :mod:`hexarena.search.alphabeta` the alpha-beta; their tables
and helpers live there.
"""

import numpy as np

from hexarena.kernels import DRAW, TO_MOVE, WINNER, inline, njit
from hexarena.search.alphabeta import ABORTED as AB_ABORTED
from hexarena.search.alphabeta import HITS, INF, WIN, from_table, terminal_score, to_table
from hexarena.search.alphabeta import NODES as AB_NODES
from hexarena.search.dfpn import ABORTED, EXPANDED, NODES, SALT, capped_sum, drop_dead_cells, find, settled, store
from hexarena.search.dfpn import INF as PN_INF
from hexarena.search.loops import MOVER_LOSES, MOVER_WINS, ply_stacks
from hexarena.search.positions import canonical_key


@inline
def winning_move(S, h, t, moves, n, mover):
    """The index of the first of ``moves[h, :n]`` that wins at once for
    ``mover`` (each tried on ``S[h + 1]``), or -1."""
    for i in range(n):
        S[h + 1, :] = S[h]
        apply(S[h + 1], t, moves[h, i])
        if S[h + 1, WINNER] == mover:
            return i
    return -1


@njit
def opponent_wins(S, h, t, moves, n, cells, mover):
    """For the placement games' forced blocks: how many of the placements
    ``moves[h, :n]`` would win at once for the opponent if it were to move
    (0, 1 or 2 meaning two or more), trying each on ``S[h + 1]``; with one,
    it is moved to the front."""
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


@inline
def forced_blocks(S, h, t, moves, n, offset, cells, threats, rings, work):
    """The df-pn's pruning unless a game brings its own: once the colours
    are settled (``threats`` >= 0 and set), a mover facing two wins at once
    has lost and one facing one must block it; else the dead cells of
    ``rings`` are dropped.  The moves kept (their count), or MOVER_LOSES."""
    if threats < 0 or S[h, threats] == 0:
        return n
    blocks = opponent_wins(S, h, t, moves, n, cells, S[h, TO_MOVE])
    if blocks >= 2:
        return MOVER_LOSES
    if blocks == 1:
        return 1
    if rings.shape[0] > 0:
        return drop_dead_cells(S[h], offset, rings, moves[h], n)
    return n


@njit
def no_work(cells):
    """:func:`forced_blocks`'s scratch: none."""
    return 0


@njit  # (nogil: an AI's proven move searches beside a server's requests)
def dfpn(root, t, attacker, keys, table, max_nodes, max_ply, stats, threats, rings):
    """1 if ``attacker`` wins from ``root`` (not over), -1 if not, 0 when
    ``max_nodes`` ran out (``stats[ABORTED]`` set).  ``t``: the game's
    tables; ``keys``: :func:`hexarena.search.loops.search_keys`; ``table``:
    :attr:`hexarena.search.dfpn.PnTable.arrays`; ``threats``
    (``Game.THREAT_FIELD``, -1 for none) and ``rings``
    (``Game.dead_cell_rings``, no rows for none) go to ``prune``."""
    offset, cells, fields, perms, amaps, _, zcell, zfield = keys
    salt = SALT[0] if attacker == 0 else SALT[1]
    num_actions = amaps.shape[1]
    S, moves, count, key = ply_stacks(root, max_ply, num_actions)
    D = S.shape[0]
    ckey = np.zeros((D, num_actions), dtype=np.uint64)  # 0: a finished game (cpn, cdn fixed)
    cpn = np.zeros((D, num_actions), dtype=np.int64)
    cdn = np.zeros((D, num_actions), dtype=np.int64)
    thpn = np.zeros(D, dtype=np.int64)
    thdn = np.zeros(D, dtype=np.int64)
    entered = np.zeros(D, dtype=np.int64)
    chosen = np.zeros(D, dtype=np.int64)
    work = prune_work(cells)
    ENTER, LOOP, EXIT = 0, 1, 2

    thpn[0], thdn[0] = PN_INF, PN_INF
    h, state, pn, dn = 0, ENTER, 1, 1
    while True:
        if state == ENTER:
            stats[NODES] += 1
            if stats[NODES] > max_nodes:
                stats[ABORTED] = 1
                return 0
            entered[h] = stats[NODES]
            s = S[h]
            key[h] = canonical_key(s, offset, cells, fields, perms, zcell, zfield)[0] ^ salt
            slot = find(table, key[h])
            if slot >= 0 and (table[1][slot] >= thpn[h] or table[2][slot] >= thdn[h]):
                state = EXIT
                pn, dn = table[1][slot], table[2][slot]
                entered[h] = stats[NODES]  # nothing spent here
                continue
            stats[EXPANDED] += 1
            mover = s[TO_MOVE]
            n = legal(s, t, moves[h])
            if winning_move(S, h, t, moves, n, mover) >= 0:
                pn, dn = settled(mover == attacker)
                state = EXIT
                continue
            n = prune(S, h, t, moves, n, offset, cells, threats, rings, work)
            if n < 0:
                pn, dn = settled((n == MOVER_WINS) == (mover == attacker))
                state = EXIT
                continue
            m = 0  # the distinct children, each with its key or its final value
            for i in range(n):
                S[h + 1, :] = s
                apply(S[h + 1], t, moves[h, i])
                w = S[h + 1, WINNER]
                if w >= 0:
                    ck = np.uint64(0)
                    p, d = settled(w == attacker and w != DRAW)
                else:
                    ck = canonical_key(S[h + 1], offset, cells, fields, perms, zcell, zfield)[0] ^ salt
                    p, d = 1, 1
                    dup = False
                    for j in range(m):
                        if ckey[h, j] == ck:
                            dup = True
                            break
                    if dup:
                        continue
                moves[h, m], ckey[h, m], cpn[h, m], cdn[h, m] = moves[h, i], ck, p, d
                m += 1
            count[h] = m
            state = LOOP
        elif state == LOOP:
            # this node's numbers from its children's (the table's, or their first guess)
            is_or = S[h, TO_MOVE] == attacker
            phi, delta = PN_INF, 0  # phi: min side (pn at OR), delta: sum side
            best, phi2 = -1, PN_INF
            for i in range(count[h]):
                if ckey[h, i] != 0:  # the table's numbers; if it lost them, the last seen here
                    slot = find(table, ckey[h, i])
                    if slot >= 0:
                        cpn[h, i], cdn[h, i] = table[1][slot], table[2][slot]
                p, d = cpn[h, i], cdn[h, i]
                cphi, cdelta = (p, d) if is_or else (d, p)
                delta = capped_sum(delta, cdelta)
                if cphi < phi:
                    phi2, phi, best = phi, cphi, i
                elif cphi < phi2:
                    phi2 = cphi
            pn, dn = (phi, delta) if is_or else (delta, phi)
            if pn >= thpn[h] or dn >= thdn[h] or h + 1 >= D:
                state = EXIT
                continue
            # the most proving child, with thresholds where the choice would change
            tphi, tdelta = (thpn[h], thdn[h]) if is_or else (thdn[h], thpn[h])
            c_phi = min(tphi, phi2 + phi2 // 4 + 1)
            b_delta = cdn[h, best] if is_or else cpn[h, best]
            c_delta = min(tdelta - delta + b_delta, PN_INF)
            chosen[h] = best
            S[h + 1, :] = S[h]
            apply(S[h + 1], t, moves[h, best])
            if is_or:
                thpn[h + 1], thdn[h + 1] = c_phi, c_delta
            else:
                thpn[h + 1], thdn[h + 1] = c_delta, c_phi
            h += 1
            state = ENTER
        else:  # EXIT: (pn, dn) are node h's; keep them and go back to the parent
            store(table, key[h], pn, dn, stats[NODES] - entered[h] + 1)
            if h == 0:
                return 1 if pn == 0 else -1 if dn == 0 else 0
            h -= 1
            cpn[h, chosen[h]], cdn[h, chosen[h]] = pn, dn
            state = LOOP


@njit
def alphabeta(root, t, alpha_root, beta_root, distance, keys, table, max_nodes, max_ply, stats, threats):
    """The score of ``root`` (not over) for its player to move in the window
    (``alpha_root``, ``beta_root``), in distance or value mode
    (:mod:`hexarena.search.alphabeta`); 0 with ``stats[ABORTED]`` set when
    ``max_nodes`` ran out.  ``keys``: :func:`hexarena.search.loops.search_keys`;
    ``table``: :attr:`hexarena.search.alphabeta.Table.arrays`.

    ``threats`` >= 0 turns on the placement games' forced blocks: where the
    state entry ``threats`` is non-zero (the colours are settled), a cell on
    which the opponent would win at once must be taken (action = cell; the
    opponent's stone is tried by flipping ``TO_MOVE``), unless the mover wins
    at once; two such cells lose in two plies."""
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
            stats[AB_NODES] += 1
            if stats[AB_NODES] > max_nodes:
                stats[AB_ABORTED] = 1
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
            win_at = winning_move(S, h, t, moves, n, mover)  # the best there is: played first
            if win_at < 0 and threats >= 0 and s[threats] != 0:
                blocks = opponent_wins(S, h, t, moves, n, cells, mover)
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


# the game's kernels and the df-pn's pruning (numba reads globals when it compiles, after this module
# has run); hexarena.search.loops.compiled binds them by replacing the next line
legal = apply = prune = prune_work = None
