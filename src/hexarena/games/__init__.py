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


def game_class(name: str) -> type[Game]:
    """The Game subclass called ``name`` (or an alias); ValueError otherwise."""
    if not isinstance(name, str):
        raise ValueError(f"a game's name is a string, got {type(name).__name__}; games: {', '.join(GAMES)}")
    key = ALIASES.get(name, name)
    if key not in _REGISTRY:
        raise ValueError(f"unknown game {quoted(name)}; games: {', '.join(GAMES)}")
    module, cls = _REGISTRY[key]
    return getattr(import_module(f"{__name__}.{module}"), cls)


def load(name: str, /, **options: Any) -> Game:
    """The game ``name`` with ``options``; ValueError naming the choices."""
    return game_class(name)(**options)


__all__ = ["GAMES", "Game", "IllegalMove", "MalformedMove", "AmbiguousMove", "NothingToUndo", "State", "load",
           "game_class"]
