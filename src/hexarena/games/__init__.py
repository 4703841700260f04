"""The game registry: one module per rule family."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .base import AmbiguousMove, Game, IllegalMove, MalformedMove, NothingToUndo, State, quoted

# name -> (module, class); aliases map to a name
_REGISTRY: dict[str, tuple[str, str]] = {
    "projective-hex": ("projective_hex", "ProjectiveHex"),
    "lisbon": ("lisbon", "Lisbon"),
    "lhexus": ("lhexus", "Lhexus"),
    "iqishiqi": ("iqishiqi", "Iqishiqi"),
    "weituweiqi": ("weituweiqi", "Weituweiqi"),
    "hex-pushpin": ("hex_pushpin", "HexPushpin"),
    "push-and-pull": ("push_and_pull", "PushAndPull"),
    "palago": ("palago", "Palago"),
}
ALIASES: dict[str, str] = {"lambo": "palago"}
GAMES: tuple[str, ...] = tuple(_REGISTRY)
_REGISTERED: dict[str, type[Game]] = {}  # games from outside the package (register)


def register(cls: type[Game]) -> None:
    """Make the Game subclass ``cls``, defined outside this package, known by its ``name`` to :func:`load`,
    :func:`game_class`, records and the interop adapters (``hexarena.interop.openspiel.register`` for
    pyspiel), as a game of ``GAMES`` is; ``GAMES`` itself, what the server, the command line and the lab offer,
    stays the shipped games.  Registering the same class again changes nothing; ValueError for a name taken by
    another game, TypeError for what is not a concrete Game subclass."""
    if not (isinstance(cls, type) and issubclass(cls, Game) and isinstance(getattr(cls, "name", None), str)):
        raise TypeError(f"register takes a Game subclass with a name, got {cls!r}")
    taken = _REGISTERED.get(cls.name)
    if taken is cls:
        return
    if taken is not None or cls.name in _REGISTRY or cls.name in ALIASES:
        raise ValueError(f"a game called {quoted(cls.name)} is known already; games: {', '.join(GAMES)}")
    _REGISTERED[cls.name] = cls


def game_class(name: str) -> type[Game]:
    """The Game subclass called ``name`` (or an alias, or a :func:`register` ed name); ValueError otherwise."""
    if not isinstance(name, str):
        raise ValueError(f"a game's name is a string, got {type(name).__name__}; games: {', '.join(GAMES)}")
    if name in _REGISTERED:
        return _REGISTERED[name]
    key = ALIASES.get(name, name)
    if key not in _REGISTRY:
        raise ValueError(f"unknown game {quoted(name)}; games: {', '.join(GAMES)}")
    module, cls = _REGISTRY[key]
    return getattr(import_module(f"{__name__}.{module}"), cls)


def load(name: str, /, **options: Any) -> Game:
    """The game ``name`` with ``options``; ValueError naming the choices."""
    return game_class(name)(**options)


__all__ = ["GAMES", "Game", "IllegalMove", "MalformedMove", "AmbiguousMove", "NothingToUndo", "State", "load",
           "game_class", "register"]
