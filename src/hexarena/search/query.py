"""The value of any position, for ``hexarena solve GAME --after MOVES``.

The position after ``MOVES`` (from the start) and each move from it are
valued from the stored proofs first (the long run's proven positions, see
:mod:`hexarena.search.run`, and the package's solution files of
:mod:`hexarena.search.solutions`), then by df-pn (win / draw / loss; for Projective Hex with the virtual
connections of :mod:`hexarena.search.vc`), and where
asked and cheap the alpha-beta finds the plies to the end.  Moves that are
one position up to the board's symmetries are valued once.  So anyone can
set up a position they can work out by hand or by brute force and compare.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..games.base import DRAW, WINNER, Game, State
from .dfpn import DfpnSolver
from .proven import UNKNOWN_PLIES, Proven
from .solutions import store_name, stored_value
from .solve import Solver
from .vc import VcDfpn

REPO = Path(__file__).resolve().parents[3]
RUN_STORES = {"projective-hex-opening=none-size=3.npz": REPO / "data" / "solve-ph3"}  # long runs' directories
LENGTH_NODES = 2_000_000  # alpha-beta nodes at most for a length
CHUNK = 1_000_000  # df-pn nodes between looks at the clock
RESULTS = {1: "win", 0: "draw", -1: "loss", None: "unknown"}


@dataclass
class Valued:
    """A value for one player: ``result`` ('win', 'draw', 'loss', 'unknown'),
    plies to the end with perfect play (None where not found), and where it
    came from ('store', 'search', 'rules' for a move that ends the game)."""

    result: str = "unknown"
    plies: int | None = None
    source: str | None = None


@dataclass
class MoveValue(Valued):
    """A move from the position, valued for the player making it."""

    move: str = ""
    same_as: list[str] = field(default_factory=list)


@dataclass
class PositionValue(Valued):
    """The position after ``moves``, valued for ``to_move``, and each move from it."""

    game: str = ""
    options: dict = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    to_move: int | None = None
    winner: int | None = None  # when the moves ended the game
    next_moves: list[MoveValue] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return asdict(self)


class Valuer:
    """Values of ``game``'s positions within a budget (``seconds``, ``nodes``; None: no limit)."""

    def __init__(self, game: Game, seconds: float | None, nodes: int | None, distances: bool, table_bits: int,
                 store_dir: Path | None = None) -> None:
        self.game, self.distances = game, distances
        self.dfpn = VcDfpn(game, table_bits) if game.name == "projective-hex" else DfpnSolver(game, table_bits)
        self.lengths = Solver(game, min(table_bits, 20)) if distances else None
        self.start = time.perf_counter()  # the searches are compiled: the budget starts now
        self.deadline = None if seconds is None else self.start + seconds
        self.node_limit = (1 << 62) if nodes is None else nodes
        store_dir = store_dir or RUN_STORES.get(store_name(game))
        path = None if store_dir is None else Path(store_dir) / "proven.npz"
        self.proven = Proven.load(path, store_name(game)) if path is not None and path.exists() else None

    @property
    def nodes(self) -> int:
        return self.dfpn.nodes + (self.lengths.nodes if self.lengths else 0)

    def left(self) -> int:
        """Nodes the budget still allows before the next look at the clock (0 when spent)."""
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            return 0
        return max(0, min(self.node_limit - self.nodes, CHUNK if self.deadline is not None else 1 << 62))

    def stored(self, state: State) -> Valued | None:
        if self.proven is not None:
            entry = self.proven.get(self.dfpn.keys.key(state.array))
            if entry is not None:
                plies = None if entry.plies == UNKNOWN_PLIES else entry.plies
                return Valued(RESULTS[entry.result], plies, "store")
        found = stored_value(state)
        return None if found is None else Valued(RESULTS[found[0]], found[1] if found[1] > 0 else None, "store")

    def value(self, state: State) -> Valued:
        """The value of a position not over for its player to move."""
        known = self.stored(state)
        if known is not None and (known.plies is not None or not self.distances):
            return known
        result = None if known is None else {"win": 1, "draw": 0, "loss": -1}[known.result]
        while result is None and (budget := self.left()) > 0:
            result = self.dfpn.value(state.array, budget)
        found = known or Valued(RESULTS[result], None, "search" if result is not None else None)
        if (result is not None and self.distances and self.lengths is not None
                and (budget := min(self.left(), LENGTH_NODES)) > 0):
            exact = self.lengths.exact(np.array(state.array), budget)
            if exact is not None and exact[0] == result:
                found.plies = exact[1] if result != 0 else None
            elif exact is not None:
                raise RuntimeError(f"df-pn and alpha-beta disagree after {state.moves()}: {result}, {exact[0]}")
        return found

    def move_values(self, state: State) -> list[MoveValue]:
        """Each move from ``state`` (one per class under the symmetries), for its player."""
        classes: dict[int, list[int]] = {}
        for a in state.legal_actions():
            child = state.copy()
            child.apply(a)
            classes.setdefault(self.dfpn.keys.key(child.array), []).append(a)
        out = []
        for actions in classes.values():
            child = state.copy()
            child.apply(actions[0])
            names = [state.move_name(a) for a in actions]
            if child.is_over():
                w = int(child.array[WINNER])
                v = MoveValue("draw" if w == DRAW else "win", 1, "rules")
            else:
                got = self.value(child)
                flip = child.to_move != state.to_move
                v = MoveValue({"win": "loss", "loss": "win"}.get(got.result, got.result) if flip else got.result,
                              None if got.plies is None else got.plies + 1, got.source)
            v.move, v.same_as = names[0], names[1:]
            out.append(v)
        return out


def position_value(game: Game, moves: list[str], seconds: float | None = None, nodes: int | None = None,
                   distances: bool = True, table_bits: int = 20, store_dir: Path | None = None) -> PositionValue:
    """The value of the position after ``moves`` (each in the game's
    notation) for its player to move, and of each move from there; raises
    :class:`hexarena.IllegalMove` (or its kin) for a bad move."""
    state = game.new_state()
    for m in moves:
        state.play(m)
    valuer = Valuer(game, seconds, nodes, distances, table_bits, store_dir)
    out = PositionValue(game=game.name, options=dict(game.options), moves=state.moves(), to_move=state.to_move)
    if state.is_over():
        out.winner, out.source = state.winner(), "rules"
    else:
        mine = valuer.value(state)
        out.result, out.plies, out.source = mine.result, mine.plies, mine.source
        out.next_moves = valuer.move_values(state)
    out.nodes, out.seconds = valuer.nodes, round(time.perf_counter() - valuer.start, 3)
    return out


def position_text(v: PositionValue) -> str:
    """A few lines: the position's value for the player to move, then each move's for its player."""
    opts = ", ".join(f"{k}={val}" for k, val in sorted(v.options.items()))
    head = f"{v.game} ({opts}) after {' '.join(v.moves) or 'no moves'}"
    if v.winner is not None or v.to_move is None:
        return f"{head}: the game is over" + (f", player {v.winner + 1} won" if v.winner is not None else ", a draw")
    lines = [f"{head}: player {v.to_move + 1} to move: {_words(v)}",
             "moves (value for the player making them; plies to the end counting the move):"]
    for m in v.next_moves:
        same = f"  (also {' '.join(m.same_as)})" if m.same_as else ""
        lines.append(f"  {m.move:8} {_words(m)}{same}")
    lines.append(f"{v.nodes:,} nodes in {v.seconds:.1f} s")
    return "\n".join(lines)


def _words(v: Valued) -> str:
    plies = f" in {v.plies}" if v.plies else ""
    return f"{v.result}{plies}" + (f" ({v.source})" if v.source else "")
