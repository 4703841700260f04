"""Knockout brackets: seeding, byes, the next rounds and replayed draws."""

import pytest

from hexarena.tournament import Played, knockout_first_round, knockout_next, knockout_rounds, knockout_winner


def test_the_standard_bracket_of_eight():
    assert knockout_first_round(8) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert knockout_rounds(8) == 3 and knockout_rounds(9) == 4 and knockout_rounds(2) == 1


@pytest.mark.parametrize("n", range(2, 40))
def test_byes_go_to_the_top_seeds_and_seeds_1_and_2_meet_only_in_the_final(n):
    first = knockout_first_round(n)
    assert len(first) == 2 ** (knockout_rounds(n) - 1)
    assert sorted(s for board in first for s in board if s is not None) == list(range(1, n + 1))
    byes = sorted(a for a, b in first if b is None)
    assert byes == list(range(1, len(byes) + 1)) and len(byes) == 2 ** knockout_rounds(n) - n
    rounds = [[tuple(str(s) for s in board if s is not None) for board in first]]
    while len(rounds[-1]) > 1:  # the better seed always wins
        rounds.append(knockout_next([min(p, key=int) for p in rounds[-1]]))
    assert len(rounds) == knockout_rounds(n) and rounds[-1] == [("1", "2")]
    assert ("1", "2") not in [p for r in rounds[:-1] for p in r]


def test_the_next_round_pairs_neighbours_and_ends_with_one():
    assert knockout_next(["a", "b", "c", "d"]) == [("a", "b"), ("c", "d")]
    assert knockout_next(["a"]) == []
    with pytest.raises(ValueError, match="3 winners: a bracket round has an even number"):
        knockout_next(["a", "b", "c"])


def test_a_drawn_game_is_replayed_until_one_wins():
    draw, again, won = Played(1, ("a", "b"), 0.5), Played(1, ("b", "a"), 0.5), Played(1, ("a", "b"), 0.0)
    assert knockout_winner([]) is None and knockout_winner([draw, again]) is None
    assert knockout_winner([draw, again, won]) == "b"
    assert knockout_winner([draw, Played(1, ("b", "a"), None)]) is None
    assert knockout_winner([Played(1, ("a", "b"), 1.0, forfeit=True)]) == "a"
    with pytest.raises(ValueError, match="a game after a v b was decided"):
        knockout_winner([won, draw])
