"""Iqishiqi's playouts for the AI: uniformly random legal drops to the end in
one compiled loop, each drawn without listing the drops
(:func:`hexarena.games.iqishiqi_rules.random_drop`)."""

from __future__ import annotations

from ..kernels import hot, njit, note
from .base import PLY, TO_MOVE, WINNER
from .iqishiqi_rules import ball_ends, drop, finish, random_drop, room, scratch


@njit
def playout(s, t):
    """Uniformly random legal drops to the end (in place)."""
    work = scratch(t, 6 * t.ncells)
    out = room(t, work)
    _random_drops(s, t, out[:0], out[:0], out, work)


@njit
def recorded_playout(s, t, actions, movers):
    """``playout`` that also writes each drop and its mover into ``actions``
    and ``movers`` while they have room; returns the number written (for
    MCTS's AMAF)."""
    work = scratch(t, 6 * t.ncells)
    return _random_drops(s, t, actions, movers, room(t, work), work)


@hot
def _random_drops(s, t, actions, movers, out, work):
    """The playout's loop (``out`` and ``work`` as :func:`~hexarena.games.iqishiqi_rules.random_drop` takes them)."""
    written = 0
    while s[WINNER] < 0:
        a = random_drop(s, t, out, work, s[PLY] + 1, 0)
        if a < 0:
            finish(s, 1 - s[TO_MOVE])
            break
        mover = s[TO_MOVE]
        written = note(actions, movers, written, a, mover)
        drop(s, t, a)
        ball_ends(s, t, mover)
    return written
