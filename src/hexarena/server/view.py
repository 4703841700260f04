"""The match object: what GET /api/matches/{id} and the live feed show of a match."""

from __future__ import annotations

from typing import Any

from hexarena.ai.mcts import LEVEL_SECONDS
from hexarena.games.base import State
from hexarena.kernels import WINNER
from hexarena.info import replay_summary

from .clocks import shown_clock
from .fair import help_closed
from .rating import aborted
from .scoring import cheap_svg, costly, needs_scoring, pending_status, record_of
from .store.matches import Match
from .store.seats import seat_agent


def targets(state: State) -> tuple[list[dict[str, Any]], list[str]]:
    """Per legal move, the cell a click plays it by (None for a word), ``loses``: true for a move that loses the
    game at once, and, for games that draw them, the index of its picture in the list of distinct pictures
    (returned second)."""
    game, names = state.game, state.game.topology.names
    out: list[dict[str, Any]] = []
    pictures: dict[str, int] = {}
    for action in state.legal_actions():
        cell = game.move_target(state.array, action)
        target: dict[str, Any] = {"move": game.action_name(state.array, action),
                                  "cell": None if cell is None else names[cell]}
        picture = game.move_picture(state.array, action)
        if picture is not None:
            target["picture"] = pictures.setdefault(picture, len(pictures))
        if loses_at_once(state, action):
            target["loses"] = True
        out.append(target)
    return out, list(pictures)


def loses_at_once(state: State, action: int) -> bool:
    """Whether playing ``action`` ends the game with the mover's loss (never judged for a game whose end is
    costly to score: its kernel would score it)."""
    if costly(state.game):
        return False
    after = state.array.copy()
    state.game.calls.apply(after, state.game.tables, action)
    winner = int(after[WINNER])
    return winner in (0, 1) and winner != state.to_move


def shown_fields(state: State, final: dict[str, Any] | None) -> dict[str, Any]:
    """Scores, end reason, status and board as shown: for a game whose exact scores are costly, none while
    it goes on, and at the end the ``final`` fields of its scoring, or, until they come, "scoring"."""
    if not costly(state.game):
        return {"scores": state.scores(), "reason": state.game.end_reason(state), "status": state.game.status(state),
                "svg": state.svg()}
    if not state.is_over():
        return {"scores": None, "reason": None, "status": state.game.status(state), "svg": state.svg()}
    return final or {"scores": None, "reason": None, "status": pending_status(state), "svg": cheap_svg(state)}


def board_object(state: State, final: dict[str, Any] | None = None) -> dict[str, Any]:
    """A position as the board shows it: ``hexarena replay --json``'s summary, the SVG and status, the turn and
    step, the turns written so far, and per legal move the cell a click plays it by (``targets``, ``labels`` and
    ``pictures``: :func:`targets`)."""
    moves, pictures = targets(state)
    labels = {t["move"]: state.game.word_label(t["move"]) for t in moves if t["cell"] is None}
    turns = [[t, [[m, ply] for m, ply in written]] for t, written in state.written_turns()]
    shown = shown_fields(state, final)
    out = {**replay_summary(state, shown), "ply": len(state.history), "status": shown["status"], "turn": state.turn,
           "step": state.step, "turns": turns, "targets": moves, "labels": labels, "svg": shown["svg"]}
    if pictures:
        out["pictures"] = pictures
    return out


def uncounted(match: Match) -> bool:
    """Whether a finished rated match changed no rating though it was played (not aborted): one more rated game
    between the same two accounts than count a day (:data:`~.rating.PAIR_GAMES`)."""
    state = match.state
    return bool(match.rated and state.is_over() and not aborted(state) and match.ratings
                and all(r is None or r["after"] is None for r in match.ratings))


def seat_entry(kind: str, name: str | None) -> dict[str, Any]:
    """Who plays a seat of ``kind`` (as stored: "human", "open" or "ai:LEVEL") named ``name``
    (:func:`~.store.seat_name`), so that no client parses the seat strings: ``kind`` ("human", "ai" or "open"),
    ``level`` (the AI's, else None), ``name``."""
    agent = seat_agent(kind)
    shown = "open" if kind == "open" else "human" if agent is None else "ai"
    return {"kind": shown, "level": None if agent is None else agent.level, "name": name}


def seat_info(match: Match) -> list[dict[str, Any]]:
    """Per seat of ``match``, :func:`seat_entry`."""
    return [seat_entry(kind, name) for kind, name in zip(match.seats, match.seat_names(), strict=True)]


def match_object(match: Match, final: dict[str, Any] | None = None) -> dict[str, Any]:
    """The match as GET /api/matches/{id} shows it (``final``: its final scoring, for a costly game)."""
    state, ai = match.state, match.ai_to_move()
    return {**board_object(state, final), "id": match.id, "seats": match.seats,
           "record": record_of(state, final), "resigned": state.resigned, "thinking": ai is not None,
           "thinking_seconds": LEVEL_SECONDS.get(ai.level) if ai is not None and ai.level is not None else None,
           "scoring": needs_scoring(state) and final is None, "updated": match.updated,
           "players": match.seat_names(), "seat_info": seat_info(match), "time_control": match.control,
           "rated": match.rated, "ratings": match.ratings, "aborted": match.rated and aborted(state),
           "uncounted": uncounted(match),
           "clock": shown_clock(match.control, match.timing, state.to_move), "timed_out": state.timed_out,
           "help_closed": help_closed(match)}
