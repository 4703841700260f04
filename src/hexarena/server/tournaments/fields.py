"""A new event's fields checked (POST /api/tournaments): each wrong field refused with a 400 that names it and what
is allowed.  No web framework here."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from hexarena.games.options import shown
from hexarena.record_writer import at

from ..chat import check_text
from ..errors import Refused
from ..seeks import checked_clock, checked_options

FORMATS = ("round-robin", "double-round-robin", "swiss", "knockout")
NAME_LENGTH = 60
SWISS_ROUNDS = (1, 20)
PLAYERS = (2, 500)  # max_players allowed; the server's own cap (Limits.event_players) may be lower
DEFAULT_PLAYERS = 64
RATINGS = (0, 4000)


@dataclass(frozen=True)
class NewEvent:
    """An event's fields as checked."""

    name: str
    game: str
    options: dict[str, Any]
    format: str
    rounds: int  # 0 for the formats that compute their own at the start
    clock: dict[str, int]
    rated: bool
    max_players: int
    rating_range: tuple[int, int] | None
    starts: str | None


def checked_event(body: dict[str, Any], now: float, most_players: int) -> NewEvent:
    """The event ``body`` describes, checked at ``now`` (``most_players``: the server's cap on max_players)."""
    game = body.get("game")
    options = checked_options(game, body.get("options", {}))
    fmt = checked_format(body.get("format"))
    return NewEvent(name=checked_name(body.get("name")), game=str(game), options=options, format=fmt,
                    rounds=checked_rounds(fmt, body.get("rounds")), clock=checked_event_clock(body.get("clock")),
                    rated=checked_bool("rated", body.get("rated", False)),
                    max_players=checked_players(body.get("max_players", DEFAULT_PLAYERS), most_players),
                    rating_range=checked_range(body.get("rating_range")),
                    starts=checked_starts(body.get("starts"), now))


def checked_name(name: Any) -> str:
    """An event's name: chat text's rules (:func:`~..chat.check_text`), white space runs made one space, 1 to
    :data:`NAME_LENGTH` characters."""
    if not isinstance(name, str) or not name.strip():
        raise Refused(400, f"name: 1 to {NAME_LENGTH} characters, not only white space")
    try:
        text = check_text(" ".join(name.split()))
    except Refused as e:
        raise Refused(400, "name" + e.message.removeprefix("text")) from None
    if len(text) > NAME_LENGTH:
        raise Refused(400, f"name: {len(text)} characters, at most {NAME_LENGTH} allowed")
    return text


def checked_format(fmt: Any) -> str:
    if fmt not in FORMATS:
        raise Refused(400, f"format {shown(fmt)}: one of {', '.join(FORMATS)}")
    return str(fmt)


def checked_rounds(fmt: str, rounds: Any) -> int:
    """A Swiss's rounds (required, 1..20); the other formats compute theirs (a number given is refused unless null)."""
    low, high = SWISS_ROUNDS
    if fmt != "swiss":
        if rounds is not None:
            raise Refused(400, f"rounds: a {fmt} computes its own rounds from its players; leave rounds out")
        return 0
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not low <= rounds <= high:
        raise Refused(400, f"rounds {shown(rounds)}: a Swiss needs a whole number of rounds from {low} to {high}")
    return rounds


def checked_event_clock(clock: Any) -> dict[str, int]:
    """A seek's time control (:func:`~..seeks.checked_clock`); an event needs one: null is refused."""
    control = checked_clock(clock)
    if control is None:
        raise Refused(400, 'clock: an event needs a time control, {"initial": S, "increment": S} or {"days": D}')
    return control


def checked_bool(field: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise Refused(400, f"{field} {shown(value)}: true or false")
    return value


def checked_players(most: Any, cap: int) -> int:
    low, high = PLAYERS[0], min(PLAYERS[1], cap)
    if isinstance(most, bool) or not isinstance(most, int) or not low <= most <= high:
        raise Refused(400, f"max_players {shown(most)}: a whole number from {low} to {high}")
    return most


def checked_range(span: Any) -> tuple[int, int] | None:
    """``[lo, hi]``: the ratings (in the event's game) allowed to join, or null for any."""
    if span is None:
        return None
    low, high = RATINGS
    if (not isinstance(span, list) or len(span) != 2 or any(isinstance(v, bool) or not isinstance(v, int)
                                                             for v in span) or not low <= span[0] <= span[1] <= high):
        raise Refused(400, f"rating_range {shown(span)}: [lo, hi], whole numbers with {low} <= lo <= hi <= {high}, "
                           f"or null for any rating")
    return span[0], span[1]


def checked_starts(starts: Any, now: float) -> str | None:
    """When the judge starts the event: an ISO-8601 time with its offset, in the future; or null (its creator
    starts it).  Kept as the stored times are (UTC, milliseconds)."""
    if starts is None:
        return None
    try:
        moment = datetime.fromisoformat(starts) if isinstance(starts, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise Refused(400, f"starts {shown(starts)}: an ISO-8601 time with its offset (e.g. "
                           f"2030-01-31T18:00:00+00:00), or null to start it by hand")
    if moment.timestamp() <= now:
        raise Refused(400, f"starts {shown(starts)}: that time has passed; give a time in the future")
    return at(moment.timestamp())
