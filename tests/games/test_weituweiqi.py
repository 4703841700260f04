"""Weituweiqi: the auction and the Blocker/Escaper rules of the source and
RULES.md, and the source's two auction transcripts replayed against its
diagrams.  The drop/push mechanic is Iqishiqi's (tests/games/test_iqishiqi.py)."""

import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import hexarena
from hexarena import IllegalMove
from hexarena.cli import main
from hexarena.games.weituweiqi import Weituweiqi

# The source's first auction: "1. c6 q6 2. r7 d7 3. g2 q8 4. e8n h1 5. o2 k8
# 6. j9 e2 7. m2 m4", and its diagram as the text file has it (the rows lost
# their leading spaces: row r's k-th mark is the k-th cell of row r).  ":"
# marks the cell the ball left on the last move.
GAME1 = "c6 q6 r7 d7 g2 q8 e8n h1 o2 k8 j9 e2 m2 m4".split()
DIAGRAM1 = """
. x . . . .
x x . . x x .
. . . . . . . .
. . . . . x . . .
. . . . . . . . . .
. x . . . . . . x . .
. x . . . . . . x .
. x . . x . . x .
. . : x . . . .
. O . . . . .
. . . . . .
"""

# The second: "c6,s6, p1,n1, g10,e4, f9,g2, p11,s4, q10,h11e, n7,t7w, h1,r9w,
# j1nw,c4 J takes", with RULES.md's fixes j1nw -> j11nw and n7 -> n11ne.
GAME2_SOURCE = "c6 s6 p1 n1 g10 e4 f9 g2 p11 s4 q10 h11e n7 t7w h1 r9w j1nw c4".split()
GAME2 = "c6 s6 p1 n1 g10 e4 f9 g2 p11 s4 q10 h11e n11ne t7w h1 r9w j11nw c4".split()
DIAGRAM2 = """
. x . . x x
. x . . . . .
. . . . . . . .
x x . . . . . . x
. . . . . . . . . .
. x . . . . . . . x .
. . O . . . . . . x
. . . . . . . . .
. x . . . . . x
. x . . . . x
. x x . x x
"""


def new(**options):
    return hexarena.load("weituweiqi", **options).new_state()


def play(moves, state=None):
    state = state or new()
    for m in moves:
        state.play(m)
    return state


def ball(state):
    return state.game.topology.name(state.game.ball(state.array))


def stones(state):
    g = state.game
    return {g.topology.name(c) for c in np.flatnonzero(g.stones(state.array))}


def read_diagram(topo, text):
    """{mark: set of cell names}: each row's marks over that row's cells, left to right."""
    out = {}
    for r, line in enumerate(text.strip("\n").split("\n")):
        cells = sorted((c for c in range(topo.ncells) if topo.xy[c, 1] == r), key=lambda c: topo.xy[c, 0])
        marks = line.split()
        assert len(marks) == len(cells), f"row {r + 1}"
        for c, mark in zip(cells, marks, strict=True):
            out.setdefault(mark, set()).add(topo.name(c))
    return out


# --- the board ------------------------------------------------------------------

def test_board_is_base_6_letters_a_to_u_rows_1_to_11_ball_in_the_centre():
    s = new()
    t = s.game.topology
    assert t.ncells == 91 and t.rows == 11
    assert {n[0] for n in t.names} == set("abcdefghijklmnopqrstu")
    assert ball(s) == "k6" and s.to_move == 0
    assert s.game.roles(s.array) == [None, None]


# --- the source's auctions ------------------------------------------------------

def test_first_auction_replays_to_the_diagram_with_the_ball_on_g10():
    s = play(GAME1)
    marks = read_diagram(s.game.topology, DIAGRAM1)
    assert stones(s) == marks["x"]
    assert {ball(s)} == marks["O"] == {"g10"}
    before = s.copy()
    before.undo()
    assert {ball(before)} == marks[":"] == {"h9"}  # where the ball stood before m4
    assert not s.is_over() and s.game.roles(s.array) == [None, None]
    # our suffixes fall exactly where the source writes them (on ambiguous drops)
    assert s.moves() == [("e8ne" if m == "e8n" else m) for m in GAME1]


def test_second_auction_replays_with_the_two_fixes_to_the_diagram():
    s = play(GAME2)
    marks = read_diagram(s.game.topology, DIAGRAM2)
    assert stones(s) == marks["x"]
    assert {ball(s)} == marks["O"] == {"f7"}
    assert s.to_move == 0 and not s.is_over()
    assert s.moves() == GAME2  # h11e, n11ne, t7w, r9w, j11nw: the ambiguous drops, suffixed as the source does


@pytest.mark.parametrize("typo", [12, 16])
def test_the_second_auctions_typos_do_not_replay(typo):
    s = play(GAME2[:typo])
    with pytest.raises(IllegalMove):
        s.play(GAME2_SOURCE[typo])


def test_second_game_joao_takes_blocker_bill_g6_and_wins():
    s = play(GAME2 + ["block"])  # "J takes": João, who moved first, is the Blocker
    assert s.game.roles(s.array) == ["blocker", "escaper"] and s.to_move == 1
    s.play("g6")  # Bill, the Escaper
    assert ball(s) == "e8"
    assert sorted(s.legal_moves()) == ["c8", "i8", "k8", "m8", "o8"]
    for m in ("i8", "k8", "m8", "o8"):  # these push the ball onto c8, the edge: Bill wins
        t = s.copy()
        t.play(m)
        assert ball(t) == "c8" and t.winner() == 1
    s.play("c8")  # "moves c8, he loses after e8"
    with pytest.raises(IllegalMove, match="say which: e8e, e8ne"):
        s.play("e8")
    s.play("e8e")
    assert s.is_over() and s.winner() == 1 and s.game.topology.edge[s.game.ball(s.array)]
    # "If João moves d8, he loses after h7": d8 names no cell (row 8 holds c8, e8, ...)
    with pytest.raises(IllegalMove, match="'d8' is not a move of weituweiqi"):
        play(GAME2 + ["block", "g6", "d8"])


def test_the_record_names_who_took_which_role():
    s = play(GAME2 + ["block", "g6", "c8", "e8e"])
    rec = s.record(players=["João", "Bill"])
    assert rec["roles"] == ["blocker", "escaper"] and rec["result"]["text"] == "0-1"
    text = s.record_text()
    assert "18. c4 19. block 20. g6 21. c8 22. e8e 0-1" in text
    assert hexarena.from_record(text) == s
    assert hexarena.from_record(json.loads(json.dumps(rec))).record()["roles"] == ["blocker", "escaper"]


def test_replay_on_the_command_line(capsys):
    assert main(["replay", "weituweiqi", *GAME1, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["moves"][6] == "e8ne" and "block" in out["legal_moves"]


# --- the auction's rules ----------------------------------------------------------

def test_block_at_once_makes_the_mover_blocker_and_the_other_moves():
    s = new()
    s.play("block")
    assert s.game.roles(s.array) == ["blocker", "escaper"] and s.to_move == 1
    assert "block" not in s.legal_moves()
    with pytest.raises(IllegalMove, match="only possible during the auction"):
        s.play("block")


def test_auction_drops_must_move_the_ball():
    s = new()
    with pytest.raises(IllegalMove, match="no stone of its group of 1 sees the ball"):
        s.play("h5")
    s.play("c6")
    assert ball(s) == "m6"


def test_auction_a_drop_that_puts_the_ball_on_the_edge_loses():
    g = new().game
    s = g.position(["m6"], ball="s6", to_move=0)
    s.play("q6")  # a lone stone pushes the ball onto u6
    assert ball(s) == "u6" and s.is_over() and s.winner() == 1


# The ball on i6 beside a ring of five stones around k6; a lone stone on g6
# pushes it one cell east into the ring, where no drop can move it.
RING = dict(stones=["m6", "l7", "j7", "j5", "l5"], ball="i6")


def test_auction_a_drop_that_stalemates_loses():
    s = new().game.position(**RING, to_move=0)
    s.play("g6")
    assert ball(s) == "k6" and s.is_over() and s.winner() == 1


@pytest.mark.parametrize("blocker", [0, 1])
def test_main_phase_the_player_with_no_drop_loses(blocker):
    s = new().game.position(**RING, to_move=0, blocker=blocker)
    s.play("g6")  # player 0 stalemates player 1, whatever their roles
    assert s.is_over() and s.winner() == 0


@pytest.mark.parametrize("mover_is_blocker", [True, False])
def test_main_phase_any_edge_wins_for_the_escaper_whoever_pushed(mover_is_blocker):
    s = new().game.position(["m6"], ball="s6", to_move=0, blocker=0 if mover_is_blocker else 1)
    s.play("q6")
    assert ball(s) == "u6" and s.winner() == (1 if mover_is_blocker else 0)


def test_playouts_end_with_both_winners():
    s = new(size=4)
    winners = [s.playout(seed) for seed in range(60)]
    assert set(winners) == {0, 1}


# --- pictures and planes ------------------------------------------------------------

def test_ascii_and_svg():
    s = play(GAME1)
    text = str(s)
    assert text.split("\n")[0].strip() == "abcdefghijklmnopqrstu"
    assert "auction: player 1 to move" in text
    root = ET.fromstring(s.svg(hints=True))
    ns = "{http://www.w3.org/2000/svg}"
    rim = {e.get("stroke") for e in root.iter(ns + "line") if e.get("class") == "rim"}
    assert rim == {Weituweiqi.EDGE_STYLE[0][0]}
    assert len([e for e in root.iter(ns + "g") if e.get("class") == "push"]) == len(s.legal_actions()) - 1


def test_planes_roles_and_auction_flag():
    s = play(GAME2)
    g = s.game
    p = g.planes(s.array, 0)
    assert p.shape == (7, 91)
    assert p[6].all() and not p[4].any() and not p[5].any()
    assert p[3].sum() == len(g.topology.perimeter) and p[0].sum() == 18
    s.play("block")
    p0, p1 = g.planes(s.array, 0), g.planes(s.array, 1)
    assert p0[4].all() and not p0[5].any() and not p0[6].any()
    assert p1[5].all() and not p1[4].any()


def test_status_says_how_the_game_ended():
    s = new().game.position(**RING, to_move=0)
    s.play("g6")
    assert str(s).split("\n")[-1] == "player 2 wins in the auction (stalemate)"
    s = play(GAME2 + ["block", "g6", "c8", "e8e"])
    assert str(s).split("\n")[-1] == "Escaper (player 2) wins (the ball on the edge, s8)"


# --- the playout policy -----------------------------------------------------------------

from hexarena.games import weituweiqi as wq  # noqa: E402
from hexarena.games.base import WINNER  # noqa: E402
from hexarena.games.iqishiqi_rules import ROLE  # noqa: E402
from hexarena.kernels import seed as seed_numba  # noqa: E402


def outcomes(state):
    """The legal actions of ``state`` and the winner right after each (-1: none yet)."""
    game, actions, winners = state.game, state.legal_actions(), []
    for a in actions:
        s = state.array.copy()
        wq.apply(s, game.tables, a)
        winners.append(int(s[WINNER]))
    return np.array(actions, np.int32), winners


def picked_indices(state, count):
    moves, _ = outcomes(state)
    picks = []
    for k in range(count):
        seed_numba(k)
        picks.append(wq.policy(state.array.copy(), state.game.tables, moves, len(moves)))
    return picks


def policy_choices(state, count=100):
    """The winner right after each of the policy's ``count`` choices, and after each legal action."""
    _, winners = outcomes(state)
    return [winners[i] for i in picked_indices(state, count)], winners


@pytest.mark.parametrize("compiled", [True, False])
def test_the_policy_picks_a_legal_index_in_the_auction_and_the_main_phase(compiled):
    game = new(size=5).game
    policy = wq.policy if compiled else wq.policy.py_func  # py_func: the code NUMBA_DISABLE_JIT runs
    moves = np.empty(game.num_actions, np.int32)
    rng = np.random.default_rng(2)
    seed_numba(2)
    phases = set()
    for _ in range(40):
        s = game.new_state().array.copy()
        if rng.random() < 0.5:
            s[ROLE] = rng.integers(0, 2)  # the main phase from the start, either player Blocker
        for _ in range(rng.integers(0, 30)):
            n = wq.legal(s, game.tables, moves)
            if n == 0:
                break
            before = s.copy()
            i = policy(s, game.tables, moves, n)
            assert 0 <= i < n and np.array_equal(s, before)
            phases.add(int(s[ROLE] >= 0))
            wq.apply(s, game.tables, moves[i])
    assert phases == {0, 1}


def test_in_the_auction_the_policy_plays_uniformly():
    state = new().game.position(["m6"], ball="s6", to_move=0)
    counts = np.bincount(picked_indices(state, 600), minlength=len(state.legal_actions()))
    assert len(counts) == 15 and counts.min() >= 15 and counts.max() <= 70  # 40 expected each


def test_the_blocker_never_pushes_the_ball_onto_the_edge_when_it_can_help_it():
    state = new().game.position(["m6"], ball="s6", to_move=0, blocker=0)
    picked, winners = policy_choices(state)
    assert winners.count(1) > len(winners) / 2 and set(picked) == {-1}


def test_the_escaper_finds_an_immediate_win_far_more_often_than_chance():
    state = new().game.position(["m6"], ball="q6", to_move=0, blocker=1)
    picked, winners = policy_choices(state, 200)
    chance = winners.count(0) / len(winners)  # 6 of 22 drops push the ball two cells onto u6
    assert 0 < chance < 0.3 and picked.count(0) / len(picked) > 0.5  # measured: 0.64
