"""Weituweiqi (João Pedro Neto, 2005): Iqishiqi with an auction for two
roles.  The Blocker tries to encircle the ball, the Escaper to push it to
the board's edge.

*Auction*: players alternate Iqishiqi drops; a drop that puts the ball on
an edge cell, or leaves no legal drop, loses at once.  Instead of dropping,
the player to move may ``block``: he becomes the Blocker, the other the
Escaper, who moves next.  *Main phase*: Iqishiqi drops; the ball on any
edge cell wins for the Escaper, whoever pushed it; a player with no legal
drop loses.  Drops, pushes and their notation are Iqishiqi's
(:mod:`hexarena.games.iqishiqi_rules`, :class:`hexarena.games.pushing.PushGame`);
action ``ncells * 6`` is ``block``.

>>> import hexarena
>>> s = hexarena.load("weituweiqi", size=4).new_state()
>>> for m in ("c4", "block", "k2"): _ = s.play(m)
>>> s.game.roles(s.array)  # player 2 declared himself Blocker
['escaper', 'blocker']
>>> print(s)
   abcdefghijklm
      . . . .     1
     . . . . x    2
    . . . . . .   3
   . x . . . . .  4
    . . . O . .   5
     . . . . .    6
      . . . .     7
   abcdefghijklm
Blocker (player 2) to move; the Escaper wins on any edge
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..kernels import hot, kernel_set, njit
from ..render import svg as svg_render
from .base import PLY, TO_MOVE, TURN, WINNER, State
from .iqishiqi_rules import (BALL, BOARD, ROLE, STONE, drop, drop_mask, drops, finish, has_drop, identity,
                             random_drop, room, scratch)
from .pushing import PushGame, size_option


@njit
def legal(s, t, out):
    if s[WINNER] >= 0:
        return 0
    k = drops(s, t, out, 0)
    if s[ROLE] < 0:
        out[k] = t.ncells * 6  # block
        k += 1
    return k


@hot
def _after_drop(s, t, mover, stalemated):
    """End the game if this drop decides it: the ball on an edge (auction:
    the mover loses; later: the Escaper wins), or no drop left for the
    player to move (auction: the mover loses; later: the player to move loses)."""
    on_edge = t.owner[s[BALL]] >= 0
    if s[ROLE] < 0:
        if on_edge or stalemated:
            finish(s, 1 - mover)
    elif on_edge:
        finish(s, 1 - s[ROLE])
    elif stalemated:
        finish(s, mover)


@hot
def _block(s):
    s[ROLE] = s[TO_MOVE]
    s[TO_MOVE] = 1 - s[TO_MOVE]
    s[PLY] += 1
    s[TURN] += 1


@njit
def apply(s, t, a):
    if a == t.ncells * 6:
        _block(s)
        return
    mover = s[TO_MOVE]
    drop(s, t, a)
    _after_drop(s, t, mover, t.owner[s[BALL]] < 0 and not has_drop(s, t))


@njit
def is_legal(s, t, a):
    """True if action ``a`` (in range, the game not over) is legal here:
    ``block`` during the auction, or a drop that can push the ball that way."""
    if a == t.ncells * 6:
        return s[ROLE] < 0
    return drop_mask(s, t, a // 6) & (1 << (a % 6)) != 0


@njit
def playout(s, t):
    """Uniformly random legal moves (``block`` among them) to the end, in place."""
    work = scratch(t, 6 * t.ncells + 1)
    _random_moves(s, t, room(t, work), work)


@hot
def _random_moves(s, t, out, work):
    """The playout's loop.  A drop off the edge that leaves no drop ends the
    game at the next move's scan, as :func:`apply` would at once (the same
    drops are open to both players, so a block never leaves none)."""
    n = t.ncells
    while s[WINNER] < 0:
        a = random_drop(s, t, out, work, s[PLY] + 1, s[ROLE] < 0)  # block (n * 6) among them in the auction
        if a < 0:  # the last drop stalemated: in the auction its mover loses, later the player to move
            finish(s, s[TO_MOVE] if s[ROLE] < 0 else 1 - s[TO_MOVE])
            break
        if a == n * 6:
            _block(s)
            continue
        mover = s[TO_MOVE]
        drop(s, t, a)
        if t.owner[s[BALL]] >= 0:
            _after_drop(s, t, mover, False)


# --- the playout policy (hexarena.games.base: ``policy``) ---------------------------
# In the main phase, uniform drops ignore the roles; the policy weighs a few
# drops by where they leave the ball (the Escaper nearest the edge, the
# Blocker farthest from it), takes a drop that wins at once when it meets one
# and never makes one that loses at once when another does not.  In the
# auction it plays uniformly: a policy that avoided losing drops there (and
# blocked only when every drop lost) made MCTS weaker at equal time (3-17 in
# 20 games), its playouts several times dearer and their outcome, who is forced
# to block some 30 drops later, close to a coin toss; uniform auction drops
# instead end quickly where the ball is in danger (docs/ai.md).
SAMPLES = 3  # drops weighed per main-phase step (more are tried while they all lose)
NOISE = 1.0  # random spread added to the distance scores, so playouts differ


@njit
def edge_distance(rays_, c):
    """Steps from cell ``c`` straight to the nearest edge cell (0 on the edge)."""
    best = rays_.shape[2]
    for d in range(6):
        k = 0
        while k < rays_.shape[2] and rays_[c, d, k] >= 0:
            k += 1
        best = min(best, k)
    return best


@njit
def _weigh(s, t, moves, count, sign):
    """The index of the drop to play among ``moves[:count]``: one that wins at
    once if met, else the best by ``sign`` times the ball's distance to the
    edge (plus noise) among ``SAMPLES`` that do not lose at once (tried in
    random order, more while every one tried loses), else 0."""
    p = s[TO_MOVE]
    order = np.arange(count)
    after = s.copy()
    best, best_v, safe = 0, -1e300, 0
    for j in range(count):
        r = j + np.random.randint(0, count - j)
        order[j], order[r] = order[r], order[j]
        i = order[j]
        after[:] = s
        apply(after, t, moves[i])
        if after[WINNER] == p:
            return i
        if after[WINNER] >= 0:
            continue
        v = sign * edge_distance(t.rays, after[BALL]) + NOISE * np.random.random()
        if v > best_v:
            best, best_v = i, v
        safe += 1
        if safe == SAMPLES:
            break
    return best


@njit
def policy(s, t, moves, count):
    """The index of the move to play among ``moves[:count]``: uniform in the
    auction; in the main phase :func:`_weigh`, the Blocker away from the
    edge, the Escaper toward it."""
    if s[ROLE] < 0:
        return np.random.randint(0, count)
    return _weigh(s, t, moves, count, 1 if s[TO_MOVE] == s[ROLE] else -1)


@njit
def planes(s, t, player, out, cols):
    """The observation planes (``Game.planes``): stones, the ball, empty
    cells, the edge cells (the Escaper's goal), then all ones if ``player`` is
    the Blocker, if he is the Escaper, and while the auction lasts."""
    ball, blocker = s[BALL], s[ROLE]
    for c in range(t.ncells):
        stone, j = (s[BOARD + c] & STONE) != 0, cols[c]
        out[0, j], out[1, j], out[2, j], out[3, j] = stone, c == ball, not stone and c != ball, t.owner[c] >= 0
        out[4, j], out[5, j], out[6, j] = blocker >= 0 and player == blocker, blocker >= 0 and player != blocker, \
            blocker < 0


KERNELS = kernel_set(legal, apply, playout, policy=policy, is_legal=is_legal, identity=identity, planes=planes)


class Weituweiqi(PushGame):
    """Weituweiqi on the hexhex board of base ``size`` (the source's 6)."""

    name = "weituweiqi"
    BENCH_SETUPS = (("base 6 (91 cells)", {"size": 6}),)
    SLOW_TO_COMPILE = True
    PLAYERS = ("player 1", "player 2")
    OPTIONS = {"size": size_option(6)}
    BLOCK = "block"
    WORDS = (BLOCK,)
    POSITION_FIELDS = ("blocker",)
    # No AMAF (a cell's worth depends on the ball); half of each move to proof-number
    # search, whose numbers choose among unproven moves (the auction's traps): docs/ai.md
    MCTS = {"rave": False, "c": 0.7, "pns": 0.5, "pns_pick": 1}
    kernels = KERNELS

    def position(self, stones: list[str], ball: str, to_move: int = 0, blocker: int | None = None) -> State:
        """As :meth:`PushGame.position`; ``blocker`` (0 or 1) starts in the
        main phase with that player as Blocker, None in the auction."""
        s = self.position_array(stones, ball, to_move)
        if blocker is not None:
            if blocker not in (0, 1):
                raise ValueError(f"blocker is 0, 1 or None, got {blocker!r}")
            s[ROLE] = blocker
        return State(self, s)

    def roles(self, s: np.ndarray) -> list[str | None]:
        """``['blocker', 'escaper']`` by player, ``[None, None]`` during the auction."""
        blocker = int(s[ROLE])
        if blocker < 0:
            return [None, None]
        return ["blocker" if p == blocker else "escaper" for p in (0, 1)]

    def record_extra(self, s: np.ndarray) -> dict[str, Any]:
        return {"roles": self.roles(s)}

    def rules_status(self, state, legend: bool = True) -> str:
        s = state.array
        roles = self.roles(s)

        def who(p: int) -> str:
            role = roles[p]
            return f"{role.capitalize()} ({self.PLAYERS[p]})" if role else self.PLAYERS[p]

        if state.is_over():
            w = state.winner()
            ball = self.ball(s)
            how = f"the ball on the edge, {self.topology.name(ball)}" if self.topology.edge[ball] else "stalemate"
            return f"{who(w)} wins{' in the auction' if roles[0] is None else ''} ({how})"
        p = state.to_move
        if roles[0] is None:
            how = " (a drop, or 'block' to become the Blocker)" if legend else ""
            return f"auction: {self.PLAYERS[p]} to move{how}"
        return f"{who(p)} to move" + ("; the Escaper wins on any edge" if legend else "")

    def edge_winner(self, s: np.ndarray) -> int | None:
        """The Escaper once the ball is on the edge in the main phase (in the auction the mover loses)."""
        return 1 - int(s[ROLE]) if s[ROLE] >= 0 and self.topology.edge[self.ball(s)] else None

    def rules_end_reason(self, s: np.ndarray) -> str:
        """The ball on the ``edge`` or ``stalemate`` (no legal drop), with
        ``auction-`` before it where the auction was still on (the mover lost)."""
        how = "edge" if self.topology.edge[self.ball(s)] else "stalemate"
        return how if s[ROLE] >= 0 else f"auction-{how}"

    def opening_words(self) -> tuple[str, ...]:
        """The auction's end."""
        return (self.BLOCK,)

    EDGE_STYLE = (("#2b9a48", "#"),)  # every edge: the Escaper's goal

    def edge_legend(self, s: np.ndarray) -> list[tuple[svg_render.Swatch, str]]:
        roles = self.roles(s)
        escaper = f" ({self.PLAYERS[roles.index('escaper')]})" if roles[0] else ""
        return [(self.EDGE_STYLE[0][0], f"edges: the Escaper's goal{escaper}")]

    def edge_kind(self, c: int, slot: int) -> int | None:
        return 0 if self.topology.nbr[c, slot] < 0 else None

    PLANES = ("stones", "ball", "empty", "edge", "blocker", "escaper", "auction")
