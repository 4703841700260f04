"""Depth-first proof-number search (df-pn, Nagai 2002) for ``hexarena solve``.

The search proves or disproves "``attacker`` wins" from a position.  Every
node has a *proof number* (pn: how many leaves at least must still be proven
for the attacker to win) and a *disproof number* (dn: the same for the
attacker not winning).  At a node where the attacker moves (an OR node)
pn = min over the children's pn and dn = sum of their dn; where the other
player moves (an AND node) the other way round.  A proven node has pn = 0,
dn = INF; a disproven one pn = INF, dn = 0.  Fixing the attacker, rather
than negating at each ply, lets a turn of several steps (a colour-choice
opening's three stones) and draws need nothing special: a draw is "the
attacker does not win"; :meth:`DfpnSolver.value` asks again with the other
player as attacker to tell a draw from a loss (in a game that can draw).

df-pn searches the most-proving child with thresholds: a node is searched
until its pn or dn reaches the thresholds its parent gave it, which is when
the parent's choice of child would change.  The child's pn threshold is
``min(parent's, (1 + 1/4) * second-best + 1)`` (the "1 + epsilon" trick of
Pawlewicz and Lew, which saves re-entering the same two children in turn).
It runs on explicit stacks (one row per ply), not recursion.  The loop is
``dfpn`` in ``template.py``, specialised to a game's kernels and pruning
(:func:`hexarena.search.loops.compiled`) so that numba caches it; its table
and helpers live here.

Transposition table: buckets of four slots keyed by the symmetry-canonical
Zobrist keys of :mod:`hexarena.search.positions` (salted by the attacker), each
slot with pn, dn and the nodes spent below it; a new entry replaces the
bucket's slot with the least work.  A node's children are read from the
table each time round, falling back on the numbers last seen for them on
the stack (so a node in search keeps what its children told it even when
the table lost them); a lost entry is only work to redo: a proof is only
ever stored for a node whose children proved it.
The solvable games (``Game.SOLVABLE``) are acyclic, so a position's value
never depends on the path to it.

Domain knowledge (where the game's ``THREAT_FIELD`` is set: a stone only
helps its owner's win), as in the alpha-beta search: a move that wins at
once proves the node; if the opponent would win at once on two cells the
node is lost; on one, that cell is the only move; dead cells
(``Game.dead_cell_rings``) are skipped.  A game may prune its own way
instead (Projective Hex's virtual connections, :mod:`hexarena.search.vc`).
Children that are the same position up to symmetry are searched once.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..games import GAMES, game_class
from ..games.base import Game
from ..kernels import TO_MOVE, njit
from .loops import compiled, max_plies, search_keys
from .positions import PositionKeys, key_spec

INF = (1 << 31) - 1  # a proof or disproof number of a settled node
BIG = INF - 1  # sums are capped here: large but not settled
BUCKET = 4  # table slots searched per key
SALT = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F))  # key ^ SALT[attacker]
# stats: nodes entered, aborted (1 when the node budget ran out), expansions (children generated)
NODES, ABORTED, EXPANDED = range(3)


class PnTable:
    """``2**bits`` slots of (key, pn, dn, work) in buckets of :data:`BUCKET`."""

    def __init__(self, bits: int) -> None:
        size = 1 << bits
        self.key = np.zeros(size, dtype=np.uint64)
        self.pn = np.ones(size, dtype=np.int32)
        self.dn = np.ones(size, dtype=np.int32)
        self.work = np.zeros(size, dtype=np.int64)

    def clear(self) -> None:
        self.key[:] = 0
        self.pn[:] = 1
        self.dn[:] = 1
        self.work[:] = 0

    @property
    def arrays(self) -> tuple:
        return self.key, self.pn, self.dn, self.work

    def used(self) -> int:
        return int(np.count_nonzero(self.key))


@njit
def bucket(table, k):
    """The first slot of key ``k``'s bucket."""
    return np.int64(k & np.uint64(table[0].shape[0] - BUCKET))


@njit
def find(table, k):
    """The slot holding key ``k``, or -1."""
    base = bucket(table, k)
    for j in range(base, base + BUCKET):
        if table[0][j] == k:
            return j
    return -1


@njit
def store(table, k, pn, dn, work):
    """Write (pn, dn) for ``k``, adding ``work`` to what the slot had spent;
    a new key takes an empty slot of its bucket, else the one with the least work."""
    tkey, tpn, tdn, twork = table
    slot = find(table, k)
    if slot < 0:
        base = bucket(table, k)
        slot = base
        for j in range(base, base + BUCKET):
            if tkey[j] == 0:
                slot = j
                break
            if twork[j] < twork[slot]:
                slot = j
        tkey[slot], twork[slot] = k, 0
    tpn[slot], tdn[slot] = min(pn, INF), min(dn, INF)
    twork[slot] += work


@njit
def settled(attacker_wins):
    """(pn, dn) of a node whose value is known."""
    return (0, INF) if attacker_wins else (INF, 0)


@njit
def capped_sum(a, b):
    """a + b for proof numbers: INF if either is, else at most BIG."""
    if a >= INF or b >= INF:
        return INF
    return min(a + b, BIG)


def solvable_games() -> tuple[str, ...]:
    """The games both searches solve (``Game.SOLVABLE``)."""
    return tuple(name for name in GAMES if game_class(name).SOLVABLE)


def check_solvable(game: Game) -> None:
    """ValueError naming the solvable games unless ``game`` is one."""
    if not game.SOLVABLE:
        raise ValueError(f"cannot solve {game.name!r}; solvable games: {', '.join(solvable_games())}")


@njit
def useless_for(board, ring, colour):
    """Whether a ``colour`` stone in the cell with this ``ring`` could never
    make a difference to ``colour``: the ring's ``colour`` stones make one
    run, and the other cells that could become ``colour`` (the empty ones)
    sit at its two ends; with no such stone, at most two neighbouring empty
    cells.  Then whatever is played later, every two ``colour`` neighbours
    of the cell are joined round the ring, with the same seam parity."""
    size = 0
    while size < 6 and ring[size] >= 0:
        size += 1
    own, open_ = 0, 0
    for i in range(size):
        v = board[ring[i]]
        own += v == colour
        open_ += v == 0
    if own == 0:
        if open_ <= 1:
            return True
        if open_ > 2:
            return False
        for i in range(size):  # two empty cells: next to each other?
            if board[ring[i]] == 0 and board[ring[(i + 1) % size]] == 0:
                return True
        return False
    first = -1  # where the run of own stones starts: an own stone after a cell that is not
    for i in range(size):
        if board[ring[i]] == colour and board[ring[(i - 1) % size]] != colour:
            if first >= 0:
                return False  # two runs
            first = i
    if first < 0:
        return True  # the whole ring is own stones
    before, after = ring[(first - 1) % size], ring[(first + own) % size]
    for i in range(size):
        c = ring[i]
        if board[c] == 0 and c != before and c != after:
            return False
    return True


@njit
def drop_dead_cells(s, board_at, rings, moves, n):
    """Keep the moves of ``moves[:n]`` that are not dead cells (cells where a
    stone of either colour could never matter: playing there is a pass, and
    a pass never does better than a move, since a stone only helps its own
    colour); the count kept, at least one."""
    cells = rings.shape[0]
    m = 0
    for i in range(n):
        a = moves[i]
        if a < cells and rings[a, 0] >= 0:
            board = s[board_at:board_at + cells]
            if useless_for(board, rings[a], 1) and useless_for(board, rings[a], 2):
                continue
        moves[m] = a
        m += 1
    return m if m > 0 else min(n, 1)


def dead_cells(game: Game, s: np.ndarray, rings: np.ndarray | None = None) -> list[int]:
    """The empty cells of position ``s`` where a stone of either colour could
    never matter (see :func:`useless_for`; ``rings``: ``game.dead_cell_rings()``)."""
    rings = game.dead_cell_rings() if rings is None else rings
    spec = key_spec(game)
    board = np.asarray(s[spec.offset:spec.offset + rings.shape[0]])
    return [c for c in range(rings.shape[0]) if board[c] == 0 and rings[c, 0] >= 0
            and useless_for(board, rings[c], 1) and useless_for(board, rings[c], 2)]


class DfpnSolver:
    """A game's keys, proof-number table and compiled df-pn, reused across searches."""

    def __init__(self, game: Game, table_bits: int = 22, keys: PositionKeys | None = None,
                 dead_cells: bool = True) -> None:
        check_solvable(game)
        if table_bits < 4:
            raise ValueError(f"table_bits must be at least 4 (buckets of {BUCKET}), got {table_bits}")
        self.game = game
        self.keys = keys or PositionKeys(game)
        self.key_args = search_keys(self.keys)
        self.table = PnTable(table_bits)
        self.max_ply = max_plies(game)
        self.stats = np.zeros(3, dtype=np.int64)
        self.threats = game.THREAT_FIELD
        self.can_draw = game.CAN_DRAW
        self.rings = game.dead_cell_rings() if dead_cells else np.full((0, 6), -1, dtype=np.int32)
        self._dfpn = self._search(game)
        self.prove(game.new_state().array, 0, 0)  # compile now, so that solving times only the search
        self.table.clear()
        self.stats[:] = 0

    def _search(self, game: Game) -> Callable:
        """The compiled df-pn for ``game`` (a subclass may prune its own way)."""
        return compiled(game.kernels).dfpn

    def prove(self, s: np.ndarray, attacker: int, max_nodes: int) -> bool | None:
        """Whether ``attacker`` wins from ``s`` (not over) with best play; None
        when the total node count reached ``max_nodes`` first."""
        self.stats[ABORTED] = 0
        s = np.array(s, dtype=np.int32)  # one writable copy: one compiled signature
        r = self._dfpn(s, self.game.tables, attacker, self.key_args, self.table.arrays, max_nodes,
                       self.max_ply, self.stats, self.threats, self.rings)
        return None if r == 0 else r == 1

    def value(self, s: np.ndarray, max_nodes: int = 1 << 62) -> int | None:
        """1, 0 or -1 for the player to move in ``s`` (not over), None when
        ``max_nodes`` more nodes ran out."""
        limit = self.nodes + max_nodes
        mover = int(s[TO_MOVE])
        wins = self.prove(s, mover, limit)
        if wins is None or wins:
            return None if wins is None else 1
        if not self.can_draw:
            return -1
        loses = self.prove(s, 1 - mover, limit)
        return None if loses is None else -1 if loses else 0

    @property
    def nodes(self) -> int:
        return int(self.stats[NODES])
