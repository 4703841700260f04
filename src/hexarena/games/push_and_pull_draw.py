"""Push and Pull's board as text and SVG
(:class:`hexarena.games.push_and_pull.PushAndPull`'s ``ascii`` and ``svg``):
the stones, the markers, the stone being resolved and, as hints, the legal
placements or the asked marker's moves."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..render import ascii as ascii_render
from ..render import svg as svg_render
from .push_and_pull_rules import BOARD, EMPTY, MARK, NEUTRAL, PHASE, PLACE, STONE, asked

if TYPE_CHECKING:
    from .base import State
    from .push_and_pull import PushAndPull


def ascii_board(game: PushAndPull, state: State) -> str:
    """:meth:`PushAndPull.ascii <hexarena.games.push_and_pull.PushAndPull.ascii>`."""
    s = state.array
    char = {EMPTY: ".", NEUTRAL: "o", 2: "1", 3: "2"}
    board = s[BOARD:BOARD + game.topology.ncells]
    return ascii_render.lettered(game.topology, lambda c: char[int(board[c])]) + "\n" + game.status(state)


def svg_board(game: PushAndPull, state: State, hints: bool = False, **kw: Any) -> str:
    """:meth:`PushAndPull.svg <hexarena.games.push_and_pull.PushAndPull.svg>`."""
    s = state.array
    n = game.topology.ncells
    board = s[BOARD:BOARD + n]
    marks: list[int] = []
    arrows: list[tuple[int, int]] = []
    if hints and s[PHASE] == PLACE:
        marks = state.legal_actions()
    elif hints:
        m = int(s[MARK + int(asked(s))])
        arrows = [(m, to) for to in map(lambda a: game.move_target(s, a), state.legal_actions()) if to != m]
    pieces = {int(s[MARK]): "marker1", int(s[MARK + 1]): "marker2"}
    stone = [] if s[STONE] < 0 else [int(s[STONE])]
    neutral = lambda c: svg_render.NEUTRAL if board[c] == NEUTRAL else 0  # noqa: E731
    last = svg_render.last_cell(state.history, lambda a: a if a < n else None)
    legend = [("marker1", "player 1's marker"), ("marker2", "player 2's marker"), (svg_render.NEUTRAL, "stones"),
              ("last", "last placement")]
    return svg_render.board(game.topology, neutral, highlight=stone, marks=marks, pieces=pieces, paths=arrows,
                            last=last, legend=legend, title=game.status(state), **kw)
