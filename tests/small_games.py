"""Game configurations for the interop tests: every game of hexarena.GAMES,
each on its smallest board among its defaults and conftest's EXTRA_CONFIGS,
so games added later are covered without editing these tests."""

from __future__ import annotations

import random
from typing import Any

import hexarena

from tests.conftest import EXTRA_CONFIGS


def all_configs() -> list[tuple[str, dict[str, Any]]]:
    return [(name, {}) for name in hexarena.GAMES] + [(n, o) for n, ops in EXTRA_CONFIGS.items() for o in ops]


def smallest_configs() -> list[tuple[str, dict[str, Any]]]:
    """One (name, options) per game: the configuration with the fewest actions."""
    best: dict[str, tuple[int, dict[str, Any]]] = {}
    for name, options in all_configs():
        size = hexarena.load(name, **options).num_actions
        if name not in best or size < best[name][0]:
            best[name] = (size, options)
    return [(name, best[name][1]) for name in hexarena.GAMES]


def config_id(config: tuple[str, dict[str, Any]]) -> str:
    name, options = config
    return name + "".join(f"-{k}={v}" for k, v in options.items())


def random_positions(name: str, options: dict[str, Any], seed: int, every: int = 1) -> list[hexarena.State]:
    """Copies of the positions of one uniformly random game (every ``every``
    plies, and always the first and the last)."""
    rng = random.Random(seed)
    state = hexarena.load(name, **options).new_state()
    out = [state.copy()]
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
        if state.ply % every == 0 or state.is_over():
            out.append(state.copy())
    return out
