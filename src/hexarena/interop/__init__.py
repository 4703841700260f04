"""Bridges to research frameworks: :mod:`hexarena.interop.pettingzoo` (an
AEC environment), :mod:`hexarena.interop.openspiel` (pyspiel games) and
:mod:`hexarena.interop.vector_env` (batched Gymnasium and PettingZoo-style
environments).  All are generic over the game protocol, so every game in
``hexarena.GAMES`` is available through them; see docs/research.md."""

from __future__ import annotations

from ..games.base import Game

AGENTS = ("player_0", "player_1")  # the agents of the PettingZoo interfaces: the game's players 0 and 1


def max_game_length(game: Game) -> int:
    """An upper bound on the atomic moves of one game.

    A game may state its own bound as ``Game.max_game_length`` (an int);
    where it is None (the default) the bound is ``4 * num_actions``, which covers every placement
    game whose cells fill up (each cell once, plus a pass, ``end`` or
    opening answer between placements).

    >>> import hexarena
    >>> max_game_length(hexarena.load("projective-hex", size=2))
    60
    """
    own = game.max_game_length
    return own if own is not None else 4 * game.num_actions
