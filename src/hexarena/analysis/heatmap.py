"""A board heat map: the library's SVG of a position (``state.svg()``) with
chosen cells filled by a score on a colour-blind-safe diverging scale
(ColorBrewer's PuOr: purple below 50%, white at 50%, orange above), each
with a tooltip (an SVG ``<title>``), and the scale's legend below the board.

>>> colour(0.5), colour(0.0), colour(1.0)
('#f7f7f7', '#542788', '#b35806')
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping

SVG_NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG_NS)
SCALE = ((0.0, "#542788"), (0.25, "#998ec3"), (0.5, "#f7f7f7"), (0.75, "#f1a340"), (1.0, "#b35806"))
DARK = 0.3  # a fill darker than this relative luminance gets a white label
LEGEND_HEIGHT = 52
BAR_WIDTH = 240


def colour(score: float) -> str:
    """The scale's colour of ``score`` (0..1; 0.5 is white)."""
    score = min(1.0, max(0.0, score))
    for (x0, c0), (x1, c1) in zip(SCALE, SCALE[1:], strict=False):
        if score <= x1:
            t = (score - x0) / (x1 - x0)
            return "#" + "".join(f"{round(a + t * (b - a)):02x}" for a, b in zip(_rgb(c0), _rgb(c1), strict=True))
    return SCALE[-1][1]


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16)


def _luminance(hex_colour: str) -> float:
    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = map(linear, _rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def heat_svg(svg: str, cells: Mapping[str, tuple[float, str]], caption: str, key: str = "") -> str:
    """``svg`` (a board drawn by :mod:`hexarena.render.svg`: a polygon per cell with
    ``data-cell``, then its label) with each cell of ``cells`` (name -> (score, tooltip))
    filled by its score's colour, ghost cells too, and the legend under the board
    (its gradient's id ends with ``key``: one page may hold several maps)."""
    root = ET.fromstring(svg)
    label_next: str | None = None
    for element in root.iter():
        tag = element.tag.rpartition("}")[2]
        if tag == "polygon" and element.get("data-cell") in cells:
            score, tip = cells[element.get("data-cell", "")]
            fill = colour(score)
            element.set("fill", fill)
            element.set("class", f"{element.get('class', 'cell')} heat")
            ET.SubElement(element, f"{{{SVG_NS}}}title").text = tip
            label_next = "#fff" if _luminance(fill) < DARK else "#222"
        elif tag == "text" and label_next is not None:  # the cell's label: readable on its fill, not hiding the tip
            element.set("fill", label_next)
            element.set("pointer-events", "none")
            label_next = None
    _legend(root, caption, f"heat-scale{key}")
    return ET.tostring(root, encoding="unicode")


def _legend(root: ET.Element, caption: str, gradient_id: str) -> None:
    """The colour bar, its ticks and ``caption``, under the picture (which grows to hold them)."""
    width, height = float(root.get("width", "300")), float(root.get("height", "300"))
    new_width = max(width, BAR_WIDTH + 40)
    x0 = (width - new_width) / 2  # a wider picture keeps the board in its middle
    root.set("width", f"{new_width:.0f}")
    root.set("height", f"{height + LEGEND_HEIGHT:.0f}")
    root.set("viewBox", f"{x0:.1f} 0 {new_width:.0f} {height + LEGEND_HEIGHT:.0f}")
    left, top = x0 + (new_width - BAR_WIDTH) / 2, height + 6
    legend = ET.SubElement(root, f"{{{SVG_NS}}}g", {"class": "heat-legend", "font-size": "11"})
    gradient = ET.SubElement(ET.SubElement(legend, f"{{{SVG_NS}}}defs"), f"{{{SVG_NS}}}linearGradient",
                             {"id": gradient_id})
    for offset, hex_colour in SCALE:
        ET.SubElement(gradient, f"{{{SVG_NS}}}stop", {"offset": f"{offset:g}", "stop-color": hex_colour})
    ET.SubElement(legend, f"{{{SVG_NS}}}rect", {"x": f"{left:.1f}", "y": f"{top:.1f}", "width": str(BAR_WIDTH),
                                               "height": "12", "fill": f"url(#{gradient_id})", "stroke": "#555"})
    for share in (0.0, 0.25, 0.5, 0.75, 1.0):
        x = left + share * BAR_WIDTH
        ET.SubElement(legend, f"{{{SVG_NS}}}line", {"x1": f"{x:.1f}", "x2": f"{x:.1f}", "y1": f"{top + 12:.1f}",
                                                   "y2": f"{top + 16:.1f}", "stroke": "#555"})
        tick = ET.SubElement(legend, f"{{{SVG_NS}}}text", {"x": f"{x:.1f}", "y": f"{top + 27:.1f}",
                                                          "text-anchor": "middle"})
        tick.text = f"{share:.0%}"
    text = ET.SubElement(legend, f"{{{SVG_NS}}}text", {"x": f"{x0 + new_width / 2:.1f}", "y": f"{top + 42:.1f}",
                                                      "text-anchor": "middle"})
    text.text = caption
