"""Round robins against FIDE's printed Berger tables (Handbook C.05, Annex 1)."""

import pytest

from hexarena.tournament import berger_rounds


def table(text: str) -> list[list[tuple[int, int | None]]]:
    """A printed table: one round a line, boards "1-4", the bye "5-"."""
    return [[(int(a), int(b) if b else None) for a, b in (board.split("-") for board in line.split())]
            for line in text.strip().splitlines()]


FIDE = {
    4: """1-4 2-3
          4-3 1-2
          2-4 3-1""",
    6: """1-6 2-5 3-4
          6-4 5-3 1-2
          2-6 3-1 4-5
          6-5 1-4 2-3
          3-6 4-2 5-1""",
    8: """1-8 2-7 3-6 4-5
          8-5 6-4 7-3 1-2
          2-8 3-1 4-7 5-6
          8-6 7-5 1-4 2-3
          3-8 4-2 5-1 6-7
          8-7 1-6 2-5 3-4
          4-8 5-3 6-2 7-1""",
    10: """1-10 2-9 3-8 4-7 5-6
           10-6 7-5 8-4 9-3 1-2
           2-10 3-1 4-9 5-8 6-7
           10-7 8-6 9-5 1-4 2-3
           3-10 4-2 5-1 6-9 7-8
           10-8 9-7 1-6 2-5 3-4
           4-10 5-3 6-2 7-1 8-9
           10-9 1-8 2-7 3-6 4-5
           5-10 6-4 7-3 8-2 9-1""",
    # five: the table of six, seed 6 the dummy whose opponent has the bye (listed last)
    5: """2-5 3-4 1-
          5-3 1-2 4-
          3-1 4-5 2-
          1-4 2-3 5-
          4-2 5-1 3-""",
}


@pytest.mark.parametrize("n", sorted(FIDE))
def test_the_tables_are_fides(n):
    assert berger_rounds(n) == table(FIDE[n])


@pytest.mark.parametrize("n", range(2, 17))
def test_every_pair_meets_once_and_seats_alternate_fairly(n):
    rounds = berger_rounds(n)
    pairs = [frozenset(b) for r in rounds for b in r if b[1] is not None]
    assert len(rounds) == n - 1 + n % 2 and len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    for r in rounds:
        assert sorted(s for b in r for s in b if s is not None) == list(range(1, n + 1))
    firsts = {s: sum(b[0] == s for r in rounds for b in r if b[1] is not None) for s in range(1, n + 1)}
    assert all(abs(2 * f - (n - 1)) <= 1 for f in firsts.values()), firsts  # n - 1 games each


def test_a_double_round_robin_swaps_the_seats_in_its_second_cycle():
    assert berger_rounds(4, double=True) == table(FIDE[4]) + [[(4, 1), (3, 2)], [(3, 4), (2, 1)], [(4, 2), (1, 3)]]
    assert berger_rounds(3, double=True)[3] == [(3, 2), (1, None)]


def test_fewer_than_two_players_is_refused():
    with pytest.raises(ValueError, match="a round robin of 1 players: it needs 2 or more"):
        berger_rounds(1)
