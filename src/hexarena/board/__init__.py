"""Hex topologies as precomputed tables.

A :class:`Topology` is a finite set of cells with names, doubled-x
coordinates and a neighbour table.  Games never compute geometry on the fly:
they index these arrays (which numba kernels take as arguments).

Coordinates are *doubled x*: row ``r`` (0 at the top) holds cells at every
other integer ``x``; the six directions are::

    NW (-1,-1)  NE (+1,-1)
  W (-2,0)   .   E (+2,0)
    SW (-1,+1)  SE (+1,+1)

>>> t = hexhex(3, 3)
>>> t.ncells, len(t.perimeter)
(19, 12)
>>> t.name(t.neighbour(t.index("b2"), E))
'b3'
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

E, SE, SW, W, NW, NE = range(6)
DIRECTIONS = ("e", "se", "sw", "w", "nw", "ne")
STEP = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))
# The two outward directions of each side, clockwise.
_OUTWARD = ((NW, NE), (NE, E), (E, SE), (SE, SW), (SW, W), (W, NW))


@dataclass(frozen=True, eq=False)
class Topology:
    """Cells, names and neighbour tables of one board.

    ``nbr[c, d]`` is the neighbour of cell ``c`` in slot ``d`` (-1 for none);
    on planar boards slot ``d`` is direction ``d``.  ``seam[c, d]`` is 1 when
    that link crosses a glued seam (projective boards).
    """

    kind: str
    names: tuple[str, ...]
    xy: np.ndarray  # int32[n, 2]: doubled x, row
    nbr: np.ndarray  # int32[n, 6]
    seam: np.ndarray  # int8[n, 6]
    edge: np.ndarray  # bool[n]
    sides: tuple[tuple[int, ...], ...]  # six sides, each clockwise
    perimeter: tuple[int, ...]  # every edge cell once, clockwise from the top-left corner
    _index: dict[str, int] = field(repr=False)
    ghosts: tuple[tuple[int, int, int], ...] = ()  # (x, row, glued cell) drawn outside the rim

    @property
    def ncells(self) -> int:
        return len(self.names)

    @property
    def rows(self) -> int:
        return int(self.xy[:, 1].max()) + 1

    def name(self, cell: int) -> str:
        return self.names[cell]

    def index(self, name: str) -> int:
        """The cell called ``name``; KeyError if there is none."""
        return self._index[name]

    def find(self, name: str) -> int | None:
        return self._index.get(name)

    def neighbour(self, cell: int, slot: int) -> int:
        return int(self.nbr[cell, slot])

    def neighbours(self, cell: int) -> list[int]:
        """Neighbours of ``cell``, clockwise from north-east."""
        order = (NE, E, SE, SW, W, NW)
        return [int(self.nbr[cell, d]) for d in order if self.nbr[cell, d] >= 0]

    def at(self, x: int, row: int) -> int | None:
        """The cell at doubled coordinates ``(x, row)``, or None."""
        return self._by_xy.get((x, row))

    @property
    def _by_xy(self) -> dict[tuple[int, int], int]:
        cache = self.__dict__.get("_xy_cache")
        if cache is None:
            cache = {(int(x), int(r)): c for c, (x, r) in enumerate(self.xy)}
            object.__setattr__(self, "_xy_cache", cache)
        return cache

    def cells_json(self) -> list[dict]:
        """The cell list that ``hexarena cells --json`` prints."""
        return [
            {
                "name": self.names[c],
                "xy": [int(self.xy[c, 0]), int(self.xy[c, 1])],
                "neighbours": [self.names[m] for m in self.neighbours(c)],
                "edge": bool(self.edge[c]),
            }
            for c in range(self.ncells)
        ]


def _row_layout(a: int, b: int) -> list[tuple[int, int]]:
    """(first doubled x, width) of each row of the a/b hexhex board."""
    rows = a + b - 1
    return [(abs(r - (b - 1)), a + b - 1 - abs(r - (b - 1))) for r in range(rows)]


def havannah_names(xy: np.ndarray) -> list[str]:
    """Havannah-style names: row letter from the top, then the number of the
    north-east line from the left (see docs/notation.md)."""
    diag = (xy[:, 0] + xy[:, 1]) // 2
    diag = diag - diag.min() + 1
    return [f"{_letters(int(r))}{int(d)}" for (_, r), d in zip(xy, diag, strict=True)]


def doubled_names(xy: np.ndarray) -> list[str]:
    """The Iqishiqi family's names: the column letter of the doubled x
    (``a`` = 0, then ``z``, ``aa``, ...) and the row number from 1 at the top.

    >>> doubled_names(hexhex(2).xy)
    ['b1', 'd1', 'a2', 'c2', 'e2', 'b3', 'd3']
    """
    x0 = int(xy[:, 0].min())
    return [f"{_letters(int(x) - x0)}{int(r) + 1}" for x, r in xy]


def _letters(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        s = chr(ord("a") + rem) + s
    return s


def _build(kind, names, xy, nbr, seam, sides, ghosts=()) -> Topology:
    perimeter: list[int] = []
    for side in sides:
        perimeter.extend(side[:-1])
    edge = np.zeros(len(names), dtype=np.bool_)
    edge[perimeter] = True
    index = {n: i for i, n in enumerate(names)}
    if len(index) != len(names):
        raise ValueError("cell names must be unique")
    return Topology(kind, tuple(names), xy, nbr, seam, edge, tuple(map(tuple, sides)), tuple(perimeter), index,
                    tuple(sorted(ghosts)))


def _planar(a: int, b: int) -> tuple[np.ndarray, np.ndarray, list[list[int]]]:
    """Doubled coordinates, planar neighbours and clockwise sides of a/b."""
    layout = _row_layout(a, b)
    xy = np.array([(x0 + 2 * k, r) for r, (x0, w) in enumerate(layout) for k in range(w)], dtype=np.int32)
    where = {(int(x), int(r)): c for c, (x, r) in enumerate(xy)}
    nbr = np.full((len(xy), 6), -1, dtype=np.int32)
    for c, (x, r) in enumerate(xy):
        for d, (dx, dr) in enumerate(STEP):
            nbr[c, d] = where.get((int(x) + dx, int(r) + dr), -1)
    starts = np.cumsum([0] + [w for _, w in layout])
    first = [int(starts[r]) for r in range(len(layout))]
    last = [int(starts[r + 1]) - 1 for r in range(len(layout))]
    rows = len(layout)
    top = list(range(first[0], last[0] + 1))
    bottom = list(range(last[rows - 1], first[rows - 1] - 1, -1))
    sides = [
        top,
        [last[r] for r in range(0, b)],
        [last[r] for r in range(b - 1, rows)],
        bottom,
        [first[r] for r in range(rows - 1, b - 2, -1)],
        [first[r] for r in range(b - 1, -1, -1)],
    ]
    return xy, nbr, sides


NAMINGS = ("havannah", "doubled")
MAX_SIDE = 64  # boards of ~12,000 cells at most (0.2 s, a few MiB): no input can make a board allocate gigabytes


def _is_side(n: object) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and 2 <= n <= MAX_SIDE


def _said(n: object) -> str:
    """``n`` for an error message, short."""
    return "a huge integer" if isinstance(n, int) and abs(n) > 10**20 else repr(n)[:20]


def hexhex(a: int, b: int | None = None, naming: str = "havannah") -> Topology:
    """The hexhex board whose sides, clockwise from the top, are a, b, a, b, a, b.

    ``hexhex(n)`` is the regular board of base n (3n(n-1)+1 cells).  Cells
    are named Havannah-style (``naming="havannah"``) or in the Iqishiqi
    family's doubled-width notation (``naming="doubled"``).
    """
    b = a if b is None else b
    if not (_is_side(a) and _is_side(b)):
        raise ValueError(f"hexhex sides are integers from 2 to {MAX_SIDE}, got ({_said(a)}, {_said(b)})")
    xy, nbr, sides = _planar(a, b)
    seam = np.zeros(nbr.shape, dtype=np.int8)
    if naming not in NAMINGS:
        raise ValueError(f"unknown naming {naming!r}; namings: {', '.join(NAMINGS)}")
    names = havannah_names(xy) if naming == "havannah" else doubled_names(xy)
    return _build(f"hexhex({a},{b})", names, xy, nbr, seam, sides)


def rays(topo: Topology) -> np.ndarray:
    """``int32[ncells, 6, L]``: the cells met going straight from each cell
    in each direction slot, nearest first, padded with -1 (planar boards).

    >>> t = hexhex(3)
    >>> [t.name(c) for c in rays(t)[t.index("c1"), E] if c >= 0]
    ['c2', 'c3', 'c4', 'c5']
    """
    length = int(topo.xy[:, 1].max()) + 1
    out = np.full((topo.ncells, 6, length), -1, dtype=np.int32)
    for c in range(topo.ncells):
        for d in range(6):
            k, m = 0, int(topo.nbr[c, d])
            while m >= 0:
                out[c, d, k] = m
                k, m = k + 1, int(topo.nbr[m, d])
    return out


PROJECTIVE_LETTERS = "ABCDEFGHIJKLMNO#PQRSTUVWXYZ"


def projective(n: int) -> Topology:
    """The projective-plane board of side n (sides n/n+1, 3n² cells).

    Each short side S is glued to the opposite long side L, both listed
    clockwise: S[k] touches L[k] and L[k+1].  The six corners have five
    neighbours, every other cell six.  On n=3 cells carry the source's 27
    letters:

    >>> t = projective(3)
    >>> [t.name(c) for c in t.neighbours(t.index("H"))]
    ['D', 'I', 'N', 'M', 'Q', 'V']
    >>> [t.name(c) for c in t.neighbours(t.index("M"))]
    ['H', 'N', 'R', 'L', 'Q']
    """
    if not _is_side(n):
        raise ValueError(f"projective board size must be an integer from 2 to {MAX_SIDE}, got {_said(n)}")
    xy, nbr, sides = _planar(n, n + 1)
    seam = np.zeros(nbr.shape, dtype=np.int8)
    ghosts: set[tuple[int, int, int]] = set()
    for short in (0, 2, 4):
        long = (short + 3) % 6
        S, L = sides[short], sides[long]
        for k, c in enumerate(S):
            _glue(nbr, seam, ghosts, xy, c, _OUTWARD[short], (L[k], L[k + 1]))
        for j, c in enumerate(L):
            pair = (S[j - 1] if j >= 1 else -1, S[j] if j < len(S) else -1)
            _glue(nbr, seam, ghosts, xy, c, _OUTWARD[long], pair)
    names = list(PROJECTIVE_LETTERS) if n == 3 else havannah_names(xy)
    return _build(f"projective({n})", names, xy, nbr, seam, sides, ghosts)


def _glue(nbr, seam, ghosts, xy, cell: int, slots: tuple[int, int], others: tuple[int, int]) -> None:
    """Put glued neighbours into the empty outward slots of ``cell`` and note
    the ghost cell drawn there; a corner meets the same glued cell through two
    slots, which is one link (the corner is a pentagon)."""
    for slot, other in zip(slots, others, strict=True):
        if other < 0 or nbr[cell, slot] >= 0:
            continue
        dx, dr = STEP[slot]
        ghosts.add((int(xy[cell, 0]) + dx, int(xy[cell, 1]) + dr, other))
        if any(nbr[cell, d] == other and seam[cell, d] for d in range(6)):
            continue
        nbr[cell, slot] = other
        seam[cell, slot] = 1
