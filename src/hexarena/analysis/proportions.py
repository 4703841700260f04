"""Two proportions compared: their difference with a 95% interval, a test,
and how many games would measure it to a given precision.  The lab's
verdict compares option sets with it; a strength ladder compares players.

- The interval is Newcombe's hybrid score interval (his method 10: the
  Wilson intervals of each proportion combined), from R. G. Newcombe,
  "Interval estimation for the difference between independent proportions:
  comparison of eleven methods", Statistics in Medicine 17 (1998) 873-890.
  His first example (Table II), 56/70 against 48/80, gives 0.0524 to 0.3339:

  >>> [round(x, 4) for x in difference_interval(56, 70, 48, 80)]
  [0.2, 0.0524, 0.3339]

- The test is the two-proportion z test (pooled variance), two-sided; when
  the counts are whole and a cell of the 2x2 table expects fewer than 5,
  Fisher's exact test (two-sided: the tables no more likely than the one
  seen), computed exactly with integers.  Fisher's tea-tasting table, 3 of
  4 cups right:

  >>> fisher_exact(3, 4, 1, 4)
  0.4857142857142857

- Games each side needs for the interval's half-width to be ``margin``:
  z^2 (p1 (1 - p1) + p2 (1 - p2)) / margin^2, the usual normal
  approximation, with the proportions seen (:func:`planning_rate`: a
  proportion of 0 or 1 is read as (k + 1) / (n + 2), Laplace's rule of
  succession, so that games that all ended alike still give a number):

  >>> games_needed(0.46, 0.52)
  2126
"""

from __future__ import annotations

import math
from typing import Any

from .metrics import Z95, wilson

MARGIN = 0.03  # the half-width "games needed" aims at: +-3 points
SMALL = 5  # a 2x2 cell expecting fewer games than this calls for Fisher's exact test
ALPHA = 0.05


def difference_interval(k1: float, n1: int, k2: float, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """(p1 - p2, low, high): Newcombe's hybrid score interval of the difference of ``k1/n1`` and ``k2/n2``."""
    if n1 < 1 or n2 < 1:
        raise ValueError(f"both proportions need games: got {n1} and {n2}")
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z, digits=None)
    l2, u2 = wilson(k2, n2, z, digits=None)
    d = p1 - p2
    return d, d - math.hypot(p1 - l1, u2 - p2), d + math.hypot(u1 - p1, p2 - l2)


def z_test(k1: float, n1: int, k2: float, n2: int) -> tuple[float, float]:
    """(z, two-sided p) of the two-proportion z test with the pooled proportion (z = 0, p = 1 when
    the pooled proportion is 0 or 1)."""
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 0.0, 1.0
    z = (k1 / n1 - k2 / n2) / se
    return z, math.erfc(abs(z) / math.sqrt(2))


def fisher_exact(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p of Fisher's exact test of the table [[k1, n1 - k1], [k2, n2 - k2]]: the probability,
    margins fixed, of the tables no more likely than this one (exact integer arithmetic)."""
    hits = k1 + k2
    weights = {x: math.comb(n1, x) * math.comb(n2, hits - x) for x in range(max(0, hits - n2), min(n1, hits) + 1)}
    seen = weights[k1]
    return sum(w for w in weights.values() if w <= seen) / math.comb(n1 + n2, hits)


def one_proportion_test(k: float, n: int, p0: float = 0.5) -> tuple[float, float]:
    """(z, two-sided p) of the score test of ``k/n`` against ``p0``."""
    z = (k / n - p0) / math.sqrt(p0 * (1 - p0) / n)
    return z, math.erfc(abs(z) / math.sqrt(2))


def games_needed(p1: float, p2: float | None = None, margin: float = MARGIN, z: float = Z95) -> int:
    """Games each side needs for a 95% interval of ``p1 - p2`` (of ``p1`` alone when ``p2`` is None)
    about ``margin`` wide on each side."""
    variance = p1 * (1 - p1) + (0.0 if p2 is None else p2 * (1 - p2))
    return math.ceil(z * z * variance / (margin * margin))


def planning_rate(k: float, n: int) -> float:
    """The proportion ``k / n`` to plan with: (k + 1) / (n + 2) when it is 0 or 1 (no spread seen)."""
    return (k + 1) / (n + 2) if k in (0, n) else k / n


def _small(k1: float, n1: int, k2: float, n2: int) -> bool:
    """Whole counts with a 2x2 cell expecting fewer than SMALL."""
    if not (float(k1).is_integer() and float(k2).is_integer()):
        return False
    hits, total = k1 + k2, n1 + n2
    expected = [n * h / total for n in (n1, n2) for h in (hits, total - hits)]
    return min(expected) < SMALL


def compare_proportions(k1: float, n1: int, k2: float, n2: int) -> dict[str, Any]:
    """``k2/n2`` against ``k1/n1`` (k may count halves, a draw's half point): the difference
    ``p2 - p1`` with its 95% interval, the test, whether it is significant at 5%, and the games each
    side would need for +-3 points."""
    d, low, high = difference_interval(k2, n2, k1, n1)
    if _small(k1, n1, k2, n2):
        test, statistic, p = "fisher", None, fisher_exact(int(k2), n2, int(k1), n1)
    else:
        test, (statistic, p) = "z", z_test(k2, n2, k1, n1)
    p1, p2 = k1 / n1, k2 / n2
    return {"rates": [round(p1, 4), round(p2, 4)], "games": [n1, n2], "difference": round(d, 4),
            "ci95": [round(low, 4), round(high, 4)], "test": test,
            "z": None if statistic is None else round(statistic, 3), "p": round(p, 4), "significant": p < ALPHA,
            "games_needed": games_needed(planning_rate(k1, n1), planning_rate(k2, n2))}
