"""Lhexus: every rule sentence of the source and every ruling of RULES.md."""

import random
import time
from pathlib import Path
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import hexarena
from hexarena import IllegalMove
from hexarena.games import lhexus_rules as lhexus

from tests.playout_checks import check_recorded_playout


def played(moves, size=5):
    """A size-``size`` game after ``moves`` (a space-separated string)."""
    s = hexarena.load("lhexus", size=size).new_state()
    for m in moves.split():
        s.play(m)
    return s


def refusal(state, move):
    """The message refusing ``move``, checking that the state is unchanged."""
    before = state.array.copy()
    with pytest.raises(IllegalMove) as err:
        state.play(move)
    assert np.array_equal(state.array, before)
    return str(err.value)


def flood(topo, board, cell) -> set[int]:
    """The cells of the group of ``cell`` on ``board`` (colour per cell)."""
    seen, todo = {cell}, [cell]
    while todo:
        for m in topo.neighbours(todo.pop()):
            if board[m] == board[cell] and m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


# Black (player 1 after 'accept') has new groups at e3 and e6, White passes.
TWO_GROUPS_GAP2 = "i9 accept e3 end e6 end"
TWO_GROUPS_GAP1 = "i9 accept e3 end e5 end"


def test_board_is_hexhex_base_n_default_10():
    assert hexarena.load("lhexus").topology.ncells == 271
    assert hexarena.load("lhexus", size=4).topology.ncells == 37
    for bad in (2, 17, "x", True):
        with pytest.raises(ValueError, match="size"):
            hexarena.load("lhexus", size=bad)


def test_first_move_is_a_white_stone_then_accept_or_decline():
    s = played("")
    assert s.to_move == 0 and "end" not in s.legal_moves() and "accept" not in s.legal_moves()
    s.play("c3")
    assert s.game.stones(s.array)[s.game.topology.index("c3")] == 2  # white
    assert s.to_move == 1 and s.legal_moves() == ["accept", "decline"]
    assert "accept" in refusal(s, "d4")


def test_accept_makes_the_second_player_white_and_black_moves_next():
    s = played("c3 accept")
    assert s.game.record_extra(s.array) == {"colours": ["black", "white"]}
    assert s.record()["colours"] == ["black", "white"]
    assert s.to_move == 0 and s.turn == 3  # player 1 is Black and moves
    assert "player 1 (black) to move" in s.game.status(s)


def test_decline_makes_the_second_player_black_and_he_moves_next():
    s = played("c3 decline")
    assert s.record()["colours"] == ["white", "black"]
    assert s.to_move == 1 and s.turn == 3
    s.play("g7")  # a black stone
    assert s.game.stones(s.array)[s.game.topology.index("g7")] == 1
    assert s.to_move == 0  # the new group ended the turn: White (player 1) now


def test_the_choice_is_recorded_in_the_text_record():
    s = played("c3 decline g7")
    again = hexarena.from_record(s.record())
    assert again == s and again.record()["colours"] == ["white", "black"]


def test_accept_or_decline_is_no_pass():
    s = played("c3 accept end")  # Black passes once: the answer to the opening was no pass
    assert not s.is_over()
    s.play("end")  # White passes too: two successive passes
    assert s.is_over()


def test_a_pass_then_a_stone_resets_the_passes():
    s = played("c3 accept end e5 end")
    assert not s.is_over()
    s.play("end")
    assert s.is_over()


def test_growth_stone_grows_one_group_once():
    s = played(TWO_GROUPS_GAP2 + " e2")  # e2 grows the group of e3
    assert s.to_move == 0  # a growth stone does not end the turn
    assert refusal(s, "d3") == "'d3' would grow the group of 'e3' again: it grew with 'e2' this turn"
    assert "d3" not in s.legal_moves() and "f4" not in s.legal_moves()
    s.play("e7")  # the other group may still grow
    assert "e8" not in s.legal_moves()


def test_source_example_two_groups_joined_across_a_two_cell_gap():
    s = played(TWO_GROUPS_GAP2 + " e4 e5")  # each grows toward the other; e5 touches e4, grown this turn
    s.play("end")
    topo = s.game.topology
    assert flood(topo, s.game.stones(s.array), topo.index("e3")) == {topo.index(c) for c in ("e3", "e4", "e5", "e6")}


def test_source_example_a_stone_between_two_groups_grows_both():
    s = played(TWO_GROUPS_GAP1 + " e4")  # e4 grows e3 and e5 at once
    assert "again" in refusal(s, "e2") and "again" in refusal(s, "e6")  # no line of six at either side
    assert refusal(s, "e6") == "'e6' would grow the group of 'e5' again: it grew with 'e4' this turn"
    s.play("end")
    s.play("end")  # White passes
    s.play("e2")  # next turn the joined group grows again, once
    assert "again" in refusal(s, "e6")


def test_stone_touching_only_this_turns_stones_is_no_growth():
    s = played(TWO_GROUPS_GAP2 + " e2")
    msg = refusal(s, "e1")  # touches e2 only (placed this turn)
    assert "a growth stone must touch one of your groups as they stood at the start of the turn" in msg


def test_growth_stone_may_touch_an_earlier_one_while_its_groups_have_not_grown():
    s = played(TWO_GROUPS_GAP2 + " e4")
    assert "e5" in s.legal_moves()  # touches e4 (this turn) and e6 (not grown)
    s = played(TWO_GROUPS_GAP2 + " e4 e7")
    assert "again" in refusal(s, "e5")  # e6 grew with e7


def test_new_group_stone_ends_the_turn_and_may_follow_growth():
    s = played(TWO_GROUPS_GAP2 + " e4 a1")  # growth, then a new group
    assert s.to_move == 1 and s.step == 0


def test_new_group_must_stand_apart_from_own_stones():
    s = played(TWO_GROUPS_GAP2 + " e4")
    msg = refusal(s, "f5")  # touches e4 only (this turn's)
    assert "touches your stones: a new group must stand apart" in msg


def test_opponent_stones_do_not_count_for_growth_or_new_groups():
    s = played("e4 decline e5")  # Black new group beside the White stone
    assert s.to_move == 0 and "e6" in s.legal_moves()  # White: e6 touches only Black's e5: a new group
    s.play("e6")
    assert s.to_move == 1


def test_end_at_once_is_a_pass_and_two_passes_end_the_game():
    s = played("c3 accept")
    assert "(a pass)" in s.game.status(s)
    s.play("end")
    assert not s.is_over() and s.to_move == 1
    s.play("end")
    assert s.is_over() and s.legal_moves() == []


def test_end_after_stones_is_no_pass():
    s = played(TWO_GROUPS_GAP2 + " e2 end end")  # Black's turn had a stone; White passes once
    assert not s.is_over()


def test_equal_scores_fewer_stones_wins():
    s = played("c3 accept end end")  # Black 0 stones, White 1: Black (player 1) wins
    assert s.winner() == 0 and s.scores() == [0.0, 0.0]
    assert "player 1 (black) wins on fewer stones" in s.game.status(s)


def test_equal_scores_and_stones_is_a_draw():
    s = played("c3 accept e7 end end")
    assert s.is_over() and s.winner() is None and "a draw" in s.game.status(s)


LINES = ("c1 accept e1 c2 end e2 end c3 end e3 end c4 end e4 end c5 end e5 end c6 end e6 end c7 end")


def test_one_line_each_the_fewer_stones_win():
    s = played(LINES + " end end")  # Black e1..e6 (6 stones), White c1..c7 (7)
    assert s.scores() == [1.0, 1.0] and s.winner() == 0
    assert s.game.status(s) == ("player 1 (black) wins on fewer stones: Black 1 configuration with 6 stones, "
                                "White 1 with 7")


def test_higher_score_wins_whatever_the_stones():
    s = played("c1 accept e1 c2 end e2 end c3 end e3 end c4 end e4 end c5 end e5 end c6 end end c7 end end end")
    assert s.scores() == [0.0, 1.0] and s.winner() == 1  # White's line (7 stones) beats Black's five stones
    assert s.game.status(s).startswith("player 2 (white) wins on more configurations")


def test_equal_scores_and_stones_with_configurations_is_a_draw():
    s = played(LINES + " d1 end end end")  # Black's d1 grows his line: 7 stones each, one line each
    assert s.scores() == [1.0, 1.0] and s.is_over() and s.winner() is None


def test_scores_follow_the_players_colours():
    s = played("c1 decline e1 c2 end e2 end c3 end e3 end c4 end e4 end c5 end e5 end c6 end end end")
    assert s.scores() == [1.0, 0.0] and s.winner() == 0  # player 1 is White: his c-line wins


def test_configurations_as_cell_lists():
    s = played(LINES + " end end")
    topo = s.game.topology
    assert s.game.configurations(s.array, 1) == [sorted(topo.index(f"e{i}") for i in range(1, 7))]
    assert len(s.game.configurations(s.array, 2)[0]) == 6


def test_svg_outlines_the_counted_configurations_at_the_end():
    s = played(LINES)
    assert 'class="accent"' not in s.svg()
    s.play("end")
    s.play("end")
    root = ET.fromstring(s.svg())
    assert sum(1 for p in root.iter("{http://www.w3.org/2000/svg}polygon") if p.get("class") == "accent") == 12
    assert "counted configurations" in s.svg()


def test_ascii_marks_this_turns_stones():
    s = played(TWO_GROUPS_GAP2 + " e4")
    row = next(line for line in str(s).split("\n") if line.startswith("e "))
    assert "X x . X" in row


def test_status_names_the_groups_that_may_still_grow():
    s = played(TWO_GROUPS_GAP2 + " e2")
    assert "groups that may still grow: e6" in s.game.status(s)


def test_planes_mark_growth_and_new_group_cells():
    s = played(TWO_GROUPS_GAP2 + " e2")
    topo, p = s.game.topology, s.game.planes(s.array, 0)
    assert p.shape == (len(s.game.PLANES), topo.ncells) and p.min() >= 0 and p.max() <= 1
    assert p[4, topo.index("e7")] == 1 and p[4, topo.index("d3")] == 0
    assert p[5, topo.index("a1")] == 1 and p[5, topo.index("e1")] == 0
    assert p[3, topo.index("e2")] == 1 and p[0, topo.index("e2")] == 1


def reference_legal(state) -> list[str]:
    """The legal moves by the rulings' words, from the board as it stood at
    the start of the turn (flood fill), in the kernel's order."""
    game, s = state.game, state.array
    topo = game.topology
    if state.turn == 1:
        return [topo.name(c) for c in range(topo.ncells)]
    if state.turn == 2:
        return ["accept", "decline"]
    colour = 1 + (game.colour(s, state.to_move) == "white")
    board = game.stones(s).copy()
    mine = [topo.index(m) for t, ms in state.turns() if t == state.turn for m in ms]
    start = board.copy()
    start[mine] = 0
    group = {}
    for c in np.flatnonzero(start == colour):
        if int(c) not in group:
            for m in flood(topo, start, int(c)):
                group[m] = int(c)
    grown = {group[m] for c in mine for m in topo.neighbours(c) if m in group}
    out = []
    for c in range(topo.ncells):
        if board[c]:
            continue
        own = [m for m in topo.neighbours(c) if board[m] == colour]
        touched = {group[m] for m in own if m in group}
        if not own or (touched and not touched & grown):
            out.append(topo.name(c))
    return out + ["end"]


def group_count(topo, board, colour) -> int:
    """Connected groups of ``colour`` on ``board``, by flood fill."""
    seen: set[int] = set()
    count = 0
    for c in np.flatnonzero(board == colour):
        if int(c) not in seen:
            seen |= set(flood(topo, board, int(c)))
            count += 1
    return count


@pytest.mark.parametrize("seed", range(6))
def test_legal_moves_match_the_rulings_over_random_games(seed):
    rng = random.Random(seed)
    s = hexarena.load("lhexus", size=4).new_state()
    while not s.is_over():
        assert s.legal_moves() == reference_legal(s)
        if s.step == 0:  # the kernels' group counts (the playout policy reads them) as a turn starts
            board = s.game.stones(s.array)
            assert [s.array[lhexus.GROUPS + k] for k in range(2)] == \
                [group_count(s.game.topology, board, colour) for colour in (lhexus.BLACK, lhexus.WHITE)]
        moves = s.legal_moves()
        s.play("end" if "end" in moves and rng.random() < 0.25 else rng.choice(moves))


@pytest.mark.parametrize("size", [3, 4, 10])
def test_recorded_playout_is_the_game(size):
    for seed in range(3):
        count, _, _ = check_recorded_playout(hexarena.load("lhexus", size=size).new_state(), seed, 4000)
        assert count <= hexarena.load("lhexus", size=size).max_game_length


def test_playouts_fill_the_board():
    """The policy grows every group each turn and adds a new group while one
    fits, as real games do: random games end with the board (nearly) full."""
    game = hexarena.load("lhexus")
    n = game.topology.ncells
    actions, movers = np.empty(1000, np.int32), np.empty(1000, np.int32)
    hexarena.kernels.seed(1)
    lengths, empty = [], []
    for _ in range(100):
        s = game.new_state().array.copy()
        lengths.append(game.kernels.recorded_playout(s, game.tables, actions, movers))
        empty.append(int(np.sum(game.stones(s) == 0)))
    assert n < np.mean(lengths) < 1.3 * n and max(lengths) <= game.max_game_length
    assert np.mean(empty) < 0.02 * n


def test_result_orders_as_the_exact_scores():
    """The game's end compares a greedy packing of the player with more
    stones with the other's exact score before it packs exactly: the winner
    is the exact scores' all the same, on boards from even to lopsided."""
    game = hexarena.load("lhexus", size=6)
    n = game.topology.ncells
    rng = np.random.default_rng(2)
    for _ in range(200):
        s = game.new_state().array.copy()
        black = rng.random(n) < rng.uniform(0.2, 0.8)
        s[lhexus.BOARD: lhexus.BOARD + n] = np.where(black, lhexus.BLACK, lhexus.WHITE)
        s[lhexus.STONES], s[lhexus.STONES + 1] = black.sum(), n - black.sum()
        b, w = lhexus._result(s, game.tables)
        eb, ew = lhexus.final_scores(s, game.tables)
        assert np.sign(b - w) == np.sign(eb - ew)
        assert (b, w) == (eb, ew) or (b > w) == (black.sum() >= n - black.sum())


@pytest.mark.parametrize("seed", range(6))
def test_search_moves_are_growth_first(seed):
    """MCTS expands the growth stones and ``end`` while a growth stone is
    possible (a negative count: new groups left out), else every legal move."""
    game = hexarena.load("lhexus", size=5)
    state, rng = game.new_state(), random.Random(seed)
    out = np.empty(game.num_actions, np.int32)
    n = game.topology.ncells
    seen = set()
    while not state.is_over():
        legal = state.legal_actions()
        count = game.kernels.search_moves(state.array, game.tables, out)
        moves = set(out[:abs(count)].tolist())
        colour = lhexus.mover_colour(state.array)
        growth = {c for c in legal if c < n and lhexus.classify(state.array, game.tables, c, colour)
                  == lhexus.GROWTH}
        if state.turn > 2 and growth:
            assert moves == growth | {n}
            assert (count < 0) == (len(legal) > len(moves))
            seen.add("pruned" if count < 0 else "growth")
        else:
            assert count == len(legal) and moves == set(legal)
            seen.add("legal")
        state.apply(rng.choice(legal))
    assert {"pruned", "legal"} <= seen


def test_notation_sample_game_replays():
    lines = (Path(__file__).parents[2] / "docs" / "notation.md").read_text().split("\n")
    i = next(i for i, line in enumerate(lines) if line.startswith("hexarena replay lhexus"))
    s = played(" ".join(lines[i].split()[5:]), size=4)
    assert s.record_text() == lines[i + 1] and s.winner() == 0 and s.record()["colours"] == ["white", "black"]


def test_rules_summary_has_board_and_notation():
    text = (Path(hexarena.__file__).parent / "rules" / "lhexus.txt").read_text()
    assert "Board:" in text and "Notation:" in text and "accept" in text


def test_a_game_in_progress_shows_a_greedy_count_not_exact_scores():
    """While the game goes on the summary and the record carry no scores and
    the status a labelled greedy count; ``scores()`` is exact when asked."""
    from hexarena.info import replay_summary
    from hexarena.records import from_record
    for s in dense_by_legal_play(5):
        if s.ply == 80:
            break
    assert not s.is_over()
    assert replay_summary(s)["scores"] is None and s.record()["result"]["scores"] is None
    b, w = s.game.greedy_scores(s.array)
    assert b > 0 and f"Black at least {b}, White at least {w} configurations (greedy count; exact at the end)" \
        in s.game.status(s)
    assert from_record(s.record()).array.tobytes() == s.array.tobytes()
    assert s.scores()[1] >= b  # Black, the second player, scores exactly when asked
    s = played("c3 decline c4 end end")
    assert s.is_over() and replay_summary(s)["scores"] == s.scores() == s.record()["result"]["scores"]
    assert "greedy" not in s.game.status(s)


def test_final_scores_are_kept_on_the_state(monkeypatch):
    """A finished position is scored once however often it is asked; undo
    and another ending are scored afresh."""
    s = played("c3 decline c4 end")
    calls = []
    real = type(s.game).scores
    monkeypatch.setattr(type(s.game), "scores", lambda self, a: calls.append(1) or real(self, a))
    s.play("end")
    assert s.is_over()
    first = s.scores()
    assert s.scores() == first and s.game.live_scores(s) == first and len(calls) == 1
    s.undo()
    s.play("e5")
    while not s.is_over():
        s.play("end")
    assert s.scores() is not None and len(calls) == 2


def dense_by_legal_play(seed: int, holes: float = 0.1):
    """Issue 28's position: a hot-seat base-10 game through the public API in
    which Black (the second player, declining the White stone) grows every
    group each turn and places a new group while he can, never on a random
    tenth of the cells, while White passes; returns the state after each move."""
    rng = np.random.default_rng(seed)
    s = hexarena.load("lhexus").new_state()
    n = s.game.topology.ncells
    avoid = rng.random(n) < holes
    s.play(s.game.topology.name(int(rng.integers(n))))
    s.play("decline")
    while not s.is_over():
        if s.to_move == 0:
            s.play("end")
        else:
            grow, new = s.game.growth_cells(s.array)
            cells = np.flatnonzero(grow & ~avoid)
            if not len(cells):
                cells = np.flatnonzero(new & ~avoid)
            s.play(s.game.topology.name(int(rng.choice(cells))) if len(cells) else "end")
        yield s


def test_dense_game_by_legal_play_never_waits_for_exact_scores(monkeypatch):
    """Every position of the dense game is drawn and summarised without an
    exact search while it goes on; at the end the winner is known at once
    and the exact scores within a node budget take under 2 s (exact, or
    None for unknown)."""
    from hexarena.info import replay_summary
    game_class = type(hexarena.load("lhexus"))
    real = game_class.packings

    def packings(self, s, nodes=-1):
        assert s[lhexus.WINNER] >= 0, "an exact search in a game in progress"
        return real(self, s, nodes)

    monkeypatch.setattr(game_class, "packings", packings)
    for s in dense_by_legal_play(3):
        if not s.is_over() and s.ply % 15 == 0:
            started = time.process_time()  # CPU time: a busy CI machine does not count
            replay_summary(s), s.game.status(s), s.svg(), s.record()
            assert time.process_time() - started < 0.5
    black = float((s.game.stones(s.array) == lhexus.BLACK).mean())
    assert 0.85 <= black <= 0.95 and s.winner() == 1  # Black, the second player, fills the board
    started = time.process_time()
    found = s.game.exact_scores(s.array, nodes=100000)
    assert time.process_time() - started < 2.0
    if found is not None:
        assert found[1] == 0 and found[0] >= s.game.greedy_scores(s.array)[0]
