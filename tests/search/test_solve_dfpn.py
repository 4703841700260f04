"""hexarena solve --method dfpn: the proof-number search's values against the
alpha-beta solver and the plain minimax of tests/solve_reference.py, its
table under pressure, budgets and the CLI option."""

from __future__ import annotations

import io
import json

import pytest

import hexarena
from hexarena.search.solve import Solver, solve
from hexarena.search.dfpn import DfpnSolver, dead_cells
from hexarena.cli import main
from hexarena.kernels import TO_MOVE

from tests.solve_reference import Reference, midgame

OPENINGS = ("none", "swap", "cut-and-choose")


@pytest.fixture(scope="module")
def solvers():
    """(df-pn, alpha-beta) solvers per game configuration, shared by this module's tests."""
    made: dict[tuple, tuple[DfpnSolver, Solver]] = {}

    def get(name: str, **options) -> tuple[DfpnSolver, Solver]:
        key = (name, tuple(sorted(options.items())))
        if key not in made:
            game = hexarena.load(name, **options)
            made[key] = DfpnSolver(game, table_bits=18), Solver(game, table_bits=18)
        return made[key]

    return get


def plain_first_moves(game) -> dict[str, str]:
    """Each first move's result for its player by the plain minimax."""
    ref = Reference(game)
    s = game.new_state()
    words = {1: "win", 0: "draw", -1: "loss"}
    return {s.move_name(a): words[ref.result_of(child, s.to_move, ref.outcome)] for a, child in ref.children(s.array)}


def sign(v: int) -> int:
    return (v > 0) - (v < 0)


@pytest.mark.parametrize("opening", ["none", *(pytest.param(o, marks=pytest.mark.slow) for o in OPENINGS[1:])])
def test_projective_hex_size_2_first_moves_match_alphabeta_and_plain_minimax(opening, solvers):
    game = hexarena.load("projective-hex", size=2, opening=opening)
    dfpn, ab = solvers("projective-hex", size=2, opening=opening)
    sol = solve(game, distances=False, method="dfpn", dfpn=dfpn)
    assert sol.complete and sol.method == "dfpn"
    expected = plain_first_moves(game)
    assert {move: m.result for m in sol.moves for move in (m.move, *m.same_as)} == expected
    by_alphabeta = solve(game, distances=False, solver=ab)
    assert [m.result for m in sol.moves] == [m.result for m in by_alphabeta.moves]
    assert sol.result == by_alphabeta.result


def test_dfpn_then_distances_give_the_alphabeta_solution(solvers):
    game = hexarena.load("projective-hex", size=2, opening="none")
    dfpn, ab = solvers("projective-hex", size=2, opening="none")
    sol = solve(game, method="dfpn", dfpn=dfpn, solver=ab)
    ref = solve(game, solver=Solver(game, table_bits=16))
    assert [(m.move, m.result, m.plies) for m in sol.moves] == [(m.move, m.result, m.plies) for m in ref.moves]
    assert (sol.result, sol.plies) == ("win", 9)


@pytest.mark.parametrize("stones,seed", [(12, 0), (12, 1), (11, 2), (11, 3), (10, 0), (10, 4)])
def test_projective_hex_size_3_midgame_values_match_alphabeta(stones, seed, solvers):
    game = hexarena.load("projective-hex", size=3, opening="none")
    dfpn, ab = solvers("projective-hex", size=3, opening="none")
    s = midgame(game, stones, seed)
    assert dfpn.value(s.array) == sign(ab.score(s.array, False, 1 << 40))


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_projective_hex_size_3_late_values_match_plain_minimax(seed, solvers):
    game = hexarena.load("projective-hex", size=3, opening="none")
    dfpn, _ = solvers("projective-hex", size=3, opening="none")
    s = midgame(game, 15, seed)
    ref = Reference(game)
    for a, child in ref.children(s.array):  # each move's value, not only the position's
        if child[1] < 0:
            assert dfpn.value(child) == ref.outcome(child), s.move_name(a)


@pytest.mark.parametrize("seed", [pytest.param(7, marks=pytest.mark.slow), 8, 3])
def test_hex_pushpin_size_3_win_draw_loss_match_plain_minimax(seed, solvers):
    """Draws: df-pn proves "the player to move wins", then "the opponent wins", and a draw is neither."""
    game = hexarena.load("hex-pushpin", size=3)
    dfpn, _ = solvers("hex-pushpin", size=3)
    s = midgame(game, 8, seed)
    ref = Reference(game)
    seen = set()
    for a, child in ref.children(s.array):
        if child[1] < 0:
            expected = ref.outcome(child)
            assert dfpn.value(child) == expected, s.move_name(a)
            seen.add(expected)
    assert len(seen) >= 2 and 0 in seen  # draws among them, and not all moves of one value


def test_a_table_too_small_for_the_search_still_gives_the_right_values():
    """64 slots (16 buckets) for some 3,000 positions: entries are overwritten all the time, so work is
    redone (the stack keeps what a node in search has learnt), but no value is invented."""
    game = hexarena.load("projective-hex", size=2, opening="swap")
    sol = solve(game, distances=False, method="dfpn", dfpn=DfpnSolver(game, table_bits=6))
    assert {move: m.result for m in sol.moves for move in (m.move, *m.same_as)} == plain_first_moves(game)


def test_budget_reports_unknown_moves_instead_of_running_on():
    game = hexarena.load("projective-hex", size=3, opening="none")
    sol = solve(game, nodes=20_000, distances=False, method="dfpn", table_bits=16)
    assert not sol.complete and sol.result == "unknown"
    assert 20_000 <= sol.nodes < 40_000
    assert {m.result for m in sol.moves} == {"unknown"}


def test_value_returns_none_when_the_nodes_run_out(solvers):
    game = hexarena.load("projective-hex", size=3, opening="none")
    dfpn, _ = solvers("projective-hex", size=3, opening="none")
    before = dfpn.nodes
    assert dfpn.value(game.new_state().array, 1000) is None
    assert dfpn.nodes - before == 1001  # the node that found the budget spent is counted


def test_unknown_method_is_refused():
    game = hexarena.load("projective-hex", size=2)
    with pytest.raises(ValueError, match="methods: alphabeta, dfpn"):
        solve(game, method="pns")


def test_cli_solve_method_dfpn(capsys):
    out = io.StringIO()
    assert main(["solve", "projective-hex", "-o", "size=2", "-o", "opening=none", "--method", "dfpn",
                 "--no-distances", "--quiet"], out) == 0
    text = out.getvalue()
    assert "the first player wins" in text and "b1       win" in text and "(dfpn)" in text
    out = io.StringIO()
    assert main(["solve", "projective-hex", "-o", "size=2", "-o", "opening=none", "--method", "dfpn", "--json"],
                out) == 0
    data = json.loads(out.getvalue())
    assert data["method"] == "dfpn" and data["result"] == "win" and data["plies"] == 9 and data["complete"]
    with pytest.raises(SystemExit) as exc:
        main(["solve", "projective-hex", "--method", "pns"], io.StringIO())
    assert exc.value.code == 2
    assert "invalid choice: 'pns'" in capsys.readouterr().err


def filled(game, s, cell: int, colour: int):
    """``s`` with a ``colour`` stone (1 black, 2 white) on ``cell`` and the same player to move."""
    from hexarena.games.projective_hex import COLOR0
    x = s.copy()
    mover = x[TO_MOVE]
    x[TO_MOVE] = 0 if x[COLOR0] == colour else 1  # the player whose colour it is places it
    game.kernels.apply(x, game.tables, cell)
    x[TO_MOVE] = mover
    return x


@pytest.mark.parametrize("size,stones", [(2, 6), pytest.param(3, 15, marks=pytest.mark.slow)])
def test_dead_cells_do_not_change_the_value(size, stones):
    """A stone of either colour on a dead cell leaves the plain minimax's value as it was."""
    game = hexarena.load("projective-hex", size=size, opening="none")
    rings = game.dead_cell_rings()
    ref = Reference(game)
    checked = 0
    for seed in range(40):
        s = midgame(game, stones, seed).array
        for c in dead_cells(game, s, rings):
            value = ref.outcome(s)
            assert ref.outcome(filled(game, s, c, 1)) == ref.outcome(filled(game, s, c, 2)) == value, (seed, c)
            checked += 1
    assert checked >= 10


def test_dead_cell_test_on_a_drawn_ring():
    """Cell J of the size-3 board with its ring all black but one empty cell is dead; with two
    empty cells apart, not (a white stone between them would split the black ring)."""
    game = hexarena.load("projective-hex", size=3, opening="none")
    rings = game.dead_cell_rings()
    j = game.topology.find("J")
    ring = [int(c) for c in rings[j] if c >= 0]
    assert len(ring) == 6
    s = game.new_state().array.copy()
    from hexarena.games.projective_hex import BOARD
    for c in ring[1:]:
        s[BOARD + c] = 1
    assert j in dead_cells(game, s, rings)
    s[BOARD + ring[3]] = 0
    assert j not in dead_cells(game, s, rings)
    s[BOARD + ring[3]] = 2  # black run ring[4], ring[5], ring[1], ring[2] split by white: two runs
    assert j not in dead_cells(game, s, rings)


@pytest.mark.parametrize("seed", [2, 4])
def test_dfpn_with_and_without_dead_cells_agree(seed, solvers):
    game = hexarena.load("projective-hex", size=3, opening="none")
    dfpn, _ = solvers("projective-hex", size=3, opening="none")
    live = DfpnSolver(game, table_bits=16, dead_cells=False)
    s = midgame(game, 9, seed)
    for a in s.legal_actions()[:8]:
        child = s.copy()
        child.apply(a)
        if not child.is_over():
            assert dfpn.value(child.array) == live.value(child.array), s.move_name(a)
