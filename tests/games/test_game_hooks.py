"""What the lab, the solvers and the front ends ask a game: its opening
protocol's words, its word buttons' labels, and which rule ended a game
(every end reason of every game reached in real games)."""

from __future__ import annotations

import random

import pytest

import hexarena
from hexarena.games import GAMES
from hexarena.games.base import State
from hexarena.kernels import seed as seed_numba

# every game's end reasons (docs/analysis.md), and those that are draws
REASONS = {
    "projective-hex": {"loop"},
    "lisbon": {"near-opposites", "three-edges", "ring", "full-board"},
    "lhexus": {"configurations", "stones-tiebreak", "tie"},
    "iqishiqi": {"edge", "corner", "stalemate"},
    "weituweiqi": {"edge", "stalemate", "auction-edge", "auction-stalemate"},
    "hex-pushpin": {"pin-neighbours", "tie"},
    "push-and-pull": {"stuck", "both-stuck", "no-full-turn"},
    "palago": {"closed-group", "eaten", "contained", "double-win", "largest-group", "pool-exhausted"},
}
DRAWS = {"full-board", "tie", "both-stuck", "pool-exhausted"}
EITHER = {"largest-group"}  # a win or a draw

# (game, options, the end reasons that seeded random games reach within SEEDS)
PLAYOUTS = [
    ("projective-hex", {"size": 2}, {"loop"}),
    ("lisbon", {"size": (3, 3)}, {"near-opposites", "three-edges", "full-board"}),
    ("lisbon", {"size": (4, 3)}, {"near-opposites", "three-edges", "ring"}),
    ("lhexus", {"size": 3}, {"configurations", "stones-tiebreak"}),
    ("iqishiqi", {"size": 3}, {"edge", "corner", "stalemate"}),
    ("weituweiqi", {"size": 4}, {"edge", "stalemate", "auction-edge", "auction-stalemate"}),
    ("hex-pushpin", {"size": 3}, {"pin-neighbours", "tie"}),
    ("push-and-pull", {"size": 5}, {"stuck", "both-stuck", "no-full-turn"}),
    ("palago", {"tiles": 48}, {"closed-group", "largest-group", "double-win"}),
    ("palago", {"tiles": 8, "exhausted": "draw"}, {"closed-group", "pool-exhausted"}),
    ("palago", {"tiles": 24, "variant": "eat-enemy"}, {"eaten", "largest-group"}),
    ("palago", {"tiles": 24, "variant": "must-contain"}, {"contained", "largest-group"}),
]
SEEDS = 2500
# (game, options, moves, end reason): endings random games reach too rarely
PLAYED = [
    ("lhexus", {"size": 3}, ["c3", "decline", "a1", "end", "end"], "tie"),  # a stone each, no configuration
]

LABELS = {"end": "End turn", "pass": "Pass", "swap": "Swap", "black": "Black", "white": "White",
          "accept": "Accept", "decline": "Decline", "block": "Block"}
# (game, options, the moves with no cell that random games meet)
WORD_MOVES = [
    ("projective-hex", {"size": 2, "opening": "swap"}, {"swap"}),
    ("projective-hex", {"size": 2}, {"black", "white"}),
    ("lisbon", {"size": (3, 3)}, {"end"}),
    ("lhexus", {"size": 3}, {"end", "accept", "decline"}),
    ("iqishiqi", {"size": 3}, set()),
    ("weituweiqi", {"size": 3}, {"block"}),
    ("hex-pushpin", {"size": 3}, {"pass"}),
    ("push-and-pull", {"size": 5}, set()),
    ("palago", {"tiles": 8}, set()),
]


def random_game(state: State, rng: random.Random, words: set[str]) -> None:
    """Play ``state`` to the end at random, adding to ``words`` the legal moves that have no cell."""
    game = state.game
    while not state.is_over():
        actions = state.legal_actions()
        words.update(game.action_name(state.array, a) for a in actions if game.move_target(state.array, a) is None)
        state.apply(rng.choice(actions))


def test_every_game_and_every_end_reason_is_tested():
    assert set(REASONS) == set(GAMES)
    for name, reasons in REASONS.items():
        reached = set().union(*[r for g, _, r in PLAYOUTS if g == name], {r for g, _, _, r in PLAYED if g == name})
        assert reached == reasons, name
    assert {g for g, _, _ in WORD_MOVES} == set(GAMES)


def check_reason(state: State, reason: str) -> None:
    assert reason in REASONS[state.game.name]
    if reason not in EITHER:
        assert (state.winner() is None) == (reason in DRAWS), (reason, state.game.status(state))


@pytest.mark.parametrize("name, options, expected", PLAYOUTS)
def test_seeded_random_games_reach_each_end_reason(name, options, expected):
    game = hexarena.load(name, **options)
    found: set[str] = set()
    for seed in range(SEEDS):
        s = game.new_state().array.copy()
        seed_numba(seed)
        game.kernels.playout(s, game.tables)
        state = State(game, s)
        reason = game.end_reason(state)
        check_reason(state, reason)
        found.add(reason)
        if found >= expected:
            break
    assert found == expected


@pytest.mark.parametrize("name, options, moves, reason", PLAYED)
def test_played_games_reach_the_rare_end_reasons(name, options, moves, reason):
    state = hexarena.load(name, **options).new_state()
    for m in moves:
        assert state.game.end_reason(state) is None
        state.play(m)
    assert state.game.end_reason(state) == reason
    check_reason(state, reason)


@pytest.mark.parametrize("name", GAMES)
def test_no_end_reason_while_a_game_goes_on_and_resignation_after_a_resignation(name):
    state = hexarena.load(name).new_state()
    assert state.game.end_reason(state) is None
    state.apply(state.legal_actions()[0])
    state.resign()
    assert state.game.end_reason(state) == "resignation"
    state.undo()
    assert state.game.end_reason(state) is None


@pytest.mark.parametrize("name, options, words", [
    ("projective-hex", {"opening": "none"}, ()),
    ("projective-hex", {"opening": "swap"}, ("swap",)),
    ("projective-hex", {}, ("black", "white")),
    ("lhexus", {}, ("accept", "decline")),
    ("weituweiqi", {}, ("block",)),
    *[(name, {}, ()) for name in ("lisbon", "iqishiqi", "hex-pushpin", "push-and-pull", "palago")],
])
def test_opening_words(name, options, words):
    game = hexarena.load(name, **options)
    assert game.opening_words() == words and set(words) <= set(game.WORDS)


@pytest.mark.parametrize("name, options, expected", WORD_MOVES)
def test_word_moves_have_their_labels(name, options, expected):
    game = hexarena.load(name, **options)
    rng, words = random.Random(7), set()
    for _ in range(5):
        random_game(game.new_state(), rng, words)
    assert words == expected
    assert {w: game.word_label(w) for w in words} == {w: LABELS[w] for w in words}
    cell = game.topology.names[0]
    assert game.word_label(cell) == cell  # not a word: the move as written
