"""A game's options: each with its default, a parser from text and a check
(``Game.OPTIONS``; ``hexarena games`` lists them)."""

from __future__ import annotations

import re
import reprlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Option", "parse_int", "is_int_between", "int_between", "choice", "shown", "validated"]


@dataclass(frozen=True)
class Option:
    """A game option: its default, a parser from text, a validator."""

    default: Any
    parse: Callable[[str], Any]
    check: Callable[[Any], bool]
    allowed: str  # human description of the allowed values
    doc: str = ""


_INT_TEXT = re.compile(r"[0-9]{1,9}")
_SHOW = reprlib.Repr()
_SHOW.maxstring = _SHOW.maxother = _SHOW.maxlong = 40


def parse_int(text: str) -> int:
    """An option's integer written as ASCII digits (``"4"``; not ``" 4 "``,
    ``"+4"``, ``"1e9"`` or ``"\u0664"``); ValueError otherwise."""
    if not _INT_TEXT.fullmatch(text):
        raise ValueError(text)
    return int(text)


def is_int_between(value: Any, low: int, high: int) -> bool:
    """Is ``value`` an int (not a bool) from ``low`` to ``high``?"""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def int_between(default: int, low: int, high: int, doc: str = "") -> Option:
    """An integer option from ``low`` to ``high`` (a size's maximum keeps boards cheap)."""
    return Option(default, parse_int, lambda v: is_int_between(v, low, high), f"an integer from {low} to {high}", doc)


def choice(default: str, values: Sequence[str], doc: str = "") -> Option:
    return Option(default, str, lambda v: isinstance(v, str) and v in values, " | ".join(values), doc)


def shown(value: Any) -> str:
    """A short one-line repr of a value from outside, for error messages."""
    try:
        return _SHOW.repr(value)
    except (ValueError, RecursionError):  # an int too long to write out, a nesting too deep
        return "a value too large to show"


def validated(game: str, allowed: dict[str, Option], options: dict[str, Any]) -> dict[str, Any]:
    """``options`` of the game called ``game`` with defaults filled in (``Game.validate_options``); ValueError
    naming the unknown option or the bad value and what is allowed."""
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise ValueError(f"unknown option {shown(unknown[0])} for {game}; options: {', '.join(allowed) or 'none'}")
    out = {}
    for key, opt in allowed.items():
        value = options.get(key, opt.default)
        try:
            if isinstance(value, str) and opt.parse is not str:
                value = opt.parse(value)
            ok = opt.check(value)
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise ValueError(f"bad value {shown(value)} for option {key!r} of {game}; allowed: {opt.allowed}")
        out[key] = value
    return out
