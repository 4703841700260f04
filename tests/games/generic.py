"""The generic suites as functions of a game: the tests of a module parametrised over every game of
``hexarena.GAMES`` (by ``config``, ``name,options`` or ``name``), found by their marks and run for one more game,
so a game registered from outside the package (tests/games/test_ninth_game.py) passes them without copying them."""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest

import hexarena

GAME_AXES = ("config", "name,options", "name")  # how the generic suites name a game's configuration


@dataclass(frozen=True)
class Case:
    """A generic test with its other parametrised arguments fixed, run for any game by :meth:`run`."""

    module: str
    test: Callable[..., Any]
    axis: str  # one of GAME_AXES
    fixed: tuple[tuple[str, Any], ...]  # the other parametrised arguments

    @property
    def id(self) -> str:
        fixed = (f"{k}={v!r:.20}" for k, v in self.fixed)
        return "::".join([self.module.rsplit(".", 1)[-1], self.test.__name__, *fixed])

    def run(self, name: str, options: dict[str, Any], request: pytest.FixtureRequest) -> None:
        """The test for the game ``name`` with ``options``; the fixtures it takes come from ``request``."""
        game = {"config": {"config": (name, options)}, "name,options": {"name": name, "options": options},
                "name": {"name": name}}[self.axis]
        given = {**game, **dict(self.fixed)}
        fixtures = {p: request.getfixturevalue(p) for p in inspect.signature(self.test).parameters if p not in given}
        self.test(**given, **fixtures)


def marks(module: ModuleType, test: Callable[..., Any]) -> list[pytest.Mark]:
    """The parametrize marks of ``test``, its own and its module's."""
    module_marks = getattr(module, "pytestmark", [])
    own = [*(module_marks if isinstance(module_marks, list) else [module_marks]), *getattr(test, "pytestmark", [])]
    return [m for m in own if m.name == "parametrize"]


def values(mark: pytest.Mark) -> list[tuple[Any, ...]]:
    """A parametrize mark's rows, each a tuple of its arguments' values."""
    names = [n.strip() for n in mark.args[0].split(",")] if isinstance(mark.args[0], str) else list(mark.args[0])
    rows = [row.values if hasattr(row, "values") and not isinstance(row, dict) else row for row in mark.args[1]]
    return [tuple(row) if len(names) > 1 else (row,) for row in rows]


def covers_every_game(mark: pytest.Mark) -> bool:
    """Whether ``mark`` is a game axis listing every game of ``hexarena.GAMES``."""
    if mark.args[0].replace(" ", "") not in GAME_AXES:
        return False
    names = {row[0][0] if mark.args[0] == "config" else row[0] for row in values(mark)}
    return names >= set(hexarena.GAMES)


def cases(module: ModuleType) -> Iterator[Case]:
    """The generic tests of ``module``, one :class:`Case` per setting of their other parametrised arguments."""
    for attr, test in vars(module).items():
        if not (attr.startswith("test_") and callable(test)):
            continue
        found = marks(module, test)
        axes = [m for m in found if covers_every_game(m)]
        if not axes:
            continue
        others = [m for m in found if m is not axes[0]]
        names = [[n.strip() for n in m.args[0].split(",")] for m in others]
        for rows in itertools.product(*(values(m) for m in others)):
            fixed = tuple(kv for n, row in zip(names, rows, strict=True) for kv in zip(n, row, strict=True))
            yield Case(module.__name__, test, axes[0].args[0].replace(" ", ""), fixed)
