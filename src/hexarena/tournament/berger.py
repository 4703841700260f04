"""Round-robin pairings by FIDE's Berger tables (FIDE Handbook C.05, Annex 1).

Seeds 1..n (n odd: a dummy n + 1, whose opponent has the bye). The last seed stays on board 1 and alternates
seats (second seat in odd rounds, first in even ones); the others rotate by n/2 places a round. Four players:

>>> berger_rounds(4)
[[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
>>> berger_rounds(3)[0]
[(2, 3), (1, None)]
"""

from __future__ import annotations

Board = tuple[int, int | None]


def berger_rounds(n: int, double: bool = False) -> list[list[Board]]:
    """The rounds of a round robin of seeds 1..n, each a list of boards (first-seat seed, second-seat seed) in
    the table's order; with n odd the bye is (seed, None), last in its round. ``double``: the table twice, the
    seats swapped in the second cycle."""
    if n < 2:
        raise ValueError(f"a round robin of {n} players: it needs 2 or more")
    size = n + n % 2
    single = [_round(size, r, n) for r in range(1, size)]
    if not double:
        return single
    return single + [[(b, a) if b is not None else (a, None) for a, b in boards] for boards in single]


def _round(size: int, number: int, n: int) -> list[Board]:
    """Round ``number`` of the table of ``size`` (even) seeds; seed ``size`` is the dummy when it is over ``n``."""
    rotating = size - 1
    first = (number - 1) * (size // 2) % rotating + 1
    boards: list[Board] = [(first, size) if number % 2 else (size, first)]
    for k in range(1, size // 2):
        boards.append(((first - 1 + k) % rotating + 1, (first - 1 - k) % rotating + 1))
    if size > n:  # the dummy is on board 1
        boards = boards[1:] + [(first, None)]
    return boards
