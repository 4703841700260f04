"""Lhexus's rules as numba kernels: the position's layout, the kernels'
tables, ``legal``, ``apply``, the scoring at the end and the playout policy
(the game's facade is :mod:`hexarena.games.lhexus`).

The kernels keep a union-find over the stones of earlier turns only: this
turn's stones wait in a list (``WHEN == TURN``) and join their groups when
the turn ends, so a root is a start-of-turn group all turn long, and
``GROWN[root] == TURN`` says it has grown this turn.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..kernels import hot, inline, njit, note
from .base import DRAW, HEADER, PLY, STEP, TO_MOVE, TURN, WINNER
from .position import write_cells, zobrist
from .lhexus_scoring import greedy_packing, owned_by_colour, pack

# state layout after the shared header
COLOUR0 = HEADER  # player 0's colour: 0 until the second player chooses, then BLACK or WHITE
PASSES = HEADER + 1  # successive passes
TCOUNT = HEADER + 2  # stones placed this turn
STONES = HEADER + 3  # stones on the board: STONES + colour - 1 for BLACK, WHITE
GROUPS = HEADER + 5  # groups on the board as the last turn ended: GROUPS + colour - 1
BOARD = HEADER + 7  # n + 1 colours (the last, OFF, stands for "off the board"), then the Tables' offsets

BLACK, WHITE, OFF = 1, 2, 3
# a cell for the mover, as classify() says
GROWTH, NEW_GROUP, REGROWS, ONLY_NEW, OCCUPIED = 1, 2, -1, -2, -3


class Tables(NamedTuple):
    """What the kernels read besides the position (``game.tables``)."""

    links: np.ndarray  # int32[n, 6]: the neighbour in each direction, or n (the OFF entry) off the board
    configs: np.ndarray  # int32[K, 6]: the cells of every configuration (lhexus_scoring.configurations)
    ncells: int
    par: int  # offsets in the position, n entries each after the colours: the root of the stone's group
    # (its own cell for a stone of this turn)
    when: int  # the turn a stone was placed
    grown: int  # per root: the turn its group last grew
    size: int  # per root: its group's stones
    tlist: int  # this turn's stones, in the order placed
    nxt: int  # the next stone of the stone's group (a cycle through each group's stones)


@njit
def mover_colour(s):
    """The colour the player to move places: White on turn 1, then his own."""
    if s[TURN] == 1:
        return WHITE
    return s[COLOUR0] if s[TO_MOVE] == 0 else 3 - s[COLOUR0]


@inline
def classify(s, t, c, colour):
    """What a stone of ``colour`` on c would be: GROWTH, NEW_GROUP, REGROWS
    (it touches a start-of-turn group that grew this turn), ONLY_NEW (it
    touches only this turn's stones) or OCCUPIED."""
    if s[BOARD + c] != 0:
        return OCCUPIED
    links, par, when, grown = t.links, t.par, t.when, t.grown
    own, start = False, False
    for d in range(6):
        m = links[c, d]
        if s[BOARD + m] == colour:
            own = True
            if s[when + m] != s[TURN]:
                start = True
                if s[grown + s[par + m]] == s[TURN]:
                    return REGROWS
    if not own:
        return NEW_GROUP
    return GROWTH if start else ONLY_NEW


@njit
def final_scores(s, t):
    """(black's score, white's score): maximum disjoint configurations."""
    n = t.ncells
    out = np.empty(n // 6 + 1, dtype=np.int32)
    black, white = owned_by_colour(s[BOARD: BOARD + n], t.configs, BLACK, WHITE)
    return pack(black, t.configs, n, out), pack(white, t.configs, n, out)


@njit
def _result(s, t):
    """(black's, white's) values whose order decides the game: their scores,
    except when a greedy packing of the player with more stones already
    beats the other's exact score (then that packing's size stands for his
    score: lopsided boards, whose exact packing can be slow)."""
    n = t.ncells
    out = np.empty(n // 6 + 1, dtype=np.int32)
    dense = BLACK if s[STONES] >= s[STONES + 1] else WHITE
    mine, theirs = owned_by_colour(s[BOARD: BOARD + n], t.configs, dense, 3 - dense)
    other = pack(theirs, t.configs, n, out)
    best = greedy_packing(mine, t.configs, n)
    if best <= other:
        best = pack(mine, t.configs, n, out)
    return (best, other) if dense == BLACK else (other, best)


@njit
def _finish(s, t):
    """End the game: higher score, then fewer stones, else a draw."""
    b, w = _result(s, t)
    if b == w:
        b, w = s[STONES + 1], s[STONES]  # fewer stones wins: compare the other's count
    s[TO_MOVE] = -1
    if b == w:
        s[WINNER] = DRAW
    else:
        best = BLACK if b > w else WHITE
        s[WINNER] = 0 if s[COLOUR0] == best else 1


@hot
def _commit_turn(s, t):
    """Join this turn's stones to their groups (counting the groups) and
    pass the move on."""
    links, par, size, tlist, nxt = t.links, t.par, t.size, t.tlist, t.nxt
    for i in range(s[TCOUNT]):
        c = s[tlist + i]
        colour = s[BOARD + c]
        s[GROUPS + colour - 1] += 1
        for d in range(6):
            m = links[c, d]
            if s[BOARD + m] == colour:
                a, b = s[par + c], s[par + m]
                if a != b:
                    if s[size + a] < s[size + b]:
                        a, b = b, a
                    x = b  # the smaller group's stones take the larger's root
                    while True:
                        s[par + x] = a
                        x = s[nxt + x]
                        if x == b:
                            break
                    s[GROUPS + colour - 1] -= 1
                    s[size + a] += s[size + b]
                    s[nxt + a], s[nxt + b] = s[nxt + b], s[nxt + a]  # the two cycles become one
    s[PASSES] = 0 if s[TCOUNT] else s[PASSES] + 1
    s[TCOUNT] = 0
    s[TURN] += 1
    s[STEP] = 0
    s[TO_MOVE] = 1 - s[TO_MOVE]


@hot
def _place(s, t, c, colour, kind):
    """Put a stone of ``colour`` on c; a growth stone marks the start-of-turn
    groups it touches as grown.  Returns how many groups it grew."""
    links, par, when, grown, size, tlist, nxt = t.links, t.par, t.when, t.grown, t.size, t.tlist, t.nxt
    count = 0
    if kind == GROWTH:
        for d in range(6):
            m = links[c, d]
            if s[BOARD + m] == colour and s[when + m] != s[TURN]:
                r = s[par + m]
                if s[grown + r] != s[TURN]:
                    s[grown + r] = s[TURN]
                    count += 1
    s[BOARD + c] = colour
    s[par + c] = c
    s[when + c] = s[TURN]
    s[size + c] = 1
    s[nxt + c] = c
    s[tlist + s[TCOUNT]] = c
    s[TCOUNT] += 1
    s[STONES + colour - 1] += 1
    s[STEP] += 1
    return count


@hot
def legal(s, t, out):
    n = t.ncells
    if s[WINNER] >= 0:
        return 0
    if s[TURN] == 2:
        out[0], out[1] = n + 1, n + 2  # accept, decline
        return 2
    colour = mover_colour(s)
    k = 0
    for c in range(n):
        kind = classify(s, t, c, colour)
        if kind == GROWTH or kind == NEW_GROUP:  # on turn 1, every cell: the board is empty
            out[k] = c
            k += 1
    if s[TURN] > 2:
        out[k] = n  # end (at once: a pass)
        k += 1
    return k


@hot
def is_legal(s, t, a):
    """``a in legal(s)`` without listing the legal moves."""
    n = t.ncells
    if s[TURN] == 2:
        return a == n + 1 or a == n + 2
    if a >= n:
        return a == n and s[TURN] > 2
    kind = classify(s, t, a, mover_colour(s))
    return kind == GROWTH or kind == NEW_GROUP


@hot
def search_moves(s, t, out):
    """The moves MCTS expands: while a growth stone is possible, the growth
    stones and ``end`` only (a new-group stone ends the turn, so it waits
    until the groups have grown; -count says moves were left out), else the
    legal moves."""
    n = t.ncells
    if s[WINNER] >= 0 or s[TURN] <= 2:
        return legal(s, t, out)
    colour = mover_colour(s)
    k, new = 0, False
    for c in range(n):
        kind = classify(s, t, c, colour)
        if kind == GROWTH:
            out[k] = c
            k += 1
        new = new or kind == NEW_GROUP
    if k == 0:
        return legal(s, t, out)
    out[k] = n  # end
    return -(k + 1) if new else k + 1


@hot
def _step(s, t, a):
    """Play action a but for the scoring; True when it was the second pass
    in a row, so the game must be scored (allocates nothing)."""
    n = t.ncells
    s[PLY] += 1
    if s[TURN] == 2:  # accept: player 1 is White; decline: he is Black.  Black moves next.
        s[COLOUR0] = BLACK if a == n + 1 else WHITE
        s[TURN] += 1
        s[TO_MOVE] = 0 if s[COLOUR0] == BLACK else 1
        return False
    if a == n:  # end
        passed = s[STEP] == 0
        _commit_turn(s, t)
        return passed and s[PASSES] >= 2
    colour = mover_colour(s)
    kind = classify(s, t, a, colour)
    _place(s, t, a, colour, kind)
    if kind != GROWTH:  # a new group (or the opening stone) ends the turn
        _commit_turn(s, t)
    return False


@njit
def apply(s, t, a):
    if _step(s, t, a):
        _finish(s, t)


@njit
def playout(s, t):
    """Play to the end, in place, by the policy of :func:`recorded_playout`."""
    none = np.empty(0, dtype=np.int32)
    recorded_playout(s, t, none, none)


@inline
def _take(pool, where, k, c):
    """Remove c from the set ``pool[:k]`` (``where[c]`` its index there, -1
    when absent); returns the new k."""
    i = where[c]
    if i < 0:
        return k
    k -= 1
    last = pool[k]
    pool[i], where[last] = last, i
    where[c] = -1
    return k


@inline
def _add(pool, where, k, c):
    """Add c to the set ``pool[:k]`` unless there; returns the new k."""
    if where[c] >= 0:
        return k
    pool[k], where[c] = c, k
    return k + 1


@inline
def _below(k):
    """A random int in [0, k) (0 when k is 0); cheaper than np.random.randint."""
    return int(np.random.random() * k)


@inline
def _landed(s, links, c, colour, pool, where, k, front, fwhere, fk):
    """Book a stone of ``colour`` on c: it leaves the empty cells and both
    frontiers, and its empty neighbours join its colour's frontier."""
    k = _take(pool, where, k, c)
    for row in range(2):
        fk[row] = _take(front[row], fwhere[row], fk[row], c)
    row = colour - 1
    for d in range(6):
        m = links[c, d]
        if s[BOARD + m] == 0:
            fk[row] = _add(front[row], fwhere[row], fk[row], m)
    return k


@inline
def _policy_turn(s, t, pool, where, k, front, fwhere, fk, scratch, actions, movers, written):
    """One turn of the playout policy: every start-of-turn group of the
    mover grows by one stone (the first cell of its colour's frontier, taken
    from a random place in it, that is a growth stone), then a new group on
    a random empty cell where one may go (eight tries), else ``end``.
    Returns (empty cells left in ``pool``, written, whether the game must
    now be scored)."""
    n, links = t.ncells, t.links
    mover, colour = s[TO_MOVE], mover_colour(s)
    row = colour - 1
    count = fk[row]
    for i in range(count):
        scratch[i] = front[row, i]
    i = _below(count)
    ungrown = s[GROUPS + row]
    for _ in range(count if ungrown else 0):
        c = scratch[i]
        i = i + 1 if i + 1 < count else 0
        if classify(s, t, c, colour) == GROWTH:
            ungrown -= _place(s, t, c, colour, GROWTH)
            s[PLY] += 1
            written = note(actions, movers, written, c, mover)
            k = _landed(s, links, c, colour, pool, where, k, front, fwhere, fk)
            if ungrown == 0:
                break
    a = n  # 'end' (a pass if nothing was placed), unless a new group ends the turn
    for _ in range(8 if k else 0):
        c = pool[_below(k)]
        if fwhere[row, c] < 0:  # an empty cell off the mover's frontier: a new group may go there
            a = c
            k = _landed(s, links, c, colour, pool, where, k, front, fwhere, fk)
            break
    written = note(actions, movers, written, a, mover)
    return k, written, _step(s, t, a)


@hot
def _policy_turns(s, t, pool, where, k, front, fwhere, fk, scratch, actions, movers):
    """The playout's moves up to the game's scoring (allocates nothing):
    a random opening stone and choice, then :func:`_policy_turn` until both
    pass; returns the number of moves written."""
    n, links = t.ncells, t.links
    written, over = 0, False
    while not over:
        if s[TURN] <= 2:
            a = pool[_below(k)] if s[TURN] == 1 else n + 1 + _below(2)
            if s[TURN] == 1:
                k = _landed(s, links, a, WHITE, pool, where, k, front, fwhere, fk)
            written = note(actions, movers, written, a, s[TO_MOVE])
            over = _step(s, t, a)
        else:
            k, written, over = _policy_turn(s, t, pool, where, k, front, fwhere, fk, scratch, actions, movers,
                                            written)
    return written


@njit
def recorded_playout(s, t, actions, movers):
    """Play to the end by the policy (:func:`_policy_turns`), writing each
    action and its mover into ``actions`` and ``movers`` while they have
    room; returns the number written."""
    n, links = t.ncells, t.links
    if s[WINNER] >= 0:
        return 0
    pool = np.empty(n, dtype=np.int32)
    where = np.full(n + 1, -1, dtype=np.int32)
    front = np.empty((2, n), dtype=np.int32)  # per colour: empty cells next to its stones
    fwhere = np.full((2, n + 1), -1, dtype=np.int32)
    fk = np.zeros(2, dtype=np.int32)
    scratch = np.empty(n, dtype=np.int32)
    k = np.int64(0)  # typed: a literal 0 would have numba compile _policy_turns for it too
    for c in range(n):
        if s[BOARD + c] == 0:
            k = _add(pool, where, k, c)
            for d in range(6):
                colour = s[BOARD + links[c, d]]
                if colour == BLACK or colour == WHITE:
                    fk[colour - 1] = _add(front[colour - 1], fwhere[colour - 1], fk[colour - 1], c)
    written = _policy_turns(s, t, pool, where, k, front, fwhere, fk, scratch, actions, movers)
    _finish(s, t)
    return written


@njit
def identity(s, t, out, zcell, zfield):
    """What identifies the position (:mod:`hexarena.games.position`): the player to move, the winner,
    player 0's colour (0 before the choice), the passes in a row; per stone its colour, plus 2 if it was
    placed this turn (the groups it grew follow from them)."""
    out[0] = 4
    out[1], out[2], out[3], out[4] = s[TO_MOVE], s[WINNER], s[COLOUR0], s[PASSES]
    k = write_cells(s, BOARD, t.ncells, out, 5, t.when, s[TURN])
    return k, zobrist(out, k, zcell, zfield)
