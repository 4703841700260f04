"""The rules of changes to a match: who may change it, at which ply, and how undo goes back."""

from __future__ import annotations

from typing import Any

import hexarena
from hexarena.ai import take_back
from hexarena.games.base import IllegalMove, State

from .scoring import costly
from .errors import Refused
from .store.matches import Match, game_of


def seats_of(match: Match, token: str | None, account: int | None = None) -> list[int]:
    """The seats ``token`` or the signed-in ``account`` holds; 403 for none."""
    seats = match.seats_of(token, account)
    if not seats:
        raise Refused(403, "no seat of this match is yours: sign in as its player, or send its seat token")
    return seats


def check_ply(match: Match, ply: int) -> None:
    if ply != match.ply:
        raise Refused(409, f"ply {ply} is stale: the match is at ply {match.ply} (reload it)")


def check_turn(state: State, seats: list[int]) -> None:
    mover = state.to_move  # None once the game is over
    if mover is not None and mover not in seats:
        raise Refused(403, f"not your turn: player {mover + 1} is to move")


MOST_STEPS = 64  # steps in one turn: more than any game's turn has


def play_turn(state: State, moves: list[str]) -> None:
    """Play every step of one turn of the player to move, ``moves``, on ``state`` (a copy: a refusal leaves the
    match as it was); 400 naming the step refused, a step past the turn's end, or a turn left unfinished."""
    if not 1 <= len(moves) <= MOST_STEPS:
        raise Refused(400, f"moves: the steps of one turn, 1 to {MOST_STEPS}; got {len(moves)}")
    mover, turn = state.to_move, state.turn
    for i, move in enumerate(moves, 1):
        if state.is_over() or (state.to_move, state.turn) != (mover, turn):
            raise Refused(400, f"step {i} {move[:64]!r}: the turn ended after step {i - 1}; send one turn")
        try:
            state.play(move)
        except IllegalMove as e:
            raise Refused(400, f"step {i} of the turn: {e}") from None
    if not state.is_over() and (state.to_move, state.turn) == (mover, turn):
        raise Refused(400, f"the turn is not finished after {len(moves)} steps: send all its steps at once")


MOST_LINE = 1000  # steps of a previewed line: more than any game here has


def play_line(start: State, moves: list[str]) -> State:
    """The position after ``start`` and then ``moves`` (a branch: ``start`` is not changed); 400 naming the step
    refused and why."""
    if len(moves) > MOST_LINE:
        raise Refused(400, f"moves: at most {MOST_LINE} steps; got {len(moves)}")
    state = start.copy()
    for i, move in enumerate(moves, 1):
        try:
            state.play(move)
        except IllegalMove as e:
            raise Refused(400, f"{e}" if i == len(moves) else f"step {i} of the line: {e}") from None
    return state


def undo_back(match: Match, state: State, seats: list[int]) -> None:
    """Undo: a resignation, else one move in hot-seat, else back to the requester's previous turn; never a loss
    on time (the server's judgement stands)."""
    if state.timed_out is not None:
        raise Refused(409, f"no undo: {state.game.status(state)}, and a loss on time stands")
    if match.rated:
        raise Refused(403, "no undo in a rated match")
    if not match.against_ai() and len(seats) < 2:
        raise Refused(403, "no undo in a game between two people online")
    take_back(state, seats, kept="the AI's opening moves stay")


def position(match: Match, ply: int) -> State:
    """The position after the first ``ply`` moves of ``match``."""
    if not 0 <= ply <= match.ply:
        raise Refused(400, f"ply {ply} is out of range: 0 to {match.ply}")
    if ply == match.ply:
        return match.state
    state = match.state.game.new_state()
    for action in match.state.history[:ply]:
        state.apply(action)
    return state


def new_state(game: str, options: dict[str, Any]) -> State:
    try:
        return game_of(game, options).new_state()
    except ValueError as e:
        raise Refused(400, str(e)) from None


def from_record(record: dict[str, Any] | str) -> State:
    """The state of an imported record; a costly game's stated scores are not checked (nothing stated is
    kept: the match's scores are computed from its moves, in a worker process)."""
    if isinstance(record, dict) and isinstance(record.get("result"), dict) and scores_costly(record.get("game")):
        record = {**record, "result": {k: v for k, v in record["result"].items() if k != "scores"}}
    try:
        return hexarena.from_record(record)
    except (ValueError, RecursionError) as e:
        raise Refused(400, f"record: {e}") from None


def scores_costly(name: Any) -> bool:
    """True when ``name`` is a game whose exact scores are costly."""
    return isinstance(name, str) and name in hexarena.GAMES and costly(hexarena.games.game_class(name))
