"""``hexarena solve``: exact values of small boards, with every first move's.

:func:`solve` searches each first move (one per class of moves that a
symmetry of the board maps onto each other), in two passes sharing one
time / node budget:

1. *value*: win, draw or loss for the player to move, by ``method``:
   ``alphabeta`` (:mod:`hexarena.search.alphabeta` with the window
   (-WIN, WIN): the first win found cuts) or ``dfpn`` (the proof-number
   search of :mod:`hexarena.search.dfpn`);
2. *distance*: the same moves searched again for the number of plies to
   the end when both sides play perfectly (the winner fastest, the loser
   slowest), which the solution store and "proven win in k" need.

A search that runs out of budget leaves its move unknown; the table keeps
what it learnt, so a later search with more budget goes on from there.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import numpy as np

from ..games.base import DRAW, TO_MOVE, WINNER, Game
from .alphabeta import ABORTED, HITS, INF, NODES, WIN, Table
from .dfpn import DfpnSolver, check_solvable
from .loops import compiled, max_plies, search_keys
from .positions import PositionKeys

METHODS = ("alphabeta", "dfpn")  # the value pass's search; distances are always alpha-beta's
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
    method: str = "alphabeta"

    def as_dict(self) -> dict:
        return asdict(self)


class Solver:
    """A game's keys, table and compiled search, reused across searches."""

    def __init__(self, game: Game, table_bits: int = TABLE_BITS) -> None:
        check_solvable(game)
        self.game = game
        self.keys = PositionKeys(game)
        self.key_args = search_keys(self.keys)
        self.table = Table(table_bits)
        self.mode: bool | None = None  # the table holds distance (True) or value (False) scores
        self.max_ply = max_plies(game)
        self.stats = np.zeros(3, dtype=np.int64)
        self._search = compiled(game.kernels).alphabeta
        self.threats = game.THREAT_FIELD
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
          solver: Solver | None = None, method: str = "alphabeta", dfpn: DfpnSolver | None = None) -> Solution:
    """Solve ``game``'s start: each first move's value by ``method`` (and
    distance when ``distances``, by alpha-beta), within ``seconds`` and
    ``nodes`` (of both searches together) when given."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; methods: {', '.join(METHODS)}")
    if method == "dfpn":
        dfpn = dfpn or DfpnSolver(game, table_bits)
    if method == "alphabeta" or distances:
        solver = solver or Solver(game, table_bits)
    run = _Run(game, solver, dfpn, seconds, nodes, progress)
    if method == "dfpn":
        run.rounds(run.dfpn_attempt, lambda rep: rep not in run.facts)
    else:
        run.rounds(lambda rep, child, budget: run.attempt(rep, child, False, budget),
                   lambda rep: (rep, False) not in run.proven)
    if distances:
        run.rounds(lambda rep, child, budget: run.attempt(rep, child, True, budget),
                   lambda rep: (rep, True) not in run.proven and rep in run.facts)
    for rep, (result, plies) in run.facts.items():
        run.values[rep].result, run.values[rep].plies = RESULTS[result], plies
    return _summary(game, solver, dfpn, run.values, run.facts, time.perf_counter() - run.start, method)


class _Run:
    """One :func:`solve`: the first moves, what is proven of them, and the shared budget."""

    def __init__(self, game: Game, solver: Solver | None, dfpn: DfpnSolver | None, seconds: float | None,
                 nodes: int | None, progress: Callable[[str], None] | None) -> None:
        self.solver, self.dfpn, self.progress = solver, dfpn, progress
        self.start = time.perf_counter()
        self.deadline = None if seconds is None else self.start + seconds
        self.node_limit = nodes if nodes is not None else 1 << 62
        self.budgeted = seconds is not None or nodes is not None
        self.s0 = game.new_state()
        self.p0 = int(self.s0.array[TO_MOVE])  # a game's start has a player to move
        searcher = solver or dfpn
        assert searcher is not None, "solve() makes the searches its passes use"
        self.classes = first_move_classes(game, searcher.keys)
        self.values = {rep: MoveValue(self.s0.move_name(rep), same_as=[self.s0.move_name(a) for a in acts[1:]])
                       for rep, acts in self.classes}
        self.facts: dict[int, tuple[int, int | None]] = {}  # rep -> (result for the mover, plies or None)
        self.proven: set[tuple[int, bool]] = set()  # (rep, distance) of the alpha-beta's passes
        self.attacker: dict[int, int] = {}  # df-pn: whom a move's next proof is for (p0, then 1 - p0)

    @property
    def nodes(self) -> int:
        return (self.solver.nodes if self.solver else 0) + (self.dfpn.nodes if self.dfpn else 0)

    def out_of_budget(self) -> bool:
        return self.nodes >= self.node_limit or (self.deadline is not None and time.perf_counter() >= self.deadline)

    def child_of(self, rep: int) -> np.ndarray:
        c = self.s0.copy()
        c.apply(rep)
        return c.array.copy()

    def budget_for(self, budget: int) -> int:
        """``budget`` more nodes, fewer near the deadline: no call may run far past it (sized from the rate)."""
        if self.deadline is not None:
            rate = self.nodes / max(time.perf_counter() - self.start, 1e-3)
            budget = min(budget, int(rate * (self.deadline - time.perf_counter())) + FIRST_CHUNK)
        return max(0, min(self.node_limit - self.nodes, budget))

    def rounds(self, attempt: Callable[[int, np.ndarray, int], None], is_open: Callable[[int], bool]) -> None:
        """Rounds over the open moves, each with twice the last round's budget, until none is open."""
        budget = FIRST_CHUNK if self.budgeted else self.node_limit
        while not self.out_of_budget():
            open_moves = [rep for rep, _ in self.classes if is_open(rep)]
            if not open_moves:
                break
            for rep in open_moves:
                child = self.child_of(rep)
                if child[WINNER] >= 0:
                    w = int(child[WINNER])
                    self.facts[rep] = (0 if w == DRAW else 1 if w == self.p0 else -1, 1)
                    self.proven.update({(rep, False), (rep, True)})
                elif not self.out_of_budget():
                    attempt(rep, child, budget)
            budget *= 2

    def note(self, rep: int, result: int, plies: int | None) -> None:
        self.facts[rep] = (result, plies)
        if self.progress:
            self.progress(f"{self.values[rep].move}: {RESULTS[result]}" + (f" in {plies}" if plies else "")
                          + f" ({self.nodes:,} nodes, {time.perf_counter() - self.start:.1f} s)")

    def attempt(self, rep: int, child: np.ndarray, distance: bool, budget: int) -> None:
        """One alpha-beta search of a first move with ``budget`` more nodes; notes its value if proven."""
        solver = self.solver
        assert solver is not None, "solve() makes a Solver for alpha-beta passes"
        v = solver.score(child, distance, solver.nodes + self.budget_for(budget))
        if v is None:
            return
        mine = v if child[TO_MOVE] == self.p0 else -v
        result = 1 if mine > 0 else -1 if mine < 0 else 0
        self.proven.add((rep, distance))
        self.note(rep, result, (WIN - abs(v) + 1 if v != 0 else None) if distance else None)

    def dfpn_attempt(self, rep: int, child: np.ndarray, budget: int) -> None:
        """One df-pn search of a first move: does the first player win, and if
        not (where draws can happen), does the second?"""
        dfpn = self.dfpn
        assert dfpn is not None, "solve() makes a DfpnSolver for df-pn passes"
        attacker = self.attacker.setdefault(rep, self.p0)
        wins = dfpn.prove(child, attacker, dfpn.nodes + self.budget_for(budget))
        if wins is None:
            return
        if attacker == self.p0 and (wins or not dfpn.can_draw):
            self.note(rep, 1 if wins else -1, None)
        elif attacker != self.p0:
            self.note(rep, -1 if wins else 0, None)
        else:
            self.attacker[rep] = 1 - self.p0
            self.dfpn_attempt(rep, child, budget)


def _summary(game: Game, solver: Solver | None, dfpn: DfpnSolver | None, values: dict[int, MoveValue], facts: dict,
             seconds: float, method: str) -> Solution:
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
    searches = [x for x in (solver, dfpn) if x is not None]
    return Solution(game.name, dict(game.options), result, plies, moves, sum(x.nodes for x in searches),
                    round(seconds, 3), complete, len(searches[0].keys.perms),
                    sum(x.table.used() for x in searches), method)
