"""RGB images of a game's board.

:func:`rgb` draws a game's own picture where the game has one (a method
``rgb(state, player, radius)``: Palago draws its tiles' patterns), else
:func:`plane_image`: each cell a pointy-topped hexagon at its doubled
coordinates, filled by the first of the game's planes (seen by ``player``)
that is set on the cell and varies over the board (a plane equal on every
cell is a global flag, not a cell's content): plane 0 (``player``'s pieces)
near-black, plane 1 (the opponent's) near-white, plane 2 board-coloured,
then red, blue, green, ...  A cell with no such plane set is board-coloured.

>>> import hexarena
>>> state = hexarena.load("projective-hex", size=2, opening="none").new_state()
>>> _ = state.play("a1")
>>> image = rgb(state)
>>> image.shape, image.dtype.name
((82, 88, 3), 'uint8')
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..games.base import State

BACKGROUND = (250, 248, 240)
BOARD = (232, 201, 142)
PALETTE = ((32, 32, 32), (244, 244, 244), BOARD, (208, 48, 48), (48, 96, 208), (48, 160, 80),
           (224, 160, 32), (144, 64, 176), (32, 176, 176))
ROOT3 = math.sqrt(3)


def colour(hex_code: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` as an (r, g, b) tuple."""
    return int(hex_code[1:3], 16), int(hex_code[3:5], 16), int(hex_code[5:7], 16)


def cell_colours(state: State, player: int = 0) -> np.ndarray:
    """``uint8[ncells, 3]``: each cell's colour (see the module docstring)."""
    planes = np.asarray(state.game.planes(state.array, player))
    colours = np.tile(np.array(BOARD, dtype=np.uint8), (planes.shape[1], 1))
    unset = np.ones(planes.shape[1], dtype=bool)
    for k, plane in enumerate(planes):
        if np.all(plane == plane[0]):
            continue
        here = unset & (plane > 0)
        colours[here] = PALETTE[k % len(PALETTE)]
        unset &= ~here
    return colours


def hexagon_pixels(image: np.ndarray, cx: float, cy: float, radius: float) -> tuple[tuple[slice, slice], np.ndarray,
                                                                                      np.ndarray, np.ndarray]:
    """The box of ``image`` round a pointy-topped hexagon of circumradius
    ``radius`` centred at (cx, cy): (its slices, each pixel's offsets u, v
    from the centre, and whether the pixel is inside the hexagon)."""
    y0, y1 = max(0, int(cy - radius)), min(image.shape[0], int(cy + radius) + 1)
    x0, x1 = max(0, int(cx - radius * ROOT3 / 2)), min(image.shape[1], int(cx + radius * ROOT3 / 2) + 1)
    py, px = np.mgrid[y0:y1, x0:x1]
    u, v = px - cx, py - cy
    return (slice(y0, y1), slice(x0, x1)), u, v, inside_hexagon(u, v, radius)


def inside_hexagon(u: np.ndarray, v: np.ndarray, radius: float) -> np.ndarray:
    """Whether offsets (u, v) from a pointy-topped hexagon's centre lie inside it."""
    au, av = np.abs(u), np.abs(v)
    return (au <= radius * ROOT3 / 2) & (av <= radius - au / ROOT3)


def rgb(state: State, player: int = 0, radius: float = 12.0) -> np.ndarray:
    """``uint8[H, W, 3]``: the board of ``state`` as an image, a cell's
    circumradius ``radius`` pixels (the game's own picture where it has one)."""
    own = state.game.rgb(state, player, radius)
    return own if own is not None else plane_image(state, player, radius)


def plane_image(state: State, player: int = 0, radius: float = 12.0) -> np.ndarray:
    """``uint8[H, W, 3]``: every cell of the board coloured from its planes."""
    topo = state.game.topology
    colours = cell_colours(state, player)
    dx, dy = radius * ROOT3 / 2, radius * 1.5  # one doubled-x unit, one row
    x = (topo.xy[:, 0] - topo.xy[:, 0].min()) * dx + dx + 2
    y = (topo.xy[:, 1] - topo.xy[:, 1].min()) * dy + radius + 2
    h, w = int(math.ceil(y.max() + radius + 2)), int(math.ceil(x.max() + dx + 2))
    image = np.empty((h, w, 3), dtype=np.uint8)
    image[:] = BACKGROUND
    inner = radius * 0.9  # leaves a background line between cells
    for c in range(topo.ncells):
        box, _, _, inside = hexagon_pixels(image, x[c], y[c], inner)
        image[box][inside] = colours[c]
    return image
