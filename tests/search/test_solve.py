"""hexarena solve: the solver's values against an independent plain minimax
(tests/solve_reference.py), budgets, symmetry keys, the CLI, and the
solution store the AI and the hints read."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

import hexarena
from hexarena.ai import agent, hint, hint_note
from hexarena.search.positions import PositionKeys, automorphisms
from hexarena.search.solutions import perfect_move, proof_text, stored_value
from hexarena.search.solve import Solver, solve
from hexarena.cli import main
from hexarena.play import play_terminal

from tests.solve_reference import Reference, midgame
from tests.solve_reference_fast import FastReference

OPENINGS = ("none", "swap", "cut-and-choose")


@pytest.fixture(scope="module")
def solvers():
    """One solver per game configuration, shared by the tests of this module."""
    made: dict[tuple, Solver] = {}

    def get(name: str, **options) -> Solver:
        key = (name, tuple(sorted(options.items())))
        if key not in made:
            made[key] = Solver(hexarena.load(name, **options), table_bits=18)
        return made[key]

    return get


def reference_first_moves(game) -> dict[str, tuple[str, int]]:
    """Each first move's (result for its player, plies to the end) by the plain minimax."""
    ref = Reference(game)
    s = game.new_state()
    words = {1: "win", 0: "draw", -1: "loss"}
    out = {}
    for a, child in ref.children(s.array):
        r, d = ref.child_perfect(child, s.to_move)
        out[s.move_name(a)] = words[r], d
    return out


@pytest.mark.parametrize("opening", ["none", *(pytest.param(o, marks=pytest.mark.slow) for o in OPENINGS[1:])])
def test_projective_hex_size_2_first_moves_match_plain_minimax(opening, solvers):
    game = hexarena.load("projective-hex", size=2, opening=opening)
    sol = solve(game, solver=solvers("projective-hex", size=2, opening=opening))
    assert sol.complete
    expected = reference_first_moves(game)
    seen = set()
    for m in sol.moves:
        for move in (m.move, *m.same_as):  # every move of a symmetry class has the class's value
            assert expected[move] == (m.result, m.plies), move
            seen.add(move)
    assert seen == set(expected)
    best = max(expected.values(), key=lambda v: (v[0] == "win", -v[1] if v[0] == "win" else v[1]))
    assert (sol.result, sol.plies) == best


def test_projective_hex_size_2_values_are_the_documented_ones(solvers):
    """docs/solving.md: with no opening rule the first player wins in 9 on the
    six cells off the corners; the swap and cut-and-choose make it a second-player win."""
    values = {o: solve(hexarena.load("projective-hex", size=2, opening=o),
                       solver=solvers("projective-hex", size=2, opening=o)) for o in OPENINGS}
    assert (values["none"].result, values["none"].plies) == ("win", 9)
    assert sorted(len(m.same_as) + 1 for m in values["none"].moves if m.result == "win") == [3, 3]
    assert values["swap"].result == values["cut-and-choose"].result == "loss"


@pytest.mark.parametrize("seed", [pytest.param(1, marks=pytest.mark.slow), 3])
def test_hex_pushpin_size_3_midgame_values_match_plain_minimax(seed, solvers):
    game = hexarena.load("hex-pushpin", size=3)
    solver = solvers("hex-pushpin", size=3)
    s = midgame(game, 8, seed)
    ref = Reference(game)
    for a, child in ref.children(s.array):
        if child[1] >= 0:  # over: nothing to search
            continue
        expected = ref.perfect(child)
        result, plies = solver.exact(child)
        assert result == expected[0], s.move_name(a)
        if result != 0:  # a draw's length is not searched for
            assert plies == expected[1], s.move_name(a)


def test_hex_pushpin_value_search_agrees_with_plain_outcomes(solvers):
    """Win/draw/loss alone (the value pass) from earlier positions, where distances would take long."""
    game = hexarena.load("hex-pushpin", size=3)
    solver = solvers("hex-pushpin", size=3)
    for seed in (4, 5):
        s = midgame(game, 7, seed)
        ref = Reference(game)
        v = solver.score(s.array, False, 1 << 40)
        assert (v > 0) - (v < 0) == ref.outcome(s.array)


def test_fast_reference_agrees_with_the_python_one():
    """The numba minimax (hashed and direct tables) gives the dict-memoised one's values."""
    game = hexarena.load("hex-pushpin", size=3)
    hashed, direct = FastReference(game, table_bits=16), FastReference(game, table_bits=16, direct=True)
    for seed in (1, 2, 3, 4, 5):
        s = midgame(game, 10, seed)
        ref = Reference(game)
        outcome, (result, plies) = ref.outcome(s.array), ref.perfect(s.array)
        assert hashed.value(s.array) == direct.value(s.array) == (outcome, None)
        assert hashed.value(s.array, lengths=True) == (result, plies if result else None)


@pytest.mark.parametrize("seed", [1, 2])
def test_hex_pushpin_value_search_four_stones_in_matches_fast_plain_minimax(seed, solvers):
    """Win/draw/loss four stones in (0.2 to 5 million positions for the numba minimax, a few seconds)."""
    game = hexarena.load("hex-pushpin", size=3)
    s = midgame(game, 4, seed)
    v = solvers("hex-pushpin", size=3).score(s.array, False, 1 << 40)
    assert (v > 0) - (v < 0) == FastReference(game, table_bits=24).value(s.array)[0]


@pytest.mark.parametrize("seed", [1, 2])
def test_hex_pushpin_lengths_six_stones_in_match_fast_plain_minimax(seed, solvers):
    """Result and length six stones in (0.5 to 2 million positions looking at every move)."""
    game = hexarena.load("hex-pushpin", size=3)
    s = midgame(game, 6, seed)
    assert solvers("hex-pushpin", size=3).exact(s.array) == FastReference(game, table_bits=23).value(s.array, True)


PROVEN_LINE = ("d2 1", "pass", "f2", "pass", "c3", "pass", "g5 1", "c1")  # the shipped store's perfect play


@pytest.mark.parametrize("plies, table_bits", [(8, 20), pytest.param(6, 26, marks=pytest.mark.slow)])
def test_hex_pushpin_size_3_lengths_on_the_proven_line_match_plain_minimax(plies, table_bits, solvers):
    """Every move's result and length from a position on the solver's proven line: 8 plies in
    (four stones, 0.2 million positions looking at every move), and 6 plies in (three stones,
    16 million positions, about a minute: slow). The plain minimax also finds the line's
    position a win in 20 - plies for the first player, so the line is perfect play."""
    game = hexarena.load("hex-pushpin", size=3)
    s = game.new_state()
    for move in PROVEN_LINE[:plies]:
        s.play(move)
    ref = FastReference(game, table_bits=table_bits)
    result, length = ref.value(s.array, lengths=True)
    assert (result if s.to_move == 0 else -result, length) == (1, 20 - plies)
    solver = solvers("hex-pushpin", size=3)
    for a in s.legal_actions():
        child = s.copy()
        child.apply(a)
        expected = ref.child_value(child.array, s.to_move, lengths=True)
        if child.is_over():
            assert expected[1] == 1
            continue
        r, d = solver.exact(child.array)  # for the child's player to move: the other one
        assert (-r, d + 1 if r else None) == expected, s.move_name(a)


@pytest.mark.slow
def test_hex_pushpin_size_3_every_first_move_matches_plain_minimax():
    """Win/draw/loss of all 19 first moves (each cell, each pin push, the pass; not one per
    symmetry class) by the plain minimax from the start: 1.12 billion positions in its direct
    table (2.7 GB), then the solver: 38 minutes on this machine at a load of 6 to 10 (docs/solving.md)."""
    game = hexarena.load("hex-pushpin", size=3)
    ref = FastReference(game, direct=True)
    s = game.new_state()
    expected = {}
    for a in s.legal_actions():
        child = s.copy()
        child.apply(a)
        expected[s.move_name(a)] = {1: "win", 0: "draw", -1: "loss"}[ref.child_value(child.array, s.to_move)[0]]
    sol = solve(game, distances=False, table_bits=22)
    assert sol.complete and sol.result == "win"
    got = {move: m.result for m in sol.moves for move in (m.move, *m.same_as)}
    assert got == expected
    assert sorted(move for move, r in expected.items() if r == "win") == ["c3 1", "d2 1", "d4 1", "f2 1", "f4 1",
                                                                       "g3 1"]


def test_budget_reports_unknown_moves_instead_of_running_on():
    game = hexarena.load("projective-hex", size=3, opening="none")
    sol = solve(game, nodes=20_000, table_bits=16)
    assert not sol.complete and sol.result == "unknown"
    assert 20_000 <= sol.nodes < 40_000
    assert {m.result for m in sol.moves} == {"unknown"}


def test_symmetry_keys_merge_symmetric_positions_only():
    game = hexarena.load("projective-hex", size=3, opening="none")
    keys = PositionKeys(game)
    assert len(keys.perms) == 6 and len(automorphisms(game.topology.nbr)) == 6
    s = game.new_state()
    images = set()
    for a in s.legal_actions():
        c = s.copy()
        c.apply(a)
        images.add(keys.key(c.array))
    assert len(images) == 6  # 27 cells in 6 classes under the 6 symmetries
    a, b = s.copy(), s.copy()
    a.play("A")
    a.play("B")
    b.play("B")
    b.play("A")  # the same cells by the other players: a different position
    assert keys.key(a.array) != keys.key(b.array)


def test_cli_solve_prints_values_and_json(capsys):
    out = io.StringIO()
    assert main(["solve", "projective-hex", "-o", "size=2", "-o", "opening=none", "--quiet"], out) == 0
    text = out.getvalue()
    assert "the first player wins in 9 plies" in text and "b1       win in 9" in text
    out = io.StringIO()
    assert main(["solve", "projective-hex", "-o", "size=2", "-o", "opening=none", "--json"], out) == 0
    data = json.loads(out.getvalue())
    assert data["result"] == "win" and data["plies"] == 9 and data["complete"]
    assert {m["move"]: m["result"] for m in data["moves"]} == {"a1": "loss", "b1": "win", "b2": "win"}


def test_cli_solve_with_a_budget_and_bad_input(capsys):
    out = io.StringIO()
    assert main(["solve", "projective-hex", "-o", "size=3", "--nodes", "5000", "--table-bits", "16", "--json"],
                out) == 0
    assert json.loads(out.getvalue())["result"] == "unknown"
    assert main(["solve", "lisbon"], io.StringIO()) == 2
    assert "solvable games: projective-hex, hex-pushpin" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["solve", "projective-hex", "--nodes", "many"], io.StringIO())


def test_cli_store_writes_what_perfect_play_reads(tmp_path):
    path = tmp_path / "store.npz"
    assert main(["solve", "projective-hex", "-o", "size=2", "-o", "opening=none", "--quiet", "--store", str(path)],
                io.StringIO()) == 0
    with np.load(path) as data:
        assert len(data["keys"]) > 100 and set(np.unique(data["results"])) <= {-1, 0, 1}


# --- the shipped store: perfect play and hints --------------------------------------------

def play_out(state, players):
    """Play to the end with ``players[p].choose``; returns the state."""
    while not state.is_over():
        state.play(players[state.to_move].choose(state))
    return state


@pytest.mark.parametrize("opening", OPENINGS)
def test_mcts_plays_solved_positions_perfectly(opening):
    """The winner of a solved start wins in the proven number of plies
    against itself, and beats a weak searcher who plays the other side."""
    game = hexarena.load("projective-hex", size=2, opening=opening)
    result, plies = stored_value(game.new_state())
    winner = 0 if result == 1 else 1
    bots = [agent("mcts", simulations=20, seed=1), agent("mcts", simulations=20, seed=2)]
    s = play_out(game.new_state(), bots)
    assert s.winner() == winner and len(s.history) == plies
    for seed in range(3):
        players = [agent("random", seed=seed), agent("random", seed=seed)]
        players[winner] = agent("mcts", simulations=20, seed=seed)
        assert play_out(game.new_state(), players).winner() == winner


def test_perfect_move_takes_the_fastest_win_and_the_longest_defence():
    game = hexarena.load("projective-hex", size=2, opening="none")
    s = game.new_state()
    best = perfect_move(s)
    assert best.result == 1 and best.plies == 9 and best.move in ("b1", "b3", "d3", "b2", "c2", "c3")
    s.play(best.move)
    defence = perfect_move(s)
    assert defence.result == -1 and defence.plies == 8
    ref = Reference(game)
    for _, child in ref.children(s.array):  # no reply lasts longer than 8 plies
        r, d = ref.child_perfect(child, s.to_move)
        assert r == -1 and d <= 8


def test_hints_say_proven_win_in_k():
    s = hexarena.load("projective-hex", size=2, opening="none").new_state()
    move, rate = hint(s)
    assert rate == 1.0 and hint_note(s, rate) == "proven win in 9" and proof_text(s) == "proven win in 9"
    s.play("a1")  # a losing first move: the second player's hint is a proven win
    move, rate = hint(s)
    assert hint_note(s, rate).startswith("proven win in ")
    unsolved = hexarena.load("projective-hex", size=3).new_state()
    assert proof_text(unsolved) is None and hint_note(unsolved, 0.5) == "estimated win rate 50%"


def test_terminal_hint_says_proven():
    game = hexarena.load("projective-hex", size=2, opening="none")
    out = io.StringIO()
    play_terminal(game, vs="human", human_first=True, seed=0, hints=False, out=out, inp=io.StringIO("hint\nquit\n"))
    assert "(proven win in 9)" in out.getvalue()


def test_server_hint_says_proven(tmp_path):
    from fastapi.testclient import TestClient

    from hexarena.server import create_app
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}")) as client:
        r = client.post("/api/matches", json={"game": "projective-hex", "options": {"size": 2, "opening": "none"},
                                              "seats": ["me", "me"]})
        assert r.status_code == 200, r.text
        made = r.json()
        r = client.get(f"/api/matches/{made['id']}/hint", params={"token": made["token"]})
        assert r.status_code == 200, r.text
        assert r.json()["proof"] == "proven win in 9" and r.json()["rate"] == 1.0


def test_hex_pushpin_store_plays_the_winning_push():
    """The shipped Hex Pushpin base-3 store: the first player's win in 20 starts with a push of the
    pin, and after a losing first move the second player's hint is a proven win."""
    s = hexarena.load("hex-pushpin", size=3).new_state()
    assert proof_text(s) == "proven win in 20"
    best = perfect_move(s)
    assert best.move in ("d2 1", "f2 1", "c3 1", "g3 1", "d4 1", "f4 1") and best.plies == 20
    s.play("c1")
    assert proof_text(s) == "proven win in 19" and perfect_move(s).result == 1
