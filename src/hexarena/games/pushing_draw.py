"""The boards of the Iqishiqi family's ball games (:class:`hexarena.games.pushing.PushGame`)
as text and SVG: stones, the ball, whose edge is where, and the legal drops as hints."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..board import DIRECTIONS, STEP, Topology
from ..render import svg as svg_render

if TYPE_CHECKING:
    from .base import State
    from .pushing import PushGame


def ascii_board(game: PushGame, state: State, hints: bool = False, edges: bool = False) -> str:
    """:meth:`PushGame.ascii <hexarena.games.pushing.PushGame.ascii>`."""
    s, topo = state.array, game.topology
    board, ball = game.stones(s), game.ball(s)
    moves = game.hint_moves(state) if hints else []
    marks = {c for c, _ in moves}
    points = {(int(x), int(r)): "O" if c == ball else "x" if board[c] else "+" if c in marks else "."
              for c, (x, r) in enumerate(topo.xy)}
    if edges:
        for c in topo.perimeter:
            for slot in range(6):
                kind = game.edge_kind(c, slot) if topo.nbr[c, slot] < 0 else None
                if kind is not None:
                    dx, dr = STEP[slot]
                    points[(int(topo.xy[c, 0]) + dx, int(topo.xy[c, 1]) + dr)] = game.EDGE_STYLE[kind][1]
    x0, x1 = min(x for x, _ in points), max(x for x, _ in points)
    pad = " " * (3 - int(topo.xy[:, 0].min()) + x0)
    header = [" " * 3 + line for line in column_header(topo)]
    lines = list(header)
    for r in range(min(r for _, r in points), max(r for _, r in points) + 1):
        row = "".join(points.get((x, r), " ") for x in range(x0, x1 + 1))
        label = f"  {r + 1}" if 0 <= r < topo.rows else ""
        lines.append((pad + row + label).rstrip())
    lines += [*header, game.status(state)]
    if moves:
        by_cell: dict[int, list[str]] = {}
        for c, d in moves:
            by_cell.setdefault(c, []).append(DIRECTIONS[d])
        lines.append("drops (ball's directions): " +
                     "  ".join(f"{topo.name(c)} {','.join(ds)}" for c, ds in by_cell.items()))
    return "\n".join(lines)


def svg_board(game: PushGame, state: State, hints: bool = False, **kw: Any) -> str:
    """:meth:`PushGame.svg <hexarena.games.pushing.PushGame.svg>`."""
    s = state.array
    board, ball = game.stones(s), game.ball(s)
    moves = game.hint_moves(state) if hints else []
    n = game.topology.ncells

    def border(c: int, slot: int) -> str | None:
        kind = game.edge_kind(c, slot)
        return None if kind is None else game.EDGE_STYLE[kind][0]

    last = svg_render.last_cell(state.history, lambda a: a // 6 if a < n * 6 else None)
    legend = [*game.edge_legend(s), ("last", "last drop")]
    return svg_render.board(game.topology, lambda c: svg_render.BALL if c == ball else int(board[c]),
                            marks=[c for c, _ in moves], arrows=moves, border=border,
                            last=last, legend=legend, title=game.status(state, legend=False), **kw)


def column_header(topo: Topology) -> list[str]:
    """The column letters over each doubled x (``a`` .. ``z``, ``aa`` ..), one
    line per letter position: two lines once names need two letters."""
    letters = {int(x): re.sub(r"[0-9]+$", "", name) for name, (x, _) in zip(topo.names, topo.xy, strict=True)}
    x0, x1 = min(letters), max(letters)
    width = max(len(v) for v in letters.values())
    cols = [letters[x].rjust(width) for x in range(x0, x1 + 1)]
    return ["".join(col[i] for col in cols) for i in range(width)]
