"""Projective Hex: every rule sentence of the source and RULES.md, and its worked examples."""

import random
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import hexarena
from hexarena import IllegalMove, MalformedMove
from hexarena.board import projective
from hexarena.games.projective_hex import _odd_cycle_from
from hexarena.render.ascii import grid

from tests.playout_checks import check_recorded_playout

# The source's 3-&-4 board with its ghost cells (the glued neighbours).
SOURCE_GHOSTS = r"""
   z_y_x_w
  z/A B C\w
 v/D E F G\r
q/H I J K L\m
q|M N O # P Q|m
l\R S T U V/h
 g\W X Y Z/d
  c~c~b~a~a
"""

# The source's finished game (X: first player, black; O: second, white) and its ghost drawing.
SOURCE_GAME = """
   . X O
  . . X O
 . . O O .
. X O X . .
 X O X . .
  X O . .
"""
SOURCE_GAME_GHOSTS = r"""
    ___o_x
   /. X O\x
  /. . X O\x
 /. . O O .\
<. X O X . .>
 \X O X . ./
 o\X O . ./
  o~o~x~~~
"""
# One order of the game's moves: black B F N # R T W, white C G K J O S X.
SOURCE_GAME_MOVES = "B C F G N K # J R O T S W X".split()


def new(**options):
    return hexarena.load("projective-hex", **options).new_state()


def play_all(state, moves):
    for m in moves:
        state.play(m)
    return state


def chars(figure, keep):
    """{(column, line): char} for the characters of ``figure`` in ``keep``."""
    lines = figure.strip("\n").split("\n")
    return {(x, y): ch for y, line in enumerate(lines) for x, ch in enumerate(line) if ch in keep}


def row_sequences(figure, keep):
    """Each line's characters in ``keep``, left to right (the source's ghost
    drawings shift rows to fit the seam marks, so columns are not exact)."""
    return [[ch for ch in line if ch in keep] for line in figure.strip("\n").split("\n")]


# --- the board ---------------------------------------------------------------

@pytest.mark.parametrize("n", range(2, 9))
def test_board_has_3n2_cells_in_rows_n_to_2n(n):
    t = projective(n)
    widths = [int((t.xy[:, 1] == r).sum()) for r in range(t.rows)]
    assert t.ncells == 3 * n * n
    assert widths == list(range(n, 2 * n + 1)) + list(range(2 * n - 1, n, -1))
    assert [len(side) for side in t.sides] == [n, n + 1, n, n + 1, n, n + 1]


@pytest.mark.parametrize("n", range(2, 9))
def test_six_corners_have_five_neighbours_every_other_cell_six(n):
    t = projective(n)
    degrees = [len(t.neighbours(c)) for c in range(t.ncells)]
    corners = {side[0] for side in t.sides}
    assert all(degrees[c] == (5 if c in corners else 6) for c in range(t.ncells))
    assert all(c in t.neighbours(m) for c in range(t.ncells) for m in t.neighbours(c)), "links are symmetric"
    assert all(len(set(t.neighbours(c))) == degrees[c] for c in range(t.ncells))


@pytest.mark.parametrize("n", range(2, 7))
def test_each_short_side_is_glued_flipped_to_the_opposite_long_side(n):
    t = projective(n)
    for short in (0, 2, 4):
        S, L = t.sides[short], t.sides[(short + 3) % 6]
        for k, c in enumerate(S):
            assert L[k] in t.neighbours(c) and L[k + 1] in t.neighbours(c)
            seams = {int(t.nbr[c, d]) for d in range(6) if t.seam[c, d]}
            assert {L[k], L[k + 1]} <= seams


def test_source_neighbour_lists_of_H_and_M():
    t = projective(3)
    names = lambda c: [t.name(m) for m in t.neighbours(c)]  # noqa: E731
    h, m = names(t.index("H")), names(t.index("M"))
    # "H is connected to D I N M Q V (in order)", "M is connected only to N R L Q H"
    assert h == ["D", "I", "N", "M", "Q", "V"]
    assert m[m.index("N"):] + m[: m.index("N")] == ["N", "R", "L", "Q", "H"]


def test_source_letters_and_ghost_cells_match_the_figure():
    t = projective(3)
    ours = grid(t, t.name, lambda c: t.name(c).lower())
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ#abcdefghijklmnopqrstuvwxyz"
    assert row_sequences(ours, letters) == row_sequences(SOURCE_GHOSTS, letters)


def test_ascii_ghosts_name_the_cell_they_mirror_or_repeat_its_stone():
    s = play_all(new(opening="none"), ["A"])
    board = str(s).split("\n")
    assert board[0].split() == ["z", "y", "x", "w"]  # beyond the top edge: the bottom row, flipped
    assert board[-2].split() == ["c", "c", "b", "X", "X"]  # A's stone shows on both of its ghosts
    assert str(new(size=4)).split("\n")[0].split() == ["h"] * 5  # other sizes: the mirrored cells' row letters


# --- the win ---------------------------------------------------------------------

def test_source_finished_game_white_wins_with_seven_stones_each():
    s = play_all(new(opening="none"), SOURCE_GAME_MOVES[:-1])
    assert not s.is_over()
    s.play(SOURCE_GAME_MOVES[-1])
    assert s.is_over() and s.winner() == 1 and s.to_move is None
    stones = s.game.stones(s.array)
    assert (stones == 1).sum() == 7 and (stones == 2).sum() == 7
    plain = grid(s.game.topology, lambda c: ".XO"[stones[c]])
    assert chars(plain, "XO.") == chars(SOURCE_GAME, "XO.")
    board = [line[:16] for line in str(s).split("\n")]  # without the letter legend
    # ghost cells repeat the glued cells' stones where the source draws them (it writes them
    # in lower case, we as the stones); an empty ghost, a seam mark there, is its cell's lower-case name here
    ghosts = row_sequences(SOURCE_GAME_GHOSTS.upper(), "XO.")
    assert row_sequences("\n".join(board[:8]), "XO.") == ghosts
    loop = {s.game.topology.name(c) for c in s.game.loop_cells(s.array)}
    assert loop == set("CGKJOSX")


def test_a_contractible_ring_does_not_win():
    """Six stones around an interior cell close a cycle with no seam: no win."""
    t = projective(4)
    centre = next(c for c in range(t.ncells) if not t.edge[c] and all(not t.edge[m] for m in t.neighbours(c)))
    ring = [t.name(m) for m in t.neighbours(centre)]
    s = new(size=4, opening="none")
    far = [t.name(c) for c in range(t.ncells) if c != centre and t.name(c) not in ring]
    for a, b in zip(ring, far, strict=False):
        s.play(a)
        s.play(b)
    assert not s.is_over()


def test_a_ring_across_the_seams_crossing_twice_does_not_win():
    """The six neighbours of edge cell D form a cycle through two seams (an
    even number): contractible, so no win."""
    t = projective(3)
    ring = t.neighbours(t.index("D"))
    assert [t.name(c) for c in ring] == ["A", "E", "I", "H", "V", "Z"]
    crossings = 0
    for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
        slots = [d for d in range(6) if t.nbr[a, d] == b]
        assert slots, f"{t.name(a)} and {t.name(b)} are adjacent"
        crossings += int(t.seam[a, slots[0]])
    assert crossings == 2
    s = new(opening="none")
    for black, white in zip(ring, [t.index(c) for c in "BCFGJK"], strict=True):
        s.apply(black)
        s.apply(white)
    assert not s.is_over()


def brute_force_loop(topo, board, colour):
    return any(_odd_cycle_from(topo, board, int(c), colour) for c in np.flatnonzero(board == colour))


@given(seed=st.integers(0, 10**9), n=st.integers(2, 5))
def test_a_full_board_has_exactly_one_global_loop(seed, n):
    t = projective(n)
    rng = random.Random(seed)
    cells = list(range(t.ncells))
    rng.shuffle(cells)
    board = np.zeros(t.ncells, dtype=np.int32)
    for i, c in enumerate(cells):
        board[c] = 1 + i % 2
    assert brute_force_loop(t, board, 1) != brute_force_loop(t, board, 2)


@given(seed=st.integers(0, 10**9), n=st.integers(2, 5), opening=st.sampled_from(["none", "swap", "cut-and-choose"]))
def test_game_ends_exactly_when_the_mover_first_has_a_global_loop(seed, n, opening):
    rng = random.Random(seed)
    s = new(size=n, opening=opening)
    topo = s.game.topology
    while not s.is_over():
        s.apply(rng.choice(s.legal_actions()))
        board = s.game.stones(s.array)
        loops = [brute_force_loop(topo, board, colour) for colour in (1, 2)]
        assert not all(loops), "both colours cannot have a global loop"
        colours = [s.game.colour(s.array, p) for p in (0, 1)]
        if s.is_over():
            winner_colour = 1 if colours[s.winner()] == "black" else 2
            assert loops[winner_colour - 1]
        else:
            assert not any(loops) or colours[0] is None
    assert (s.game.stones(s.array) == 0).any() or s.is_over()


@given(seed=st.integers(0, 10**9), n=st.integers(2, 5), cut=st.integers(0, 30),
       opening=st.sampled_from(["none", "swap", "cut-and-choose"]))
def test_playout_kernel_ends_in_a_consistent_finished_position(seed, n, cut, opening):
    from hexarena.games.projective_hex import playout

    rng = random.Random(seed)
    s = new(size=n, opening=opening)
    for _ in range(cut):
        if not s.is_over():
            s.apply(rng.choice(s.legal_actions()))
    arr = s.array.copy()
    hexarena.kernels.seed(seed)
    playout(arr, s.game.tables)
    done = hexarena.games.base.State(s.game, arr)
    board = s.game.stones(arr)
    winner_colour = 1 if s.game.colour(arr, done.winner()) == "black" else 2
    assert done.is_over() and done.to_move is None
    assert brute_force_loop(s.game.topology, board, winner_colour)
    assert not brute_force_loop(s.game.topology, board, 3 - winner_colour)
    assert (board == 1).sum() - (board == 2).sum() in (0, 1)
    specials = done.ply - int((board > 0).sum())  # swap or colour choice
    assert specials in {"none": (0,), "swap": (0, 1), "cut-and-choose": (1,)}[opening]


def test_bridge_table_lists_the_pairs_joined_through_each_cell():
    """Around J (six neighbours) and the corner A (five): each triple (a, y, b) is two
    neighbours of the cell that are not neighbours of each other and share y."""
    game = new().game
    names = {x: ["".join(game.topology.name(int(c)) for c in row) for row in game.tables.bridges[game.topology.index(x)]
                 if row[0] >= 0] for x in "JA"}
    assert names == {"J": ["EFK", "EIO", "FEI", "FK#", "IO#", "K#O"], "A": ["BED", "BYZ", "DZY", "EBY", "EDZ"]}


@pytest.mark.parametrize("n,opening", [(2, "none"), (3, "cut-and-choose"), (4, "swap")])
def test_recorded_and_pattern_playouts_replay_through_the_facade(n, opening):
    """Both recorded playouts are games; once the opening steps are over, the pattern
    playout answers every broken bridge: when the last stone fell on a cell joining two
    of the mover's stones and the other such cell is empty, the mover takes one."""
    from hexarena.games.projective_hex import BOARD, pattern_playout

    rng, saves = random.Random(n), 0
    for seed in range(30):
        s = new(size=n, opening=opening)
        for _ in range(rng.randrange(0, 8)):
            s.apply(rng.choice(s.legal_actions()))
        if s.is_over():
            continue
        check_recorded_playout(s.copy(), seed, 4 * n * n)
        game, arr, cells = s.game, s.array.copy(), s.game.topology.ncells
        actions, movers = np.full(4 * n * n, -1, np.int32), np.full(4 * n * n, -1, np.int32)
        hexarena.kernels.seed(seed)
        count = pattern_playout(arr, game.tables, actions, movers)
        last = -1  # the last stone placed after the opening steps
        for a, p in zip(actions[:count], movers[:count], strict=True):
            assert s.to_move == p
            opening_step = game.colour(s.array, 0) is None or (opening == "swap" and s.ply == 1)
            if last >= 0:
                mine = 1 if game.colour(s.array, p) == "black" else 2
                board = s.array[BOARD:BOARD + cells]
                saving = {int(y) for x, y, z in game.tables.bridges[last]
                          if x >= 0 and board[x] == board[z] == mine and board[y] == 0}
                assert not saving or a in saving
                saves += bool(saving)
            last = -1 if opening_step else int(a)
            s.apply(int(a))
        assert s.is_over() and np.array_equal(s.array, arr)
    assert saves > 0


# --- openings --------------------------------------------------------------------

def test_opening_none_black_first_then_alternate():
    s = new(opening="none")
    assert s.game.colour(s.array, 0) == "black"
    assert "swap" not in s.legal_moves() and "black" not in s.legal_moves()
    s.play("A")
    assert s.to_move == 1 and s.turn == 2
    s.play("B")
    assert s.to_move == 0
    assert s.game.stones(s.array)[[0, 1]].tolist() == [1, 2]


def test_swap_only_right_after_the_first_stone():
    s = new(opening="swap")
    assert "swap" not in s.legal_moves()
    with pytest.raises(IllegalMove, match="swap"):
        s.play("swap")
    s.play("J")
    assert s.to_move == 1 and "swap" in s.legal_moves()
    s.play("swap")
    # the second player took black (the J stone); the first plays white and moves next
    assert s.game.colour(s.array, 1) == "black" and s.game.colour(s.array, 0) == "white"
    assert s.to_move == 0 and "swap" not in s.legal_moves()
    s.play("K")
    assert s.game.stones(s.array)[s.game.topology.index("K")] == 2
    assert s.record()["colours"] == ["white", "black"]


def test_declining_the_swap_is_a_normal_white_move():
    s = play_all(new(opening="swap"), ["J", "K"])
    assert s.game.colour(s.array, 1) == "white" and s.to_move == 0 and "swap" not in s.legal_moves()


def test_cut_and_choose_three_stones_then_a_colour_choice():
    s = new()  # the default opening
    assert s.game.options["opening"] == "cut-and-choose"
    for step, move in enumerate("JKO"):
        assert s.to_move == 0 and s.turn == 1 and s.step == step
        assert "black" not in s.legal_moves()
        s.play(move)
    assert s.game.stones(s.array)[[s.game.topology.index(c) for c in "JKO"]].tolist() == [1, 2, 1]
    assert s.to_move == 1 and s.legal_moves() == ["black", "white"]
    with pytest.raises(IllegalMove, match="choose"):
        s.play("A")
    assert s.game.colour(s.array, 0) is None


@pytest.mark.parametrize("choice,white_player", [("white", 1), ("black", 0)])
def test_cut_and_choose_white_moves_next(choice, white_player):
    s = play_all(new(), ["J", "K", "O", choice])
    assert s.game.colour(s.array, 1) == choice
    assert s.to_move == white_player
    s.play("A")
    assert s.game.stones(s.array)[s.game.topology.index("A")] == 2  # a white stone
    assert s.record()["colours"][1] == choice
    assert s.record_text().startswith("[projective-hex size=3 opening=cut-and-choose] 1. J,K,O 2. " + choice)


def test_source_game_under_cut_and_choose():
    """The finished game replays after a cut-and-choose opening; the loop's
    colour decides, and the record says who played it."""
    black, white = SOURCE_GAME_MOVES[0::2], SOURCE_GAME_MOVES[1::2]
    s = play_all(new(), [black[0], white[0], black[1], "black"])  # player 2 takes black
    assert s.to_move == 0  # player 1 is white and moves
    rest = [m for pair in zip(white[1:], black[2:], strict=False) for m in pair] + [white[-1]]
    play_all(s, rest)
    assert s.is_over() and s.winner() == 0 and s.record()["colours"] == ["white", "black"]


# --- notation and errors ---------------------------------------------------------

def test_errors_name_the_problem_and_change_nothing():
    s = play_all(new(opening="none"), ["A"])
    before = s.array.copy()
    with pytest.raises(IllegalMove, match="'A' is occupied"):
        s.play("A")
    with pytest.raises(IllegalMove, match="'QQ' is not a move of projective-hex: a move is a cell A..Z or #"):
        s.play("QQ")
    with pytest.raises(MalformedMove, match=r"'Ω' \(U\+03A9\) is not a printable ASCII character"):
        s.play("Ω")
    with pytest.raises(IllegalMove, match="not allowed now"):
        s.play("white")
    assert np.array_equal(s.array, before) and s.history == [0]


def test_lower_case_letters_are_accepted_on_the_27_letter_board():
    s = new(opening="none")
    s.play("b")
    assert s.moves() == ["B"]


def test_other_sizes_use_havannah_names():
    s = new(size=4, opening="none")
    assert s.legal_moves()[:4] == ["a1", "a2", "a3", "a4"] and len(s.legal_moves()) == 48
    s.play("D4")  # case-insensitive
    assert s.moves() == ["d4"]


@pytest.mark.parametrize("bad,msg", [({"size": 1}, "integer from 2 to 16"), ({"size": "x"}, "integer from 2 to 16"),
                                     ({"opening": "pie"}, "none | swap | cut-and-choose"),
                                     ({"colour": 1}, "unknown option 'colour'.*size, opening")])
def test_options_are_validated(bad, msg):
    with pytest.raises(ValueError, match=msg):
        hexarena.load("projective-hex", **bad)


# --- rendering -------------------------------------------------------------------

def test_svg_shows_ghost_cells_and_the_winning_loop():
    s = play_all(new(opening="none"), SOURCE_GAME_MOVES)
    svg = s.svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert len(re.findall(r'class="ghost"', svg)) == len(s.game.topology.ghosts) == 21
    assert len(re.findall(r'class="cell"', svg)) == 27
    assert svg.count('stroke="#d02020"') == 7  # the seven loop stones ringed
    assert "wins" in svg


def test_svg_hints_mark_legal_cells():
    s = play_all(new(opening="none"), ["A", "B"])
    assert s.svg(hints=True).count('class="hint"') == 25
