"""Lisbon: every rule sentence of the source and RULES.md, and its examples.

The source's diagrams are not available, only its text: each example is
rebuilt on our 9/8 board from what the text says, and the docstrings say how.
Perimeter cells are numbered p0 (a1, the top-left corner) to p44 clockwise;
the corners are p0 a1, p8 a9, p15 h16, p23 p16, p30 p9 and p38 h1.
"""

import itertools
import json
import random
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hexarena
from hexarena import IllegalMove
from hexarena.board import hexhex
from hexarena.cli import main
from hexarena.games.base import TURN, State
from hexarena.games.lisbon import edge_witness, near_opposite, triple_wins
from hexarena.games.lisbon_rules import EDGES, RING, WIN_CELL, WIN_HOW, merge_arcs, playout, recorded_playout

from tests.playout_checks import check_recorded_playout

T = hexhex(9, 8)
P = len(T.perimeter)


def new(**options):
    return hexarena.load("lisbon", **options).new_state()


def p(i):
    """The name of perimeter cell p_i (i taken round the circle)."""
    return T.name(T.perimeter[i % P])


def pos(name):
    return T.perimeter.index(T.index(name))


# --- a slow, independent reference: brute force over pairs and triples, flood fill for rings ---------------

def ref_group(topo, board, cell):
    seen, todo = {cell}, [cell]
    while todo:
        c = todo.pop()
        for m in topo.neighbours(c):
            if board[m] == board[cell] and m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


def ref_wins(topo, board, group):
    """(pair or triple, ring) for ``group`` by the letter of RULES.md."""
    per = len(topo.perimeter)
    cells = [i for i, c in enumerate(topo.perimeter) if c in group]
    pair = any(min((j - i) % per, (i - j) % per) == per // 2 for i, j in itertools.combinations(cells, 2))
    triple = any(all(g < per // 2 for g in (b - a, c - b, a + per - c)) for a, b, c in itertools.combinations(cells, 3))
    outside = {c for c in topo.perimeter if c not in group}
    todo = list(outside)
    while todo:
        c = todo.pop()
        for m in topo.neighbours(c):
            if m not in group and m not in outside:
                outside.add(m)
                todo.append(m)
    return pair or triple, len(group) + len(outside) < topo.ncells


def ref_any_win(topo, board, colour):
    seen = set()
    for c in range(topo.ncells):
        if board[c] == colour and c not in seen:
            group = ref_group(topo, board, c)
            seen |= group
            if any(ref_wins(topo, board, group)):
                return True
    return False


# --- building positions through the public API ---------------------------------------------------------------

def stone(state, cell):
    """Play one stone as a whole turn (then 'end' if the turn allows more)."""
    turn = state.turn
    state.play(cell)
    if not state.is_over() and state.turn == turn:
        state.play("end")


def interior_path(a, b):
    """A shortest path from perimeter cell a to b whose other cells are interior."""
    start, goal = T.index(a), T.index(b)
    prev = {start: None}
    todo = [start]
    while todo:
        nxt = []
        for c in todo:
            for m in T.neighbours(c):
                if m in prev or (T.edge[m] and m != goal):
                    continue
                prev[m] = c
                if m == goal:
                    path = [m]
                    while prev[path[-1]] is not None:
                        path.append(prev[path[-1]])
                    return [T.name(c) for c in reversed(path)]
                nxt.append(m)
        todo = nxt
    raise AssertionError(f"no interior path from {a} to {b}")


def fillers(black, count):
    """White stones that cannot matter: interior, pairwise apart, off black's cells."""
    taken = {T.index(c) for c in black}
    out: list[int] = []
    for c in range(T.ncells):
        if not T.edge[c] and c not in taken and not any(m in out for m in T.neighbours(c)):
            out.append(c)
    assert len(out) >= count
    return [T.name(c) for c in out[:count]]


def build(black, **options):
    """Black plays ``black`` one stone a turn (the last one last), White plays
    harmless fillers; asserts no one won before Black's last stone."""
    s = new(**options)
    white = fillers(black, len(black))
    for b, w in zip(black, white, strict=True):
        assert not s.is_over(), "the construction won too early"
        stone(s, b)
        if b != black[-1]:
            stone(s, w)
    return s


def connect(*ends, via="h8"):
    """A group joining perimeter cells ``ends`` through interior cells, the ends last."""
    cells: list[str] = []
    for e in ends:
        path = interior_path(e, via)
        cells += [c for c in path if c not in cells and c not in ends]
    group = [T.index(c) for c in cells + list(ends)]
    assert {T.name(c) for c in group if T.edge[c]} == set(ends), "only the chosen perimeter cells"
    return cells + list(ends)


def won(s):
    return s.is_over() and s.winner() == 0


# --- the board -------------------------------------------------------------------------------------------------

def test_board_has_192_cells_and_a_45_cell_perimeter_cycle_numbered_clockwise():
    g = hexarena.load("lisbon")
    t = g.topology
    assert g.options["size"] == (9, 8)
    assert t.ncells == 192 and len(t.perimeter) == 45 and g.perimeter == 45
    assert [int((t.xy[:, 1] == r).sum()) for r in range(t.rows)] == list(range(9, 17)) + list(range(15, 7, -1))
    assert [len(side) for side in t.sides] == [9, 8, 9, 8, 9, 8]
    ring = list(t.perimeter)
    assert all(ring[(i + 1) % 45] in t.neighbours(ring[i]) for i in range(45)), "a cycle of adjacent cells"
    # clockwise: from the top-left corner east along the top
    assert [p(i) for i in (0, 1, 8, 15, 23, 30, 38, 44)] == ["a1", "a2", "a9", "h16", "p16", "p9", "h1", "b1"]
    ppos = g.tables.ppos
    assert [int(ppos[c]) for c in ring] == list(range(45)) and (ppos >= 0).sum() == 45


def test_size_option_other_alternating_boards():
    s = new(size=(8, 9))
    assert s.game.topology.ncells == 192 and [len(x) for x in s.game.topology.sides] == [8, 9, 8, 9, 8, 9]
    assert hexarena.load("lisbon", size="8,9").options["size"] == (8, 9)
    assert hexarena.load("lisbon", size=[4, 3]).options["size"] == (4, 3)  # as a JSON record has it
    regular = hexarena.load("lisbon", size=(8, 8))
    assert regular.topology.ncells == 169 and regular.perimeter == 42


@pytest.mark.parametrize("bad", [(1, 3), (3,), "9", "9,x", (9, 8.0), (True, 3), 9])
def test_size_option_is_validated(bad):
    with pytest.raises(ValueError, match=r"option 'size'.*two integers a,b from 2 to 16"):
        hexarena.load("lisbon", size=bad)


def test_sequence_option_is_validated():
    with pytest.raises(ValueError, match=r"option 'sequence'.*progressive \| 12\*"):
        hexarena.load("lisbon", sequence="123")
    with pytest.raises(ValueError, match="unknown option 'swap'.*size, sequence"):
        hexarena.load("lisbon", swap=True)


# --- near-opposites (rule 1) -------------------------------------------------------------------------------------

def test_near_opposites_of_a_corner_are_the_other_corner_and_its_neighbour_along_the_longer_side():
    """Stone [1] on a corner (a1 = p0): its near-opposites are the opposite
    corner p16 (p23) and that corner's neighbour in the direction of the
    longer side, o16 (p22) on the 9-cell lower-right side, not p15 on the
    8-cell bottom.  Both lie 21 hexes away round the circle (22 steps)."""
    assert [p(j) for j in range(P) if near_opposite(P, 0, j)] == ["o16", "p16"]
    lower_right, bottom = T.sides[2], T.sides[3]
    assert len(lower_right) == 9 and len(bottom) == 8
    assert T.index("o16") in lower_right and T.index("p15") in bottom
    for far, wins in (("p16", True), ("o16", True), ("p15", False), ("n16", False)):
        s = build(connect(far, "a1"))
        assert won(s) is wins, far
        assert (s.game.win_explanation(s.array) == f"near-opposite edge cells a1 (p0) and {far} (p{pos(far)})") is wins


@pytest.mark.parametrize("shift", [1, 2, 4, 11, 30])
def test_near_opposites_keep_their_distance_from_the_corners(shift):
    """Black [2]: an edge stone k cells (counter-)clockwise from a corner has
    its near-opposites k cells from the corner's; stone [3] is the corner's
    case shifted four cells clockwise (a5: p12 and p13)."""
    assert [j for j in range(P) if near_opposite(P, shift, j)] == sorted([(22 + shift) % P, (23 + shift) % P])
    if shift == 4:
        assert {p(26), p(27)} == {"p13", "p12"} and p(4) == "a5"
    for far, wins in ((22, True), (23, True), (21, False), (24, False)):
        assert won(build(connect(p(shift), p(shift + far)))) is wins, (p(shift), p(shift + far))


def test_every_edge_cell_has_two_near_opposites_21_hexes_away_corners_included():
    """"For any edge hex, there are always two farthest hexes at distance 21
    (half-perimeter)", counting the hexes between; corners are no different."""
    for i in range(P):
        far = [j for j in range(P) if near_opposite(P, i, j)]
        assert far == sorted([(i + 22) % P, (i + 23) % P])
        for j in far:
            between = min((j - i) % P, (i - j) % P) - 1
            assert between == 21


def test_near_opposites_on_a_general_board_are_at_the_maximal_distance():
    assert [j for j in range(42) if near_opposite(42, 5, j)] == [26]  # (8, 8): exactly opposite
    assert [j for j in range(6) if near_opposite(6, 0, j)] == [3]


# --- three edge cells (rule 2): the source's coloured examples -------------------------------------------------------

def test_black_y_touching_three_non_adjacent_sides_wins():
    """Black: a standard Y to the middles of the top, lower-right and
    lower-left sides (gaps 15, 15, 15)."""
    ends = ("a5", p(19), p(34))
    assert [p(19), p(34)] == ["l16", "l5"]
    assert triple_wins(P, 4, 19, 34) and edge_witness(P, [4, 19, 34]) == (4, 19, 34)
    s = build(connect(*ends))
    assert won(s) and s.array[WIN_HOW] == EDGES
    assert s.game.win_explanation(s.array) == "three edge cells a5 (p4) and l16 (p19) and l5 (p34)"


def test_white_three_cells_not_a_y_win_and_moving_one_to_yellow_is_no_triple():
    """White: one stone at the top (a5, p4) and two lower ones on the bottom
    side (p15 = p24 and p10 = p29): no Y (two share a side), but every
    clockwise gap (20, 5, 20) is under half the perimeter: a win.

    Yellow: the source says that with either lower stone where a yellow one
    is, "there would have been a pair of stones with a distance of half the
    perimeter" and the shape would not win.  Its half-perimeter is the
    near-opposite distance (21 hexes between = 22 steps), so the yellow cells
    are p26 and p27, 22 steps from a5 one way or the other.  As a *triple*
    that is not winning (triple_wins), as the source says; but RULES.md rules
    that such a pair is near-opposite, and so the group wins by rule 1 anyway:
    we test both."""
    assert triple_wins(P, 4, 24, 29)
    s = build(connect("a5", "p15", "p10"))
    assert won(s) and s.game.win_explanation(s.array).startswith("three edge cells")
    for yellow, lower in ((26, 24), (27, 29)):
        kept = 29 if lower == 24 else 24
        assert not triple_wins(P, 4, yellow, kept)
        assert near_opposite(P, 4, yellow)
        s = build(connect("a5", p(kept), p(yellow)))
        assert won(s)
        assert s.game.win_explanation(s.array).startswith(f"near-opposite edge cells a5 (p4) and {p(yellow)}")


def test_cyan_pair_next_to_both_near_opposites_of_the_lower_stone_wins():
    """Cyan: the lower stone p12 (p27) and an upper pair a4 (p3) and a7 (p6),
    each adjacent to one of p12's near-opposites a5 and a6 (p4, p5): gaps 21,
    3, 21 (RULES.md: wins).  Without either upper stone it does not win."""
    assert [p(j) for j in range(P) if near_opposite(P, 27, j)] == ["a5", "a6"]
    assert T.index("a4") in T.neighbours(T.index("a5")) and T.index("a7") in T.neighbours(T.index("a6"))
    assert triple_wins(P, 27, 3, 6)
    assert not near_opposite(P, 27, 3) and not near_opposite(P, 27, 6)
    assert won(build(connect("a4", "a7", "p12")))
    for pair in (("a4", "p12"), ("a7", "p12")):
        s = build(connect(*pair))
        assert not s.is_over()


def test_purple_with_one_gap_far_over_half_does_not_win():
    """Purple: p0, p5, p10 (a1, a6, c11): gaps 5, 5, 35."""
    assert not triple_wins(P, 0, 5, 10) and edge_witness(P, [0, 5, 10]) is None
    s = build(connect("a1", "a6", "c11"))
    assert not s.is_over()


def test_any_three_of_several_edge_cells_may_make_the_pattern():
    """"If a player has several friendly stones at the edges, to win he needs
    to select three that make the winning pattern; the remaining unselected
    stones are immaterial": purple plus p13 (p26) wins through a1, a6 and
    p13 (gaps 5, 21, 19), though no pair is near-opposite; c11 is immaterial."""
    assert edge_witness(P, [0, 5, 10, 26]) == (0, 5, 26)
    assert not near_opposite(P, 5, 26)
    s = build(connect("a1", "a6", "c11", "p13"))
    assert won(s) and s.game.win_explanation(s.array) == "three edge cells a1 (p0) and a6 (p5) and p13 (p26)"


def test_pairs_and_triples_equal_not_fitting_in_an_arc_of_21_steps():
    """RULES.md: rules 1 and 2 together say the perimeter cells do not all
    fit in an arc of ⌊P/2⌋ − 1 steps; checked over random subsets."""
    rng = random.Random(7)
    for per in (45, 42, 6, 9):
        for _ in range(300):
            cells = sorted(rng.sample(range(per), rng.randint(1, min(per, 6))))
            by_rule = edge_witness(per, cells) is not None
            arc = min(max((c - start) % per for c in cells) for start in cells)
            assert by_rule == (arc > per // 2 - 1), (per, cells)


def test_merge_arcs_gives_the_shortest_arc_holding_both():
    for a, la, b, lb, want in ((40, 3, 2, 1, (40, 8)), (0, 5, 3, 4, (0, 7)), (10, 2, 4, 1, (4, 8)),
                               (0, 10, 2, 3, (0, 10))):
        assert merge_arcs(a, la, b, lb, 45) == want


# --- the ring (rule 3) ---------------------------------------------------------------------------------------------

def ring_around(centre):
    return [T.name(m) for m in T.neighbours(T.index(centre))]


def test_ring_around_an_empty_cell_wins():
    s = build(ring_around("f6"))
    assert won(s) and s.array[WIN_HOW] == RING
    assert s.game.win_explanation(s.array) == "a ring around f6"


def test_ring_around_an_enemy_stone_wins():
    s = new()
    cells = ring_around("f6")
    white = ["f6"] + fillers(cells + ["f6"], len(cells))
    for b, w in zip(cells, white, strict=False):
        stone(s, b)
        if not s.is_over():
            stone(s, w)
    assert won(s) and s.game.win_explanation(s.array) == "a ring around f6"


def test_ring_stones_may_stand_on_the_perimeter():
    """Around b2: a1, a2 and b1 are perimeter cells; b2 is not."""
    assert sum(T.edge[T.index(c)] for c in ring_around("b2")) == 3 and not T.edge[T.index("b2")]
    assert won(build(ring_around("b2")))


def test_the_board_edge_is_never_a_wall():
    """a2, b3, b4, a4 shut perimeter cell a3 in against the edge: no ring."""
    assert sorted(ring_around("a3")) == ["a2", "a4", "b3", "b4"]
    s = build(["a2", "b3", "b4", "a4"])
    assert not s.is_over()


def test_ring_around_cells_holding_another_own_group_wins():
    """Twelve stones two steps round f6 enclose f6's neighbours and a black
    stone on f6 itself (another group): the region is non-group cells."""
    centre = T.index("f6")
    second = {m for c in T.neighbours(centre) for m in T.neighbours(c)} - set(T.neighbours(centre)) - {centre}
    order = sorted(T.name(c) for c in second)
    s = build(["f6"] + order)
    assert won(s) and s.array[WIN_HOW] == RING
    assert s.game.win_explanation(s.array).startswith("a ring around ")
    assert set(s.game.enclosed(s.array, s.game.group(s.array, T.index(order[-1])))) == \
        set(T.neighbours(centre)) | {centre}


# --- turns ------------------------------------------------------------------------------------------------------------

def test_progressive_sequence_and_the_turn_sizes_the_sample_match_quotes():
    """1,2,2,2,3,4,4,4,5,6,... ("122234445666..."); the sample match: White
    [8] makes four extensions, Black's [9] has five stones, turn 11 six
    ("five of his six moves"), "eight movements per turn" (turns 14-16), and
    White "now has 10 moves" at turn 18."""
    g = hexarena.load("lisbon")
    assert [g.allowance(t) for t in range(1, 21)] == [1, 2, 2, 2, 3, 4, 4, 4, 5, 6, 6, 6, 7, 8, 8, 8, 9, 10, 10, 10]
    assert "".join(str(g.allowance(t)) for t in range(1, 13)) == "122234445666"
    assert (g.allowance(8), g.allowance(9), g.allowance(11), g.allowance(18)) == (4, 5, 6, 10)
    assert [g.allowance(t) for t in (14, 15, 16)] == [8, 8, 8]


def test_twelve_star_sequence_is_one_stone_then_two():
    g = hexarena.load("lisbon", sequence="12*")
    assert [g.allowance(t) for t in range(1, 9)] == [1, 2, 2, 2, 2, 2, 2, 2]
    s = g.new_state()
    s.play("h8")
    s.play("a1")
    with pytest.raises(IllegalMove, match="'a2' would join the group of 'a1', placed this turn"):
        s.play("a2")
    s.play("p9")
    assert (s.turn, s.to_move) == (3, 0)


def test_turns_use_their_allowance_and_pass_by_themselves_black_first():
    """Playing every turn's whole allowance reaches turn 18, White's, with
    10 stones (and 85 stones on the board)."""
    s = new()
    rng = random.Random(3)
    assert (s.to_move, s.turn, s.step) == (0, 1, 0)
    while s.turn < 18:
        turn, mover, allowance = s.turn, s.to_move, s.game.allowance(s.turn)
        for k in range(allowance):
            assert (s.turn, s.step, s.to_move) == (turn, k, mover)
            cells = [m for m in s.legal_moves() if m != "end"]
            s.play(rng.choice(cells))
            assert not s.is_over()
        assert (s.turn, s.step, s.to_move) == (turn + 1, 0, 1 - mover)
    assert s.to_move == 1 and s.game.allowance(s.turn) == 10
    assert (s.game.stones(s.array) > 0).sum() == 85
    assert str(s).split("\n")[-1] == "white to move: turn 18, 10 stones (0 placed)"


def test_end_stops_a_turn_after_at_least_one_stone():
    """"Players do not need to use all available moves"."""
    s = new()
    assert "end" not in s.legal_moves()
    s.play("h8")  # turn 1: one stone, passes by itself
    assert (s.turn, s.to_move) == (2, 1) and "end" not in s.legal_moves()
    with pytest.raises(IllegalMove, match="'end' needs at least one stone placed this turn"):
        s.play("end")
    s.play("a1")
    assert s.legal_moves()[-1] == "end" and s.step == 1
    s.play("end")
    assert (s.turn, s.step, s.to_move) == (3, 0, 0)
    assert s.record_text() == "[lisbon size=9,8 sequence=progressive] 1. h8 2. a1,end *"


# --- the group restriction ------------------------------------------------------------------------------------------

def test_black_cannot_cut_both_links_of_a_white_bridge():
    """"Black cannot cut both [4] to [2] given the group restriction": White
    f5 and g7 form a bridge over f6 and g6, which touch each other, so
    Black's second cutting stone would join his first."""
    s = new()
    for m in ("a1", "f5", "end", "p9", "end", "g7", "end"):
        s.play(m)
    common = set(T.neighbours(T.index("f5"))) & set(T.neighbours(T.index("g7")))
    assert {T.name(c) for c in common} == {"f6", "g6"} and T.index("g6") in T.neighbours(T.index("f6"))
    s.play("g6")
    before = s.array.copy()
    with pytest.raises(IllegalMove, match="'f6' would join the group of 'g6', placed this turn"):
        s.play("f6")
    assert np.array_equal(s.array, before) and "f6" not in s.legal_moves()
    assert s.game.blocked(s.array)[T.index("f6")]


def test_no_group_is_extended_twice_in_a_turn():
    """"Black cannot cut the two white south branches, since they would
    belong to the same black group": k8 is Black's; k7 and k9 both touch it
    (not each other), so once k7 is played k9 would join k7's group."""
    s = new()
    for m in ("k8", "a1", "end", "k7"):
        s.play(m)
    assert T.index("k9") not in T.neighbours(T.index("k7"))
    with pytest.raises(IllegalMove, match="'k9' would join the group of 'k7', placed this turn"):
        s.play("k9")
    s.play("c5")  # another group's neighbour is fine
    assert s.turn == 4  # the allowance of 2 is used: White's turn
    s.play("k9")  # the restriction is per turn: White may, and next turn Black may again
    s.play("end")
    s.play("j8")
    assert s.step == 1


def test_no_stone_may_merge_a_group_holding_a_stone_of_this_turn():
    """e6 joins Black's old groups e5 and e7: fine, until e8 joins e7's group
    in this turn; then e6 would merge it and is refused."""
    s = new()
    for m in ("e5", "p9", "end", "e7", "end", "p11", "end", "a1"):
        s.play(m)
    assert "e6" in s.legal_moves()
    s.play("e8")
    with pytest.raises(IllegalMove, match="'e6' would join the group of 'e8', placed this turn"):
        s.play("e6")
    assert s.step == 2 and s.game.allowance(s.turn) == 3


def test_white_eighth_turn_extends_four_groups():
    """"White [8] makes four group extensions": four stones, each next to a
    different one of White's groups c3, c9, n8, n14, make up turn 8."""
    s = new()
    for m in "h8 c3 c9 h2 end n8 n14 h5 end p9 end h11 end".split():
        s.play(m)
    assert (s.turn, s.to_move, s.game.allowance(8)) == (8, 1, 4)
    for m in ("c4", "c10", "n9", "n15"):
        s.play(m)
    assert (s.turn, s.to_move) == (9, 0)
    assert all(s.game.stones(s.array)[T.index(c)] == 2 for c in ("c4", "c10", "n9", "n15"))


# --- wins end the game at once --------------------------------------------------------------------------------------

def test_a_win_mid_turn_ends_the_game_at_once():
    """"Checked after every stone": the first stone of a longer turn wins."""
    cells = connect("a1", "p16")
    s = build(cells[:-1])  # all but the last stone; then it is White's turn
    board = s.game.stones(s.array)
    stone(s, next(c for c in fillers(cells, len(cells)) if board[T.index(c)] == 0))
    assert s.to_move == 0 and s.game.allowance(s.turn) >= 2 and s.step == 0
    s.play(cells[-1])
    assert won(s) and s.to_move is None and s.legal_moves() == [] and s.step == 1
    with pytest.raises(IllegalMove, match="game is over"):
        s.play("end")


def test_a_full_small_board_without_a_winner_is_a_draw():
    """RULES.md: a full 9/8 board always has a winner; on the 2/2 board one
    need not (Black: b2 and p0-p2, White: p3-p5, each within 2 steps)."""
    s = new(size=(2, 2))
    for m in "a1 c3 end a2 end c2 end b3 end b1 end b2".split():
        s.play(m)
    assert s.is_over() and s.winner() is None and s.to_move is None
    assert str(s).split("\n")[-1] == "the board is full: a draw"
    assert s.record_text().endswith("1/2-1/2")


# --- the kernels against the reference ----------------------------------------------------------------------------

def ref_legal(s):
    """Empty cells whose stone would not share a group with a stone of this turn."""
    topo, board = s.game.topology, s.game.stones(s.array)
    colour = 1 + s.to_move
    label = {}
    for c in range(topo.ncells):
        if board[c] == colour and c not in label:
            group = ref_group(topo, board, c)
            for m in group:
                label[m] = min(group)
    when = s.game.placed_turn(s.array)
    marked = {label[c] for c in range(topo.ncells) if board[c] == colour and when[c] == s.turn}
    return [c for c in range(topo.ncells) if board[c] == 0 and
            not any(board[m] == colour and label[m] in marked for m in topo.neighbours(c))]


def check_game(size, seed, end_rate):
    """Random legal moves; after every stone the kernel's result and legal
    moves agree with the reference (brute force, flood fill, restriction)."""
    rng = random.Random(seed)
    s = new(size=size)
    topo = s.game.topology
    while not s.is_over():
        legal = ref_legal(s)
        assert s.legal_actions() == legal + ([topo.ncells] if s.step else [])
        colour = 1 + s.to_move
        a = topo.ncells if (s.step and rng.random() < end_rate) or not legal else rng.choice(legal)
        s.apply(a)
        if a == topo.ncells:
            continue
        board = s.game.stones(s.array)
        edges, ring = ref_wins(topo, board, ref_group(topo, board, a))
        if edges or ring:
            assert s.winner() == colour - 1 and s.array[WIN_HOW] == (EDGES if edges else 0) | (RING if ring else 0)
        else:
            assert not s.is_over() or (s.winner() is None and (board > 0).all())
    return s


@settings(max_examples=6)
@given(seed=st.integers(0, 10**9))
def test_kernel_agrees_with_the_reference_on_the_9_8_board(seed):
    check_game((9, 8), seed, 0.1)


@given(seed=st.integers(0, 10**9), size=st.sampled_from([(2, 2), (3, 3), (4, 3), (2, 5)]))
def test_kernel_agrees_with_the_reference_on_small_boards(seed, size):
    check_game(size, seed, 0.3)


@given(seed=st.integers(0, 10**9), cut=st.integers(0, 60), size=st.sampled_from([(9, 8), (3, 3), (4, 3)]))
def test_playout_ends_in_a_consistent_finished_position(seed, cut, size):
    rng = random.Random(seed)
    s = new(size=size)
    for _ in range(cut):
        if not s.is_over():
            s.apply(rng.choice(s.legal_actions()))
    arr = s.array.copy()
    hexarena.kernels.seed(seed)
    playout(arr, s.game.tables)
    done = State(s.game, arr)
    topo, board = s.game.topology, s.game.stones(arr)
    assert done.is_over() and done.to_move is None
    if done.winner() is None:
        assert (board > 0).all() and not ref_any_win(topo, board, 1) and not ref_any_win(topo, board, 2)
    else:
        last = int(arr[WIN_CELL])
        assert board[last] == 1 + done.winner() and any(ref_wins(topo, board, ref_group(topo, board, last)))
        assert not ref_any_win(topo, board, 2 - done.winner())


@pytest.mark.parametrize("size", [(9, 8), (3, 3), (4, 3)])
def test_playouts_are_legal_games_using_whole_turns(size):
    """Replaying a playout's stones turn by turn through the facade: every
    turn is legal and places its whole allowance, or ends when no legal cell
    is left; the result is the same."""
    g = hexarena.load("lisbon", size=size)
    for seed in range(12):
        arr = g.new_state().array.copy()
        hexarena.kernels.seed(seed)
        playout(arr, g.tables)
        when, last = g.placed_turn(arr), int(arr[WIN_CELL])
        s = g.new_state()
        for turn in range(1, int(arr[TURN]) + 1):
            stones = [int(c) for c in np.flatnonzero(when == turn) if c != last]
            stones += [last] if last >= 0 and when[last] == turn else []
            assert s.turn == turn
            for c in stones:
                s.apply(c)
            if s.turn == turn and not s.is_over():
                assert s.legal_moves() == ["end"], "a turn ended early though a legal cell was left"
                s.play("end")
        assert s.is_over() and s.winner() == State(g, arr).winner()
        assert np.array_equal(s.game.stones(s.array), g.stones(arr))


# --- notation, records, command line ---------------------------------------------------------------------------------

def test_errors_name_the_problem_and_leave_the_state_unchanged():
    s = new()
    s.play("h8")
    before = s.array.copy()
    with pytest.raises(IllegalMove, match="'h8' is occupied"):
        s.play("h8")
    with pytest.raises(IllegalMove, match="'q1' is not a move of lisbon: a move is a cell.*or 'end'"):
        s.play("q1")
    with pytest.raises(IllegalMove, match="needs at least one stone"):
        s.play("end")
    assert np.array_equal(s.array, before) and s.moves() == ["h8"]


def test_names_are_case_insensitive_havannah_style():
    s = new()
    s.play("H8")
    assert s.moves() == ["h8"]
    assert s.legal_moves()[:3] == ["a1", "a2", "a3"] and len(s.legal_moves()) == 191


def test_records_round_trip_with_the_size_option():
    s = new(size=(4, 3), sequence="12*")
    for m in ("c3", "a1", "e6", "b5"):
        s.play(m)
    text = s.record_text()
    assert text == "[lisbon size=4,3 sequence=12*] 1. c3 2. a1,e6 3. b5 *"
    assert hexarena.from_record(text) == s
    rec = json.loads(json.dumps(s.record()))
    assert rec["options"] == {"size": [4, 3], "sequence": "12*"} and hexarena.from_record(rec) == s


def run(argv):
    import io

    out = io.StringIO()
    return main(argv, out=out), out.getvalue()


def test_cli_replay_and_cells():
    code, out = run(["replay", "lisbon", "-o", "size=8,9", "h8", "a1", "end", "b2", "--json"])
    got = json.loads(out)
    assert code == 0 and got["options"] == {"size": [8, 9], "sequence": "progressive"}
    assert got["moves"] == ["h8", "a1", "end", "b2"] and got["to_move"] == 0 and "end" in got["legal_moves"]
    code, out = run(["replay", "lisbon", "h8", "a1", "a2", "--json"])
    assert code == 2 and json.loads(out) == {"error": "'a2' would join the group of 'a1', placed this turn", "index": 2}
    code, out = run(["cells", "lisbon", "--json"])
    cells = json.loads(out)
    assert len(cells) == 192 and sum(c["edge"] for c in cells) == 45


def test_cli_bench_reports_lisbon_playouts():
    code, out = run(["bench", "lisbon", "--seconds", "0.05", "--no-openspiel"])
    assert code == 0 and re.search(r"hexarena lisbon 9/8 \(192 cells\), progressive +[\d,]+ playouts/s", out)
    assert "12*" in out


# --- observations and rendering --------------------------------------------------------------------------------------

def test_planes_show_stones_turn_progress_and_blocked_cells():
    s = new()
    for m in ("h8", "a1"):
        s.play(m)
    planes = s.game.planes(s.array, 1)
    assert planes.shape == (len(s.game.PLANES), 192) and planes.dtype == np.float32
    named = dict(zip(s.game.PLANES, planes, strict=True))
    a1, h8 = T.index("a1"), T.index("h8")
    assert named["own"][a1] == 1 and named["opponent"][h8] == 1 and named["empty"].sum() == 190
    assert named["placed this turn"][a1] == 1 and named["placed this turn"].sum() == 1
    blocked = {T.name(c) for c in np.flatnonzero(named["blocked this turn"])}
    assert blocked == {"a2", "b1", "b2"}  # a1's neighbours
    assert (named["share of the turn left"] == 0.5).all() and named["perimeter"].sum() == 45
    black_view = s.game.planes(s.array, 0)
    assert black_view[0][h8] == 1 and black_view[1][a1] == 1


def test_ascii_has_row_letters_cell_ranges_and_the_turn():
    s = new()
    s.play("h8")
    s.play("a1")
    lines = str(s).split("\n")
    assert len(lines) == 19
    assert lines[0].startswith("a ") and lines[0].endswith("a1 .. a9") and "o" in lines[0]  # this turn: lower case
    assert lines[7].startswith("h ") and "X" in lines[7] and lines[7].endswith("h1 .. h16")
    assert lines[8].split()[:2] == ["i", "1"]  # column numbers at the foot of their lines: 1 below-left of h1
    assert lines[16].split() == ["9", "1", "1", "1", "1", "1", "1", "1"]  # 9 .. 16 under row p, tens above units
    assert lines[17].split() == ["0", "1", "2", "3", "4", "5", "6"]
    assert lines[-1] == "white to move: turn 2, 2 stones (1 placed; 'end' stops the turn here)"


def test_svg_rings_the_winning_group_and_outlines_its_edge_cells():
    cells = connect("a5", "l16", "l5")
    s = build(cells)
    svg = s.svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count('stroke="#d02020"') == len(cells)
    assert svg.count('class="accent"') == 3
    assert "black wins with three edge cells" in svg and ">a1<" in svg
    assert new().svg(hints=True).count('class="hint"') == 192


def test_svg_of_a_ring_outlines_the_enclosed_cell():
    s = build(ring_around("f6"))
    assert s.svg().count('class="accent"') == 1



def same_roots(g, arr):
    """``arr`` with each union-find parent replaced by its root: the playout
    also halves paths while trying cells it then refuses, which legal moves
    never do, so only the trees' shapes may differ."""
    n, at, out = g.topology.ncells, g.tables.par, arr.copy()
    par = out[at: at + n]
    for c in range(n):
        r = c
        while arr[at + r] != r:
            r = arr[at + r]
        par[c] = r
    return out


@pytest.mark.parametrize("size, cut", [((9, 8), 0), ((9, 8), 7), ((3, 3), 2), ((4, 3), 0)])
def test_recorded_playout_actions_replay_through_the_facade_to_the_same_position(size, cut):
    """The recorded actions (``end`` included when a turn runs out of legal
    cells) are legal in order, their movers are the players to move, and they
    lead to the playout's final array; ``playout`` plays the same game, and
    short arrays keep the record's start."""
    g = hexarena.load("lisbon", size=size)
    for seed in range(8):
        rng, s = random.Random(seed), g.new_state()
        for _ in range(cut):
            s.apply(rng.choice(s.legal_actions()))
        short = s.array.copy()
        count, actions, arr = check_recorded_playout(
            s, seed, 600, same=lambda a, b: np.array_equal(same_roots(g, a), same_roots(g, b)))
        few_a, few_p = np.full(3, -1, np.int32), np.full(3, -1, np.int32)
        hexarena.kernels.seed(seed)
        assert recorded_playout(short, g.tables, few_a, few_p) == min(3, count)
        assert list(few_a[:count]) == list(actions[:3][:count]) and np.array_equal(short, arr)
