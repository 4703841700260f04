"""The ``is_legal`` kernel (issue 19): for every game that has one, on
positions met in random games, ``is_legal(a)`` is ``a in legal_actions()``
for every action id, and the facade's checks agree with the legal list."""

import numpy as np
import pytest

import hexarena
from hexarena import IllegalMove
from hexarena.games import GAMES

# the options worth checking separately: openings and sequences that change what is legal
SETUPS = {"projective-hex": [{"opening": "none"}, {"opening": "swap"}, {"opening": "cut-and-choose"}],
          "lisbon": [{"size": (4, 3)}, {"size": (4, 3), "sequence": "12*"}],
          "push-and-pull": [{}, {"size": 5}]}
CASES = [(name, opts) for name in GAMES for opts in SETUPS.get(name, [{}])
         if hasattr(hexarena.load(name, **opts).kernels, "is_legal")]


def positions(game, count, seed):
    """States of random games cut at random plies (the start included)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = game.new_state()
        for _ in range(int(rng.integers(0, 80))):
            legal = s.legal_actions()
            if not legal:
                break
            s.apply(legal[rng.integers(0, len(legal))])
        if not s.is_over():
            out.append(s)
    return out


def test_the_games_of_this_issue_have_the_kernel():
    assert {"lisbon", "projective-hex", "push-and-pull"} <= {name for name, _ in CASES}


@pytest.mark.parametrize("name,options", CASES)
def test_is_legal_is_membership_of_the_legal_list(name, options):
    game = hexarena.load(name, **options)
    for state in positions(game, 40, seed=len(name)):
        legal = set(state.legal_actions())
        got = {a for a in range(game.num_actions) if game.kernels.is_legal(state.array, game.tables, a)}
        assert got == legal


@pytest.mark.parametrize("name,options", CASES)
def test_apply_and_play_refuse_what_is_not_legal(name, options):
    game = hexarena.load(name, **options)
    rng = np.random.default_rng(3)
    for state in positions(game, 10, seed=1):
        legal = set(state.legal_actions())
        for a in rng.choice(game.num_actions, size=min(30, game.num_actions), replace=False):
            before = state.array.copy()
            if int(a) in legal:
                s = state.copy()
                s.apply(int(a))
                t = state.copy()
                assert t.play(t.move_name(int(a))) is not None and t == s
            else:
                with pytest.raises(IllegalMove):
                    state.apply(int(a))
                assert np.array_equal(state.array, before)
