"""The refusals every game raises, in the spirit of python-chess: each leaves
the state (and any record being read) as it was, and its message names what
was wrong and what is allowed."""

from __future__ import annotations

__all__ = ["IllegalMove", "MalformedMove", "AmbiguousMove", "NothingToUndo", "quoted"]


class IllegalMove(ValueError):
    """A move that is not legal here; the state is unchanged.  Its two
    subclasses say more: :class:`MalformedMove` (the text is not a move of
    this game's notation at all) and :class:`AmbiguousMove` (it could mean
    several legal moves)."""


class MalformedMove(IllegalMove):
    """Move text (or an action id) that is not of the game's notation: wrong
    type, too long, not ASCII, or no move's form at all."""


class AmbiguousMove(IllegalMove):
    """Move text that names several legal moves (say which: the message lists them)."""


class NothingToUndo(IllegalMove, IndexError):
    """``undo()`` at the start of the game (an IndexError too, as python-chess's ``pop``)."""


def quoted(text: str, limit: int = 40) -> str:
    """``repr(text)``, cut to ``limit`` characters with the full length said,
    for error messages about input from outside.

    >>> quoted("e4")
    "'e4'"
    >>> quoted("x" * 1000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (1000 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}"[:-1] + f"...' ({len(text)} characters)"
