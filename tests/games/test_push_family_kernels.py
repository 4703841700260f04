"""The Iqishiqi family's fast paths: ``is_legal`` answers as the legal list
does, and the random playouts, which draw a move without listing them all,
still draw it uniformly among the legal moves."""

import numpy as np
import pytest

import hexarena
from hexarena.games import iqishiqi_rules as iq
from hexarena.kernels import seed

SETUPS = [("iqishiqi", {"size": 4}), ("iqishiqi", {"size": 8}), ("weituweiqi", {"size": 5}),
          ("weituweiqi", {"size": 6}), ("hex-pushpin", {"size": 4}), ("hex-pushpin", {"size": 6})]


def random_positions(game, count, rng):
    """``count`` positions not over, reached by uniformly random moves."""
    out = []
    while len(out) < count:
        s = game.new_state()
        for _ in range(int(rng.integers(0, 40))):
            if s.is_over():
                break
            s.apply(int(rng.choice(s.legal_actions())))
        if not s.is_over():
            out.append(s)
    return out


@pytest.mark.parametrize("name, options", SETUPS)
def test_is_legal_agrees_with_the_legal_list_on_every_action(name, options):
    game = hexarena.load(name, **options)
    rng = np.random.default_rng(7)
    for s in random_positions(game, 25, rng):
        legal = set(s.legal_actions())
        answers = {a for a in range(game.num_actions) if game.kernels.is_legal(s.array, game.tables, a)}
        assert answers == legal


def weituweiqi_main_phase_positions(count, rng):
    """Positions after a block (the main phase), where ``block`` is no longer legal."""
    game = hexarena.load("weituweiqi", size=5)
    block = game.num_actions - 1
    out = []
    while len(out) < count:
        s = game.new_state()
        for _ in range(int(rng.integers(0, 6))):
            drops = [a for a in s.legal_actions() if a != block]
            if s.is_over() or not drops:
                break
            s.apply(int(rng.choice(drops)))
        if not s.is_over():
            s.apply(block)
            out.append(s)
    return game, out


def test_is_legal_refuses_block_after_the_auction():
    game, positions = weituweiqi_main_phase_positions(10, np.random.default_rng(3))
    for s in positions:
        assert not game.kernels.is_legal(s.array, game.tables, game.num_actions - 1)
        assert {a for a in range(game.num_actions) if game.kernels.is_legal(s.array, game.tables, a)} == \
            set(s.legal_actions())


def assert_uniform(drawn, legal, per_move=150):
    """``drawn`` (about ``per_move`` per legal move) covers exactly ``legal``,
    each within a wide band around the mean (about 6 standard deviations)."""
    counts = {a: drawn.count(a) for a in set(drawn)}
    assert set(counts) == set(legal)
    low, high = per_move - 6 * per_move ** 0.5, per_move + 6 * per_move ** 0.5
    assert all(low <= c <= high for c in counts.values()), sorted(counts.values())


def iqishiqi_mixed_position():
    """A base-8 position whose drops are of every kind: lone cells on the
    ball's lines, crowded line cells, and cells next to groups the ball sees."""
    g = hexarena.load("iqishiqi")
    state = g.position(["m8", "l7", "q6", "r5", "o10", "u8"], ball="o8")
    return state


def test_the_iqishiqi_draw_is_uniform_over_the_legal_drops():
    state = iqishiqi_mixed_position()
    g, s = state.game, state.array.copy()
    legal = state.legal_actions()
    kinds = {iq.reach(s, g.tables, a // 6)[0] > 1 for a in legal}
    assert kinds == {True, False}  # drops making groups and lone stones both
    work = iq.scratch(g.tables, 6 * g.tables.ncells)
    out = iq.room(g.tables, work)
    seed(1)
    drawn = [int(iq.random_drop(s, g.tables, out, work, epoch, 0)) for epoch in range(1, 150 * len(legal) + 1)]
    assert_uniform(drawn, legal)


def test_the_weituweiqi_auction_draw_counts_block_as_one_more_move():
    state = hexarena.load("weituweiqi").position(["m6", "l5"], ball="q6")
    g, s = state.game, state.array.copy()
    legal = state.legal_actions()
    assert g.num_actions - 1 in legal
    work = iq.scratch(g.tables, 6 * g.tables.ncells)
    out = iq.room(g.tables, work)
    seed(2)
    drawn = [int(iq.random_drop(s, g.tables, out, work, epoch, 1)) for epoch in range(1, 150 * len(legal) + 1)]
    assert_uniform(drawn, legal)


def test_the_draw_finds_no_drop_where_there_is_none():
    g = hexarena.load("iqishiqi", size=4)
    rng = np.random.default_rng(5)
    seen_none = 0
    for _ in range(200):
        s = g.new_state()
        while not s.is_over():
            s.apply(int(rng.choice(s.legal_actions())))
        arr = s.array.copy()
        work = iq.scratch(g.tables, 6 * g.tables.ncells)
        drawn = iq.random_drop(arr, g.tables, iq.room(g.tables, work), work, 1, 0)
        has = iq.has_drop(arr, g.tables)
        assert (drawn >= 0) == has
        seen_none += not has
    assert seen_none > 0  # some games end by stalemate


def first_moves(state, count):
    """The first move of ``count`` recorded playouts from ``state``, numba seeded 0.."""
    g = state.game
    actions, movers = np.empty(1, np.int32), np.empty(1, np.int32)
    out = []
    for i in range(count):
        seed(i)
        g.kernels.recorded_playout(state.array.copy(), g.tables, actions, movers)
        out.append(int(actions[0]))
    return out


@pytest.mark.parametrize("moves", [["e4 2", "l5 2"], ["e4 2", "f3", "h5"]])
def test_the_hex_pushpin_playout_draws_its_first_move_uniformly(moves):
    state = hexarena.load("hex-pushpin").new_state()
    for m in moves:
        state.play(m)
    legal = state.legal_actions()
    assert any(a % state.game.width for a in legal)  # pushes among them
    assert_uniform(first_moves(state, 150 * len(legal)), legal)


def test_the_arc_table_names_one_slot_per_run_of_neighbouring_stones():
    for bits in range(64):
        runs = [e for e in range(6) if bits >> e & 1 and not bits >> (e + 5) % 6 & 1] or ([0] if bits == 63 else [])
        v = int(iq.arc_table()[bits])
        fields = [v >> (2 + 3 * i) & 7 for i in range(3)]
        assert v & 3 == len(runs)
        assert fields[:len(runs)] == runs


@pytest.mark.parametrize("name, options", [("iqishiqi", {"size": 5}), ("iqishiqi", {"size": 8}),
                                           ("weituweiqi", {"size": 6})])
def test_the_position_words_agree_with_the_stones_after_every_drop(name, options):
    """Each cell's word (its neighbouring stones, the stone bit, group id,
    next member), the group sizes and the line masks, recomputed from the
    stones alone along random games."""
    game = hexarena.load(name, **options)
    topo, t, n = game.topology, game.tables, game.topology.ncells
    rng = np.random.default_rng(11)
    for _ in range(15):
        s = game.new_state()
        while not s.is_over():
            a = s.array
            words, board = a[iq.BOARD:iq.BOARD + n], game.stones(a)
            for c in range(n):
                near = sum(1 << e for e in range(6) if topo.nbr[c, e] >= 0 and board[topo.nbr[c, e]])
                assert words[c] & 63 == near
            groups = {}
            for c in np.flatnonzero(board):
                groups.setdefault(int(words[c] >> iq.GROUP & 511), []).append(int(c))
            for gid, members in groups.items():
                assert gid in members and a[iq.BOARD + n + gid] == len(members)
                cycle, x = [], members[0]
                while True:
                    cycle.append(x)
                    x = int(words[x] >> iq.NEXT)
                    if x == members[0]:
                        break
                assert sorted(cycle) == sorted(members)
                todo, seen = [members[0]], {members[0]}  # the members are one connected group
                while todo:
                    for m in topo.nbr[todo.pop()]:
                        if m >= 0 and board[m] and int(m) not in seen:
                            seen.add(int(m))
                            todo.append(int(m))
                assert seen == set(members)
            for o in range(3):
                for li in range(t.lines):
                    cells = [int(c) for c in t.cells[o, li] if c >= 0]
                    stones = sum(1 << i for i, c in enumerate(cells) if board[c])
                    crowded = sum(1 << i for i, c in enumerate(cells) if words[c] & 63)
                    assert a[iq.BOARD + 2 * n + o * t.lines + li] == stones
                    assert a[iq.BOARD + 2 * n + (3 + o) * t.lines + li] == crowded
            s.apply(int(rng.choice(s.legal_actions())))
