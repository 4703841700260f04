"""The positions a solution store keeps (:mod:`hexarena.search.solutions`): the
start, every first move, and from there a proof of each value.

Breadth-first from the start: where the player to move wins, one move that
wins fastest is followed (the store's reader needs only that one); where it
draws or loses, every move is (the opponent may try any).  Each position's
exact value and distance come from the solver's distance search, which its
table makes quick once the start is solved.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import numpy as np

from ..games.base import State
from .solve import Solver


def proof_positions(solver: Solver, limit: int = 200_000, max_nodes: int = 1 << 62,
                    progress: Callable[[str], None] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(keys, results, plies) of up to ``limit`` positions, nearest the start
    first; ``progress`` hears of every 1000th."""
    game, keys = solver.game, solver.keys
    start = game.new_state()
    found: dict[int, tuple[int, int]] = {}
    todo: deque[State] = deque([start])
    forced = True  # every first move is kept, whatever the start's value
    while todo and len(found) < limit:
        s = todo.popleft()
        k = keys.key(s.array)
        if k in found:
            continue
        value = solver.exact(s.array, max_nodes)
        if value is None:
            continue  # the budget ran out here: this line stays unstored
        result, plies = value
        found[k] = (result, plies or 0)
        if progress and len(found) % 1000 == 0:
            progress(f"stored {len(found):,} positions ({solver.nodes:,} nodes)")
        children = _children(s)
        if result == 1 and plies is not None and not forced:  # a win: the table's best move first, usually the one
            hint = solver.table_move(s.array)
            children.sort(key=lambda c: c.history[-1] != hint)
            children = next(([c] for c in children if _keeps_win(solver, s, c, plies)), [])
        todo.extend(c for c in children if not c.is_over())
        forced = False
    items = sorted(found.items())
    return (np.array([k for k, _ in items], dtype=np.uint64), np.array([v[0] for _, v in items], dtype=np.int8),
            np.array([v[1] for _, v in items], dtype=np.int16))


def _children(s: State) -> list[State]:
    """Every position one move after ``s``."""
    out = []
    for a in s.legal_actions():
        c = s.copy()
        c.apply(a)
        out.append(c)
    return out


def _keeps_win(solver: Solver, parent: State, child: State, plies: int) -> bool:
    """Whether ``child`` is a win for ``parent``'s mover in ``plies`` - 1 more plies."""
    if child.is_over():
        return child.winner() == parent.to_move and plies == 1
    value = solver.exact(child.array)
    if value is None:
        return False
    result, d = value
    mine = result if child.to_move == parent.to_move else -result
    return mine == 1 and d == plies - 1
