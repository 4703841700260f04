"""The PUCT search with a network's place taken by fixed evaluators (hexarena.ai.puct)."""

import numpy as np
import pytest

import hexarena
from hexarena.ai import puct
from hexarena.ai.arena import match
from hexarena.ai.puct import PUCTAgent
from hexarena.ai.puct_tree import COUNT, FIRST, MOVER, N, P, PENDING, USED, VIRTUAL, W
from hexarena.games.base import TO_MOVE, WINNER
from hexarena.observe import observe_array

GAME = hexarena.load("projective-hex", size=2, opening="none")  # 12 cells, 15 actions
CUT = hexarena.load("projective-hex", size=2, opening="cut-and-choose")  # the cutter's three stones: one turn


def uniform(leaves):
    return np.ones(leaves.legal.shape, np.float32), np.zeros(len(leaves), np.float32)


class Recorder:
    """Uniform priors, or ``bias`` times more on action 5; zero values; keeps every batch it is shown."""

    def __init__(self, bias=1.0):
        self.batches, self.bias = [], bias

    def __call__(self, leaves):
        self.batches.append(leaves)
        priors = np.ones(leaves.legal.shape, np.float32)
        priors[:, 5] = self.bias
        return priors, np.zeros(len(leaves), np.float32)


def position(game, moves, seed=0):
    """``game``'s state after ``moves`` random legal moves, the game not over
    (the first random line from ``seed`` on that leaves it open)."""
    for k in range(seed, seed + 100):
        rng = np.random.default_rng(k)
        state = game.new_state()
        for _ in range(moves):
            state.apply(int(rng.choice(state.legal_actions())))
            if state.is_over():
                break
        else:
            return state
    raise AssertionError(f"every random line ends within {moves} moves")


def test_visits_are_on_legal_moves_and_sum_to_the_simulations():
    for moves, sims, batch in ((0, 50, 1), (3, 37, 8), (7, 64, 16), (9, 40, 4)):
        state = position(GAME, moves)
        result = PUCTAgent(uniform, simulations=sims, batch=batch, seed=1).search(state)
        legal = np.zeros(GAME.num_actions, bool)
        legal[state.legal_actions()] = True
        assert result.visits.sum() == sims
        assert not result.visits[~legal].any()
        assert result.policy.sum() == pytest.approx(1.0) and result.policy.dtype == np.float32


def test_chosen_moves_are_legal_through_a_whole_game():
    state = GAME.new_state()
    agent = PUCTAgent(uniform, simulations=30, batch=4, seed=2, temperature=1.0)
    while not state.is_over():
        move = agent.choose(state)
        assert move in state.legal_moves()
        state.play(move)


def test_batches_hold_at_most_batch_leaves_and_no_virtual_loss_is_left():
    recorder = Recorder(bias=50.0)  # descents meet at the favourite's leaf: a batch cut short
    agent = PUCTAgent(recorder, simulations=200, batch=8, seed=1)
    result = agent.search(GAME.new_state())
    sizes = [len(b) for b in recorder.batches]
    assert sizes[0] == 1  # the root, alone
    assert max(sizes) == 8 and all(1 <= n <= 8 for n in sizes)
    assert min(sizes[1:-1]) < 8  # a simulation reached a leaf already waiting and was abandoned
    assert result.batches == len(sizes) and result.evaluations == sum(sizes)
    ints, flts, meta = agent.tree
    used = int(meta[USED])
    assert not ints[:used, VIRTUAL].any() and not ints[:used, PENDING].any()
    assert flts[0, N] == 1 + 200  # the root's evaluation and every simulation


def test_terminal_leaves_use_the_true_result_and_never_reach_the_evaluator():
    state = position(GAME, 9, seed=3)  # three empty cells: most simulations end the game
    recorder = Recorder()
    result = PUCTAgent(recorder, simulations=100, batch=4, seed=1).search(state)
    states = np.concatenate([b.states for b in recorder.batches])
    assert (states[:, WINNER] < 0).all()
    assert result.evaluations < 1 + 100  # some simulations ended at the game's end
    assert result.visits.sum() == 100


def test_a_win_in_one_is_found_by_the_true_result():
    """Zero values everywhere, yet a move that ends the game in the mover's favour
    is backed up as +1 and takes the visits."""
    state, wins = _position_with_a_win_in_one()
    result = PUCTAgent(uniform, simulations=200, batch=4, seed=1).search(state)
    assert int(np.argmax(result.visits)) in wins
    assert result.value > 0.5


def _position_with_a_win_in_one():
    for seed in range(200):
        rng = np.random.default_rng(seed)
        state = GAME.new_state()
        while not state.is_over():
            wins = [a for a in state.legal_actions() if _wins(state, a)]
            if wins and len(wins) < len(state.legal_actions()):
                return state, wins
            state.apply(int(rng.choice(state.legal_actions())))
    raise AssertionError("no position with a win in one and other moves")


def _wins(state, action):
    after = state.copy()
    after.apply(action)
    return after.winner() == state.to_move


def test_priors_of_illegal_moves_are_ignored():
    state = position(GAME, 4)
    illegal = np.setdiff1d(np.arange(GAME.num_actions), state.legal_actions())

    def noisy(leaves):
        priors = np.where(leaves.legal, 1.0, np.nan).astype(np.float32)  # NaN on illegal moves
        priors[:, illegal[:2]] = 1e6
        priors[~leaves.legal & (np.arange(GAME.num_actions) % 2 == 0)] = -5.0
        return priors, np.zeros(len(leaves), np.float32)

    plain = PUCTAgent(uniform, simulations=80, batch=4, seed=1).search(state)
    ignored = PUCTAgent(noisy, simulations=80, batch=4, seed=1).search(state)
    assert np.array_equal(plain.visits, ignored.visits)


def test_a_strongly_biased_prior_concentrates_the_visits():
    state = GAME.new_state()
    favourite = state.legal_actions()[5]

    def biased(leaves):
        priors = np.full(leaves.legal.shape, 0.01, np.float32)
        priors[:, favourite] = 10.0  # renormalised over the legal moves
        return priors, np.zeros(len(leaves), np.float32)

    visits = PUCTAgent(biased, simulations=200, batch=8).search(state).visits
    assert int(np.argmax(visits)) == favourite and visits[favourite] > 0.5 * 200


def test_a_value_that_prefers_a_cell_draws_the_visits_to_it():
    """The value says the player who holds cell ``c`` wins: the search plays ``c``."""
    state = GAME.new_state()
    cell = 7

    def prefers(leaves):
        planes = np.stack([GAME.planes(s, int(p)) for s, p in zip(leaves.states, leaves.to_move, strict=True)])
        values = np.where(planes[:, 0, cell] > 0, 1.0, np.where(planes[:, 1, cell] > 0, -1.0, 0.0))
        return np.ones(leaves.legal.shape, np.float32), values.astype(np.float32)

    result = PUCTAgent(prefers, simulations=100, batch=4).search(state)
    assert state.move_name(int(np.argmax(result.visits))) == GAME.topology.name(cell)
    assert result.value > 0.5


def test_values_are_backed_up_per_player_across_a_turn_of_several_steps():
    """Cut-and-choose: the first player places three stones in one turn.  The
    evaluator says player 0 wins everywhere; every node's mean value for its
    chooser is then +1 for player 0's moves and -1 for player 1's, across
    the repeated steps (alternating signs would get them wrong)."""

    def zero_wins(leaves):
        return np.ones(leaves.legal.shape, np.float32), np.where(leaves.to_move == 0, 1.0, -1.0).astype(np.float32)

    state = CUT.new_state()
    agent = PUCTAgent(zero_wins, simulations=300, batch=8)
    assert agent.search(state).value == pytest.approx(1.0)
    ints, flts, meta = agent.tree
    used = int(meta[USED])
    parents = np.full(used, -1)
    for node in range(used):
        if ints[node, FIRST] >= 0:
            parents[ints[node, FIRST]: ints[node, FIRST] + ints[node, COUNT]] = node
    visited = np.flatnonzero(flts[:used, N] > 0)[1:]  # the root has no chooser
    choosers = ints[parents[visited], MOVER]
    assert set(choosers) == {0, 1} and (ints[visited, MOVER] == ints[parents[visited], MOVER]).any()
    assert np.allclose(flts[visited, W] / flts[visited, N], np.where(choosers == 0, 1.0, -1.0))


def test_the_same_seed_gives_the_same_moves_with_noise_and_temperature():
    def play(seed):
        agent = PUCTAgent(uniform, simulations=40, batch=4, seed=seed, temperature=1.0, dirichlet_alpha=0.3)
        state = GAME.new_state()
        while not state.is_over():
            state.play(agent.choose(state))
        return state.moves()

    assert play(5) == play(5)
    assert len({tuple(play(seed)) for seed in range(6)}) > 1


def test_dirichlet_noise_mixes_into_the_root_priors_only():
    state = GAME.new_state()
    plain = PUCTAgent(uniform, simulations=1, seed=1)
    noisy = PUCTAgent(uniform, simulations=1, seed=1, dirichlet_alpha=0.3, dirichlet_epsilon=0.5)
    for agent in (plain, noisy):
        agent.search(state)
    priors = [a.tree[1][1:1 + len(state.legal_actions()), P] for a in (plain, noisy)]
    assert np.allclose(priors[0], 1 / 12) and not np.allclose(priors[1], 1 / 12)
    assert priors[1].sum() == pytest.approx(1.0) and (priors[1] >= 0.5 / 12).all()


def test_leaves_give_planes_in_the_grid_form_of_each_players_view():
    recorder = Recorder()
    PUCTAgent(recorder, simulations=20, batch=4).search(position(CUT, 2))
    for leaves in recorder.batches:
        assert leaves.planes.shape == (len(leaves), 5, 4, 4) and leaves.planes.dtype == np.float32
        for s, p, planes in zip(leaves.states, leaves.to_move, leaves.planes, strict=True):
            assert p == s[TO_MOVE] and np.array_equal(planes, observe_array(CUT, s, int(p)))


@pytest.mark.parametrize("answer, message", [
    (lambda b: np.ones((len(b), 14), np.float32), "must return a pair"),
    (lambda b: (np.ones((len(b), 14), np.float32), np.zeros(len(b), np.float32)), r"priors have shape \(1, 14\)"),
    (lambda b: (np.ones(b.legal.shape), np.zeros((len(b), 1))), r"values have shape \(1, 1\)"),
    (lambda b: (np.ones(b.legal.shape), np.full(len(b), np.nan)), r"values must be numbers in \[-1, 1\]"),
    (lambda b: (np.ones(b.legal.shape), np.full(len(b), 1.5)), r"values must be numbers in \[-1, 1\]"),
    (lambda b: (np.where(b.legal, np.nan, 1.0), np.zeros(len(b))), "priors of legal moves must be finite"),
    (lambda b: (np.where(b.legal, -1.0, 1.0), np.zeros(len(b))), "priors of legal moves must be finite and >= 0"),
    (lambda b: ("no", np.zeros(len(b))), "must be arrays of numbers"),
])
def test_bad_evaluator_output_is_refused_clearly(answer, message):
    with pytest.raises(ValueError, match=message):
        PUCTAgent(answer, simulations=10, batch=2).search(GAME.new_state())


@pytest.mark.parametrize("options, message", [
    ({"simulations": 0}, "simulations must be a positive integer"),
    ({"batch": 2.5}, "batch must be a positive integer"),
    ({"c_puct": -1}, "c_puct must be a positive number"),
    ({"temperature": float("nan")}, "temperature must be a number >= 0"),
    ({"dirichlet_alpha": 0}, "dirichlet_alpha must be a positive number or None"),
    ({"dirichlet_epsilon": 2}, r"dirichlet_epsilon must be a number in \[0, 1\]"),
])
def test_bad_settings_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        PUCTAgent(uniform, **options)


def test_no_search_without_an_evaluator_or_a_game_to_play():
    with pytest.raises(TypeError, match="evaluator must be callable"):
        PUCTAgent("net")
    state = position(GAME, 0)
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="the game is over"):
        PUCTAgent(uniform).search(state)


def test_a_full_tree_evaluates_its_leaves_again(monkeypatch):
    monkeypatch.setattr(puct, "MAX_NODES", 40)  # the root's 12 children and two more expansions
    recorder = Recorder()
    agent = PUCTAgent(recorder, simulations=60, batch=4)
    result = agent.search(GAME.new_state())
    assert result.visits.sum() == 60 and agent.tree[2][USED] <= 40
    assert result.evaluations > 40  # leaves the tree has no room to expand come back


def test_it_plays_matches_as_an_agent():
    result = match(GAME, lambda: PUCTAgent(uniform, simulations=40, batch=4, seed=1),
                   lambda: hexarena.ai.agent("random", seed=2), games=2)
    assert sum(result.wins) + result.draws == 2
    move, rate = PUCTAgent(uniform, simulations=20).hint(GAME.new_state())
    assert move in GAME.new_state().legal_moves() and 0.0 <= rate <= 1.0
