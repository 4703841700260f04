"""Proof-number search (``Config.pns``): its proofs agree with exact minimax on
small positions of several games (multi-step turns and draws included), and the
agent marks, plays and keeps them."""

import numpy as np
import pytest

import hexarena
from hexarena.ai import agent
from hexarena.ai.mcts import (ACTION, COUNT, DN, FIRST, MOVER, P_COUNT, P_DRAWS, P_FIRST, P_OR, P_ROOT, P_USED, PN,
                              PROVEN, ROOT, compiled_proof_search)
from hexarena.games.base import TO_MOVE

from tests.ai.test_ai import Nim, near_end_positions, solve


def prove_fully(game, s, nodes=200_000):
    """Run the proof-number search on ``s`` until the root is decided; (pints, pnum, meta_p)."""
    pints, pnum = np.zeros((nodes, 5), np.int32), np.zeros((nodes, 2), np.int64)
    meta_p = np.array([1, 0, 0], np.int64)
    pints[0], pnum[0] = (-1, -1, 0, -1, 1), (1, 1)
    moves, replies = np.zeros(game.num_actions, np.int32), np.zeros(game.num_actions, np.int32)
    compiled_proof_search(game.kernels)(s, game.tables, pints, pnum, meta_p, 10**9, moves, replies)
    return pints, pnum, meta_p


def random_positions(game, count, plies, seed=3):
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        state = game.new_state()
        for _ in range(plies):
            if state.is_over():
                break
            state.apply(int(rng.choice(state.legal_actions())))
        if not state.is_over():
            found.append(state)
    return found


CASES = [
    ("projective-hex", {"size": 2, "opening": "none"}, "near-end", 7),
    ("weituweiqi", {"size": 3}, "random", 4),
    ("iqishiqi", {"size": 3}, "random", 4),
    ("hex-pushpin", {"size": 3}, "near-end", 4),
]


@pytest.mark.parametrize("name,options,kind,depth", CASES, ids=[c[0] for c in CASES])
def test_proofs_agree_with_minimax(name, options, kind, depth):
    """Root and root moves: proof 0 exactly where the mover wins; disproof 0
    exactly where he does not (a loss, or a draw in Hex Pushpin, where the
    search also notes that it met a draw)."""
    game = hexarena.load(name, **options)
    states = (near_end_positions(game, 8, depth) if kind == "near-end" else random_positions(game, 8, depth))
    memo: dict = {}
    draws = False
    for state in states:
        s = state._s
        p = int(s[TO_MOVE])
        pints, pnum, meta_p = prove_fully(game, s)
        draws = draws or bool(meta_p[P_DRAWS])
        assert (pnum[0, PN] == 0) == (solve(game, s, memo) == p)
        assert (pnum[0, DN] == 0) == (solve(game, s, memo) != p)
        first = pints[0, P_FIRST]
        for k in range(first, first + pints[0, P_COUNT]):
            child = s.copy()
            game.kernels.apply(child, game.tables, int(pints[k, 0]))
            value = solve(game, child, memo)
            if pnum[k, PN] == 0:
                assert value == p
            if pnum[k, DN] == 0:
                assert value != p
                assert value == 1 - p or meta_p[P_DRAWS]
    assert draws == (name == "hex-pushpin")  # these positions include a drawn one there


@pytest.mark.parametrize("pile", range(1, 9))
def test_multi_step_turns(pile):
    """A turn of two steps by the same player is one OR (or AND) level per step."""
    game = Nim(pile)
    pints, pnum, _ = prove_fully(game, game.initial_array())
    assert (pnum[0, PN] == 0) == (pile % 3 != 0)
    if pile > 1:  # after 'take' (the first child) the same player moves again: an OR node
        assert pints[pints[0, P_FIRST], P_OR] == 1


def test_a_full_array_stops_the_search_and_keeps_what_it_found():
    game = hexarena.load("projective-hex", size=2, opening="none")
    state = game.new_state()
    pints, pnum, meta_p = prove_fully(game, state._s, nodes=300)
    assert 0 < meta_p[P_USED] <= 300 and pnum[0, PN] > 0 and pnum[0, DN] > 0


# A Weituweiqi auction (default board) in which the player to move, the second,
# wins by force in 13 plies with d9 (found by this search in about 5,000
# expansions); an agent without it at 0.25 s a move played g10 and lost.
AUCTION = ("o6 g6 f1 n9 h3 p7 f7e o10 j3 p3 c8 l9 k4sw s8 b5 g10 h9 b7").split()


def test_the_agent_plays_a_win_it_proves_and_keeps_the_proof():
    game = hexarena.load("weituweiqi")
    state = game.new_state()
    for move in AUCTION[:15]:
        state.play(move)
    bot = agent("mcts", variant="solver:pns=0.5", simulations=20_000, seed=1)
    move, rate = bot.hint(state)
    assert (move, rate) == ("d9", 1.0)
    assert bot.last_simulations == 0  # proven before the tree search began
    state.play(move)
    for reply in state.legal_moves():  # one after which the win is not at once
        after = state.copy()
        after.play(reply)
        if not after.is_over() and agent("mcts", variant="solver", simulations=4, seed=1).hint(after)[1] < 1.0:
            break
    state = after
    bot.simulations = 4  # two proof-number expansions: the kept tree holds the proof
    move, rate = bot.hint(state)
    assert rate == 1.0 and bot._pns_arrays[2][P_ROOT] > 0


@pytest.mark.parametrize("name,options,empties", [("projective-hex", {"size": 2, "opening": "none"}, 6),
                                                  ("hex-pushpin", {"size": 3}, 3)])
def test_marked_proofs_are_exact(name, options, empties):
    """Every root move the agent holds proven is proven right; where the mover
    wins he plays a winning move (Hex Pushpin has draws: the search must not
    mark a move it only knows does not win as lost)."""
    game = hexarena.load(name, **options)
    memo: dict = {}
    for state in near_end_positions(game, 8, empties):
        s = state._s
        bot = agent("mcts", variant="solver:pns=0.5", simulations=2000, seed=2)
        ints, _, meta = bot.search(state)
        root = meta[ROOT]
        for i in range(ints[root, FIRST], ints[root, FIRST] + ints[root, COUNT]):
            if ints[i, PROVEN] >= 0:
                child = s.copy()
                game.kernels.apply(child, game.tables, int(ints[i, ACTION]))
                assert ints[i, PROVEN] == solve(game, child, memo)
        move, rate = bot.hint(state)
        if solve(game, s, memo) == s[TO_MOVE]:
            after = s.copy()
            game.kernels.apply(after, game.tables, state.parse(move))
            assert solve(game, after, memo) == s[TO_MOVE] and rate == 1.0


@pytest.mark.parametrize("pick", [1, 2])
def test_pns_pick_plays_the_move_hardest_to_refute(pick):
    """Among root moves not proven, ``pns_pick`` plays the highest disproof
    number (then the lowest proof number); 2 only once some move is proven
    lost, and before that the most visited, as without it."""
    game = hexarena.load("weituweiqi")
    state = game.new_state()
    for move in AUCTION[:12]:
        state.play(move)
    bot = agent("mcts", variant=f"solver:pns=0.5:pns_pick={pick}", simulations=2000, seed=1)
    ints, flts, meta = bot.search(state)
    root = meta[ROOT]
    children = range(ints[root, FIRST], ints[root, FIRST] + ints[root, COUNT])
    assert all(ints[i, PROVEN] < 0 for i in children)  # nothing proven yet
    if pick == 2:
        assert bot._best_child(ints, flts, meta) == max(children, key=lambda i: (flts[i, 0], flts[i, 1]))
    state.play(AUCTION[12])
    ints, flts, meta = bot.search(state)
    pints, pnum, meta_p = bot._pns_arrays[:3]
    root, proof_root = meta[ROOT], meta_p[P_ROOT]
    first = pints[proof_root, P_FIRST]
    numbers = {int(pints[k, 0]): (int(pnum[k, DN]), -int(pnum[k, PN]))
               for k in range(first, first + pints[proof_root, P_COUNT])}
    children = range(ints[root, FIRST], ints[root, FIRST] + ints[root, COUNT])
    open_ = [i for i in children if ints[i, PROVEN] < 0]
    assert open_ and any(ints[i, PROVEN] == 1 - ints[root, MOVER] for i in children)
    assert bot._best_child(ints, flts, meta) == max(open_, key=lambda i: numbers[int(ints[i, ACTION])])


def test_seeded_levels_with_a_proof_search_share_are_reproducible():
    game = hexarena.load("weituweiqi", size=4)
    games = []
    for _ in range(2):
        state, bots = game.new_state(), [agent("mcts", level=4, seed=5), agent("mcts", level=4, seed=6)]
        while not state.is_over():
            state.play(bots[state.to_move].choose(state))
        games.append(state.moves())
    assert games[0] == games[1] and bots[0].config.pns == 0.5


@pytest.mark.parametrize("setting,message", [("pns=1.5", "pns is the share"), ("pns=-0.1", "pns is the share"),
                                             ("pns_pick=3", "pns_pick must be 0")])
def test_bad_proof_search_settings_are_refused(setting, message):
    with pytest.raises(ValueError, match=message):
        agent("mcts", variant=f"enhanced:{setting}")
