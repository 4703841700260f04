"""Topologies: hexhex boards with alternating sides and their tables."""

import pytest

from hexarena.board import DIRECTIONS, STEP, hexhex, projective


@pytest.mark.parametrize("a,b", [(2, 2), (3, 3), (8, 8), (9, 8), (8, 9), (4, 7)])
def test_hexhex_rows_sides_and_perimeter(a, b):
    t = hexhex(a, b)
    widths = [int((t.xy[:, 1] == r).sum()) for r in range(t.rows)]
    assert t.rows == a + b - 1
    assert widths[0] == a and widths[-1] == b and max(widths) == a + b - 1
    assert [len(s) for s in t.sides] == [a, b, a, b, a, b]
    assert len(t.perimeter) == 3 * (a + b) - 6 == int(t.edge.sum())
    for side, nxt in zip(t.sides, t.sides[1:] + t.sides[:1], strict=True):
        assert side[-1] == nxt[0], "consecutive sides share their corner"
    ring = list(t.perimeter)
    for p, q in zip(ring, ring[1:] + ring[:1], strict=True):
        assert q in t.neighbours(p), "consecutive perimeter cells are adjacent"


def test_lisbon_board_has_192_cells_and_45_perimeter_cells():
    t = hexhex(9, 8)
    assert t.ncells == 192 and len(t.perimeter) == 45
    assert [int((t.xy[:, 1] == r).sum()) for r in range(16)] == list(range(9, 17)) + list(range(15, 7, -1))


def test_regular_base_n_board():
    assert hexhex(8).ncells == 169 and hexhex(10).ncells == 271


def test_neighbour_slots_are_directions_on_planar_boards():
    t = hexhex(4)
    for c in range(t.ncells):
        x, r = t.xy[c]
        for d, (dx, dr) in enumerate(STEP):
            m = t.nbr[c, d]
            assert m == (t.at(int(x) + dx, int(r) + dr) if t.at(int(x) + dx, int(r) + dr) is not None else -1)
    assert not t.seam.any() and t.ghosts == ()
    assert DIRECTIONS == ("e", "se", "sw", "w", "nw", "ne")


def test_havannah_names_row_letter_and_north_east_line():
    t = hexhex(3)
    rows = [[t.name(c) for c in range(t.ncells) if t.xy[c, 1] == r] for r in range(t.rows)]
    assert rows == [["a1", "a2", "a3"], ["b1", "b2", "b3", "b4"], ["c1", "c2", "c3", "c4", "c5"],
                    ["d2", "d3", "d4", "d5"], ["e3", "e4", "e5"]]
    # a number names a north-east line: b2's NE neighbour is a2
    assert t.name(t.neighbour(t.index("b2"), 5)) == "a2"


def test_cells_json_lists_names_geometry_neighbours_edges():
    cells = projective(3).cells_json()
    h = next(c for c in cells if c["name"] == "H")
    assert h == {"name": "H", "xy": [1, 2], "neighbours": ["D", "I", "N", "M", "Q", "V"], "edge": True}
    assert sum(c["edge"] for c in cells) == 15  # "15 edge cells"


@pytest.mark.parametrize("bad", [(1, 3), (3, 1)])
def test_hexhex_rejects_tiny_sides(bad):
    with pytest.raises(ValueError, match="integers from 2 to 64"):
        hexhex(*bad)


@pytest.mark.parametrize("bad", [(65,), (3, 10**6), (10**5000,), (3.0,), (True, 3)])
def test_hexhex_refuses_huge_or_odd_sides_at_once(bad):
    with pytest.raises(ValueError, match="integers from 2 to 64"):
        hexhex(*bad)


def test_projective_rejects_tiny_sizes():
    for bad in (1, 65, 10**6, 10**5000, "3"):
        with pytest.raises(ValueError, match="from 2 to 64"):
            projective(bad)
