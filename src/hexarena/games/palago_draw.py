"""Palago's pictures: the board as text, as SVG (the tiles as the pieces look) and as an RGB image (the same
patterns), and one tile alone for the web client's orientation chooser."""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from html import escape
from typing import TYPE_CHECKING

import numpy as np

from ..render import raster
from ..render import svg as svg_render
from .palago_rules import CHORD_EDGES, REGION_CHORDS

if TYPE_CHECKING:
    from .base import State
    from .palago import Palago


def bounds(game: Palago, s: np.ndarray, margin: int = 1) -> tuple[int, int, int, int]:
    """(xmin, xmax, ymin, ymax) of the tiles placed, widened by ``margin`` cells."""
    xy = game.topology.xy[[c for c, _ in game.tiles(s)]]
    return (int(xy[:, 0].min()) - 2 * margin, int(xy[:, 0].max()) + 2 * margin,
            int(xy[:, 1].min()) - margin, int(xy[:, 1].max()) + margin)


# --- text ---------------------------------------------------------------------------------------

def x_axis(x0: int, x1: int, width: int) -> list[str]:
    """The two lines of x labels above the rows (even x, then odd), each ending above its tiles' digit."""
    lines = []
    for parity in (0, 1):
        line = [" "] * width
        for x in range(x0, x1 + 1):
            if x % 2 == parity:
                label = str(x)
                at = 2 * (x - x0) + 2 - len(label)  # the last digit above the tile's digit
                for i, ch in enumerate(label):
                    if 0 <= at + i < width:
                        line[at + i] = ch
        lines.append("     " + "".join(line).rstrip())
    return lines


def board_text(game: Palago, state: State) -> str:
    """Rows by y at the left, x above; a tile is its orientation digit, in brackets for the turn in
    progress (or the last one), ``.`` an empty cell where a tile may go now (see :meth:`Palago.ascii`)."""
    s = state.array
    t = game.tables
    x0, x1, y0, y1 = bounds(game, s)
    marked = set(game.turn_cells(s))
    playable = {a // 3 for a in state.legal_actions()}
    width = 2 * (x1 - x0) + 3
    lines = x_axis(x0, x1, width)
    for y in range(y0, y1 + 1):
        line = [" "] * width
        for x in range(x0, x1 + 1):
            if (x + y) % 2:
                continue
            c = game.cell_of(x, y)
            if c is None:
                continue
            tile = int(game.grid(s)[c])
            if tile:
                k = str(int(s[t.tori + tile - 1]))
                token = f"[{k}]" if c in marked else f" {k} "
            else:
                token = " . " if c in playable else "   "
            at = 2 * (x - x0)
            line[at: at + 3] = token
        lines.append(f"{y:>4} " + "".join(line).rstrip())
    lines.append("tile k: blue bridge joins corners 2k and 2k+2 (corner 0 at the top, clockwise)")
    return "\n".join(lines) + "\n" + game.status(state)


# --- SVG ----------------------------------------------------------------------------------------

SIZE = 26.0  # a tile's circumradius in px
BLUE, WHITE, EDGE, SEA = "#2f6db5", "#f7f7f2", "#3a3a3a", "#d9cfb8"
CLOSED, DECIDING = "#e08a1e", "#d0202a"
OPEN = "#e8dfca"  # an empty cell next to the tiles


def _corner(cx: float, cy: float, i: int) -> tuple[float, float]:
    a = math.radians(60 * i - 90)
    return cx + SIZE * math.cos(a), cy + SIZE * math.sin(a)


def _mid(cx: float, cy: float, e: int) -> tuple[float, float]:
    (ax, ay), (bx, by) = _corner(cx, cy, e % 6), _corner(cx, cy, (e + 1) % 6)
    return (ax + bx) / 2, (ay + by) / 2


def _pt(p: tuple[float, float]) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


def tile_svg(cx: float, cy: float, k: int, name: str | None = None) -> str:
    """One tile: white ground, the blue bridge (corners 2k to 2k+2, round the white tip), the blue tip; on the
    board (``name``: its cell's), its ground a ``polygon.cell`` named for the web client, as an open cell is."""
    r = SIZE / 2
    hexagon = " ".join(_pt(_corner(cx, cy, i)) for i in range(6))
    named = f'class="cell" data-cell="{name}" data-content="tile {k}" ' if name is not None else ""
    a, b = 2 * k, 2 * k + 4
    bridge = (f"M{_pt(_mid(cx, cy, a + 5))} L{_pt(_corner(cx, cy, a))} L{_pt(_mid(cx, cy, a))} "
              f"A{r:.1f},{r:.1f} 0 0 0 {_pt(_mid(cx, cy, a + 1))} L{_pt(_corner(cx, cy, a + 2))} "
              f"L{_pt(_mid(cx, cy, a + 2))} Z")
    tip = f"M{_pt(_corner(cx, cy, b))} L{_pt(_mid(cx, cy, b))} A{r:.1f},{r:.1f} 0 0 1 {_pt(_mid(cx, cy, b - 1))} Z"
    return (f'<polygon {named}points="{hexagon}" fill="{WHITE}"/><path d="{bridge}" fill="{BLUE}"/>'
            f'<path d="{tip}" fill="{BLUE}"/><polygon points="{hexagon}" fill="none" stroke="{EDGE}" '
            f'stroke-width="1.2"/>')


def open_cell_svg(cx: float, cy: float, name: str) -> str:
    """An empty cell next to the tiles: a clickable ``polygon.cell`` named ``name`` for the web client, with
    the name written small."""
    hexagon = " ".join(_pt(_corner(cx, cy, i)) for i in range(6))
    return (f'<polygon class="cell" data-cell="{name}" data-content="empty" points="{hexagon}" fill="{OPEN}" '
            f'stroke="#b3a585" stroke-width="1" stroke-dasharray="3,2"/><text x="{cx:.1f}" y="{cy + 3:.1f}" '
            f'text-anchor="middle" font-size="8" fill="#8a7d62">{name}</text>')


@lru_cache(maxsize=3)
def tile_picture(k: int) -> str:
    """A standalone SVG of one tile of orientation k."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 56 56" width="56" height="56">'
            f'{tile_svg(28.0, 28.0, k)}</svg>')


def chord_svg(cx: float, cy: float, k: int, j: int, colour: str, width: float) -> str:
    """Chord j (0: round the white tip, 1: between the bridges, 2: round the blue tip) of a tile, stroked."""
    e0, e1 = ((c + 2 * k) % 6 for c in CHORD_EDGES[j])
    if j == 1:
        d = f"M{_pt(_mid(cx, cy, e0))} L{_pt(_mid(cx, cy, e1))}"
    else:
        r = SIZE / 2
        d = f"M{_pt(_mid(cx, cy, e0))} A{r:.1f},{r:.1f} 0 0 0 {_pt(_mid(cx, cy, e1))}"
    return f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-linecap="round"/>'


def group_outline(game: Palago, s: np.ndarray, nodes: list[int], at: Callable[[int], tuple[float, float]],
                  colour: str, width: float) -> list[str]:
    """The boundary chords of a group's regions."""
    out, seen = [], set()
    for node in nodes:
        tile, corner = divmod(node, 6)
        c, k = int(s[game.tables.tcell + tile]), int(s[game.tables.tori + tile])
        for j in REGION_CHORDS[(corner - 2 * k) % 6]:
            if j >= 0 and (tile, j) not in seen:
                seen.add((tile, j))
                out.append(chord_svg(*at(c), k, j, colour, width))
    return out


def pieces(game: Palago, state: State, at: Callable[[int], tuple[float, float]], hints: bool) -> list[str]:
    """The board's SVG elements, cell c drawn at ``at(c)``: the open cells, the tiles, the closed and the
    deciding groups' outlines, the rings on this (or the last) turn's tiles and, with ``hints``, dots on
    the cells a tile may go on now."""
    s = state.array
    out = []
    for c in game.open_cells(s):
        out.append(open_cell_svg(*at(c), game.topology.name(c)))
    for c, k in game.tiles(s):
        out.append(tile_svg(*at(c), k, game.topology.name(c)))
    deciding = game.deciding_group(s)
    for root, nodes in game.groups(s).items():
        if s[game.tables.opens + root] == 0 and root not in deciding:
            out += group_outline(game, s, nodes, at, CLOSED, 2.5)
    out += group_outline(game, s, deciding, at, DECIDING, 4.0)
    for c in game.turn_cells(s):
        cx, cy = at(c)
        out.append(f'<circle class="last" cx="{cx:.1f}" cy="{cy:.1f}" r="{SIZE * 0.25:.1f}" fill="none" '
                   f'stroke="{svg_render.LAST}" stroke-width="2.5"/>')
    if hints:
        for c in sorted({a // 3 for a in state.legal_actions()}):
            cx, cy = at(c)
            out.append(f'<circle class="hint" cx="{cx:.1f}" cy="{cy:.1f}" r="{SIZE * 0.15:.1f}" fill="#2a7"/>')
    return out


def board_svg(game: Palago, state: State, hints: bool) -> str:
    """The SVG of a Palago position (see :meth:`Palago.svg`)."""
    s = state.array
    x0, x1, y0, y1 = bounds(game, s)
    dx, dy = SIZE * math.sqrt(3) / 2, SIZE * 1.5
    title = game.status(state)
    width = max((x1 - x0) * dx + 2 * SIZE, svg_render.text_width(title, svg_render.TITLE_SIZE) + 16, 320)
    legend = [((BLUE, EDGE), "blue: dark (player 2)"), ((WHITE, EDGE), "white: light (player 1)"),
              (("none", CLOSED), "closed group"), (("none", DECIDING), "deciding group"),
              (("none", svg_render.LAST), "this or last turn's tiles")]
    rows = svg_render.legend_rows(legend, width)
    board_h = (y1 - y0) * dy + 2 * SIZE
    height = 28 + board_h + 18 * len(rows) + 8
    ox = (width - (x1 - x0) * dx) / 2 - x0 * dx
    oy = 28 + SIZE - y0 * dy

    def at(c: int) -> tuple[float, float]:
        x, y = game.topology.xy[c]
        return ox + int(x) * dx, oy + int(y) * dy

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
           f'<rect width="100%" height="100%" fill="{SEA}"/>',
           f'<text x="{width / 2:.1f}" y="18" text-anchor="middle" font-size="{svg_render.TITLE_SIZE}">'
           f'{escape(title)}</text>']
    out += pieces(game, state, at, hints)
    top = 28 + board_h
    for i, row in enumerate(rows):
        out.append(svg_render.legend_row(row, width, top + 18 * i))
    out.append("</svg>")
    return "\n".join(out)



# --- RGB image ----------------------------------------------------------------------------------

def board_image(game: Palago, state: State, radius: float = 12.0) -> np.ndarray:
    """``uint8[H, W, 3]``: the tiles (a tile's circumradius ``radius`` px) with their patterns as
    :func:`tile_svg` draws them, the open cells around them, and rings in this (or the last) turn's
    tiles, cropped to the tiles and a cell's margin."""
    s = state.array
    x0, x1, y0, y1 = bounds(game, s)
    dx, dy, pad = radius * math.sqrt(3) / 2, radius * 1.5, 2.0
    h, w = int(math.ceil((y1 - y0) * dy + 2 * (radius + pad))), int(math.ceil((x1 - x0) * dx + 2 * (dx + pad)))
    image = np.empty((h, w, 3), dtype=np.uint8)
    image[:] = raster.colour(SEA)

    def at(c: int) -> tuple[float, float]:
        x, y = game.topology.xy[c]
        return pad + dx + (int(x) - x0) * dx, pad + radius + (int(y) - y0) * dy

    for c in game.open_cells(s):
        box, _, _, inside = raster.hexagon_pixels(image, *at(c), radius * 0.9)
        image[box][inside] = raster.colour(OPEN)
    for c, k in game.tiles(s):
        tile_pixels(image, *at(c), radius, k)
    ring, half = radius * 0.25, max(1.0, radius * 0.05)
    for c in game.turn_cells(s):
        box, u, v, _ = raster.hexagon_pixels(image, *at(c), radius)
        image[box][np.abs(np.hypot(u, v) - ring) <= half] = raster.colour(svg_render.LAST)
    return image


def tile_pixels(image: np.ndarray, cx: float, cy: float, radius: float, k: int) -> None:
    """Paint one tile of orientation ``k`` centred at (cx, cy) as :func:`tile_svg` draws it: the half of
    the hexagon on corners 2k..2k+2 blue but for the white tip round corner 2k+1, the other half white but
    for the blue tip round the opposite corner 2k+4 (each tip the part of a disc of half the radius round
    its corner), and the hexagon's rim."""
    box, u, v, inside = raster.hexagon_pixels(image, cx, cy, radius)
    angle = math.radians(60 * (2 * k + 1) - 90)
    wx, wy = radius * math.cos(angle), radius * math.sin(angle)  # the white tip's corner; the blue tip's is -w
    tip = (radius / 2) ** 2
    bridge_half = u * wx + v * wy > 0  # the line between the bridges runs through the centre, across w
    blue = np.where(bridge_half, (u - wx) ** 2 + (v - wy) ** 2 > tip, (u + wx) ** 2 + (v + wy) ** 2 <= tip)
    patch = image[box]
    patch[inside] = raster.colour(WHITE)
    patch[inside & blue] = raster.colour(BLUE)
    patch[inside & ~raster.inside_hexagon(u, v, radius - 1.2)] = raster.colour(EDGE)
