"""ASCII boards: one character per cell at its doubled-x column.

>>> from hexarena.board import hexhex
>>> print(grid(hexhex(2), lambda c: "."))
 . .
. . .
 . .
"""

from __future__ import annotations

from collections.abc import Callable

from ..board import Topology


def grid(
    topo: Topology,
    cell_char: Callable[[int], str],
    ghost_char: Callable[[int], str] | None = None,
    right: Callable[[int], str] | None = None,
    left: Callable[[int], str] | None = None,
    extra: dict[tuple[int, int], str] | None = None,
) -> str:
    """Draw ``topo`` with ``cell_char(cell)`` at each cell.

    ``ghost_char(glued_cell)`` draws the ghost ring of glued boards;
    ``left(row)``/``right(row)`` add labels beside each row (``left`` is
    asked for every line drawn, rows of ``extra`` included); ``extra`` maps
    ``(x, row)`` to further characters (e.g. :func:`foot_labels`).
    """
    points = {(int(x), int(r)): cell_char(c) for c, (x, r) in enumerate(topo.xy)}
    if ghost_char is not None:
        for x, r, c in topo.ghosts:
            points[(x, r)] = ghost_char(c)
    points.update(extra or {})
    xs = [x for x, _ in points]
    rs = [r for _, r in points]
    x0, x1 = min(xs), max(xs)
    lines = []
    for r in range(min(rs), max(rs) + 1):
        row = [" "] * (x1 - x0 + 1)
        for (x, rr), ch in points.items():
            if rr == r:
                row[x - x0] = ch
        line = "".join(row).rstrip()
        if left is not None:
            line = left(r) + line
        if right is not None and 0 <= r < topo.rows:
            line = line.ljust(x1 - x0 + 1 + (len(left(r)) if left else 0)) + right(r)
        lines.append(line.rstrip())
    return "\n".join(lines)


def foot_labels(topo: Topology, key: Callable[[int], str]) -> dict[tuple[int, int], str]:
    """Characters for :func:`grid`'s ``extra`` that write ``key(cell)``
    once per north-east running line of cells (say the numbers of
    Havannah-style names) just below-left of the line's lowest cell: across
    where it fits, else downwards (tens above units), else further down.

    >>> from hexarena.board import hexhex
    >>> topo = hexhex(3)
    >>> print(grid(topo, lambda c: ".", extra=foot_labels(topo, lambda c: topo.name(c)[1:])))
       . . .
      . . . .
     . . . . .
    1 . . . .
     2 . . .
      3 4 5
    """
    lowest: dict[str, tuple[int, int]] = {}
    for c in range(topo.ncells):
        x, r = int(topo.xy[c, 0]), int(topo.xy[c, 1])
        if key(c) not in lowest or r > lowest[key(c)][1]:
            lowest[key(c)] = (x, r)
    taken = {(int(x), int(r)) for x, r in topo.xy}
    out: dict[tuple[int, int], str] = {}
    for text, (x, r) in sorted(lowest.items(), key=lambda item: item[1][0]):
        n = len(text)
        places = [[(x - 1 - i, r + 1) for i in range(n)][::-1], [(x - 1, r + 1 + i) for i in range(n)]]
        places += [[(x - d - i, r + d) for i in range(n)][::-1] for d in range(2, topo.rows + 2)]
        spot = next(p for p in places if not any((px + j, pr) in taken for px, pr in p for j in (-1, 0, 1)))
        for point, ch in zip(spot, text, strict=True):
            out[point] = ch
            taken.add(point)
    return out


def row_range(topo: Topology, row: int) -> str:
    """``'a1 .. a4'``: the names of the first and last cell of ``row``."""
    cells = [c for c in range(topo.ncells) if topo.xy[c, 1] == row]
    return f"{topo.name(cells[0])} .. {topo.name(cells[-1])}"


def names_diagram(topo: Topology) -> str:
    """Every cell's name at its place (two columns per doubled-x unit).

    >>> from hexarena.board import hexhex
    >>> print(names_diagram(hexhex(2)))
      a1  a2
    b1  b2  b3
      c2  c3
    """
    width = max(len(n) for n in topo.names)
    step = max(2, (width + 2) // 2)
    x0 = int(topo.xy[:, 0].min())
    lines = []
    for r in range(topo.rows):
        line = ""
        for c in sorted(range(topo.ncells), key=lambda c: topo.xy[c, 0]):
            if topo.xy[c, 1] == r:
                line = line.ljust((int(topo.xy[c, 0]) - x0) * step) + topo.name(c)
        lines.append(line)
    return "\n".join(lines)


def lettered(topo: Topology, cell_char: Callable[[int], str]) -> str:
    """The Iqishiqi family's diagram of a doubled-width board: column letters
    above and below (one per doubled x, while they fit in ``a``..``z``) and
    row numbers on the right.

    >>> from hexarena.board import hexhex
    >>> print(lettered(hexhex(2, naming="doubled"), lambda c: "."))
    abcde
     . .   1
    . . .  2
     . .   3
    abcde
    """
    x0, x1 = int(topo.xy[:, 0].min()), int(topo.xy[:, 0].max())
    body = grid(topo, cell_char, right=lambda r: f"  {r + 1}")
    if x1 - x0 >= 26:
        return body
    letters = "".join(chr(ord("a") + i) for i in range(x1 - x0 + 1))
    return "\n".join((letters, body, letters))
