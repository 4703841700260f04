"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012): one player's rating after a
rating period of games against rated opponents."""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's scale: rating = SCALE * mu + 1500
START = (1500.0, 350.0, 0.06)  # a new player's rating, deviation and volatility
TAU = 0.5  # the system constant: how much the volatility may change (Glickman suggests 0.3 to 1.2)
EPSILON = 1e-6  # the convergence tolerance of the volatility's iteration


@dataclass(frozen=True)
class Rating:
    """A rating on the Glicko scale, its deviation and its volatility."""

    rating: float = START[0]
    rd: float = START[1]
    volatility: float = START[2]


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Rating, games: list[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one period of ``games`` ((opponent, score) with score 1, 0.5 or 0); with no
    games only the deviation grows."""
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.rd / SCALE, player.volatility
    if not games:
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    opponents = [((o.rating - 1500) / SCALE, o.rd / SCALE, s) for o, s in games]
    v = 1 / sum(_g(pj) ** 2 * (e := _expected(mu, mj, pj)) * (1 - e) for mj, pj, _ in opponents)
    delta = v * sum(_g(pj) * (s - _expected(mu, mj, pj)) for mj, pj, s in opponents)
    sigma = _volatility(delta, phi, v, sigma, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu = mu + phi * phi * sum(_g(pj) * (s - _expected(mu, mj, pj)) for mj, pj, s in opponents)
    return Rating(SCALE * mu + 1500, SCALE * phi, sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """The new volatility: the root of Glickman's f by the Illinois algorithm (his step 5)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / tau ** 2

    lo = a
    if delta ** 2 > phi ** 2 + v:
        hi = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        hi = a - k * tau
    A, B, fa, fb = lo, hi, f(lo), f(hi)
    while abs(B - A) > EPSILON:
        C = A + (A - B) * fa / (fb - fa)
        fc = f(C)
        if fc * fb <= 0:
            A, fa = B, fb
        else:
            fa /= 2
        B, fb = C, fc
    return math.exp(A / 2)
