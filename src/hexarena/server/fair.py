"""Fair play (docs/server.md, "Fair play"): what helps a player (the AI's hints, reviews and analysis, lines tried
on a scratch board) is closed to everyone, players and spectators alike, while a rated match or a match between
two people goes on; it all opens when the game ends.  Casual games against the AI, and hot-seat games (one holder
in both seats), keep it.

No web framework here: the routes ask :func:`check_help` and the match object shows :func:`help_closed`.
"""

from __future__ import annotations

from hexarena.games.base import State

from .errors import Refused
from .store.matches import Match

RATED = "a rated game is in progress"
TWO_PEOPLE = "a game between two people is in progress"


def hot_seat(match: Match) -> bool:
    """Whether one holder (a seat token, or an account) has both seats: one person, or two at one screen."""
    first, second = match.tokens
    same_token = first is not None and first == second
    same_account = match.accounts[0] is not None and match.accounts[0] == match.accounts[1]
    return same_token or same_account


def help_closed(match: Match) -> str | None:
    """Why nobody may have the AI's help with ``match`` now, or None when its help is open (the game is over, or
    it is a casual game against the AI, or hot-seat)."""
    if match.state.is_over():
        return None
    if match.rated:
        return RATED
    if match.against_ai() or hot_seat(match):
        return None
    return TWO_PEOPLE


def check_help(match: Match, what: str) -> None:
    """403 naming why when ``what`` (e.g. "hints") is closed for ``match`` now."""
    why = help_closed(match)
    if why is not None:
        raise Refused(403, f"no {what}: {why}; {what} open when it ends (fair play)")


def within_turn(start: State, moves: list[str]) -> bool:
    """Whether ``moves`` from ``start`` are all steps of the turn begun there (the turn builder's staged steps and
    a move's preview), not a line into later turns."""
    state = start.copy()
    for move in moves:
        if state.is_over() or (state.to_move, state.turn) != (start.to_move, start.turn):
            return False
        try:
            state.play(move)
        except ValueError:
            return True  # the refusal itself is what the preview says (a click's reason)
    return True
