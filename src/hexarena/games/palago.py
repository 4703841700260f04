"""Palago / Lambo (Cameron Browne, 2008): bridge tiles on an open plane.

Every tile has six corners coloured alternately blue (even) and white
(odd); orientation k joins blue corners 2k and 2k+2 by a bridge, white
corners 2k+3 and 2k+5 by another, and leaves tips at 2k+1 (white) and
2k+4 (blue).  Groups live on the lattice's vertices; a group is closed when
each of its vertices has all three cells round it filled.  Light (player 0)
owns white, Dark (player 1) blue; a closed group of your colour with a
bridge wins (RULES.md § Palago / Lambo has every ruling).

The board is a hexagon of radius ``tiles - 1`` cells round the start tile
(the farthest a tile can be).  This module is the game's facade: the board,
the options, notation, facts and status.  The rules kernels are in
:mod:`hexarena.games.palago_rules`, the random playouts (MCTS ``enhanced``'s
closing ones among them) in :mod:`hexarena.games.palago_playouts`, the
pictures in :mod:`hexarena.games.palago_draw`.

>>> import hexarena
>>> s = hexarena.load("palago", tiles=8).new_state()
>>> for m in ("2,0:1", "1,1:0", "-1,1:2"): _ = s.play(m)
>>> s.moves()
['2,0:1', '1,1:0', '-1,1:2']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..board import STEP as BOARD_STEP
from ..board import Topology
from ..kernels import kernel_set, njit
from .base import DRAW, STEP, TURN, WINNER, Game, IllegalMove, quoted
from .options import Option, choice, int_between
from .palago_draw import board_image, board_svg, board_text, tile_picture
from .palago_playouts import closing_playout, playout, recorded_playout
from .palago_position import identity, read, write
from .position import Head
from .palago_rules import (ALLOW, BODY, DOUBLE_WIN, EDGE_STEP, EXHAUSTED, EXHAUSTION, FIRST, HOW, LIGHT, MAX_TILES,
                           PLACED, VARIANTS, WIN_NODE, Tables, apply, exhaustion_scores, legal, owner, start)


@njit
def planes(s, t, player, out, cols):
    """The observation planes (``Game.planes``): tiles, each orientation,
    tiles of the turn in progress, cells where a tile may go now, whether
    ``player`` owns white (on every cell) and the share of the pool left.
    Only the nonzero values are written, from the tiles placed and the legal
    list (``out`` holds zeros before): the board has thousands of cells, a
    game at most ``tiles`` tiles."""
    light, left = player == LIGHT, (t.tiles - s[PLACED]) / t.tiles
    for c in range(t.ncells):
        j = cols[c]
        out[6, j], out[7, j] = light, left
    for tile in range(s[PLACED]):
        j = cols[s[t.tcell + tile]]
        out[0, j] = out[1 + s[t.tori + tile], j] = 1.0
    if s[WINNER] < 0 and s[STEP]:
        out[4, cols[s[FIRST]]] = 1.0
    legal_now = np.empty(3 * t.ncells, dtype=np.int32)
    for i in range(legal(s, t, legal_now)):
        out[5, cols[legal_now[i] // 3]] = 1.0


KERNELS = kernel_set(legal, apply, playout, recorded_playout=recorded_playout, pattern_playout=closing_playout,
                     identity=identity, planes=planes)


# --- the board ------------------------------------------------------------------------------

def cell_coordinates(radius: int) -> list[tuple[int, int]]:
    """The doubled-width (x, y) of every cell within ``radius`` steps of the start tile, row by row.

    >>> cell_coordinates(1)
    [(-1, -1), (1, -1), (-2, 0), (0, 0), (2, 0), (-1, 1), (1, 1)]
    """
    out = []
    for y in range(-radius, radius + 1):
        reach = 2 * radius - abs(y)
        out += [(x, y) for x in range(-reach, reach + 1, 2)]
    return out


_TOPOLOGIES: dict[int, tuple[Topology, np.ndarray]] = {}


def plane(radius: int) -> tuple[Topology, np.ndarray]:
    """The hexagon of ``radius`` cells round the start tile as a Topology (names ``x,y``), and the
    neighbour table across each tile edge (NE, E, SE, SW, W, NW) with ``ncells`` off the board."""
    if radius not in _TOPOLOGIES:
        xy = np.array(cell_coordinates(radius), dtype=np.int32)
        n = len(xy)
        where = {(int(x), int(y)): c for c, (x, y) in enumerate(xy)}
        nbr = np.full((n, 6), -1, dtype=np.int32)
        across = np.full((n, 6), n, dtype=np.int32)
        for c, (x, y) in enumerate(xy.tolist()):
            for d, (dx, dy) in enumerate(BOARD_STEP):
                nbr[c, d] = where.get((x + dx, y + dy), -1)
            for e, (dx, dy) in enumerate(EDGE_STEP):
                across[c, e] = where.get((x + dx, y + dy), n)
        corners = [(-radius, -radius), (radius, -radius), (2 * radius, 0), (radius, radius), (-radius, radius),
                   (-2 * radius, 0)]
        steps = [(2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)]
        sides = tuple(tuple(where[(cx + i * dx, cy + i * dy)] for i in range(radius + 1))
                      for (cx, cy), (dx, dy) in zip(corners, steps, strict=True))
        perimeter = tuple(c for side in sides for c in side[:-1]) if radius else (0,)
        edge = np.zeros(n, dtype=np.bool_)
        edge[list(perimeter)] = True
        names = tuple(f"{x},{y}" for x, y in xy.tolist())
        topo = Topology("palago plane", names, xy, nbr, np.zeros((n, 6), dtype=np.int8), edge, sides, perimeter,
                        {name: c for c, name in enumerate(names)})
        _TOPOLOGIES[radius] = (topo, across)
    return _TOPOLOGIES[radius]


def parse_flag(text: str) -> bool:
    """``"true"`` or ``"false"`` in any case; ValueError otherwise."""
    if text.lower() not in ("true", "false"):
        raise ValueError(text)
    return text.lower() == "true"


# x, y and k read the same way: any digits (leading zeros allowed), the move text being 64 characters at most
MOVE = re.compile(r"(-?[0-9]+),(-?[0-9]+):([0-9]+)")
COLOURS = ("white", "blue")  # each player's colour


class Palago(Game):
    """Palago / Lambo: Light (white) and Dark (blue) place bridge tiles, 1 then 2 a turn, to close a group."""

    name = "palago"
    BENCH_SETUPS = (("48 tiles, standard", {}), ("48 tiles, eat-enemy", {"variant": "eat-enemy"}),
                    ("48 tiles, must-contain", {"variant": "must-contain"}))
    SLOW_TO_COMPILE = True
    PLAYERS = ("light", "dark")
    OPTIONS = {
        "variant": choice("standard", VARIANTS, "what wins: a closed group with a bridge (standard), a group "
                                                "eating two closed enemy groups, a closed group holding one"),
        "anywhere": Option(False, parse_flag, lambda v: isinstance(v, bool), "true | false",
                           "a turn's two tiles need not be next to each other"),
        "eat_size": int_between(0, 0, MAX_TILES, "eat-enemy: the fewest bridges an eaten group has"),
        "exhausted": choice("largest", EXHAUSTION, "an empty pool: the largest group wins (Lambo), or a draw"),
        "tiles": int_between(48, 2, MAX_TILES, "tiles in the pool, the start tile included"),
    }
    PLANES = ("tile", "orientation 0", "orientation 1", "orientation 2", "placed this turn", "playable now",
              "own colour is white", "share of the pool left")
    OBSERVATION_FORM = "grid"
    MOVE_SEPARATOR = " "
    POSITION_FIELDS = ("how", "group")
    # AMAF misleads (a tile's worth depends on its neighbours' orientations): against uct, 20 games at 0.25 s a
    # move, enhanced scored 60%, with rave_bias=0.1 40%, without RAVE at c=0.5 75%, at c=0.3 85%; with the
    # closing playouts (patterns, on in enhanced) 94% over 80 games (docs/palago.md)
    MCTS = {"rave": False, "c": 0.3}
    END_KINDS = {"largest-group": "exhaustion", "pool-exhausted": "exhaustion"}  # the pool of tiles ran out
    DRAW_MOVES = True
    kernels = KERNELS
    tables: Tables

    @classmethod
    def validate_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        out = super().validate_options(options)
        if out["eat_size"] and out["variant"] != "eat-enemy":
            raise ValueError(f"option 'eat_size' of {cls.name} applies to variant=eat-enemy only "
                             f"(variant is {out['variant']})")
        return out

    def setup(self) -> None:
        o = self.options
        self.radius = o["tiles"] - 1
        self.topology, across = plane(self.radius)
        n, tiles = self.topology.ncells, o["tiles"]
        grid, gridwords = BODY, (n + 1 + 3) // 4
        tcell = grid + gridwords
        tori = tcell + tiles
        tturn = tori + tiles
        par = tturn + tiles
        nodes = 6 * tiles
        offsets = [par + i * nodes for i in range(7)]
        self.tables = Tables(across, self.topology.xy, n, tiles, self.topology.index("0,0"),
                             VARIANTS.index(o["variant"]), o["anywhere"], o["eat_size"],
                             o["exhausted"] == "draw", grid, gridwords, tcell, tori, tturn, *offsets)
        self.num_actions = 3 * n
        self.state_size = par + 7 * nodes
        self.max_game_length = tiles - 1

    def initial_array(self) -> np.ndarray:
        s = super().initial_array()
        start(s, self.tables)
        return s

    def write_position(self, s: np.ndarray) -> tuple[str, dict[str, str]]:
        """The box of tiles ``X,Y:ROWS`` and, once over, ``how=`` and ``group=`` (:mod:`.palago_position`)."""
        return write(self, s)

    def read_position(self, head: Head) -> np.ndarray:
        return read(self, head)

    # facts ------------------------------------------------------------------------------------
    def tiles(self, s: np.ndarray) -> list[tuple[int, int]]:
        """(cell, orientation) of every tile on the table, in the order placed (the start tile first)."""
        t = self.tables
        return [(int(s[t.tcell + i]), int(s[t.tori + i])) for i in range(int(s[PLACED]))]

    def grid(self, s: np.ndarray) -> np.ndarray:
        """The tile number on every cell (0 for none; the last entries stand for off the board), unpacked from
        the position's grid words (a byte a cell, the lowest byte first)."""
        t = self.tables
        words = s[t.grid: t.grid + t.gridwords].astype(np.int64)
        return ((words[:, None] >> np.arange(0, 32, 8)) & 255).ravel()

    def cell_of(self, x: int, y: int) -> int | None:
        """The cell at doubled-width ``x,y``, or None beyond the board's reach."""
        return self.topology.find(f"{x},{y}")

    def root(self, s: np.ndarray, node: int) -> int:
        t = self.tables
        while s[t.par + node] != node:
            node = int(s[t.par + node])
        return node

    def groups(self, s: np.ndarray) -> dict[int, list[int]]:
        """Every group: its root node -> its nodes (tile * 6 + corner)."""
        out: dict[int, list[int]] = {}
        for node in range(6 * int(s[PLACED])):
            out.setdefault(self.root(s, node), []).append(node)
        return out

    def group_facts(self, s: np.ndarray, root: int) -> dict[str, Any]:
        """A group's owner, bridges, open count, whether closed, and what it has eaten."""
        t = self.tables
        return {"owner": owner(root), "bridges": int(s[t.bridges + root]), "open": int(s[t.opens + root]),
                "closed": s[t.opens + root] == 0, "eats": int(s[t.eats + root]), "eatmax": int(s[t.eatmax + root])}

    def remaining(self, s: np.ndarray) -> int:
        """Tiles left in the pool."""
        return self.options["tiles"] - int(s[PLACED])

    def open_cells(self, s: np.ndarray) -> list[int]:
        """The empty cells next to a tile (where tiles may go, rules permitting), in cell order."""
        grid = self.grid(s)
        return sorted({m for c, _ in self.tiles(s) for m in self.topology.neighbours(c) if not grid[m]})

    def turn_cells(self, s: np.ndarray) -> list[int]:
        """The cells of the tiles placed in the turn in progress, or, between turns, of the last turn."""
        t = self.tables
        turn = int(s[TURN]) if (s[STEP] or s[WINNER] >= 0) else int(s[TURN]) - 1
        return [c for i, (c, _) in enumerate(self.tiles(s)) if i and s[t.tturn + i] == turn]

    # notation ---------------------------------------------------------------------------------
    def action_name(self, s: np.ndarray, action: int) -> str:
        c, k = divmod(int(action), 3)
        return f"{self.topology.name(c)}:{k}"

    def parse_move(self, s: np.ndarray, text: str, legal: Sequence[int]) -> int:
        m = MOVE.fullmatch(text.strip(" "))
        if not m:
            raise self.malformed(text, "a tile 'x,y:k': its doubled-width position from the start tile 0,0 "
                                       "(x + y even, e.g. 2,0 or -1,1) and orientation k of 0, 1 or 2")
        x, y, k = map(int, m.groups())
        if (x + y) % 2 or k > 2:
            what = "x + y must be even" if (x + y) % 2 else "the orientation k is 0, 1 or 2"
            raise self.malformed(text, f"a tile 'x,y:k' where {what}")
        c = self.cell_of(x, y)
        action = 3 * c + k if c is not None else -1
        if action in legal:
            return action
        raise IllegalMove(self.why_illegal(s, f"{x},{y}:{k}", c))

    def why_illegal(self, s: np.ndarray, text: str, cell: int | None = None) -> str:
        t = self.tables
        grid = self.grid(s)
        if cell is None or grid[cell] == 0 and not self.next_to_tile(s, cell):
            return f"{quoted(text)} is not next to a placed tile: a tile goes next to one already on the table"
        if grid[cell]:
            k = int(s[t.tori + grid[cell] - 1])
            return f"{quoted(text)}: {self.topology.name(cell)} holds a tile already ({self.topology.name(cell)}:{k})"
        first = int(s[FIRST])
        if s[STEP] == 1 and not self.options["anywhere"] and cell not in self.topology.neighbours(first):
            return (f"{quoted(text)} is not next to this turn's first tile at {self.topology.name(first)}: a turn's "
                    f"two tiles touch (option anywhere lifts this)")
        return (f"{quoted(text)} fills a hole without ending the game, leaving no place next to it for the "
                f"turn's second tile: a turn's first tile fills a hole only if it wins or loses the game")

    def next_to_tile(self, s: np.ndarray, cell: int) -> bool:
        grid = self.grid(s)
        return any(grid[m] for m in self.topology.neighbours(cell))

    def move_target(self, s: np.ndarray, action: int) -> int | None:
        """The cell a tile goes on (three orientations share it: the player picks one in the chooser)."""
        return int(action) // 3

    def move_picture(self, s: np.ndarray, action: int) -> str | None:
        """The tile in the action's orientation, alone (the web client's chooser shows it)."""
        return tile_picture(int(action) % 3)

    # status, scores, observations ---------------------------------------------------------------------
    def deciding_group(self, s: np.ndarray) -> list[int]:
        """The nodes of the group that won (or, on exhaustion, the winner's largest group)."""
        if s[WIN_NODE] < 0:
            return []
        return self.groups(s)[self.root(s, int(s[WIN_NODE]))]

    def rules_status(self, state) -> str:
        s = state.array
        if state.is_over():
            return self.ending(s)
        p = state.to_move
        left = self.remaining(s)
        return (f"{self.PLAYERS[p]} ({COLOURS[p]}) to move: turn {state.turn}, tile {state.step + 1} of "
                f"{int(s[ALLOW])}; {left} tile{'s' if left != 1 else ''} in the pool")

    def rules_end_reason(self, s: np.ndarray) -> str:
        """The winning group: ``closed-group`` (standard), ``eaten`` (eat-enemy),
        ``contained`` (must-contain), ``double-win`` (the last tile made
        winners for both); or the empty pool: ``largest-group`` (won or tied
        on it), ``pool-exhausted`` (a draw by option)."""
        how = int(s[HOW])
        if how == EXHAUSTED:
            return "pool-exhausted" if self.options["exhausted"] == "draw" else "largest-group"
        if how == DOUBLE_WIN:
            return "double-win"
        return {"standard": "closed-group", "eat-enemy": "eaten", "must-contain": "contained"}[self.options["variant"]]

    def ending(self, s: np.ndarray) -> str:
        """How the game ended, in words."""
        how, w = int(s[HOW]), int(s[WINNER])
        name = self.PLAYERS[w] if w in (0, 1) else ""
        variant = self.options["variant"]
        if how == EXHAUSTED:
            if self.options["exhausted"] == "draw":
                return "the pool is empty: a draw"
            out, _ = exhaustion_scores(s.copy(), self.tables)
            measure = {"standard": "largest group", "eat-enemy": "largest eaten group, then most eaten",
                       "must-contain": "largest closed group, then most closed groups"}[variant]
            figures = f"({out[0, 0]}, {out[0, 1]} against {out[1, 0]}, {out[1, 1]})" if variant != "standard" else \
                f"({out[0, 0]} bridges against {out[1, 0]})"
            if w == DRAW:
                return f"the pool is empty and the {measure} ties {figures}: a draw"
            return f"the pool is empty: {name} wins with the {measure} {figures}"
        facts = self.group_facts(s, self.root(s, int(s[WIN_NODE])))
        what = {"standard": f"a closed {COLOURS[facts['owner']]} group with {facts['bridges']} bridge"
                            f"{'s' if facts['bridges'] != 1 else ''}",
                "eat-enemy": f"a {COLOURS[facts['owner']]} group eating {facts['eats']} closed enemy groups",
                "must-contain": f"a closed {COLOURS[facts['owner']]} group holding {facts['eats']} closed enemy "
                                f"group{'s' if facts['eats'] != 1 else ''}"}[variant]
        if how == DOUBLE_WIN:
            loser = self.PLAYERS[1 - w]
            return f"the last tile made winners for both: {name} wins ({what}; {loser} moved)"
        return f"{name} wins with {what}"

    def scores(self, s: np.ndarray) -> list[float] | None:
        """The bridges of each player's largest group."""
        best = [0, 0]
        t = self.tables
        for node in range(6 * int(s[PLACED])):
            if s[t.par + node] == node:
                p = owner(node)
                best[p] = max(best[p], int(s[t.bridges + node]))
        return [float(b) for b in best]


    # pictures ---------------------------------------------------------------------------------
    def ascii(self, state) -> str:
        """Rows by y at the left, x above; a tile is its orientation digit, in brackets for the turn in
        progress (or the last one), ``.`` an empty cell where a tile may go now."""
        return board_text(self, state)

    def svg(self, state, hints: bool = False, **kw: Any) -> str:
        """The tiles as the pieces look (blue and white bridges and tips), closed groups outlined in
        orange, the deciding group in red, this turn's (or the last turn's) tiles ringed."""
        return board_svg(self, state, hints)

    def rgb(self, state, player: int = 0, radius: float = 12.0) -> np.ndarray:
        """The tiles with their patterns as an image, cropped to them (:func:`hexarena.render.raster.rgb`);
        the same for both players."""
        return board_image(self, state, radius)

