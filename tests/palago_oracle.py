"""Palago from scratch, for the tests: the tiles' corners placed in the plane, groups by flood fill
over bridges, closedness by counting each vertex's tiles, and enclosure by tracing every boundary
loop of a closed group and taking the one of largest area as its outer loop (the kernels use none of
this: they keep union-find counts and pick the outer loop by its least midpoint)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# corner i of the tile at doubled-width (x, y), in units of a third of a row and of a doubled-x step
CORNER = ((0, -2), (3, -1), (3, 1), (0, 2), (-3, 1), (-3, -1))
EDGE = ((1, -1), (2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1))  # the neighbour across edge i


def bridges_of(k: int) -> list[tuple[int, int]]:
    """The two bridges of orientation k as RULES.md gives them: blue 2k-2k+2, white 2k+3-2k+5."""
    return [(2 * k % 6, (2 * k + 2) % 6), ((2 * k + 3) % 6, (2 * k + 5) % 6)]


def tips_of(k: int) -> dict[int, str]:
    return {(2 * k + 1) % 6: "white", (2 * k + 4) % 6: "blue"}


def colour_of(corner: int) -> str:
    return "blue" if corner % 2 == 0 else "white"


def region_corners(k: int, corner: int) -> tuple[int, ...]:
    """The corners of the region of a tile of orientation k that holds ``corner``."""
    for a, b in bridges_of(k):
        if corner in (a, b):
            return (a, b)
    return (corner,)


def chords_of(k: int) -> list[tuple[tuple[int, int], tuple[int, ...], tuple[int, ...]]]:
    """Each colour boundary of a tile: (its two edges, the corners on one side, the corners on the other)."""
    a = 2 * k
    return [(((a) % 6, (a + 1) % 6), ((a + 1) % 6,), (a % 6, (a + 2) % 6)),
            (((a + 2) % 6, (a + 5) % 6), (a % 6, (a + 2) % 6), ((a + 3) % 6, (a + 5) % 6)),
            (((a + 3) % 6, (a + 4) % 6), ((a + 3) % 6, (a + 5) % 6), ((a + 4) % 6,))]


@dataclass
class Picture:
    tiles: dict[tuple[int, int], int]  # (x, y) -> orientation
    vertex: dict[tuple[int, int, int], tuple[int, int]] = field(default_factory=dict)  # (x, y, corner) -> point
    members: dict[tuple[int, int], list[tuple[int, int, int]]] = field(default_factory=dict)
    group: dict[tuple[int, int], int] = field(default_factory=dict)  # point -> group id

    def __post_init__(self) -> None:
        for (x, y) in self.tiles:
            for i, (dx, dy) in enumerate(CORNER):
                p = (3 * x + dx, 3 * y + dy)
                self.vertex[(x, y, i)] = p
                self.members.setdefault(p, []).append((x, y, i))
        links: dict[tuple[int, int], list[tuple[int, int]]] = {p: [] for p in self.members}
        self.bridge_count: dict[int, int] = {}
        for (x, y), k in self.tiles.items():
            for a, b in bridges_of(k):
                pa, pb = self.vertex[(x, y, a)], self.vertex[(x, y, b)]
                links[pa].append(pb)
                links[pb].append(pa)
        gid = 0
        for p in sorted(self.members):
            if p in self.group:
                continue
            todo = [p]
            self.group[p] = gid
            while todo:
                q = todo.pop()
                for r in links[q]:
                    if r not in self.group:
                        self.group[r] = gid
                        todo.append(r)
            gid += 1
        self.bridge_count = {g: 0 for g in range(gid)}
        for (x, y), k in self.tiles.items():
            for a, _ in bridges_of(k):
                self.bridge_count[self.group[self.vertex[(x, y, a)]]] += 1

    def colour(self, g: int) -> str:
        p = next(q for q, h in self.group.items() if h == g)
        return colour_of(self.members[p][0][2])

    def points(self, g: int) -> list[tuple[int, int]]:
        return [p for p, h in self.group.items() if h == g]

    def open_count(self, g: int) -> int:
        return sum(3 - len(self.members[p]) for p in self.points(g))

    def closed(self, g: int) -> bool:
        return self.open_count(g) == 0

    def group_ids(self) -> list[int]:
        return sorted(set(self.group.values()))

    def region_group(self, x: int, y: int, corners: tuple[int, ...]) -> int:
        return self.group[self.vertex[(x, y, corners[0])]]

    def surrounding(self, g: int) -> int:
        """The group across the outer boundary loop of the closed group g (the largest loop by area)."""
        chords = set()
        for p in self.points(g):
            for (x, y, i) in self.members[p]:
                k = self.tiles[(x, y)]
                for j, (_, one, other) in enumerate(chords_of(k)):
                    if i in one or i in other:
                        chords.add((x, y, j))
        best, across = -1, None
        seen: set = set()
        for start in sorted(chords):
            if start in seen:
                continue
            loop = self.trace(start)
            seen.update(loop)
            area = abs(self.area(loop))
            if area > best:
                x, y, j = start
                (_, one, other) = chords_of(self.tiles[(x, y)])[j]
                side = other if self.region_group(x, y, one) == g else one
                best, across = area, self.region_group(x, y, side)
        return across

    def trace(self, start: tuple[int, int, int]) -> list[tuple[int, int, int]]:
        """The chords of the loop through ``start``, in order."""
        loop = []
        x, y, j = start
        edge = chords_of(self.tiles[(x, y)])[j][0][0]
        while True:
            k = self.tiles[(x, y)]
            j = next(n for n, (edges, _, _) in enumerate(chords_of(k)) if edge in edges)
            if loop and (x, y, j) == loop[0]:
                return loop
            loop.append((x, y, j))
            edges = chords_of(k)[j][0]
            out = edges[1] if edges[0] == edge else edges[0]
            x, y = x + EDGE[out][0], y + EDGE[out][1]
            edge = (out + 3) % 6

    def area(self, loop: list[tuple[int, int, int]]) -> float:
        pts = []
        for x, y, j in loop:
            (e0, e1), _, _ = chords_of(self.tiles[(x, y)])[j]
            pts += [(2 * x + EDGE[e][0], 2 * y + EDGE[e][1]) for e in (e0, e1)]
        return 0.5 * sum(ax * by - bx * ay for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1], strict=True))


def picture(game, s: np.ndarray) -> Picture:
    """The oracle's view of a position's tiles."""
    return Picture({tuple(int(v) for v in game.topology.xy[c]): k for c, k in game.tiles(s)})
