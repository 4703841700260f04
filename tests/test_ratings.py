"""Glicko-2 (hexarena.ratings) against Glickman's own worked example ("Example of the Glicko-2 system",
2012) and the two-new-players case of the arena's ratings."""

from __future__ import annotations

import pytest

from hexarena.ratings import START, Rating, rate


def test_glickmans_example_to_the_digit() -> None:
    after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    assert round(after.rating, 2) == 1464.05  # Glickman: mu' = -0.2069, r' = 1464.06 (from the rounded mu')
    assert round((after.rating - 1500) / 173.7178, 4) == -0.2069
    assert round(after.rd, 2) == 151.52  # phi' = 0.8722
    assert round(after.rd / 173.7178, 4) == 0.8722
    assert 0.05999 <= after.volatility < 0.06 and round(after.volatility, 6) == 0.059996  # Glickman: 0.05999


def test_two_new_players_one_game() -> None:
    new = Rating(*START)
    assert (new.rating, new.rd, new.volatility) == (1500, 350, 0.06)
    winner, loser = rate(new, [(new, 1)]), rate(new, [(new, 0)])
    assert winner.rating == pytest.approx(1662.31, abs=0.01) and loser.rating == pytest.approx(1337.69, abs=0.01)
    assert winner.rd == pytest.approx(290.32, abs=0.01) == loser.rd
    draw = rate(new, [(new, 0.5)])
    assert draw.rating == pytest.approx(1500) and draw.rd < 350


def test_no_games_only_widen_the_deviation() -> None:
    after = rate(Rating(1600, 100, 0.06), [])
    assert after.rating == 1600 and after.rd == pytest.approx((100 ** 2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_an_upset_moves_more_than_an_expected_result() -> None:
    strong, weak = Rating(1900, 60), Rating(1400, 60)
    assert rate(weak, [(strong, 1)]).rating - 1400 > rate(strong, [(weak, 1)]).rating - 1900 > 0
