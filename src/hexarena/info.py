"""What the front ends show of games and positions, in one place: a game's
options and rules summary (``hexarena games --json``, the web lobby, the
terminal's ``rules``) and a position's summary (``hexarena replay --json``,
the web app's match object)."""

from __future__ import annotations

from importlib import resources
from typing import Any

from .games import game_class
from .games.base import State
from .record_writer import jsonable


def rules_text(name: str) -> str:
    """The summary of game ``name``'s rules and notation, kept in the package."""
    return (resources.files("hexarena") / "rules" / f"{name}.txt").read_text(encoding="utf-8").rstrip()


def game_info(name: str, rules: bool = False) -> dict[str, Any]:
    """Game ``name``'s options (default, allowed, doc), one-line doc and players'
    names (and, with ``rules``, its rules summary): ``games --json``, the web lobby."""
    cls = game_class(name)
    opts = {k: {"default": jsonable(o.default), "allowed": o.allowed, "doc": o.doc} for k, o in cls.OPTIONS.items()}
    info = {"name": name, "options": opts, "doc": (cls.__doc__ or "").strip().split("\n")[0],
            "players": list(cls.PLAYERS)}
    if rules:
        info["rules"] = rules_text(name)
    return info


def replay_summary(state: State, known: dict[str, Any] | None = None) -> dict[str, Any]:
    """The object ``hexarena replay --json`` prints (DESIGN.md §3), with the
    rule that ended the game (``reason``: ``Game.end_reason``, null while it
    goes on); ``known`` gives ``scores`` and ``reason`` instead of computing
    them (for a game whose exact scores are costly, computed elsewhere)."""
    g = state.game
    return {
        "game": g.name,
        "options": {k: jsonable(v) for k, v in g.options.items()},
        "moves": state.moves(),
        "to_move": state.to_move,
        "over": state.is_over(),
        "winner": state.winner(),
        "reason": g.end_reason(state) if known is None else known["reason"],
        "scores": g.live_scores(state) if known is None else known["scores"],
        "legal_moves": state.legal_moves(),
    }
