"""The batched loops (:mod:`hexarena.vector.loops_template`) bound to one
game's kernels, compiled by numba and cached (:mod:`hexarena.specialise`)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from types import ModuleType, SimpleNamespace

from ..specialise import specialised, where

PLACEHOLDER = "legal = apply = is_legal = planes = None\nGAME_IS_LEGAL = None"


def loops(kernels: SimpleNamespace) -> ModuleType:
    """The template's loops over ``kernels`` (a game's ``kernels``: ``legal``,
    ``apply``, ``planes`` and, where it has one, ``is_legal``)."""
    if getattr(kernels, "planes", None) is None:
        raise TypeError("batched games need the game's planes kernel (Game.kernels.planes; see hexarena.games.base)")
    is_legal = getattr(kernels, "is_legal", None)
    return _bound(where(kernels.legal), where(kernels.apply), where(kernels.planes),
                  None if is_legal is None else where(is_legal))


@cache
def _bound(legal: tuple[str, str], apply: tuple[str, str], planes: tuple[str, str],
           is_legal: tuple[str, str] | None) -> ModuleType:
    roles = [("legal", legal), ("apply", apply), ("planes", planes)] + ([("is_legal", is_legal)] if is_legal else [])
    extra = [f"GAME_IS_LEGAL = {is_legal is not None}"] + ([] if is_legal else ["is_legal = _no_is_legal"])
    return specialised(Path(__file__).with_name("loops_template.py"), PLACEHOLDER, roles, extra, kind="vector",
                       stem="loops_" + legal[0].rsplit(".", 1)[-1], depends=["hexarena.vector.rng"])
