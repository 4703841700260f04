"""Lhexus's board as SVG (:class:`hexarena.games.lhexus.Lhexus`'s ``svg``):
the stones, this turn's stones (or the last move) ringed, and at the end each
player's counted configurations outlined."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..render import svg as svg_render
from .base import WINNER
from .lhexus_rules import BLACK, WHITE

if TYPE_CHECKING:
    from .base import State
    from .lhexus import Lhexus


def board_svg(game: Lhexus, state: State, hints: bool = False, **kw: Any) -> str:
    """:meth:`Lhexus.svg <hexarena.games.lhexus.Lhexus.svg>`."""
    s = state.array
    board = game.stones(s)
    n = game.topology.ncells
    accent: list[int] = []
    if state.is_over():
        accent = [c for colour in (BLACK, WHITE) for conf in game.configurations(s, colour) for c in conf]
    marks = [a for a in state.legal_actions() if a < n] if hints else []
    last = game.turn_stones(s) or svg_render.last_cell(state.history, lambda a: a if a < n else None)
    return svg_render.board(game.topology, lambda c: int(board[c]), marks=marks, accent=accent, last=last,
                            title=game.status(state), legend=legend(game, s), **kw)


def legend(game: Lhexus, s: np.ndarray) -> list[tuple[svg_render.Swatch, str]]:
    """Which colour is whose, the last-move ring, the outlined configurations."""
    chosen = [game.colour(s, p) for p in (0, 1)]
    if chosen[0] is None:
        items = [(WHITE, "white: player 2 will accept or decline it")]
    else:
        items = sorted((BLACK if chosen[p] == "black" else WHITE, f"{chosen[p]}: player {p + 1}") for p in (0, 1))
    extra = [("#1f5fd0", "counted configurations")] if s[WINNER] >= 0 else []
    return [*items, ("last", "this turn's or the last stones"), *extra]
