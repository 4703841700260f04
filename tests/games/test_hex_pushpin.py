"""Hex Pushpin: every rule sentence of the source and RULES.md, and its sample match."""

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import hexarena
from hexarena import AmbiguousMove, IllegalMove
from hexarena.board import STEP
from hexarena.games.hex_pushpin import BOARD, PIN, PIN_MARK

from tests.playout_checks import check_recorded_playout

# The source's sample match (Bill: o, first; João: x, second); `-` is "no push", `!` an annotation.
SAMPLE = "e4 2, l5 2, j1 2, h3 2, f7 2, k6 -, j5 -, h5 -, e2 -, i4 -, e6!-, g2 -, f3 -".split(", ")
# The pin after each push: g4 -> k4 -> i2 -> g4 -> e6 -> c4.
SAMPLE_PINS = ["k4", "i2", "g4", "e6", "c4"] + ["c4"] * 8
# The source's final diagram (its `O` marks the last stone, Bill's f3), one line per row.
SAMPLE_DIAGRAM = """
. . . o
. o x . .
. . O x . .
. # o . x . .
. . . x o x
. o . . x
. o . .
"""


def new(**options):
    return hexarena.load("hex-pushpin", **options).new_state()


def play_all(state, moves):
    for m in moves:
        state.play(m)
    return state


def pin(state):
    return state.game.topology.name(state.game.pin(state.array))


def put(state, cells, player):
    """Drop ``player``'s stones on ``cells`` directly (to set up positions)."""
    for name in cells:
        state._s[BOARD + state.game.topology.index(name)] = 1 + player
    return state


# --- the board -------------------------------------------------------------------

def test_base_4_board_has_37_cells_and_the_pin_on_the_centre():
    s = new()
    t = s.game.topology
    assert t.ncells == 37 and t.rows == 7
    assert pin(s) == "g4"
    assert {t.name(c) for c in range(t.ncells) if t.edge[c]} >= {"d1", "j1", "a4", "m4", "d7", "j7"}
    assert s.to_move == 0 and not s.is_over()


@pytest.mark.parametrize("size,cells,centre", [(3, 19, "e3"), (5, 61, "i5")])
def test_other_sizes_start_the_pin_on_their_centre(size, cells, centre):
    s = new(size=size)
    assert s.game.topology.ncells == cells and pin(s) == centre


@pytest.mark.parametrize("bad", [2, 0, "x", True])
def test_bad_size_is_refused_naming_the_allowed_values(bad):
    with pytest.raises(ValueError, match="size.*an integer from 3 to 13"):
        hexarena.load("hex-pushpin", size=bad)


# --- a turn: pass, or an own stone on an empty cell ------------------------------------

def test_pass_is_always_legal_and_changes_nothing_on_the_board():
    s = new()
    before = s.array.copy()
    assert "pass" in s.legal_moves()
    s.play("pass")
    assert s.to_move == 1 and np.array_equal(s.array[BOARD:], before[BOARD:])


def test_a_stone_away_from_the_pin_is_placed_and_pushes_nothing():
    s = new()
    s.play("b3")
    assert pin(s) == "g4"
    assert s.array[BOARD + s.game.topology.index("b3")] == 1
    s.play("k2")
    assert s.array[BOARD + s.game.topology.index("k2")] == 2


def test_every_empty_cell_is_a_placement():
    s = new()
    cells = {m.split()[0] for m in s.legal_moves() if m != "pass"}
    assert cells == set(s.game.topology.names) - {"g4"}


def test_occupied_cells_and_the_pin_are_refused():
    s = play_all(new(), ["b3"])
    before = s.array.copy()
    with pytest.raises(IllegalMove, match="'b3' is occupied"):
        s.play("b3")
    with pytest.raises(IllegalMove, match="'g4' holds the pin"):
        s.play("g4")
    assert np.array_equal(s.array, before)


# --- the push ----------------------------------------------------------------------

def test_a_stone_next_to_the_pin_pushes_it_straight_away_any_distance_to_an_interior_landing():
    s = new()
    # from e4 the pin goes east: i4 and k4 are interior, m4 is an edge cell
    assert [m for m in s.legal_moves() if m.startswith("e4")] == ["e4 1", "e4 2"]
    # from f3 (north-west of g4) it goes south-east: h5, i6 interior; j7 an edge cell
    assert [m for m in s.legal_moves() if m.startswith("f3")] == ["f3 1", "f3 2"]
    s.play("e4 2")
    assert pin(s) == "k4" and s.array[BOARD + s.game.topology.index("g4")] == 0


def test_the_push_goes_over_empty_cells_only():
    s = put(new(), ["k4"], 1)
    assert [m for m in s.legal_moves() if m.startswith("e4")] == ["e4 1"]


def test_the_cell_beyond_the_pin_must_be_empty():
    s = put(new(), ["i4"], 1)
    assert not [m for m in s.legal_moves() if m.startswith("e4")]
    with pytest.raises(IllegalMove, match="'e4' is next to the pin, but the pin cannot be pushed"):
        s.play("e4 1")


def test_a_placement_whose_only_landings_are_edge_cells_is_illegal():
    s = play_all(new(), ["e4 2"])  # pin on k4: from i4 it could only go to m4, an edge cell
    assert pin(s) == "k4"
    assert not [m for m in s.legal_moves() if m.startswith("i4")]
    with pytest.raises(IllegalMove, match="cannot be pushed"):
        s.play("i4 1")


def test_a_push_needs_its_distance_and_a_far_stone_takes_none():
    s = new()
    with pytest.raises(AmbiguousMove, match="'e4' pushes the pin; say how far: e4 1, e4 2"):
        s.play("e4")
    with pytest.raises(IllegalMove, match="e4 3.*choose a distance"):
        s.play("e4 3")
    with pytest.raises(IllegalMove, match="'b3' is not next to the pin, so it pushes nothing"):
        s.play("b3 1")
    with pytest.raises(IllegalMove, match="not a move"):
        s.play("zz9 1")
    assert s.history == []


def test_the_source_no_push_mark_and_annotations_are_read():
    s = new()
    s.play("b3 -")
    s.play("E4! 2")
    assert s.moves() == ["b3", "e4 2"] and pin(s) == "k4"


# --- the end --------------------------------------------------------------------------

def test_two_passes_in_a_row_end_the_game_and_separated_passes_do_not():
    s = play_all(new(), ["pass", "b3", "pass", "k2"])
    assert not s.is_over()
    s.play("pass")
    assert not s.is_over()
    s.play("pass")
    assert s.is_over() and s.to_move is None and s.legal_moves() == []


def test_more_own_stones_on_the_pins_neighbours_wins():
    s = play_all(put(put(new(), ["f3", "h3"], 0), ["b3", "f5"], 1), ["pass", "pass"])  # b3 is not by g4
    assert s.scores() == [2.0, 1.0] and s.winner() == 0 and s.returns() == [1.0, -1.0]
    s = play_all(put(put(new(), ["f3"], 0), ["h3", "h5"], 1), ["pass", "pass"])
    assert s.scores() == [1.0, 2.0] and s.winner() == 1


def test_equal_counts_are_a_draw():
    s = play_all(put(put(new(), ["f3"], 0), ["h3"], 1), ["b3", "pass", "pass"])
    assert s.scores() == [1.0, 1.0]
    assert s.is_over() and s.winner() is None and s.returns() == [0.0, 0.0]
    assert s.record_text().endswith("1/2-1/2")


def test_scores_follow_the_pin():
    s = play_all(new(), ["e4 2", "l5 2", "j1 2"])  # the pin back on g4, by the first player's e4
    assert s.scores() == [1.0, 0.0]
    s.play("h3 2")  # pushed to e6 by the second player's h3, beside neither e4 nor h3
    assert s.scores() == [0.0, 0.0]


# --- the source's sample match ----------------------------------------------------------

def test_the_sample_match_replays_with_the_pin_where_the_source_says():
    s = new()
    pins = []
    for move in SAMPLE:
        s.play(move)
        pins.append(pin(s))
    assert pins == SAMPLE_PINS
    assert not s.is_over()  # João resigned here: Bill has e4 by the pin, João nothing
    assert s.scores() == [1.0, 0.0]


def test_the_sample_matchs_final_position_is_the_source_diagram():
    s = play_all(new(), SAMPLE)
    drawn = [line.split() for line in str(s).split("\n")[1:8]]
    cells = [[ch for ch in row if not ch.isdigit()] for row in drawn]
    assert cells == [line.lower().split() for line in SAMPLE_DIAGRAM.strip().split("\n")]


def test_sample_moves_round_trip_through_the_text_record():
    s = play_all(new(), SAMPLE)
    text = s.record_text()
    assert "1. e4 2 2. l5 2" in text and "11. e6 " in text
    assert hexarena.from_record(text) == s


# --- output --------------------------------------------------------------------------

def test_ascii_has_column_letters_row_numbers_and_the_pin():
    text = str(new(size=3))
    lines = text.split("\n")
    assert lines[0] == lines[6] == "abcdefghi"
    assert lines[3] == ". . # . .  3"
    assert "first to move; pin on e3" in lines[7]


def test_svg_draws_the_pin_stones_and_push_hints():
    s = play_all(new(), ["b3"])
    svg = s.svg()
    assert svg.startswith("<svg") and svg.count('class="pin"') == 1 and "hint" not in svg
    hinted = s.svg(hints=True)
    legal = s.legal_actions()
    pushes = [a for a in legal if a < s.game.num_actions - 1 and a % s.game.width]
    assert hinted.count('class="arrow"') == len(pushes) == 12  # six neighbours, two distances each
    assert hinted.count('class="hint"') == len({a // s.game.width for a in legal[:-1]}) == 37 - 2
    assert 'marker-end="url(#arrowhead)"' in hinted


def test_svg_rings_the_stones_around_the_pin_at_the_end():
    s = play_all(put(put(new(), ["f3"], 0), ["h3"], 1), ["pass", "pass"])
    assert s.svg().count('stroke="#d02020"') == 2


def test_planes_are_mover_relative():
    s = play_all(new(), ["e4 1", "b3", "pass"])  # pin on i4
    g, t = s.game, s.game.topology
    assert g.PLANES == ("own", "opponent", "pin", "empty", "pass pending")
    p0, p1 = g.planes(s.array, 0), g.planes(s.array, 1)
    assert p0.shape == (5, 37) and p0.dtype == np.float32
    assert p0[0, t.index("e4")] == 1 and p0[1, t.index("b3")] == 1
    assert np.array_equal(p0[0], p1[1]) and np.array_equal(p0[1], p1[0])
    assert p0[2].sum() == 1 and p0[2, t.index("i4")] == 1
    assert p0[3].sum() == 37 - 3
    assert p0[4].all()
    assert not g.planes(new().array, 0)[4].any()


def test_playouts_count_wins_and_draws():
    g = hexarena.load("hex-pushpin")
    counts = g.kernels.playouts(g.new_state().array.copy(), g.tables, 200)
    assert counts.sum() == 200 and min(counts) > 0  # first, second, draws all happen


def test_state_layout_marks_the_pin_on_the_board():
    s = new()
    assert s.array[BOARD + s.array[PIN]] == PIN_MARK


def test_cli_replays_the_sample(capsys):
    from hexarena.cli import main

    assert main(["replay", "hex-pushpin", *SAMPLE[:5], "--json"]) == 0
    out = capsys.readouterr().out
    assert re.search(r'"moves": \["e4 2", "l5 2", "j1 2", "h3 2", "f7 2"\]', out)


@given(rnd=st.randoms(use_true_random=False))
def test_legal_moves_match_plain_geometry(rnd):
    """In random positions: every empty cell away from the pin is a bare
    placement; a neighbour pushes the pin straight away over empty cells to
    each non-edge landing."""
    s = new(size=3)
    t = s.game.topology
    while not s.is_over():
        board, p = s.array[BOARD:], s.game.pin(s.array)
        px, pr = (int(v) for v in t.xy[p])
        expected = {"pass"}
        for c in range(t.ncells):
            if board[c]:
                continue
            dx, dr = int(px - t.xy[c, 0]), int(pr - t.xy[c, 1])
            if (dx, dr) not in STEP:
                expected.add(t.name(c))
                continue
            for k in range(1, t.rows):
                land = t.at(px + k * dx, pr + k * dr)
                if land is None or board[land]:
                    break
                if not t.edge[land]:
                    expected.add(f"{t.name(c)} {k}")
        assert set(s.legal_moves()) == expected
        s.apply(rnd.choice(s.legal_actions()))


@pytest.mark.parametrize("size, cut", [(4, 0), (4, 5), (6, 0)])
def test_recorded_playout_actions_replay_through_the_facade_to_the_same_position(size, cut):
    """Recorded moves (passes included) are legal in order with their movers,
    lead to the playout's final array, and ``playout`` plays the same game."""
    g = hexarena.load("hex-pushpin", size=size)
    recorded = 0
    for seed in range(6):
        rng, s = np.random.default_rng(seed), g.new_state()
        while s.ply < cut and not s.is_over():
            s.apply(int(rng.choice(s.legal_actions())))
        recorded += check_recorded_playout(s, seed, 2000)[0]
    assert recorded > 6
