"""df-pn for Projective Hex with virtual connections (:mod:`hexarena.solver.virtual`).

The search of :mod:`hexarena.analysis.solve_dfpn` (same table, keys,
thresholds and statistics; its docstring says how it works) with one change
where a node is expanded, once the colours are settled: instead of the
one-move forced blocks, the virtual connections decide.  A mover with a
virtual win or a threat has won, a mover facing the opponent's virtual win
has lost, and a mover facing the opponent's threats plays only inside the
intersection of their carriers (none left: lost); then dead cells are
dropped as before.  The forced blocks are the one-cell case of the threats.

The search loop is a copy of ``make_dfpn``'s with that step changed, since
that module has no hook for a game's own pruning.  It calls Projective
Hex's kernels as globals (not passed in, as ``make_dfpn`` takes them), so
numba caches it on disk: a new process loads it in about a second instead of
compiling for half a minute (the AI's proven moves, :mod:`hexarena.ai.solutions`,
start it).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..ai.positions import PositionKeys, canonical_key
from ..analysis.solve_dfpn import (
    ABORTED,
    EXPANDED,
    INF,
    NODES,
    SALT,
    DfpnSolver,
    capped_sum,
    drop_dead_cells,
    find,
    settled,
    store,
)
from ..analysis.solve_search import ply_stacks
from ..games.base import DRAW, Game
from ..games.projective_hex import apply, legal
from ..kernels import TO_MOVE, WINNER, njit
from .virtual import MOVER_WINS, make_work, virtual_moves


@njit  # (nogil: an AI's proven move searches beside a server's requests)
def vc_dfpn(root, t, attacker, keys, table, max_nodes, max_ply, stats, threats, rings):
    """``make_dfpn``'s search (same arguments) with the virtual connections' pruning."""
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
    ENTER, LOOP, EXIT = 0, 1, 2
    work = make_work(cells)
    carrier = np.zeros(cells, dtype=np.bool_)
    region = np.zeros(cells, dtype=np.bool_)

    thpn[0], thdn[0] = INF, INF
    h, state, pn, dn = 0, ENTER, 1, 1
    while True:
        if state == ENTER:
            stats[NODES] += 1
            if stats[NODES] > max_nodes:
                stats[ABORTED] = 1
                return 0
            entered[h] = stats[NODES]
            s = S[h]
            mover = s[TO_MOVE]
            k = canonical_key(s, offset, cells, fields, perms, zcell, zfield)[0]
            key[h] = k ^ salt
            slot = find(table, key[h])
            if slot >= 0 and (table[1][slot] >= thpn[h] or table[2][slot] >= thdn[h]):
                state = EXIT
                pn, dn = table[1][slot], table[2][slot]
                entered[h] = stats[NODES]  # nothing spent here
                continue
            stats[EXPANDED] += 1
            n = legal(s, t, moves[h])
            won = False
            for i in range(n):
                S[h + 1, :] = s
                apply(S[h + 1], t, moves[h, i])
                if S[h + 1, WINNER] == mover:
                    won = True
                    break
            if won:
                pn, dn = settled(mover == attacker)
                state = EXIT
                continue
            if s[threats] != 0:  # colours settled: the virtual connections' verdict, then dead cells
                n = virtual_moves(s[offset:offset + cells], s[threats], mover, t.nbr, t.seam, moves[h], n,
                                  work, carrier, region)
                if n < 0:
                    pn, dn = settled((n == MOVER_WINS) == (mover == attacker))
                    state = EXIT
                    continue
                if rings.shape[0] > 0:
                    n = drop_dead_cells(s, offset, rings, moves[h], n)
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
            phi, delta = INF, 0  # phi: min side (pn at OR), delta: sum side
            best, phi2 = -1, INF
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
            c_delta = min(tdelta - delta + b_delta, INF)
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


class VcDfpn(DfpnSolver):
    """:class:`hexarena.analysis.solve_dfpn.DfpnSolver` for Projective Hex with
    the virtual connections' pruning."""

    def __init__(self, game: Game, table_bits: int = 22, keys: PositionKeys | None = None,
                 dead_cells: bool = True) -> None:
        if game.name != "projective-hex":
            raise ValueError(f"virtual connections are Projective Hex's, not {game.name!r}'s")
        if (game.dead_cell_rings()[:, 0] < 0).any():  # the strategies' soundness rests on it (solver.virtual)
            raise ValueError("virtual connections need every cell's neighbours to make a ring (sizes 2 to 4)")
        super().__init__(game, table_bits, keys, dead_cells)

    def _search(self, game: Game) -> Callable:
        return vc_dfpn  # one compiled search for every size (the kernels are globals: numba caches it)
