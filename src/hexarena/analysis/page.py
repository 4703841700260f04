"""The pieces of a report's HTML page that every section uses: escaping,
rates with their intervals, tables, embedded plots, and option values as
the command line takes them.

>>> rate({"rate": 0.14, "ci95": [0.099, 0.195]})
'14.0% <small>[9.9, 19.5]</small>'
>>> cli_value(False), cli_value([9, 8]), cli_value("12*")
('false', '9,8', '12*')
"""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from typing import Any

import hexarena


def esc(value: Any) -> str:
    return html.escape(str(value))


def rate(p: dict[str, Any] | None) -> str:
    """A proportion as a percentage with its 95% interval; a dash without one."""
    if not p or p.get("rate") is None:
        return "–"
    lo, hi = p["ci95"]
    return f"{100 * p['rate']:.1f}% <small>[{100 * lo:.1f}, {100 * hi:.1f}]</small>"


def table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A table with a header row; each row's first cell is its heading, the others numbers."""
    th = "".join(f"<th>{esc(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td class='n'>{c}</td>" if i else f"<th>{c}</th>" for i, c in enumerate(row))
                   + "</tr>" for row in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def img(png: bytes | None, alt: str) -> str:
    """A PNG embedded in the page (nothing without one)."""
    if png is None:
        return ""
    return f"<img alt='{esc(alt)}' src='data:image/png;base64,{base64.b64encode(png).decode()}'>"


def cli_value(value: Any) -> str:
    """An option's value as ``-o KEY=VALUE`` takes it: ``true``/``false``, a size ``9,8``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(map(cli_value, value))
    return str(value)


def cli_options(options: dict[str, Any]) -> str:
    """Options as the command line's ``-o KEY=VALUE`` arguments."""
    return " ".join(f"-o {key}={cli_value(value)}" for key, value in options.items())


def position_svg(game: str, options: dict[str, Any], moves: Sequence[str]) -> str:
    """The position after ``moves`` as SVG: how a report draws a move whose text says little."""
    state = hexarena.load(game, **options).new_state()
    for move in moves:
        state.play(move)
    return state.svg()
