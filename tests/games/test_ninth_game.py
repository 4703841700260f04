"""The checklist of docs/design.md, "Adding a game", walked with a toy: Triad (tests/games/ninth_game.py, its only
file) is registered from outside the package and passes the generic suites, each per-game test of these modules
run for it (tests/games/generic.py), with no edit to them."""

import pytest

import hexarena
from hexarena.interop import openspiel

from tests import test_observe
from tests.ai import test_ai
from tests.games import test_fuzz, test_game_hooks, test_position_identity, test_properties
from tests.interop import test_openspiel, test_pettingzoo
from tests.games.generic import Case, cases
from tests.games.ninth_game import Triad

hexarena.register(Triad)
openspiel.register([Triad.name])
SUITES = (test_properties, test_position_identity, test_fuzz, test_game_hooks, test_observe, test_ai, test_openspiel,
          test_pettingzoo)
CASES = [case for suite in SUITES for case in cases(suite)]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_the_ninth_game_passes_the_generic_suites(case: Case, request: pytest.FixtureRequest):
    case.run(Triad.name, {}, request)


def test_every_generic_suite_is_walked():
    """Each suite has generic tests, and the property tests are all of them (a module-wide game axis)."""
    walked = {case.module for case in CASES}
    assert walked == {suite.__name__ for suite in SUITES}
    assert {case.test.__name__ for case in CASES if case.module == test_properties.__name__} == \
        {name for name in vars(test_properties) if name.startswith("test_")}


def test_a_registered_game_is_loaded_and_replayed_by_name_but_not_offered():
    state = hexarena.load("triad").new_state()
    state.play("c2")
    assert hexarena.from_record(state.record_text()) == state and hexarena.game_class("triad") is Triad
    assert "triad" not in hexarena.GAMES
    hexarena.register(Triad)  # again: nothing changes


@pytest.mark.parametrize("cls, error, match", [
    (type("Lisbon2", (Triad,), {"name": "lisbon"}), ValueError, "a game called 'lisbon' is known already"),
    (type("Other", (Triad,), {}), ValueError, "a game called 'triad' is known already"),
    (int, TypeError, "register takes a Game subclass with a name"),
])
def test_a_taken_name_or_a_class_that_is_no_game_is_refused(cls, error, match):
    with pytest.raises(error, match=match):
        hexarena.register(cls)
    assert hexarena.game_class("triad") is Triad
