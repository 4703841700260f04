"""``hexarena solve``: exact values of small boards, with every first move's.

:func:`solve` runs :mod:`hexarena.analysis.solve_search` on each first move
(one per class of moves that a symmetry of the board maps onto each
other), in two passes sharing one time / node budget:

1. *value*: win, draw or loss for the player to move (alpha-beta with the
   window (-WIN, WIN): the first win found cuts);
2. *distance*: the same moves searched again for the number of plies to
   the end when both sides play perfectly (the winner fastest, the loser
   slowest), which the solution store and "proven win in k" need.

A search that runs out of budget leaves its move unknown; the table keeps
what it learnt, so a later search with more budget goes on from there.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np

from ..ai.positions import PositionKeys
from ..games.base import DRAW, TO_MOVE, WINNER, Game
from .solve_search import ABORTED, HITS, INF, NODES, WIN, Table, make_search

SOLVABLE = ("projective-hex", "hex-pushpin")
TABLE_BITS = 22  # 4M slots (100 MB)
FIRST_CHUNK = 200_000  # nodes of a budgeted search's first call; later calls are sized from the rate


@dataclass
class MoveValue:
    """One first move: ``result`` for the player who makes it ('win', 'draw',
    'loss', or 'unknown'), ``plies`` to the end with perfect play after it
    (counting it; None until the distance pass proves it), and the moves
    it stands for under symmetry."""

    move: str
    result: str = "unknown"
    plies: int | None = None
    same_as: list[str] = field(default_factory=list)


@dataclass
class Solution:
    """What :func:`solve` found: the start's value for the player to move, each
    first move's, nodes searched, seconds, and whether every move was proven."""

    game: str
    options: dict
    result: str  # for the first player: 'win', 'draw', 'loss' or 'unknown'
    plies: int | None
    moves: list[MoveValue]
    nodes: int
    seconds: float
    complete: bool
    symmetries: int
    table_entries: int = 0

    def as_dict(self) -> dict:
        return asdict(self)


class Solver:
    """A game's keys, table and compiled search, reused across searches."""

    def __init__(self, game: Game, table_bits: int = TABLE_BITS) -> None:
        if game.name not in SOLVABLE:
            raise ValueError(f"cannot solve {game.name!r}; solvable games: {', '.join(SOLVABLE)}")
        self.game = game
        self.keys = PositionKeys(game)
        inverse = np.zeros_like(self.keys.actions)
        for j, row in enumerate(self.keys.actions):
            inverse[j, row] = np.arange(row.shape[0], dtype=np.int32)
        self.key_args = (self.keys.offset, self.keys.cells, self.keys.fields, self.keys.perms,
                         self.keys.actions, inverse, self.keys.zcell, self.keys.zfield)
        self.table = Table(table_bits)
        self.mode: bool | None = None  # the table holds distance (True) or value (False) scores
        self.max_ply = 4 * game.topology.ncells + 8  # longer than any game: passes come between stones at most
        self.stats = np.zeros(3, dtype=np.int64)
        self._search = make_search(game.kernels.legal, game.kernels.apply)
        self.threats = _threat_field(game)
        self.score(game.new_state().array, False, 0)  # compile now, so that solving times only the search
        self.table.clear()
        self.mode, self.stats[:] = None, 0

    def score(self, s: np.ndarray, distance: bool, max_nodes: int, alpha: int = -INF, beta: int = INF) -> int | None:
        """The score of ``s`` for its player to move (None when ``max_nodes`` ran out)."""
        if self.mode is not distance:
            self.table.clear()
            self.mode = distance
        if not distance:
            alpha, beta = max(alpha, -WIN), min(beta, WIN)
        self.stats[ABORTED] = 0
        v = self._search(s, self.game.tables, alpha, beta, distance, self.key_args, self.table.arrays,
                         max_nodes, self.max_ply, self.stats, self.threats)
        return None if self.stats[ABORTED] else int(v)

    def exact(self, s: np.ndarray, max_nodes: int = 1 << 62) -> tuple[int, int | None] | None:
        """(result for the player to move: 1, 0, -1; plies to the end, None
        for a draw, whose length is not searched for) of a position not over,
        or None when ``max_nodes`` ran out."""
        v = self.score(s, True, self.nodes + max_nodes)
        if v is None:
            return None
        return (1, WIN - v) if v > 0 else (-1, WIN + v) if v < 0 else (0, None)

    def table_move(self, s: np.ndarray) -> int | None:
        """The best move the table holds for ``s`` (mapped back from the canonical frame), if any."""
        key, sym = self.keys.key_and_symmetry(s)
        slot = key & (len(self.table.key) - 1)
        if int(self.table.key[slot]) != key or self.table.move[slot] < 0:
            return None
        return int(np.flatnonzero(self.keys.actions[sym] == self.table.move[slot])[0])

    @property
    def nodes(self) -> int:
        return int(self.stats[NODES])

    @property
    def hits(self) -> int:
        return int(self.stats[HITS])


def _threat_field(game: Game) -> int:
    """The state entry that turns on forced blocks (see ``make_search``), -1 for none:
    Projective Hex's colour field (a stone only ever helps its own colour's loop)."""
    if game.name == "projective-hex":
        from ..games.projective_hex import COLOR0
        return COLOR0
    return -1


def first_move_classes(game: Game, keys: PositionKeys) -> list[tuple[int, list[int]]]:
    """The legal first moves grouped by the position they lead to up to
    symmetry: (representative action, every action of its class)."""
    s = game.new_state()
    classes: dict[int, list[int]] = {}
    for a in s.legal_actions():
        child = s.copy()
        child.apply(a)
        classes.setdefault(keys.key(child.array), []).append(a)
    return [(acts[0], acts) for acts in classes.values()]


RESULTS = {1: "win", 0: "draw", -1: "loss"}


def solve(game: Game, seconds: float | None = None, nodes: int | None = None, distances: bool = True,
          table_bits: int = TABLE_BITS, progress: Callable[[str], None] | None = None,
          solver: Solver | None = None) -> Solution:
    """Solve ``game``'s start: each first move's value (and distance when
    ``distances``), within ``seconds`` and ``nodes`` when given."""
    solver = solver or Solver(game, table_bits)
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    node_limit = nodes if nodes is not None else 1 << 62
    s0 = game.new_state()
    p0 = s0.to_move
    classes = first_move_classes(game, solver.keys)
    values = {rep: MoveValue(s0.move_name(rep), same_as=[s0.move_name(a) for a in acts[1:]]) for rep, acts in classes}
    facts: dict[int, tuple[int, int | None]] = {}  # rep -> (result for the mover, plies or None)

    def child_of(rep: int) -> np.ndarray:
        c = s0.copy()
        c.apply(rep)
        return c.array.copy()

    def out_of_budget() -> bool:
        return solver.nodes >= node_limit or (deadline is not None and time.perf_counter() >= deadline)

    def attempt(rep: int, child: np.ndarray, distance: bool, budget: int) -> None:
        """One search of a first move with ``budget`` more nodes; notes its value if proven."""
        if deadline is not None:  # no call may run far past the deadline: size it from the rate so far
            rate = solver.nodes / max(time.perf_counter() - start, 1e-3)
            budget = min(budget, int(rate * (deadline - time.perf_counter())) + FIRST_CHUNK)
        limit = min(node_limit, solver.nodes + budget)
        v = solver.score(child, distance, limit)
        if v is None:
            return
        mine = v if child[TO_MOVE] == p0 else -v
        result = 1 if mine > 0 else -1 if mine < 0 else 0
        facts[rep] = (result, (WIN - abs(v) + 1 if v != 0 else None) if distance else None)
        proven.add((rep, distance))
        if progress:
            plies = facts[rep][1]
            progress(f"{values[rep].move}: {RESULTS[result]}" + (f" in {plies}" if plies else "")
                     + f" ({solver.nodes:,} nodes, {time.perf_counter() - start:.1f} s)")

    proven: set[tuple[int, bool]] = set()
    for distance in (False, True) if distances else (False,):
        budget = FIRST_CHUNK if deadline is not None or nodes is not None else node_limit
        while not out_of_budget():  # rounds over the open moves, each with twice the last round's budget
            open_moves = [rep for rep, _ in classes if (rep, distance) not in proven
                          and (not distance or rep in facts)]
            if not open_moves:
                break
            for rep in open_moves:
                child = child_of(rep)
                if child[WINNER] >= 0:
                    w = int(child[WINNER])
                    facts[rep] = (0 if w == DRAW else 1 if w == p0 else -1, 1)
                    proven.add((rep, distance))
                elif not out_of_budget():
                    attempt(rep, child, distance, budget)
            budget *= 2
    for rep, (result, plies) in facts.items():
        values[rep].result, values[rep].plies = RESULTS[result], plies
    return _summary(game, solver, values, facts, time.perf_counter() - start)


def _summary(game: Game, solver: Solver, values: dict[int, MoveValue], facts: dict, seconds: float) -> Solution:
    """The start's value from its moves': a win if one wins (fastest), else
    unknown if one is unknown, else a draw if one draws, else a loss (slowest)."""
    known = list(facts.values())
    moves = list(values.values())
    complete = len(known) == len(moves)
    wins = [p for r, p in known if r == 1]
    if wins:
        result, plies = "win", min((p for p in wins if p is not None), default=None)
    elif not complete:
        result, plies = "unknown", None
    elif any(r == 0 for r, _ in known):
        result, plies = "draw", None
    else:
        result, plies = "loss", max((p for _, p in known if p is not None), default=None)
    return Solution(game.name, dict(game.options), result, plies, moves, solver.nodes, round(seconds, 3),
                    complete, len(solver.keys.perms), solver.table.used())
