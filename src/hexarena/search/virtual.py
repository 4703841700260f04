"""Virtual connections on the projective plane, with seam parity, for the df-pn's pruning.

A colour's stones make groups; within a group every stone has a parity (the
number of seams crossed, mod 2, on a path from the group's root), the same
on every path since a group with an odd cycle has already won.  An empty
cell ``y`` next to stones of the colour offers *ports* (root, parity of the
path from the root through the stone into ``y``); two ports of ``y`` make a
one-cell connection between their groups with the parity of the path
through ``y``.  A winning loop is a cycle of groups and connections whose
parities add up to odd (a cycle that crosses the seams an odd number of
times: Projective Hex's global loop).

- A *virtual connection* (VC): two different empty cells that each make the
  same connection (the same two groups, the same parity).  Whichever the
  opponent takes, the colour takes the other.
- A *virtual win*: an odd cycle of groups through VCs with pairwise disjoint
  carriers (their cells).  It is a second-player strategy: the colour makes
  a loop whatever the opponent plays, answering each intrusion in a carrier
  with the other cell.  So the opponent of a colour with a virtual win has
  lost, and the colour itself, to move, has won.
- A *threat* (semi-connection win): one empty cell, the key, that closes an
  odd cycle with VCs of disjoint carriers (the key may be one of their
  cells).  A colour to move with a threat wins; its opponent, to move, must
  play in the threat's carrier (the key and the VCs' cells), else the colour
  plays the key and has a virtual win.  So the opponent's moves are
  restricted to the intersection of its threats' carriers, and an empty
  intersection loses (two disjoint threats).

Both colours' loops cannot coexist (two one-sided curves of the projective
plane always cross, and on sizes 2 to 4 the cells' neighbours make rings, so
crossing means sharing a cell): a stone only ever helps its own colour, as
in Hex, which is what makes these strategies sound.  The VCs are chosen
greedily (a VC whose cells are free joins two components of the VC forest),
so a virtual win or threat may be missed, never invented; each threat's
carrier is its key and the VCs on the forest path it closes.  The tests
check every claim against the plain minimax.
"""

from __future__ import annotations

import numpy as np

from ..kernels import njit
from .loops import MOVER_LOSES, MOVER_WINS

VIRTUAL_WIN = -1  # :func:`analyse`'s answer for a virtual win


@njit
def groups(board, colour, nbr, seam, root, par, stack):
    """Fill ``root`` (the group's first cell, -1 off ``colour``) and ``par``
    (parity of a path from the root) for every cell of ``board``."""
    n = board.shape[0]
    root[:] = -1
    for c in range(n):
        if board[c] != colour or root[c] >= 0:
            continue
        root[c], par[c], top = c, 0, 0
        stack[0] = c
        top = 1
        while top > 0:
            top -= 1
            x = stack[top]
            for d in range(nbr.shape[1]):
                m = nbr[x, d]
                if m >= 0 and board[m] == colour and root[m] < 0:
                    root[m], par[m] = c, par[x] ^ seam[x, d]
                    stack[top] = m
                    top += 1


@njit
def offers(board, nbr, seam, root, par, out):
    """The one-cell connections of the empty cells: rows (group a, group b,
    parity, cell) of ``out`` with a <= b; returns how many.  A cell whose
    two ports reach one group with both parities offers (a, a, 1): it closes
    a loop at once."""
    n = board.shape[0]
    k = 0
    pr = np.empty(12, dtype=np.int64)
    pp = np.empty(12, dtype=np.int64)
    for y in range(n):
        if board[y] != 0:
            continue
        m_ports = 0
        for d in range(nbr.shape[1]):
            m = nbr[y, d]
            if m < 0 or root[m] < 0:
                continue
            r, p = root[m], par[m] ^ seam[y, d]
            dup = False
            for i in range(m_ports):
                if pr[i] == r and pp[i] == p:
                    dup = True
            if not dup:
                pr[m_ports], pp[m_ports] = r, p
                m_ports += 1
        for i in range(m_ports):
            for j in range(i + 1, m_ports):
                a, b, p = min(pr[i], pr[j]), max(pr[i], pr[j]), pp[i] ^ pp[j]
                if a == b and p == 0:
                    continue
                out[k, 0], out[k, 1], out[k, 2], out[k, 3] = a, b, p, y
                k += 1
    return k


@njit
def find(vroot, vpar, x):
    """(component of group ``x`` in the VC forest, parity from it)."""
    p = 0
    while vroot[x] != x:
        p ^= vpar[x]
        x = vroot[x]
    return x, p


@njit
def path_cells(edges, m, a, b, carrier, seen, queue, via):
    """Mark in ``carrier`` the cells of the VCs on the forest path from group
    ``a`` to group ``b`` (``edges[:m]``: a, b, parity, cell, cell)."""
    if a == b:
        return
    seen[:] = False
    seen[a], queue[0], head, tail = True, a, 0, 1
    while head < tail and not seen[b]:
        x = queue[head]
        head += 1
        for e in range(m):
            for side in range(2):
                if edges[e, side] == x and not seen[edges[e, 1 - side]]:
                    y = edges[e, 1 - side]
                    seen[y], via[y] = True, e
                    queue[tail] = y
                    tail += 1
    x = b
    while x != a:
        e = via[x]
        carrier[edges[e, 3]] = True
        carrier[edges[e, 4]] = True
        x = edges[e, 0] if edges[e, 1] == x else edges[e, 1]


@njit
def make_work(n):
    """Scratch arrays for :func:`analyse` on ``n`` cells."""
    return (np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
            np.empty((15 * n, 4), dtype=np.int64), np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64),
            np.empty((n, 5), dtype=np.int64), np.empty(n, dtype=np.bool_), np.empty(n, dtype=np.bool_),
            np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64))


@njit
def analyse(board, colour, nbr, seam, work, carrier, region):
    """``colour``'s virtual win or threats on ``board`` (its cells): VIRTUAL_WIN
    with its carrier marked in ``carrier``, else the number of threats found,
    with ``region`` the intersection of their carriers (every cell when there
    are none).  ``work``: scratch arrays from :func:`make_work`."""
    root, par, stack, offs, vroot, vpar, edges, used, seen, queue, via = work
    groups(board, colour, nbr, seam, root, par, stack)
    k = offers(board, nbr, seam, root, par, offs)
    n = board.shape[0]
    for c in range(n):
        vroot[c], vpar[c], used[c] = c, 0, False
    m = 0
    carrier[:] = False
    for i in range(k):  # VCs, greedily: two free cells making the same connection
        if used[offs[i, 3]]:
            continue
        for j in range(i + 1, k):
            if offs[j, 3] == offs[i, 3] or used[offs[j, 3]] or offs[j, 0] != offs[i, 0] \
                    or offs[j, 1] != offs[i, 1] or offs[j, 2] != offs[i, 2]:
                continue
            a, pa = find(vroot, vpar, offs[i, 0])
            b, pb = find(vroot, vpar, offs[i, 1])
            if a == b:
                if pa ^ pb ^ offs[i, 2] == 1:  # an odd cycle of VCs: a virtual win
                    path_cells(edges, m, offs[i, 0], offs[i, 1], carrier, seen, queue, via)
                    carrier[offs[i, 3]] = True
                    carrier[offs[j, 3]] = True
                    return VIRTUAL_WIN
                break
            vroot[a], vpar[a] = b, pa ^ pb ^ offs[i, 2]
            edges[m, 0], edges[m, 1], edges[m, 2], edges[m, 3], edges[m, 4] = \
                offs[i, 0], offs[i, 1], offs[i, 2], offs[i, 3], offs[j, 3]
            used[offs[i, 3]] = True
            used[offs[j, 3]] = True
            m += 1
            break
    region[:] = True
    threats = 0
    for i in range(k):  # threats: one cell closing an odd cycle of the forest
        a, pa = find(vroot, vpar, offs[i, 0])
        b, pb = find(vroot, vpar, offs[i, 1])
        if a != b or pa ^ pb ^ offs[i, 2] != 1:
            continue
        carrier[:] = False
        path_cells(edges, m, offs[i, 0], offs[i, 1], carrier, seen, queue, via)
        carrier[offs[i, 3]] = True
        for c in range(n):
            region[c] = region[c] and carrier[c]
        threats += 1
    return threats


def virtual_analysis(game, s: np.ndarray, colour: int) -> tuple[int, set[int], set[int]]:
    """(:func:`analyse`'s answer, the virtual win's carrier, the threats' region)
    for ``colour`` (1 black, 2 white) in the Projective Hex position ``s``."""
    n = game.topology.ncells
    board = np.ascontiguousarray(game.stones(s))
    carrier, region = np.zeros(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_)
    found = analyse(board, colour, game.tables.nbr, game.tables.seam, make_work(n), carrier, region)
    return int(found), set(np.flatnonzero(carrier).tolist()), set(np.flatnonzero(region).tolist())


@njit
def virtual_moves(board, colour0, mover, nbr, seam, moves, n, work, carrier, region):
    """Keep the moves of ``moves[:n]`` that the virtual connections leave
    (those in every carrier of the opponent's threats) and return their
    count; or MOVER_WINS (the mover has a virtual win or a threat), or
    MOVER_LOSES (the opponent has a virtual win, or threats whose carriers
    leave no move).  ``colour0`` is the first player's colour; a list with a
    move that is not a placement (swap, a colour choice) is left as it is."""
    cells = board.shape[0]
    for i in range(n):
        if moves[i] >= cells:
            return n
    mine = colour0 if mover == 0 else 3 - colour0
    if analyse(board, mine, nbr, seam, work, carrier, region) != 0:
        return MOVER_WINS
    found = analyse(board, 3 - mine, nbr, seam, work, carrier, region)
    if found == VIRTUAL_WIN:
        return MOVER_LOSES
    if found == 0:
        return n
    m = 0
    for i in range(n):
        if region[moves[i]]:
            moves[m] = moves[i]
            m += 1
    return m if m > 0 else MOVER_LOSES
