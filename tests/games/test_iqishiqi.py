"""Iqishiqi: every rule sentence of the source and RULES.md, and its worked examples.

The source's examples are pictures without coordinates; the two whose
positions the text describes (a group of 4 pushing 4, a group of 5 refused;
the stalemate) are rebuilt here on the base-8 board (rows 1..15, doubled-x
letters a..ac) with the described property, and played through the rules.
"""

import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import hexarena
from hexarena import IllegalMove
from hexarena.cli import main
from hexarena.games.iqishiqi import Iqishiqi
from hexarena.games.iqishiqi_rules import CORNER, has_drop
from hexarena.render.svg import STONE, BALL

from tests.playout_checks import check_recorded_playout


def game(**options):
    return hexarena.load("iqishiqi", **options)


def ball(state):
    return state.game.topology.name(state.game.ball(state.array))


def stones(state):
    g = state.game
    return {g.topology.name(c) for c in np.flatnonzero(g.stones(state.array))}


# --- the board ----------------------------------------------------------------

def test_default_board_is_base_8_with_the_ball_on_the_centre():
    s = game().new_state()
    t = s.game.topology
    assert t.ncells == 169 and t.rows == 15
    assert ball(s) == "o8" and stones(s) == set()
    assert t.names[0] == "h1" and "ac8" in t.names  # doubled-width names, columns a..ac


@pytest.mark.parametrize("size", [3, 5, 9])
def test_size_option(size):
    s = game(size=size).new_state()
    assert s.game.topology.ncells == 3 * size * (size - 1) + 1
    assert not s.game.topology.edge[s.game.ball(s.array)]


@pytest.mark.parametrize("bad", [2, 14, "x", True])
def test_bad_size_is_refused_naming_the_allowed_values(bad):
    with pytest.raises(ValueError, match="allowed: an integer from 3 to 13"):
        game(size=bad)


def test_north_moves_first():
    s = game().new_state()
    assert s.to_move == 0 and s.game.PLAYERS == ("North", "South")


def test_edges_north_owns_n_se_sw_south_owns_s_ne_nw_corners_both():
    g = game(size=4)
    t, owner = g.topology, g.owner
    name = {t.name(c): int(owner[c]) for c in range(t.ncells)}
    assert name["f1"] == name["h1"] == 0  # N (top) side, inside the corners
    assert name["m4"] == CORNER and name["d1"] == CORNER  # the right and top-left corners
    assert name["k2"] == 1 and name["l3"] == 1  # NE side: South
    assert name["l5"] == 0 and name["k6"] == 0  # SE side: North
    assert name["f7"] == name["h7"] == 1  # S side: South
    assert name["b5"] == 0 and name["c6"] == 0  # SW side: North
    assert name["b3"] == 1 and name["c2"] == 1  # NW side: South
    assert sorted(n for n, o in name.items() if o == CORNER) == ["a4", "d1", "d7", "j1", "j7", "m4"]
    assert name["g4"] == -1


# --- moves ----------------------------------------------------------------------

def test_a_lone_stone_in_line_pushes_the_ball_one_cell_away():
    s = game().new_state()
    s.play("k8")  # two cells west of the ball, only m8 (empty) between
    assert ball(s) == "q8" and stones(s) == {"k8"}
    assert s.to_move == 1


def test_a_stone_off_the_balls_lines_cannot_be_dropped():
    s = game().new_state()
    with pytest.raises(IllegalMove, match="no stone of its group of 1 sees the ball"):
        s.play("l7")
    assert s.history == []


def test_occupied_cells_and_the_ball_cell_are_refused():
    s = game().new_state()
    s.play("k8")
    before = s.array.copy()
    with pytest.raises(IllegalMove, match="'k8' is occupied"):
        s.play("k8")
    with pytest.raises(IllegalMove, match="'q8' holds the ball"):
        s.play("q8")
    with pytest.raises(IllegalMove, match="'z40' is not a move of iqishiqi: a move is a cell"):
        s.play("z40")
    with pytest.raises(IllegalMove, match="not a move"):
        s.play("8k")
    assert np.array_equal(s.array, before)


def test_stones_are_one_shared_colour_a_group_joins_both_players_stones():
    s = game().new_state()
    s.play("k8")  # North: the ball o8 -> q8
    s.play("j7")  # South's stone touches North's k8: one group of 2; k8 sees the ball
    assert ball(s) == "u8"  # pushed exactly 2 cells east


def test_the_group_size_after_the_drop_is_the_push_distance():
    g = game()
    s = g.position(["i8", "j7"], ball="o8", to_move=0)  # a group of 2 west of the ball
    s.play("k8")  # joins it: 3 stones, k8 sees the ball (m8 empty between)
    assert ball(s) == "u8"  # exactly 3 cells east
    s2 = g.position(["i8", "j7"], ball="o8", to_move=0)
    s2.play("m8")  # m8 does not touch the group: a group of 1, pushes 1
    assert ball(s2) == "q8"


def test_only_empty_cells_between_the_stone_and_the_ball():
    g = game()
    s = g.position(["m8"], ball="o8", to_move=0)
    # k8 joins m8 (a group of 2): m8 sees the ball and pushes it 2 east
    s.play("k8")
    assert ball(s) == "s8"
    # g8 is in line with the ball but k8/m8 stand between, and g8 touches nothing
    with pytest.raises(IllegalMove, match="no stone of its group"):
        s.play("g8")


def test_the_n_cells_beyond_must_be_empty():
    g = game()
    s = g.position(["m8", "s8"], ball="o8", to_move=0)  # only q8 empty east of the ball
    with pytest.raises(IllegalMove, match="group of 2, so the ball must move exactly 2 cells, but there are at most 1"):
        s.play("k8")
    assert ball(s) == "o8" and stones(s) == {"m8", "s8"} and s.history == []


def test_the_n_cells_beyond_must_be_on_the_board():
    g = game()
    s = g.position(["w8", "v7"], ball="y8", to_move=0)  # aa8, ac8 beyond, ac8 the corner
    with pytest.raises(IllegalMove, match="exactly 3 cells, but there are at most 2"):
        s.play("u8")  # joins w8 and v7: a group of 3 needs 3 cells, the board has 2
    s = g.position(["w8"], ball="y8", to_move=0)
    s.play("u8")  # joins w8: a group of 2 reaches the corner exactly
    assert ball(s) == "ac8"


# --- the source's example (rebuilt): a group of 4 pushes 4, a group of 5 is refused ---

# Ball on l11 with four empty cells west of it down to d11 on the SW edge
# (North's); a group of 3 (n11, o10, q10) east of it with n11 seeing the
# ball; a lone stone t11 beyond.  The green cell p11 joins the three: a group
# of 4 pushes the ball four cells west onto d11.  The red cells r11 and s10
# join the three and t11: a group of 5 would need five cells; there are four.
EXAMPLE = dict(stones=["n11", "o10", "q10", "t11"], ball="l11")


def test_example_green_cell_group_of_4_pushes_4_cells_west_and_wins():
    s = game().position(**EXAMPLE, to_move=0)
    s.play("p11")
    assert ball(s) == "d11"
    assert s.is_over() and s.winner() == 0  # North owns the SW edge


@pytest.mark.parametrize("red", ["r11", "s10"])
def test_example_red_cells_group_of_5_has_no_room(red):
    s = game().position(**EXAMPLE, to_move=0)
    assert red not in s.legal_moves()
    with pytest.raises(IllegalMove, match="group of 5, so the ball must move exactly 5 cells, but there are at most 4"):
        s.play(red)
    assert ball(s) == "l11" and s.history == []


# --- the end ----------------------------------------------------------------------

def test_ball_on_an_edge_wins_for_its_owner_whoever_pushed_it():
    s = game().position(**EXAMPLE, to_move=1)  # South pushes onto North's SW edge
    s.play("p11")
    assert s.winner() == 0 and "North wins" in str(s)


def test_ball_on_a_corner_wins_for_the_mover():
    for mover in (0, 1):
        s = game().position(["u8"], ball="y8", to_move=mover)
        s.play("s8")  # joins u8: a group of 2, two cells east onto the corner ac8
        assert ball(s) == "ac8" and s.winner() == mover


# The stalemate example (rebuilt): the ball on m8 beside a ring of five
# stones (n7 p7 q8 p9 n9) around o8.  South's lone stone on k8 pushes the ball
# one cell east into the ring; the only empty cell next to it is m8, behind
# it, and the stone that could push it back (q8) is in a group of 6 or more.
STALEMATE = dict(stones=["n7", "p7", "q8", "p9", "n9"], ball="m8")


def test_stalemate_example_the_player_without_a_legal_drop_loses():
    s = game().position(**STALEMATE, to_move=1)
    s.play("k8")
    assert ball(s) == "o8"
    assert s.is_over() and s.winner() == 1 and "stalemate" in str(s)
    north = s.game.position(STALEMATE["stones"] + ["k8"], ball="o8", to_move=0)
    assert north.legal_moves() == []
    with pytest.raises(IllegalMove, match="group of 6, so the ball must move exactly 6 cells, but there are at most 1"):
        north.play("r7")  # joins the ring: q8 sees the ball from the east, m8 alone is free west


def test_the_edge_is_checked_before_stalemate():
    # North pushes the ball onto n15 (South's S edge) where South has no drop:
    # the edge decides (South wins), not the stalemate.
    s = game().position(["l15", "p15", "o14"], ball="m14", to_move=0)
    s.play("l13")  # a lone stone pushes the ball one cell south-east
    assert ball(s) == "n15" and not has_drop(s.array.copy(), s.game.tables)
    assert s.is_over() and s.winner() == 1


# --- direction choice and notation --------------------------------------------------

def two_way():
    """m8 and n7 touch the ball (o8) from the west and the north-west; a drop
    on l7 joins both: a group of 3 that may push east or south-east."""
    return game().position(["m8", "n7"], ball="o8", to_move=0)


def test_the_mover_chooses_among_directions_suffixes_only_where_ambiguous():
    s = two_way()
    moves = s.legal_moves()
    assert "l7e" in moves and "l7se" in moves and "l7" not in moves
    assert "t3" in moves and "t3sw" not in moves  # a lone stone up the NE line: one way
    east = s.copy()
    east.play("l7e")
    assert ball(east) == "u8"
    s.play("l7se")
    assert ball(s) == "r11"
    assert s.moves() == ["l7se"]


def test_a_bare_cell_for_an_ambiguous_drop_is_refused_with_the_choices():
    s = two_way()
    with pytest.raises(IllegalMove, match="'l7' can push the ball 2 ways; say which: l7e, l7se"):
        s.play("l7")
    with pytest.raises(IllegalMove, match="cannot push the ball ne; it can push it: e, se"):
        s.play("l7ne")
    assert s.history == []


def test_a_suffix_naming_the_only_direction_is_accepted():
    s = two_way()
    s.play("t3sw")
    assert s.moves() == ["t3"] and ball(s) == "n9"


def test_the_sources_bare_n_means_ne_and_case_is_ignored():
    s = game().position(["m8", "n9"], ball="o8", to_move=0)
    assert {"l9e", "l9ne"} <= set(s.legal_moves())
    s.play("L9N")
    assert ball(s) == "r5" and s.moves() == ["l9ne"]


def test_records_keep_the_suffixes_and_round_trip():
    s = game().new_state()
    for m in ("k8", "j7", "l9"):
        s.play(m)
    text = s.record_text()
    assert text.startswith("[iqishiqi size=8] 1. k8 2. j7 3. ")
    assert hexarena.from_record(text) == s
    assert hexarena.from_record(json.loads(json.dumps(s.record()))) == s


def test_replay_on_the_command_line_accepts_the_notation(capsys):
    assert main(["replay", "iqishiqi", "k8", "j7", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["moves"] == ["k8", "j7"] and out["to_move"] == 0 and not out["over"]
    assert main(["replay", "iqishiqi", "k8", "k8", "--json"]) == 2
    assert "occupied" in json.loads(capsys.readouterr().out)["error"]


# --- an independent check of the move rule ---------------------------------------------

def oracle_moves(g, s):
    """The legal (cell, direction) pairs by the rule's words, in plain Python:
    flood-fill the drop's group, look from each of its stones along the six
    lines for the ball, then count the empty cells beyond it."""
    t, board, b = g.topology, g.stones(s).copy(), g.ball(s)
    out = set()
    for c in range(t.ncells):
        if board[c] or c == b:
            continue
        board[c] = 1
        group, todo = {c}, [c]
        while todo:
            x = todo.pop()
            for m in t.nbr[x]:
                if m >= 0 and board[m] and m not in group:
                    group.add(int(m))
                    todo.append(int(m))
        for x in group:
            for d in range(6):
                m = int(t.nbr[x, d])
                while m >= 0 and not board[m] and m != b:
                    m = int(t.nbr[m, d])
                if m != b:
                    continue
                run, m = 0, int(t.nbr[b, d])
                while m >= 0 and not board[m] and run < len(group):
                    run, m = run + 1, int(t.nbr[m, d])
                if run == len(group):
                    out.add((c, d))
        board[c] = 0
    return out


@pytest.mark.parametrize("seed", range(12))
def test_legal_drops_agree_with_the_rule_read_literally(seed):
    import random

    rng = random.Random(seed)
    s = game(size=5 if seed % 2 else 8).new_state()
    while not s.is_over():
        assert {divmod(a, 6) for a in s.legal_actions()} == oracle_moves(s.game, s.array)
        s.apply(rng.choice(s.legal_actions()))


def test_playouts_reach_an_end_with_both_winners():
    s = game(size=4).new_state()
    winners = [s.playout(seed) for seed in range(40)]
    assert set(winners) == {0, 1}
    assert winners == [s.playout(seed) for seed in range(40)]


# --- pictures and planes ---------------------------------------------------------------

def test_ascii_shows_stones_ball_letters_and_row_numbers():
    s = two_way()
    lines = str(s).split("\n")
    assert lines[0].strip() == "aaa" and lines[1].strip() == "abcdefghijklmnopqrstuvwxyzabc"
    row8 = lines[2 + 7]
    assert row8.split() == [".", ".", ".", ".", ".", ".", "x", "O", ".", ".", ".", ".", ".", ".", ".", "8"]
    assert lines[-1] == "North to move (North: N, SE, SW edges; South: S, NE, NW)"
    hinted = s.game.ascii(s, hints=True)
    assert "drops (ball's directions): " in hinted and "  l7 e,se  " in hinted and "  t3 sw" in hinted
    assert hinted.count("+") == len({a // 6 for a in s.legal_actions()})


def test_ascii_ring_marks_whose_edge_is_where():
    g = game(size=3)
    lines = g.ascii(g.new_state(), edges=True).split("\n")
    assert lines[1].strip() == "* N N *" and lines[7].strip() == "* S S *"  # top (North), bottom (South)
    assert lines[2].split()[0] == "S" and lines[2].split()[-2] == "S"  # row 1: NW and NE sides (South)
    assert lines[6].split()[0] == "N" and lines[6].split()[-2] == "N"  # row 5: SW and SE sides (North)


def test_svg_colours_each_players_edges_and_shows_the_ball_and_push_hints():
    s = two_way()
    root = ET.fromstring(s.svg(hints=True))
    ns = "{http://www.w3.org/2000/svg}"
    rim = [e.get("stroke") for e in root.iter(ns + "line") if e.get("class") == "rim"]
    north, south, corner = (colour for colour, _ in Iqishiqi.EDGE_STYLE)
    assert rim.count(north) == rim.count(south) > 0 and rim.count(corner) == 6
    circles = [e.get("fill") for e in root.iter(ns + "circle")]
    assert circles.count(STONE[BALL]) == 1 and circles.count(STONE[1]) == 2
    arrows = [e for e in root.iter(ns + "g") if e.get("class") == "push"]
    assert len(arrows) == len(s.legal_actions())
    assert "push" not in s.svg()


def test_planes_stones_ball_empty_and_each_players_edges():
    s = two_way()
    g = s.game
    p0, p1 = g.planes(s.array, 0), g.planes(s.array, 1)
    assert p0.shape == (len(g.PLANES), 169) and p0.dtype == np.float32
    t = g.topology
    assert p0[0, t.index("m8")] == 1 and p0[0].sum() == 2
    assert p0[1, t.index("o8")] == 1 and p0[1].sum() == 1
    assert p0[2].sum() == 169 - 3
    assert p0[3, t.index("j1")] == 1 and p0[4, t.index("j1")] == 0  # the top edge is North's
    assert p0[3, t.index("h1")] == p0[4, t.index("h1")] == 1  # a corner
    assert np.array_equal(p0[3], p1[4]) and np.array_equal(p0[4], p1[3])


@pytest.mark.parametrize("size, cut", [(8, 0), (8, 6), (4, 1)])
def test_recorded_playout_actions_replay_through_the_facade_to_the_same_position(size, cut):
    """Recorded drops are legal in order with their movers, lead to the
    playout's final array, and ``playout`` plays the same game."""
    g = game(size=size)
    recorded = 0
    for seed in range(6):
        rng, s = np.random.default_rng(seed), g.new_state()
        while s.ply < cut and not s.is_over():
            s.apply(int(rng.choice(s.legal_actions())))
        recorded += check_recorded_playout(s, seed, 400)[0]
    assert recorded > 6
