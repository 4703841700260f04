"""SVG boards of pointy-topped hexagons at doubled coordinates."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from typing import Any

from ..board import STEP, Topology

R = 20.0  # hexagon circumradius in px
DX = R * math.sqrt(3) / 2  # half a cell's width: one doubled-x unit
DY = R * 1.5

NEUTRAL, BALL = 3, 4  # a neutral stone (Push and Pull); the Iqishiqi family's ball
STONE = {1: "#202020", 2: "#f4f4f4", NEUTRAL: "#9a9a9a", BALL: "#d8302b"}
# neutral pieces drawn over a cell: (fill, outline, text colour); markers are rings in their owner's colour
PIECE = {"pin": ("#c0392b", "#6e1f17", "#fff"), "marker1": ("#202020", "#d4a017", "#fff"),
         "marker2": ("#f4f4f4", "#d4a017", "#333")}
BOARD_FILL = "#e8c98e"
GHOST_FILL = "#f3e6c8"
# what a cell shows in words (its polygon's data-content, the web client's cell names)
STONE_WORD = {1: "black stone", 2: "white stone", NEUTRAL: "grey stone", BALL: "ball"}
PIECE_WORD = {"pin": "pin", "marker1": "black marker", "marker2": "white marker"}
LAST = "#12b0d0"  # the ring around the last move's (or this turn's) cells
TITLE_SIZE, LEGEND_SIZE = 13, 11  # font sizes in px
Swatch = int | str | tuple[str, str]  # a stone code, a piece name ("pin", "marker1"), "last", an edge colour
# "#rrggbb", or (fill, ring) colours of a ringed disc


_escaped = lru_cache(maxsize=1 << 16)(escape)  # cell names recur in every drawing
_CORNERS = tuple((math.cos(math.radians(60 * i - 30)), math.sin(math.radians(60 * i - 30))) for i in range(6))


@lru_cache(maxsize=1 << 16)
def hexagon(cx: float, cy: float, r: float = R) -> str:
    """The ``points`` of a pointy-topped hexagon (cached: boards redraw the same cells)."""
    return " ".join(f"{cx + r * dx:.1f},{cy + r * dy:.1f}" for dx, dy in _CORNERS)


@dataclass
class Drawing:
    """What :func:`board` draws besides the cells and their stones (its keyword arguments)."""

    label: Callable[[int], str] | None = None  # a cell's text (default: its name)
    highlight: Collection[int] = ()  # cells whose stones are ringed in red (a winning group)
    marks: Collection[int] = ()  # empty cells dotted (legal-move hints)
    ghosts: bool = True  # draw the ghost cells (glued neighbours outside the rim)
    title: str = ""
    pieces: dict[int, str] = field(default_factory=dict)  # cell -> neutral piece: "pin", "marker1", "marker2"
    arrows: Sequence[tuple[int, int]] = ()  # (cell, slot): a short arrow in the cell along direction slot
    paths: Sequence[tuple[int, int]] = ()  # (from, to): an arrow between cells (a piece's possible moves)
    border: Callable[[int, int], str | None] | None = None  # (cell, slot) -> the colour of a rim side, or None
    accent: Collection[int] = ()  # cells outlined (a winning group's edge cells)
    last: Collection[int] = ()  # cells ringed: the last move's (or the turn in progress)
    legend: Sequence[tuple[Swatch, str]] = ()  # (swatch, text) under the board: whose colour is whose

    def __post_init__(self) -> None:
        self.highlight, self.marks, self.accent, self.last = (frozenset(cells) for cells in (
            self.highlight, self.marks, self.accent, self.last))
        self.pieces, self.arrows, self.paths = dict(self.pieces or {}), tuple(self.arrows), tuple(self.paths)


@dataclass(frozen=True)
class Frame:
    """Where a picture's parts go: its size, the board's origin, the legend's rows."""

    width: float
    height: float
    ox: float  # x of doubled column 0
    oy: float  # y of row 0
    board_bottom: float  # where the legend starts
    rows: list[list[tuple[Swatch, str]]]


Item = tuple[int, int, int, bool]  # a drawn cell: doubled x, row, cell, whether a ghost


def board(topo: Topology, stone: Callable[[int], int], **options: Any) -> str:
    """An SVG of ``topo``; ``stone(cell)`` is 0 (empty), 1 (dark), 2 (light),
    ``NEUTRAL`` (a grey stone) or ``BALL`` (a red neutral piece); ``options``
    are the fields of :class:`Drawing` (hints, highlights, pieces, arrows,
    the title and the legend).

    Ghost cells (glued neighbours drawn outside the rim) are dashed and
    repeat the glued cell's stone and name; a marker piece is a gold-ringed
    disc in its owner's colour, the pin a red diamond.  The picture is at
    least as wide as its title and legend.
    """
    d = Drawing(**options)
    items = _items(topo, d.ghosts)
    frame = _frame(items, d)
    out = _head(frame, d)
    for x, r, c, ghost in items:
        out += _cell(topo, stone, d, frame.ox + x * DX, frame.oy + r * DY, c, ghost)
    out += [_path(topo, a, b, frame) for a, b in d.paths]
    out += _rim(topo, d.border, frame.ox, frame.oy) if d.border else []
    out += [_arrow(frame.ox + int(topo.xy[c, 0]) * DX, frame.oy + int(topo.xy[c, 1]) * DY, slot)
            for c, slot in d.arrows]
    out += [legend_row(row, frame.width, frame.board_bottom + 16 * i) for i, row in enumerate(frame.rows)]
    out.append("</svg>")
    return "\n".join(out)


def _items(topo: Topology, ghosts: bool) -> list[Item]:
    """The cells to draw: every cell, then the ghost cells if ``ghosts``."""
    items: list[Item] = [(int(x), int(r), c, False) for c, (x, r) in enumerate(topo.xy)]
    if ghosts:
        items += [(x, r, c, True) for x, r, c in topo.ghosts]
    return items


def _frame(items: list[Item], d: Drawing) -> Frame:
    """The picture's size and the board's place in it: the board, its title above, the legend below."""
    xs = [x for x, *_ in items]
    rs = [r for _, r, *_ in items]
    board_width = (max(xs) - min(xs)) * DX + 2 * R + 8
    width = max(board_width, text_width(d.title, TITLE_SIZE) + 16)
    rows = legend_rows(d.legend, width)
    ox = -min(xs) * DX + R + 4 + (width - board_width) / 2
    oy = -min(rs) * DY + R + 4 + (18 if d.title else 0)
    board_bottom = (max(rs) - min(rs)) * DY + 2 * R + 8 + (18 if d.title else 0)
    return Frame(width, board_bottom + 16 * len(rows), ox, oy, board_bottom, rows)


def _head(frame: Frame, d: Drawing) -> list[str]:
    """The ``<svg>`` element's start, the arrowhead's definition where paths need it, the title."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {frame.width:.0f} {frame.height:.0f}" '
           f'width="{frame.width:.0f}" height="{frame.height:.0f}" font-family="sans-serif">']
    if d.paths:
        out.append('<defs><marker id="arrowhead" markerWidth="6" markerHeight="6" refX="5" refY="3" '
                   'orient="auto"><path d="M0,0 L6,3 L0,6 z" fill="#2a7"/></marker></defs>')
    if d.title:
        out.append(f'<text x="{frame.width / 2:.1f}" y="16" text-anchor="middle" font-size="{TITLE_SIZE}">'
                   f'{escape(d.title)}</text>')
    return out


def _cell(topo: Topology, stone: Callable[[int], int], d: Drawing, cx: float, cy: float, c: int,
          ghost: bool) -> list[str]:
    """One cell centred at (cx, cy), bottom up: its hexagon, accent, stone, piece, last-move ring, hint, label."""
    dash = ' stroke-dasharray="3,2" opacity="0.75"' if ghost else ""
    s = stone(c)
    piece = d.pieces.get(c) if not ghost else None
    out = [f'<polygon class="{"ghost" if ghost else "cell"}" data-cell="{_escaped(topo.name(c))}" '
           f'data-content="{_content(s, piece)}" points="{hexagon(cx, cy)}" '
           f'fill="{GHOST_FILL if ghost else BOARD_FILL}" stroke="#6b5a3a" stroke-width="1"{dash}/>']
    if c in d.accent and not ghost:
        out.append(f'<polygon class="accent" points="{hexagon(cx, cy, R - 2.5)}" fill="none" '
                   f'stroke="#1f5fd0" stroke-width="3"/>')
    if s:
        out.append(_stone(cx, cy, s, c in d.highlight and not ghost, dash))
    if piece:
        out.append(_piece(piece, cx, cy))
    if c in d.last and not ghost:
        out.append(f'<circle class="last" cx="{cx:.1f}" cy="{cy:.1f}" r="{R * 0.86:.1f}" fill="none" '
                   f'stroke="{LAST}" stroke-width="2.5"/>')
    if c in d.marks and not ghost and not s and not piece:  # above the label, not on it
        out.append(f'<circle class="hint" cx="{cx:.1f}" cy="{cy - R * 0.62:.1f}" r="{R * 0.15:.1f}" fill="#2a7"/>')
    fill = PIECE[piece][2] if piece else "#fff" if s == 1 else "#333"
    out.append(_label((d.label or topo.name)(c), cx, cy, ghost, fill))
    return out


def _content(s: int, piece: str | None) -> str:
    """A cell's content in words: its stone and its piece, or "empty"."""
    words = [STONE_WORD[s]] if s else []
    return ", ".join(words + [PIECE_WORD[piece]] if piece else words) or "empty"


def _stone(cx: float, cy: float, s: int, ringed: bool, dash: str) -> str:
    """A stone of code ``s``, ringed in red (a highlighted cell's) or plain."""
    return (f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{R * 0.72:.1f}" fill="{STONE[s]}" '
            f'stroke="{"#d02020" if ringed else "#555"}" stroke-width="{3 if ringed else 1}"{dash}/>')


def _label(text: str, cx: float, cy: float, ghost: bool, fill: str) -> str:
    """A cell's text: a ghost's in italic lower case, long names smaller."""
    name = text.lower() if ghost else text
    style = ' font-style="italic"' if ghost else ""
    return (f'<text x="{cx:.1f}" y="{cy + 4:.1f}" text-anchor="middle" font-size="{10 if len(name) < 3 else 8}" '
            f'fill="{fill}"{style}>{_escaped(name)}</text>')


def _path(topo: Topology, a: int, b: int, frame: Frame) -> str:
    """An arrow from cell ``a`` to cell ``b``."""
    (xa, ra), (xb, rb) = topo.xy[a], topo.xy[b]
    ox, oy = frame.ox, frame.oy
    return (f'<line class="arrow" x1="{ox + xa * DX:.1f}" y1="{oy + ra * DY:.1f}" x2="{ox + xb * DX:.1f}" '
            f'y2="{oy + rb * DY:.1f}" stroke="#2a7" stroke-width="2" marker-end="url(#arrowhead)"/>')


def last_cell(history: Sequence[int], cell_of: Callable[[int], int | None]) -> list[int]:
    """``[cell]`` of the latest action in ``history`` that has one
    (``cell_of(action)``, None for actions without a cell), else ``[]``."""
    for action in reversed(history):
        cell = cell_of(action)
        if cell is not None:
            return [cell]
    return []


def text_width(text: str, size: float) -> float:
    """A generous estimate of ``text``'s width in px in a sans-serif font of ``size`` px."""
    return len(text) * size * 0.6


def _item_width(text: str) -> float:
    return 14 + len(text) * LEGEND_SIZE * 0.52 + 10


def legend_rows(legend: Sequence[tuple[Swatch, str]], width: float) -> list[list[tuple[Swatch, str]]]:
    """The legend's items in rows that fit ``width`` px."""
    rows: list[list[tuple[Swatch, str]]] = []
    for item in legend:
        if rows and sum(_item_width(t) for _, t in rows[-1]) + _item_width(item[1]) <= width - 8:
            rows[-1].append(item)
        else:
            rows.append([item])
    return rows


def legend_row(row: list[tuple[Swatch, str]], width: float, top: float) -> str:
    """One centred row of legend items: a swatch, then its text."""
    x = (width - sum(_item_width(t) for _, t in row)) / 2 + 8
    parts = []
    for swatch, text in row:
        parts.append(_swatch(swatch, x, top + 8))
        parts.append(f'<text x="{x + 10:.1f}" y="{top + 12:.1f}" font-size="{LEGEND_SIZE}">{escape(text)}</text>')
        x += _item_width(text)
    return '<g class="legend">' + "".join(parts) + "</g>"


def _swatch(swatch: Swatch, cx: float, cy: float) -> str:
    """A legend's small sample: a stone, a piece, the last-move ring, an edge colour or a ringed disc."""
    r = 6.0
    if isinstance(swatch, tuple):
        fill, ring = swatch
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r}" fill="{fill}" stroke="{ring}" stroke-width="2.5"/>'
    if isinstance(swatch, int):
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r}" fill="{STONE[swatch]}" stroke="#555" stroke-width="1"/>'
    if swatch in PIECE:
        return _piece(swatch, cx, cy, r, cls="")
    if swatch == "last":
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r}" fill="none" stroke="{LAST}" stroke-width="2.5"/>'
    return (f'<line x1="{cx - r:.1f}" y1="{cy:.1f}" x2="{cx + r:.1f}" y2="{cy:.1f}" stroke="{swatch}" '
            f'stroke-width="4" stroke-linecap="round"/>')


def _piece(kind: str, cx: float, cy: float, r: float = R * 0.72, cls: str | None = None) -> str:
    """A neutral piece of radius about ``r``: the pin as a diamond, a marker
    as a ringed disc; its class is ``kind`` unless ``cls`` says otherwise."""
    fill, outline, _ = PIECE[kind]
    attr = f' class="{kind if cls is None else cls}"' if cls != "" else ""
    if kind == "pin":
        pts = f"{cx:.1f},{cy - r:.1f} {cx + r:.1f},{cy:.1f} {cx:.1f},{cy + r:.1f} {cx - r:.1f},{cy:.1f}"
        return f'<polygon{attr} points="{pts}" fill="{fill}" stroke="{outline}" stroke-width="1.5"/>'
    return (f'<circle{attr} cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}" '
            f'stroke="{outline}" stroke-width="{max(1.5, r / 3.6):.1f}"/>')


def _rim(topo: Topology, colour: Callable[[int, int], str | None], ox: float, oy: float) -> list[str]:
    """Thick coloured hexagon sides where the board ends (slot d lies between corners d and d+1)."""
    out = []
    for c in topo.perimeter:  # only rim cells have a side with no neighbour
        x, r = (int(v) for v in topo.xy[c])
        for d in range(6):
            col = colour(c, d) if topo.nbr[c, d] < 0 else None
            if col:
                (x1, y1), (x2, y2) = (_corner(ox + x * DX, oy + r * DY, i) for i in (d, d + 1))
                out.append(f'<line class="rim" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                           f'stroke="{col}" stroke-width="4" stroke-linecap="round"/>')
    return out


def _corner(cx: float, cy: float, i: int) -> tuple[float, float]:
    a = math.radians(60 * i - 30)
    return cx + R * math.cos(a), cy + R * math.sin(a)


def _arrow(cx: float, cy: float, slot: int) -> str:
    """A short arrow from a cell's centre towards direction ``slot``."""
    dx, dr = STEP[slot]
    ux, uy = dx * DX / (R * math.sqrt(3)), dr * DY / (R * math.sqrt(3))
    tip = (cx + ux * R * 0.85, cy + uy * R * 0.85)
    back = (cx + ux * R * 0.5, cy + uy * R * 0.5)
    left = (back[0] - uy * R * 0.18, back[1] + ux * R * 0.18)
    right = (back[0] + uy * R * 0.18, back[1] - ux * R * 0.18)
    pts = " ".join(f"{px:.1f},{py:.1f}" for px, py in (tip, left, right))
    return (f'<g class="push" data-slot="{slot}"><line x1="{cx + ux * R * 0.25:.1f}" y1="{cy + uy * R * 0.25:.1f}" '
            f'x2="{back[0]:.1f}" y2="{back[1]:.1f}" stroke="#1a7f50" stroke-width="2"/>'
            f'<polygon points="{pts}" fill="#1a7f50"/></g>')
