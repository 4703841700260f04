"""Push and Pull: every rule sentence of the source and RULES.md, and its first sample match."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import hexarena
from hexarena import IllegalMove
from hexarena.board import STEP
from hexarena.games.push_and_pull_rules import BOARD, ENDING, MARK, MOVED, NEUTRAL, NO_TURN, PHASE, STUCK, check

# The first sample's first 13 placements (Bill, the first player, owns the marker on g5; João s9),
# then João's turn-5 placements; the last, `k13 -3 1`, has a typo (João's marker cannot see k13).
SAMPLE = ["o5 -2 2", "e11 -4 4", "s5 -3 0", "h8 -5 2", "r8 0 1", "q13 -4 4", "h2 -5 0", "s13 0 -5",
          "p12 -6 0", "m7 -4 4", "i11 0 1", "o13 -1 0", "m9 -2 6"]
TAIL = ["l10 0 2", "k13 -3 1"]
# The markers (Bill's, João's) after each placement, worked out by hand from the moves.
SAMPLE_MARKERS = [("k5", "u11"), ("o1", "m11"), ("o1", "p8"), ("j6", "t8"), ("j6", "v8"), ("f2", "r12"),
                  ("f2", "m7"), ("f2", "r12"), ("l8", "r12"), ("h12", "n8"), ("g13", "n8"), ("i13", "n8"),
                  ("k11", "t2")]
SAMPLE_MOVERS = [0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0]


def new(**options):
    return hexarena.load("push-and-pull", **options).new_state()


def play_all(state, moves):
    for m in moves:
        state.play(m)
    return state


def markers(state):
    return tuple(state.game.topology.name(c) for c in state.game.markers(state.array))


def setup(state, stones=(), marks=None, moved=None):
    """Change a position directly: stones added, markers put elsewhere, the
    moved-this-turn flags set; then the loss and draw check that runs when
    a turn begins or before its last placement."""
    t, s = state.game.topology, state._s
    for p in range(len(marks or ())):
        s[BOARD + s[MARK + p]] = 0
    for p, name in enumerate(marks or ()):
        s[MARK + p] = t.index(name)
        s[BOARD + s[MARK + p]] = 2 + p
    for name in stones:
        s[BOARD + t.index(name)] = NEUTRAL
    for p, flag in enumerate(moved or ()):
        s[MOVED + p] = flag
    check(s, state.game.tables)
    return state


def sees(topo, board, m, c):
    """Plain geometry: the cells strictly between marker ``m`` and ``c`` on a
    hex line, or None when they are not on one line."""
    (xm, rm), (xc, rc) = topo.xy[m], topo.xy[c]
    for dx, dr in STEP:
        for k in range(1, 2 * topo.rows):
            if (xm + k * dx, rm + k * dr) == (xc, rc):
                between = [topo.at(int(xm + j * dx), int(rm + j * dr)) for j in range(1, k)]
                return between if all(board[b] == 0 for b in between) else None
    return None


def can_move(topo, board, m, c):
    """Whether a stone on ``c`` lets the marker on ``m`` move (plain geometry)."""
    between = sees(topo, board, m, c)
    if between is None:
        return False
    if between:
        return True  # a pull by one
    (xm, rm), (xc, rc) = topo.xy[m], topo.xy[c]
    back = topo.at(int(2 * xm - xc), int(2 * rm - rc))
    return back is not None and board[back] == 0


# --- the board ------------------------------------------------------------------

def test_base_7_board_has_127_cells_letters_a_to_y_rows_1_to_13():
    t = new().game.topology
    assert t.ncells == 127 and t.rows == 13
    assert {n[0] for n in t.names} == set("abcdefghijklmnopqrstuvwxy")
    assert {"g1", "s1", "a7", "y7", "g13", "s13", "m7"} <= set(t.names)


def test_markers_start_on_g5_first_and_s9_second():
    s = new()
    assert markers(s) == ("g5", "s9") and s.to_move == 0 and s.turn == 1


@pytest.mark.parametrize("size,starts", [(5, ("c3", "o7")), (6, ("e4", "q8")), (8, ("i6", "u10"))])
def test_other_sizes_start_the_markers_at_the_same_offsets_from_the_centre(size, starts):
    s = new(size=size)
    t = s.game.topology
    centre = t.xy[t.ncells // 2]
    assert markers(s) == starts
    assert [tuple(t.xy[t.index(c)] - centre) for c in starts] == [(-6, -2), (6, 2)]


@pytest.mark.parametrize("bad", [4, 2, "big", False])
def test_bad_size_is_refused_naming_the_allowed_values(bad):
    with pytest.raises(ValueError, match="size.*an integer from 5 to 13"):
        hexarena.load("push-and-pull", size=bad)


# --- placement and marker moves ---------------------------------------------------------

def test_a_placement_is_an_empty_cell_not_a_marker():
    s = play_all(new(), ["o5 -2 2"])
    before = s.array.copy()
    with pytest.raises(IllegalMove, match="'o5' is occupied"):
        s.play("o5")
    with pytest.raises(IllegalMove, match="'k5' holds first's marker"):
        s.play("k5")
    with pytest.raises(IllegalMove, match="'zz5' is not a move of push-and-pull"):
        s.play("zz5")
    assert np.array_equal(s.array, before)


def test_a_marker_that_sees_the_stone_moves_toward_or_away_at_least_one_over_empty_cells():
    s = play_all(new(), ["o5"])
    # g5 sees o5 four cells east: pulls 1..3 (to i5, k5, m5); pushes west onto e5, c5 (a5 is off the row)
    assert s.legal_moves() == ["-3", "-2", "-1", "1", "2"]
    s.play("-3")
    assert markers(s)[0] == "m5"
    # s9 sees o5 four cells north-west: pulls 1..3; pushes south-east onto t10, u11 (the edge)
    assert s.legal_moves() == ["-3", "-2", "-1", "1", "2"]
    s.play("2")
    assert markers(s) == ("m5", "u11")


def test_markers_and_stones_block_sight_and_movement():
    # a stone on k5 hides o5 from g5, so o5 no longer moves both markers on the first turn
    assert "o5" in new().legal_moves() and "o5" not in setup(new(), stones=["k5"]).legal_moves()
    # so does a marker: with the second's marker on k5 (and taken as moved), o5 cannot move g5
    assert "o5" not in setup(new(), marks=["g5", "k5"], moved=[0, 1]).legal_moves()
    # a stone on c5 stops g5's push from o5 at e5; so does a marker there
    for s in (setup(new(), stones=["c5"]), setup(new(), marks=["g5", "c5"], moved=[0, 1])):
        s.play("o5")
        assert s.legal_moves() == ["-3", "-2", "-1", "1"]


def test_moving_a_seen_marker_is_optional_except_when_it_must_move():
    s = play_all(new(), ["o5 -2 2", "e11"])  # turn 2, first placement: 0 is offered for both
    assert "0" in s.legal_moves()
    s.play("0")
    assert "0" in s.legal_moves()
    s.play("0")
    assert markers(s) == ("k5", "u11") and s.step == 3 and s.to_move == 1


# --- turns --------------------------------------------------------------------------

def test_the_first_turn_is_one_placement_and_later_turns_two_by_the_same_player():
    s = play_all(new(), ["o5 -2 2"])
    assert (s.turn, s.to_move) == (2, 1)
    s.play("e11 -4 4")
    assert (s.turn, s.to_move) == (2, 1)
    s.play("s5 -3 0")
    assert (s.turn, s.to_move) == (3, 0)
    assert s.turns() == [(1, ["o5 -2 2"]), (2, ["e11 -4 4", "s5 -3 0"])]
    assert s.moves()[3:] == ["e11", "-4", "4", "s5", "-3", "0"]


def test_the_first_placement_must_move_both_markers():
    s = new()
    t, board = s.game.topology, s.array[BOARD:]
    g5, s9 = t.index("g5"), t.index("s9")
    expected = {t.name(c) for c in range(t.ncells)
                if board[c] == 0 and can_move(t, board, g5, c) and can_move(t, board, s9, c)}
    assert set(s.legal_moves()) == expected and "o5" in expected
    s.play("o5")
    assert "0" not in s.legal_moves()
    s.play("-2")
    assert "0" not in s.legal_moves()


def test_the_last_placement_must_move_every_marker_not_yet_moved():
    s = play_all(new(), ["o5 -2 2", "e11 -4 0"])  # e11 moves the second's marker only
    t, board = s.game.topology, s.array[BOARD:]
    assert s.game.owed(s.array) == [0]
    k5 = t.index(markers(s)[0])
    expected = {t.name(c) for c in range(t.ncells) if board[c] == 0 and can_move(t, board, k5, c)}
    assert set(s.legal_moves()) == expected
    with pytest.raises(IllegalMove, match="last placement.*first's \\(on k5\\)"):
        s.play("a7")
    s.play("c5")  # four cells west of k5: the first marker must move, so 0 is not offered
    assert s.legal_moves() == ["-3", "-2", "-1", "1"]


# --- the loss and draw rules ---------------------------------------------------------------

def test_an_owed_marker_that_no_placement_can_move_loses_for_its_owner():
    # e1 is a corner of the base-5 board: with stones two cells away on its three lines,
    # a stone on a neighbour cannot pull it (adjacent) nor push it (off the board)
    s = setup(new(size=5), stones=["i1", "c3", "g3"], marks=["e1", "o7"])
    assert s.is_over() and s.winner() == 1 and s.game.ending(s.array) == "first's marker cannot be moved"
    assert s.legal_moves() == [] and int(s.array[ENDING]) == STUCK


def test_both_markers_stuck_is_a_draw():
    s = setup(new(size=5), stones=["i1", "c3", "g3", "i9", "k7", "o7"], marks=["e1", "m9"])
    assert s.is_over() and s.winner() is None and s.game.ending(s.array) == "neither marker can be moved"


def test_a_stuck_marker_that_already_moved_this_turn_does_not_lose():
    s = setup(new(size=5), stones=["i1", "c3", "g3"], marks=["e1", "o7"], moved=[1, 0])
    assert not s.is_over()


def test_no_single_placement_moving_both_owed_markers_loses_for_the_mover():
    s = play_all(new(), SAMPLE)
    s.play("g1")  # João's first placement moves neither marker; k11 and t2 share no moving cell
    assert s.is_over() and s.winner() == 0
    assert s.game.ending(s.array) == "second cannot move both markers with the last placement"
    t, board = s.game.topology, s.array[BOARD:]
    k11, t2 = t.index("k11"), t.index("t2")
    assert not [c for c in range(t.ncells) if board[c] == 0 and can_move(t, board, k11, c)
                and can_move(t, board, t2, c)]
    assert int(s.array[ENDING]) == NO_TURN


def test_every_game_ends_because_every_placement_fills_a_cell():
    g = hexarena.load("push-and-pull", size=5)
    counts = g.kernels.playouts(g.new_state().array.copy(), g.tables, 300)
    assert counts.sum() == 300 and counts[0] > 0 and counts[1] > 0


# --- the source's first sample ---------------------------------------------------------

def test_the_first_samples_13_placements_replay_with_the_markers_where_worked_out():
    s = new()
    seen, movers = [], []
    for move in SAMPLE:
        movers.append(s.to_move)
        s.play(move)
        seen.append(markers(s))
    assert seen == SAMPLE_MARKERS and movers == SAMPLE_MOVERS
    assert not s.is_over() and (s.turn, s.to_move) == (8, 1)


def test_the_samples_tail_has_a_typo():
    s = play_all(new(), SAMPLE + TAIL[:1])
    assert markers(s) == ("i13", "t2")
    with pytest.raises(IllegalMove, match="last placement.*second's \\(on t2\\)"):
        s.play(TAIL[1])


def test_the_samples_end_bill_can_no_longer_move():
    # Taking João's own-marker move in `k13 -3 1` (the typo) as made, k13 pushes Bill's marker
    # from i13 to the corner g13, whose lines end at the stones e11, i11, k13: Bill's turn
    # begins with his marker stuck, and João wins ("B no longer can move").
    s = play_all(new(), SAMPLE + TAIL[:1])
    s._s[MOVED + 1] = 1
    s.play("k13 -- 1")
    assert markers(s) == ("g13", "t2")
    assert s.is_over() and s.winner() == 1
    assert int(s.array[ENDING]) == STUCK


# --- notation ------------------------------------------------------------------------

def test_a_whole_placement_is_one_move_or_its_steps():
    whole = play_all(new(), ["o5 -2 2"])
    steps = play_all(new(), ["o5", "-2", "2"])
    assert whole == steps and whole.moves() == ["o5", "-2", "2"]
    partial = play_all(new(), ["o5 -2", "+2"])
    assert partial == whole


def test_zero_or_dashes_for_a_marker_that_does_not_see_the_stone():
    a = play_all(new(), SAMPLE[:4] + ["r8 0 1"])
    b = play_all(new(), SAMPLE[:4] + ["r8 -- 1"])
    assert a == b and a.moves()[-2:] == ["r8", "1"]
    with pytest.raises(IllegalMove, match="own marker cannot move with this stone"):
        play_all(new(), SAMPLE[:4]).play("r8 2 1")


def test_a_bad_whole_placement_changes_nothing():
    s = play_all(new(), ["o5 -2 2"])
    before = (s.array.copy(), s.history)
    for bad in ("e11 -4 9", "e11 -4 4 4", "e11 x 4", "-4 4"):
        with pytest.raises(IllegalMove):
            s.play(bad)
        assert np.array_equal(s.array, before[0]) and s.history == before[1]


def test_a_wrong_marker_move_lists_the_choices():
    s = play_all(new(), ["o5"])
    with pytest.raises(IllegalMove, match=r"first's marker \(on g5\).*-3, -2, -1, 1, 2"):
        s.play("4")


def test_records_write_whole_placements_and_read_them_back():
    s = play_all(new(), SAMPLE[:5])
    text = s.record_text()
    # r8 does not let Bill's marker move: written --, where the source writes 0
    assert text == "[push-and-pull size=7] 1. o5 -2 2 2. e11 -4 4,s5 -3 0 3. h8 -5 2,r8 -- 1 *"
    assert hexarena.from_record(text) == s
    record = s.record()
    assert record["moves"] == ["o5 -2 2", "e11 -4 4", "s5 -3 0", "h8 -5 2", "r8 -- 1"]
    assert len(record["timestamps"]["moves"]) == 5
    assert hexarena.from_record(record).record() == record


@pytest.mark.parametrize("moves,written", [(["o5"], "o5"), (["o5", "-2"], "o5 -2"),
                                           (["o5 -2 2", "r8"], "r8"),  # u11 (own) to move
                                           (["o5 -2 2", "i5"], "i5 --")])  # only k5 sees i5
def test_records_write_an_unfinished_placement_as_far_as_it_goes(moves, written):
    s = play_all(new(), moves)
    assert s.record()["moves"][-1] == written and s.array[PHASE] != 0
    assert hexarena.from_record(s.record_text()) == s


# --- output ----------------------------------------------------------------------------

def test_ascii_shows_stones_markers_letters_and_row_numbers():
    s = play_all(new(), ["o5 -2 2"])
    lines = str(s).split("\n")
    assert lines[0] == lines[14] == "abcdefghijklmnopqrstuvwxy"
    assert lines[5].split() == [".", ".", ".", ".", "1", ".", "o", ".", ".", ".", ".", "5"]
    assert lines[11].split()[-2:] == ["2", "11"]
    assert lines[15] == "second to place (1 of 2); markers still to move: first's, second's"


def test_svg_draws_both_markers_and_hints():
    s = play_all(new(), ["o5 -2 2", "e11"])
    svg = s.svg()
    assert svg.count('class="marker1"') == svg.count('class="marker2"') == 1
    assert 'stroke="#d02020"' in svg  # the stone whose marker moves are asked
    hinted = s.svg(hints=True)
    assert hinted.count('class="arrow"') == len([m for m in s.legal_moves() if m != "0"])
    s.play("0 0")
    assert s.svg(hints=True).count('class="hint"') == len(s.legal_moves())


def test_planes_are_mover_relative():
    s = play_all(new(), ["o5 -2 2", "e11"])
    g, t = s.game, s.game.topology
    p1, p0 = g.planes(s.array, 1), g.planes(s.array, 0)
    assert p1.shape == (len(g.PLANES), 127) and p1.dtype == np.float32
    assert p1[0, t.index("u11")] == 1 and p1[1, t.index("k5")] == 1
    assert np.array_equal(p1[0], p0[1])
    assert p1[2].sum() == 2 and p1[3].sum() == 127 - 4
    assert p1[4, t.index("e11")] == 1 and p1[4].sum() == 1
    assert p1[5].all() and p1[6].all() and not p1[7].any() and p1[8].all()


def test_cli_replays_whole_placements(capsys):
    import json

    from hexarena.cli import main

    assert main(["replay", "push-and-pull", *SAMPLE, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["moves"][:3] == ["o5", "-2", "2"] and out["to_move"] == 1 and not out["over"]
    assert main(["replay", "push-and-pull", "o5 -2 2", "e11 -4 9", "--json"]) == 2
    err = json.loads(capsys.readouterr().out)
    assert err["index"] == 1 and "choose one of: -5, -4, -3, -2, -1, 0, 1, 2, 3, 4" in err["error"]


@given(rnd=st.randoms(use_true_random=False))
def test_last_placements_are_the_cells_that_let_every_owed_marker_move(rnd):
    s = new(size=5)
    t = s.game.topology
    checked = 0
    while not s.is_over():
        if s.array[PHASE] == 0 and s.game.last_placement(s.array):
            board = s.array[BOARD:]
            owed = [int(s.array[MARK + p]) for p in s.game.owed(s.array)]
            expected = {c for c in range(t.ncells) if board[c] == 0 and all(can_move(t, board, m, c) for m in owed)}
            assert set(s.legal_actions()) == expected
            checked += 1
        s.apply(rnd.choice(s.legal_actions()))
    assert checked >= 1


# --- the playout policy -----------------------------------------------------------------

from hexarena.games import push_and_pull_playouts as playouts  # noqa: E402
from hexarena.games import push_and_pull_rules as rules  # noqa: E402
from hexarena.games.base import PLY, WINNER  # noqa: E402
from hexarena.kernels import seed as seed_numba  # noqa: E402


def policy_positions(count, seed):
    """Positions met in games played by the policy itself, cut at random steps."""
    game, out = new().game, []
    moves = np.empty(game.num_actions, np.int32)
    seed_numba(seed)
    rng = np.random.default_rng(seed)
    while len(out) < count:
        s, stop = game.new_state().array.copy(), rng.integers(0, 120)
        for _ in range(stop):
            if s[WINNER] >= 0:
                break
            n = rules.legal(s, game.tables, moves)
            rules.apply(s, game.tables, moves[playouts.policy(s, game.tables, moves, n)])
        if s[WINNER] < 0:
            out.append(s)
    return game, out


@pytest.mark.parametrize("compiled", [True, False])
def test_the_policy_picks_a_legal_index_and_leaves_the_position_alone(compiled):
    game, positions = policy_positions(80, seed=3)
    policy = playouts.policy if compiled else playouts.policy.py_func  # py_func: the code NUMBA_DISABLE_JIT runs
    moves = np.empty(game.num_actions, np.int32)
    kinds = set()
    for s in positions:
        before = s.copy()
        n = rules.legal(s, game.tables, moves)
        i = policy(s, game.tables, moves, n)
        assert 0 <= i < n and np.array_equal(s, before)
        kinds.add(int(s[PHASE]))
    assert kinds == {0, 1, 2}  # placements and both markers' moves were asked


def test_a_first_placement_moves_both_owed_markers_when_a_cell_can():
    s = play_all(new(), SAMPLE[:1])  # turn 2 begins: two placements, both markers owed
    game = s.game
    moves = np.empty(game.num_actions, np.int32)
    n = rules.legal(s.array, game.tables, moves)
    both = rules.owed_reach(s.array, game.rays, game.topology.ncells)
    assert 0 < sum(both[moves[:n]] == 3) < n / 4  # a few cells move both markers
    for k in range(40):
        seed_numba(k)
        assert both[moves[playouts.policy(s.array, game.tables, moves, n)]] == 3


def playout_endings(use_policy, count):
    """Steps per playout and how many ended because the mover could not complete his turn."""
    game = new().game
    moves = np.empty(game.num_actions, np.int32)
    rng = np.random.default_rng(7)
    seed_numba(7)
    steps = no_turn = 0
    for _ in range(count):
        s = game.new_state().array.copy()
        while s[WINNER] < 0:
            n = rules.legal(s, game.tables, moves)
            i = playouts.policy(s, game.tables, moves, n) if use_policy else rng.integers(0, n)
            rules.apply(s, game.tables, moves[i])
            steps += 1
        no_turn += s[ENDING] == NO_TURN
    return steps / count, no_turn / count


def test_policy_playouts_last_longer_and_rarely_end_by_an_incomplete_turn():
    uniform_steps, uniform_no_turn = playout_endings(False, 150)
    policy_steps, policy_no_turn = playout_endings(True, 150)
    assert uniform_no_turn > 0.8 and policy_no_turn < 0.05  # measured: 97% and 0%
    assert policy_steps > 1.5 * uniform_steps  # measured: 64 and 29 steps


# --- the compiled playouts (issue 19): the same steps, found without scanning the board ---------

from tests.playout_checks import check_recorded_playout  # noqa: E402


def uniform_positions(count, seed):
    """Positions of uniformly random games cut at random steps (markers owed or not, mid-placement too)."""
    game, out = new().game, []
    moves = np.empty(game.num_actions, np.int32)
    rng = np.random.default_rng(seed)
    while len(out) < count:
        s, stop = game.new_state().array.copy(), rng.integers(0, 60)
        for _ in range(stop):
            if s[WINNER] >= 0:
                break
            rules.apply(s, game.tables, moves[rng.integers(0, rules.legal(s, game.tables, moves))])
        if s[WINNER] < 0:
            out.append(s)
    return game, out


def test_owed_cells_are_the_cells_owed_reach_marks():
    game, positions = uniform_positions(150, seed=5)
    _, more = policy_positions(150, seed=6)
    n, cells = game.topology.ncells, np.empty(game.topology.ncells, np.int32)
    for s in positions + more:
        mask, owed = rules.owed_reach(s, game.rays, n), int(rules.owed_bits(s))
        every = {c for c in range(n) if owed and mask[c] == owed and s[BOARD + c] == 0}
        some = {c for c in range(n) if mask[c] and s[BOARD + c] == 0}
        k = rules.owed_cells(s, game.tables, cells, 0, np.empty(12, np.int32))
        assert sorted(cells[:k]) == sorted(every)
        k = rules.owed_cells(s, game.tables, cells, 1, np.empty(12, np.int32))
        assert sorted(cells[:k]) == sorted(some if owed else set())


def test_the_mobility_kept_in_runs_is_the_walked_mobility():
    game, positions = policy_positions(100, seed=8)
    rays_, line, L = game.rays, game.tables.line, game.rays.shape[2]
    runs = np.empty(12, np.int32)
    for s in positions:
        board = s[BOARD:BOARD + game.topology.ncells].copy()
        for m in game.markers(s):
            rules.runs_from(s, rays_, m, runs, 0)
            now = playouts.mobility(board, rays_, m)
            assert playouts.runs_mobility(runs, 0) == now and rules.movable(s, rays_, m) == (now > 0)
            for c in np.flatnonzero(board == 0)[::7]:
                board[c] = NEUTRAL
                assert playouts.mobility_with_stone(runs, 0, line, L, m, c, now) == playouts.mobility(board, rays_, m)
                board[c] = 0


def test_the_compiled_marker_move_is_the_policys_choice():
    game, positions = policy_positions(200, seed=9)
    moves, runs, asked_ = np.empty(game.num_actions, np.int32), np.empty(12, np.int32), 0
    base = game.topology.ncells + game.reach
    for k, s in enumerate(positions):
        if s[PHASE] == 0:
            continue
        asked_ += 1
        n = rules.legal(s, game.tables, moves)
        seed_numba(k)
        want = moves[playouts.policy(s, game.tables, moves, n)] - base
        before = s.copy()
        seed_numba(k)
        assert playouts.policy_marker_move(s, game.tables, rules.asked(s), runs) == want  # the same draws too
        assert np.array_equal(s, before)
    assert asked_ > 50


def test_is_legal_answers_as_the_legal_list():
    game, positions = uniform_positions(120, seed=11)
    _, more = policy_positions(120, seed=12)
    moves = np.empty(game.num_actions, np.int32)
    for s in positions + more:
        legal = set(moves[:rules.legal(s, game.tables, moves)])
        assert [a for a in range(game.num_actions) if rules.is_legal(s, game.tables, a)] == sorted(legal)


@pytest.mark.parametrize("kernel", ["recorded_playout", "policy_playout"])
def test_compiled_playouts_replay_through_the_facade(kernel, monkeypatch):
    game = new().game
    if kernel == "policy_playout":  # the policy's playout checked as the recorded one is
        monkeypatch.setattr(game.kernels, "recorded_playout", game.kernels.policy_playout)
        monkeypatch.setattr(game.kernels, "playout",
                            lambda s, t: playouts.policy_playout(s, t, *[np.empty(0, np.int32)] * 2))
    _, positions = uniform_positions(30, seed=13)
    for seed, s in enumerate(positions):
        state = hexarena.games.State(game, s.copy())
        check_recorded_playout(state, seed, 400)


def stepwise_lengths(use_policy, count, seed):
    """Steps per game played step by step through ``legal``, ``policy`` or a uniform draw, and ``apply``."""
    game = new().game
    moves = np.empty(game.num_actions, np.int32)
    rng = np.random.default_rng(seed)
    seed_numba(seed)
    lengths = []
    for _ in range(count):
        s = game.new_state().array.copy()
        while s[WINNER] < 0:
            n = rules.legal(s, game.tables, moves)
            i = playouts.policy(s, game.tables, moves, n) if use_policy else rng.integers(0, n)
            rules.apply(s, game.tables, moves[i])
        lengths.append(int(s[PLY]))
    return np.array(lengths)


@pytest.mark.parametrize("use_policy", [False, True])
def test_compiled_playouts_play_the_stepwise_distribution(use_policy):
    """Games as long, and won as often by each player, as step by step (measured: 28.5 uniform, 64.5 policy)."""
    game, count = new().game, 1500
    kernel = playouts.policy_playout if use_policy else playouts.recorded_playout
    none = np.empty(0, np.int32)
    seed_numba(21)
    fast, wins = [], 0
    for _ in range(count):
        s = game.new_state().array.copy()
        kernel(s, game.tables, none, none)
        fast.append(int(s[PLY]))
        wins += s[WINNER] == 0
    slow = stepwise_lengths(use_policy, count, seed=22)
    fast = np.array(fast)
    spread = np.sqrt((fast.var() + slow.var()) / count)
    assert abs(fast.mean() - slow.mean()) < 4 * spread
    assert abs(wins / count - 0.5) < 0.06  # the first player wins about half the games either way


def test_mcts_plays_the_policy_in_one_compiled_playout():
    from hexarena.ai import mcts

    kernels = new().game.kernels
    assert mcts._module(kernels, True).recorded_playout is playouts.policy_playout
    assert mcts._module(kernels, False).recorded_playout is playouts.recorded_playout  # "-nopolicy": uniform


# --- the policy's playout reads runs from bits (bit_tables, run_bits) ----------------------------

from hexarena.kernels import popcount  # noqa: E402


@pytest.mark.parametrize("size", [5, 7, 13])  # one, two and eight words of cells
def test_runs_read_from_bits_are_the_walked_runs(size):
    game = hexarena.load("push-and-pull", size=size)
    t, n = game.tables, game.topology.ncells
    assert all(sum(popcount(w) for w in t.ray_bits[m, d]) == (game.rays[m, d] >= 0).sum()
               for m in range(n) for d in range(6)), "a ray's bits are its cells"
    rng, moves, walked = np.random.default_rng(size), np.empty(game.num_actions, np.int32), np.empty(6, np.int32)
    for _ in range(6):
        s = game.new_state().array.copy()
        for _ in range(rng.integers(0, 3 * n // 2)):
            if s[WINNER] >= 0:
                break
            rules.apply(s, t, moves[rng.integers(0, rules.legal(s, t, moves))])
        occ = playouts.occupancy(s, t)
        for m in range(0, n, 3):
            rules.runs_from(s, game.rays, m, walked, 0)
            assert [playouts.run_bits(t, m, d, occ, 0) for d in range(6)] == walked.tolist()


@pytest.mark.parametrize("size", [5, 13])
def test_policy_playouts_on_other_boards_replay_through_the_facade(size, monkeypatch):
    game = hexarena.load("push-and-pull", size=size)
    monkeypatch.setattr(game.kernels, "recorded_playout", game.kernels.policy_playout)
    none = np.empty(0, np.int32)
    monkeypatch.setattr(game.kernels, "playout", lambda s, t: playouts.policy_playout(s, t, none, none))
    for seed in range(3):
        check_recorded_playout(game.new_state(), seed, 2000)
