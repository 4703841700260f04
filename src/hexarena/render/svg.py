"""SVG boards of pointy-topped hexagons at doubled coordinates."""

from __future__ import annotations

import math
from html import escape
from typing import Callable, Iterable

from ..board import Topology

R = 20.0  # hexagon circumradius in px
DX = R * math.sqrt(3) / 2  # half a cell's width: one doubled-x unit
DY = R * 1.5

STONE = {1: "#202020", 2: "#f4f4f4"}
BOARD_FILL = "#e8c98e"
GHOST_FILL = "#f3e6c8"


def hexagon(cx: float, cy: float, r: float = R) -> str:
    pts = (f"{cx + r * math.cos(math.radians(60 * i - 30)):.1f},{cy + r * math.sin(math.radians(60 * i - 30)):.1f}" for i in range(6))
    return " ".join(pts)


def board(
    topo: Topology,
    stone: Callable[[int], int],
    label: Callable[[int], str] | None = None,
    highlight: Iterable[int] = (),
    marks: Iterable[int] = (),
    ghosts: bool = True,
    title: str = "",
    accent: Iterable[int] = (),
) -> str:
    """An SVG of ``topo``; ``stone(cell)`` is 0 (empty), 1 (dark) or 2 (light).

    Ghost cells (glued neighbours drawn outside the rim) are dashed and
    repeat the glued cell's stone and name; ``highlight`` rings cells (a
    winning group), ``marks`` dots cells (legal-move hints), ``accent``
    outlines cells (e.g. a winning group's edge cells).
    """
    label = label or topo.name
    hi = set(highlight)
    mk = set(marks)
    ac = set(accent)
    items: list[tuple[int, int, int, bool]] = [(int(x), int(r), c, False) for c, (x, r) in enumerate(topo.xy)]
    if ghosts:
        items += [(x, r, c, True) for x, r, c in topo.ghosts]
    xs = [x for x, *_ in items]
    rs = [r for _, r, *_ in items]
    ox = -min(xs) * DX + R + 4
    oy = -min(rs) * DY + R + 4 + (18 if title else 0)
    width = (max(xs) - min(xs)) * DX + 2 * R + 8
    height = (max(rs) - min(rs)) * DY + 2 * R + 8 + (18 if title else 0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
           f'width="{width:.0f}" height="{height:.0f}" font-family="sans-serif">']
    if title:
        out.append(f'<text x="{width / 2:.1f}" y="16" text-anchor="middle" font-size="13">{escape(title)}</text>')
    for x, r, c, ghost in items:
        cx, cy = ox + x * DX, oy + r * DY
        fill = GHOST_FILL if ghost else BOARD_FILL
        dash = ' stroke-dasharray="3,2" opacity="0.75"' if ghost else ""
        cls = "ghost" if ghost else "cell"
        out.append(f'<polygon class="{cls}" data-cell="{escape(topo.name(c))}" points="{hexagon(cx, cy)}" '
                   f'fill="{fill}" stroke="#6b5a3a" stroke-width="1"{dash}/>')
        if c in ac and not ghost:
            out.append(f'<polygon class="accent" points="{hexagon(cx, cy, R - 2.5)}" fill="none" '
                       f'stroke="#1f5fd0" stroke-width="3"/>')
        s = stone(c)
        if s:
            ring = "#d02020" if c in hi and not ghost else "#555"
            width_ = 3 if c in hi and not ghost else 1
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{R * 0.72:.1f}" fill="{STONE[s]}" '
                       f'stroke="{ring}" stroke-width="{width_}"{dash}/>')
        if c in mk and not ghost and not s:
            out.append(f'<circle class="hint" cx="{cx:.1f}" cy="{cy:.1f}" r="{R * 0.2:.1f}" fill="#2a7"/>')
        text_fill = "#fff" if s == 1 else "#333"
        name = label(c).lower() if ghost else label(c)
        style = ' font-style="italic"' if ghost else ""
        out.append(f'<text x="{cx:.1f}" y="{cy + 4:.1f}" text-anchor="middle" font-size="{10 if len(name) < 3 else 8}" '
                   f'fill="{text_fill}"{style}>{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out)
