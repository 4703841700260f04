"""The positions a long solve tracks: the start and every position up to
``depth`` moves from it, one per class under the board's symmetries.

Each tracked position keeps the moves that reach one member of its class and
its children (the next level's classes, or the result of a move that ends
the game), so that values proven below can be carried up: a position is won
for its player to move if some child is lost for the child's player to move
(or the move wins at once), and lost if every child is won for the opponent.
The classes come from the board's symmetries (:mod:`hexarena.search.positions`),
not from a list: on the 27-cell Projective Hex board there are 6 first-move
classes and 120 second-level positions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..games.base import DRAW, TO_MOVE, WINNER, Game
from .positions import PositionKeys


@dataclass
class Tracked:
    """One class of positions ``level`` moves from the start."""

    key: int  # canonical key (the same for every member of the class)
    moves: tuple[int, ...]  # the actions from the start to one member
    level: int
    to_move: int
    same_as: list[int] = field(default_factory=list)  # more actions from the first parent into this class
    children: list[int] = field(default_factory=list)  # keys of the next level's classes
    endings: list[int] = field(default_factory=list)  # results for this mover of moves that end the game


class Frontier:
    """Every position up to ``depth`` moves from ``game``'s start, by class.

    ``levels[k]`` lists the classes ``k`` moves in (``levels[0]`` the start);
    ``by_key`` finds one by its key."""

    def __init__(self, game: Game, keys: PositionKeys, depth: int) -> None:
        self.game, self.keys, self.depth = game, keys, depth
        start = game.new_state().array.copy()
        root = Tracked(keys.key(start), (), 0, int(start[TO_MOVE]))
        self.levels: list[list[Tracked]] = [[root]]
        self.by_key: dict[int, Tracked] = {root.key: root}
        self._arrays: dict[int, np.ndarray] = {root.key: start}
        for level in range(1, depth + 1):
            self.levels.append([])
            for parent in self.levels[level - 1]:
                self._expand(parent, level)

    def _expand(self, parent: Tracked, level: int) -> None:
        """Add ``parent``'s children to ``level`` (one per class) and note them in ``parent``."""
        s = self._arrays[parent.key]
        for a in self.legal(s):
            child = self.play(s, a)
            if child[WINNER] >= 0:
                w = int(child[WINNER])
                parent.endings.append(0 if w == DRAW else 1 if w == parent.to_move else -1)
                continue
            k = self.keys.key(child)
            if k in parent.children:
                if self.by_key[k].moves[:-1] == parent.moves:
                    self.by_key[k].same_as.append(int(a))
                continue
            parent.children.append(k)
            if k not in self.by_key:
                node = Tracked(k, parent.moves + (int(a),), level, int(child[TO_MOVE]))
                self.by_key[k] = node
                self._arrays[k] = child
                self.levels[level].append(node)

    def legal(self, s: np.ndarray) -> list[int]:
        """The legal actions in the position ``s``."""
        out = np.empty(self.game.num_actions, dtype=np.int32)
        n = self.game.kernels.legal(s, self.game.tables, out)
        return out[:n].tolist()

    def play(self, s: np.ndarray, a: int) -> np.ndarray:
        """The position after action ``a`` in ``s`` (a new array)."""
        child = s.copy()
        self.game.kernels.apply(child, self.game.tables, a)
        return child

    def array(self, key: int) -> np.ndarray:
        """The position of a tracked class (a copy)."""
        return self._arrays[key].copy()

    def __iter__(self):
        return iter(self.by_key.values())

    def __len__(self) -> int:
        return len(self.by_key)


def carried_up(node: Tracked, values: dict[int, int], frontier: Frontier) -> int | None:
    """``node``'s value for its player to move (1 win, -1 loss) from its
    children's in ``values`` (each for that child's player to move), or None
    while they do not settle it.  No draws: Projective Hex has none."""
    if 1 in node.endings:
        return 1
    if not node.children:
        return None
    open_ = False
    for k in node.children:
        v = values.get(k)
        if v is None:
            open_ = True
            continue
        mine = v if frontier.by_key[k].to_move == node.to_move else -v
        if mine == 1:
            return 1
    return None if open_ else -1
