"""Every game's observation planes as the facades computed them in numpy
before the ``planes`` kernels (hexarena.games.*): the tests' reference for
the kernels' values.  ``reference_planes(game, s, player)`` has the shape and
meaning of ``game.planes(s, player)``; it reads the game only through its
facade's facts (stones, turns, the legal list), never through the kernels'
plane code."""

from __future__ import annotations

import numpy as np

from hexarena.games.base import STEP, TURN, WINNER, Game


def projective_hex(game, s, player):
    from hexarena.games.projective_hex import BLACK, COLOR0, WHITE
    board = game.stones(s)
    own = BLACK if game.colour(s, player) in (None, "black") else WHITE
    out = game.blank_planes()
    out[0], out[1], out[2], out[3] = board == own, board == 3 - own, board == 0, s[COLOR0] == 0
    return out


def lisbon(game, s, player):
    from hexarena.games.lisbon import ALLOW, BLACK
    board = game.stones(s)
    own = BLACK + player
    out = game.blank_planes()
    out[0], out[1], out[2] = board == own, board == 3 - own, board == 0
    out[3] = game.placed_turn(s) == s[TURN]
    out[4] = game.blocked(s)
    out[5] = (s[ALLOW] - s[STEP]) / s[ALLOW] if s[WINNER] < 0 else 0
    out[6] = game.topology.edge
    return out


def lhexus(game, s, player):
    from hexarena.games.lhexus import BLACK, COLOUR0, WHITE
    board = game.stones(s)
    mine = game.colour(s, player)
    own = WHITE if (mine is None and player == 0) or mine == "white" else BLACK
    out = game.blank_planes()
    out[0], out[1], out[2] = board == own, board == 3 - own, board == 0
    out[3] = (game.placed_turn(s) == s[TURN]) & (board > 0)
    out[4], out[5] = game.growth_cells(s)
    out[6] = s[COLOUR0] == 0
    return out


def iqishiqi(game, s, player):
    from hexarena.games.iqishiqi_rules import CORNER
    out = game.blank_planes()
    board, owner, ball = game.stones(s), game.owner, game.ball(s)
    out[0], out[2] = board != 0, board == 0
    out[1, ball], out[2, ball] = 1, 0
    out[3] = (owner == player) | (owner == CORNER)
    out[4] = (owner == 1 - player) | (owner == CORNER)
    return out


def weituweiqi(game, s, player):
    out = game.blank_planes()
    board, ball = game.stones(s), game.ball(s)
    out[0], out[2] = board != 0, board == 0
    out[1, ball], out[2, ball] = 1, 0
    out[3] = game.topology.edge
    roles = game.roles(s)
    out[4], out[5], out[6] = roles[player] == "blocker", roles[player] == "escaper", roles[player] is None
    return out


def hex_pushpin(game, s, player):
    from hexarena.games.hex_pushpin import PASSES, PIN_MARK
    board = game.stones(s)
    out = game.blank_planes()
    out[0], out[1], out[2], out[3] = board == 1 + player, board == 2 - player, board == PIN_MARK, board == 0
    out[4] = s[PASSES] > 0
    return out


def push_and_pull(game, s, player):
    from hexarena.games.push_and_pull_rules import BOARD, EMPTY, MOVED, NEUTRAL, PHASE, PLACE, STONE
    board = s[BOARD:BOARD + game.topology.ncells]
    out = game.blank_planes()
    out[0], out[1], out[2], out[3] = board == 2 + player, board == 3 - player, board == NEUTRAL, board == EMPTY
    if s[STONE] >= 0:
        out[4, int(s[STONE])] = 1
    out[5], out[6] = s[MOVED + player] == 0, s[MOVED + 1 - player] == 0
    out[7], out[8] = game.last_placement(s), s[PHASE] != PLACE
    return out


def palago(game, s, player):
    from hexarena.games.palago_rules import FIRST, LIGHT
    t = game.tables
    out = game.blank_planes()
    grid = game.grid(s)[: t.ncells]
    filled = grid > 0
    out[0] = filled
    ori = np.where(filled, s[t.tori + np.maximum(grid - 1, 0)], -1)
    for k in range(3):
        out[1 + k] = ori == k
    if s[WINNER] < 0 and s[STEP]:
        out[4, int(s[FIRST])] = 1
    legal = np.empty(game.num_actions, dtype=np.int32)
    n = game.kernels.legal(s.copy(), t, legal)
    out[5, legal[:n] // 3] = 1
    out[6] = player == LIGHT
    out[7] = game.remaining(s) / game.options["tiles"]
    return out


REFERENCES = {"projective-hex": projective_hex, "lisbon": lisbon, "lhexus": lhexus, "iqishiqi": iqishiqi,
              "weituweiqi": weituweiqi, "hex-pushpin": hex_pushpin, "push-and-pull": push_and_pull, "palago": palago}


def reference_planes(game: Game, s: np.ndarray, player: int) -> np.ndarray:
    """``float32[len(PLANES), ncells]`` as the game's numpy ``planes`` gave it."""
    return REFERENCES[game.name](game, s, player)
