"""A plain memoised minimax for Hex Pushpin, compiled with numba, fast enough
to reach the start of the base-3 board (tests/search/test_solve.py, docs/solving.md).

Like :mod:`tests.solve_reference` it shares nothing with
:mod:`hexarena.search.alphabeta`: no symmetry, no Zobrist hashing, no
alpha-beta window, no move ordering.  It walks the game's own ``legal`` and
``apply`` kernels depth first on an explicit stack (numba cannot cache a
recursive function) and remembers every position it has valued, in one of
two tables:

- hashed: open addressing (linear probing) over 64-bit words.  A position's
  key is its content verbatim: two bits per cell (empty, first, second, the
  pin), the passes in a row and the player to move; a word is that key
  shifted left by 8 bits with the position's score in the low byte.
- direct (outcomes only): a slot of 2 bits for every position the rules
  allow, numbered by its content: the pin's cell among the 7 inner cells,
  the other 18 cells in base 3, the passes in a row, the player to move
  (7 * 3^18 * 4 slots, 2.7 GB for base 3).  No key to compare, no probing,
  and it never fills up: the search from the start needs it (1.12 billion
  positions, more than a hashed table of 8 GiB holds).

Scores are for the player to move.  ``lengths=False`` (the outcome pass)
scores 1 / 0 / -1 for win / draw / loss and stops looking at a position's
moves once one wins (nothing beats a win, so the value is the same).
``lengths=True`` also finds the game's length: a win ``d`` plies from the
position scores ``WIN - d``, a loss ``-(WIN - d)``, a draw 0 (its length is
not kept), and every move is looked at; the winner takes the fastest win,
the loser the slowest loss.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numba
import numpy as np

from hexarena.games.base import DRAW, TO_MOVE, WINNER
from hexarena.games.hex_pushpin import BOARD, PASSES, PIN, apply, legal

WIN = 100  # a win d plies away scores WIN - d
MAX_DEPTH = 128  # plies below the root: every move but a pass adds a stone, and two passes end the game
NOTHING = -1000  # ``read``'s answer for a position not in the table
FULL = -1001  # ``search``'s answer when the table is (15/16) full
OFF_THE_RULES = -1002  # ``search``'s answer for a pin on the rim (the direct table has no slot for it)
TOO_DEEP = -1003  # ``search``'s answer for a line of play longer than MAX_DEPTH


class Result(NamedTuple):
    """One search's answer and cost."""

    score: int  # for the player to move (module docstring)
    positions: int  # positions valued and stored by this search
    nodes: int  # positions reached by a move (stored ones looked up again included)
    seconds: float


@numba.njit(cache=True)
def position_key(s, ncells):
    """The position verbatim: the cells' entries (0..3) two bits each, then the passes
    in a row (0 or 1 before the game ends: two bits) and the player to move."""
    key = np.int64(0)
    for c in range(ncells):
        key = (key << 2) | s[BOARD + c]
    key = (key << 2) | s[PASSES]
    return (key << 1) | s[TO_MOVE]


@numba.njit(cache=True)
def position_index(s, ncells, pin_number):
    """The position's own number in the direct table: the pin's cell (its
    number among the cells it may stand on, ``pin_number``), the other cells
    in base 3, the passes in a row (0 or 1) and the player to move; -1 for a
    pin off those cells."""
    pin = s[PIN]
    index = np.int64(pin_number[pin])
    if index < 0:
        return np.int64(-1)
    for c in range(ncells):
        if c != pin:
            index = index * 3 + s[BOARD + c]
    return (index * 2 + s[PASSES]) * 2 + s[TO_MOVE]


@numba.njit(cache=True)
def hashed_slot(table, key):
    """The slot holding ``key`` in a hashed table, or the free slot where it
    would go (linear probing); -1 when every slot is taken."""
    mask = np.uint64(table.shape[0] - 1)
    i = (np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(20)
    for _ in range(table.shape[0]):
        i &= mask
        word = table[i]
        if word == 0 or (word >> 8) == key:  # no key is 0: the pin is always on the board
            return np.int64(i)
        i += np.uint64(1)
    return np.int64(-1)


@numba.njit(cache=True)
def find(table, s, ncells, direct, pin_number):
    """Where ``s`` is (or goes) in the table: a slot of the hashed table (64-bit
    words), or an index of the direct one (2 bits each); -1 if it has none."""
    if direct:
        return position_index(s, ncells, pin_number)
    return hashed_slot(table, position_key(s, ncells))


@numba.njit(cache=True)
def read(table, slot, direct):
    """The score stored at ``slot``, or NOTHING."""
    if direct:
        code = (table[slot >> 2] >> ((slot & 3) * 2)) & 3
        return NOTHING if code == 0 else np.int64(code) - 2
    word = table[slot]
    return NOTHING if word == 0 else (word & 255) - 128


@numba.njit(cache=True)
def write(table, slot, s, ncells, score, direct):
    """Store ``s``'s score at ``slot`` (the direct table keeps outcomes only: -1, 0, 1).
    A hashed table's slot is looked up again: the free slot ``find`` gave before
    the position's moves were searched may have been taken since by another."""
    if direct:
        shift = (slot & 3) * 2
        table[slot >> 2] |= (score + 2) << shift
    else:
        key = position_key(s, ncells)
        table[hashed_slot(table, key)] = (key << 8) | (score + 128)


@numba.njit(cache=True)
def terminal_score(s, mover, lengths):
    """A finished game's score for ``mover``, who made the last move (one ply)."""
    if s[WINNER] == DRAW:
        return 0
    won = s[WINNER] == mover
    if not lengths:
        return 1 if won else -1
    return WIN - 1 if won else -(WIN - 1)


@numba.njit(cache=True)
def seen_from_parent(score, same_mover, lengths):
    """A child's score (for its player to move) for the player who moved to it."""
    if not same_mover:
        score = -score
    if lengths and score != 0:  # one ply further from the end
        score += -1 if score > 0 else 1
    return score


@numba.njit(cache=True)
def search(root, t, table, direct, pin_number, lengths, counts):
    """The score of ``root`` (a game not over) for its player to move, or FULL
    (a hashed table 15/16 full: linear probing slows down past that),
    OFF_THE_RULES or TOO_DEEP.  ``counts`` gains [positions stored, nodes]; counts[2] is
    the table's positions in use, kept across searches."""
    n = t.ncells
    limit = table.shape[0] - (table.shape[0] >> 4) if not direct else 1 << 62
    states = np.empty((MAX_DEPTH + 1, root.shape[0]), dtype=np.int32)
    moves = np.empty((MAX_DEPTH + 1, n * t.width + 1), dtype=np.int32)
    count = np.empty(MAX_DEPTH + 1, dtype=np.int64)
    next_move = np.empty(MAX_DEPTH + 1, dtype=np.int64)
    best = np.empty(MAX_DEPTH + 1, dtype=np.int64)
    slots = np.empty(MAX_DEPTH + 1, dtype=np.int64)
    win = 1 if not lengths else WIN - 1  # nothing scores higher
    states[0] = root
    slot = find(table, root, n, direct, pin_number)
    if slot < 0:
        return FULL if not direct else OFF_THE_RULES
    if read(table, slot, direct) != NOTHING:
        return read(table, slot, direct)
    depth = 0
    slots[0] = slot
    count[0] = legal(states[0], t, moves[0])
    next_move[0] = 0
    best[0] = -(WIN + 1)
    while True:
        s = states[depth]
        if next_move[depth] < count[depth] and (lengths or best[depth] < win):
            a = moves[depth, next_move[depth]]
            next_move[depth] += 1
            child = states[depth + 1]
            child[:] = s
            apply(child, t, a)
            counts[1] += 1
            if child[WINNER] >= 0:
                best[depth] = max(best[depth], terminal_score(child, s[TO_MOVE], lengths))
                continue
            slot = find(table, child, n, direct, pin_number)
            if slot < 0:
                return FULL if not direct else OFF_THE_RULES
            v = read(table, slot, direct)
            if v != NOTHING:
                best[depth] = max(best[depth], seen_from_parent(v, child[TO_MOVE] == s[TO_MOVE], lengths))
                continue
            if depth + 1 == MAX_DEPTH:
                return TOO_DEEP
            depth += 1
            slots[depth] = slot
            count[depth] = legal(child, t, moves[depth])
            next_move[depth] = 0
            best[depth] = -(WIN + 1)
            continue
        # every move looked at (or a win found): store and report to the parent
        write(table, slots[depth], s, n, best[depth], direct)
        counts[0] += 1
        counts[2] += 1
        if counts[2] > limit:
            return FULL
        if depth == 0:
            return best[0]
        v = seen_from_parent(best[depth], s[TO_MOVE] == states[depth - 1][TO_MOVE], lengths)
        depth -= 1
        best[depth] = max(best[depth], v)


class FastReference:
    """The plain minimax over one Hex Pushpin game, its tables kept between searches.

    ``table_bits`` sizes the hashed tables (2^B words of 8 bytes), one for
    outcomes and one for lengths.  ``direct=True`` keeps outcomes instead in a
    table with a slot for every position the rules allow (2 bits each; 2.7 GB
    for base 3): it never fills up, so it serves a search from the start.
    """

    def __init__(self, game, table_bits: int = 24, direct: bool = False) -> None:
        if game.name != "hex-pushpin":
            raise ValueError(f"FastReference plays hex-pushpin, not {game.name!r}")
        if not 10 <= table_bits <= 34:
            raise ValueError(f"table_bits must be between 10 and 34, not {table_bits}")
        self.game = game
        self.table_bits = table_bits
        self.direct = direct
        t = game.tables
        inner = np.flatnonzero(~t.edge)  # the cells the pin may stand on
        self.pin_number = np.full(t.ncells, -1, dtype=np.int64)
        self.pin_number[inner] = np.arange(len(inner))
        self.direct_slots = len(inner) * 3 ** (t.ncells - 1) * 4
        if direct and self.direct_slots > 1 << 36:
            raise ValueError(f"a direct table for {t.ncells} cells would take {self.direct_slots // 4:,} bytes; "
                             "use the hashed one (direct=False)")
        self.tables: dict[bool, np.ndarray] = {}
        self.counts = {False: np.zeros(3, dtype=np.int64), True: np.zeros(3, dtype=np.int64)}

    def table(self, lengths: bool) -> np.ndarray:
        """The table of one pass (outcomes and lengths are kept apart)."""
        if lengths not in self.tables:
            if self.direct and not lengths:
                self.tables[lengths] = np.zeros((self.direct_slots + 3) // 4, dtype=np.uint8)
            else:
                self.tables[lengths] = np.zeros(1 << self.table_bits, dtype=np.int64)
        return self.tables[lengths]

    def score(self, s: np.ndarray, lengths: bool = False) -> Result:
        """The position's score for its player to move (module docstring)."""
        if s[WINNER] >= 0:
            raise ValueError("the game is over: nothing to search")
        counts = self.counts[lengths]
        before = counts[:2].copy()
        begin = time.perf_counter()
        direct = self.direct and not lengths
        v = search(s, self.game.tables, self.table(lengths), direct, self.pin_number, lengths, counts)
        if v == FULL:
            raise MemoryError(f"the table of 2^{self.table_bits} slots is full ({counts[2]:,} positions)")
        if v in (OFF_THE_RULES, TOO_DEEP):
            broken = "the pin stands on the rim" if v == OFF_THE_RULES else f"a game longer than {MAX_DEPTH} plies"
            raise AssertionError(f"{broken}: the kernels broke the rules")
        stored, nodes = counts[:2] - before
        return Result(int(v), int(stored), int(nodes), time.perf_counter() - begin)

    def value(self, s: np.ndarray, lengths: bool = False) -> tuple[int, int | None]:
        """(1 / 0 / -1 for the player to move, plies to the end or None), as
        :meth:`tests.solve_reference.Reference.perfect` gives them (None: no lengths, or a draw)."""
        v = self.score(s, lengths).score
        if not lengths:
            return v, None
        return (v > 0) - (v < 0), (WIN - abs(v) if v else None)

    def child_value(self, child: np.ndarray, mover: int, lengths: bool = False) -> tuple[int, int | None]:
        """A move's value for ``mover``, who made it: (1 / 0 / -1, plies to the end counting the move)."""
        if child[WINNER] >= 0:
            r = 0 if child[WINNER] == DRAW else 1 if child[WINNER] == mover else -1
            return r, 1
        r, d = self.value(child, lengths)
        if child[TO_MOVE] != mover:
            r = -r
        return r, (d + 1 if d is not None else None)

    def positions(self, lengths: bool = False) -> int:
        """How many positions the pass's table holds."""
        return int(self.counts[lengths][2])

    def nodes(self, lengths: bool = False) -> int:
        """How many moves the pass's searches have made (positions reached, again or not)."""
        return int(self.counts[lengths][1])
