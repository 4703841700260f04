"""Request bodies: strict JSON types (``"ply": "3"`` is refused), unknown fields ignored."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr


class Body(BaseModel):
    model_config = ConfigDict(strict=True)


class NewMatch(Body):
    game: StrictStr
    options: dict[str, Any] = {}
    seats: list[StrictStr]


class Import(Body):
    record: dict[str, Any] | StrictStr
    seats: list[StrictStr]


class MovePost(Body):
    move: StrictStr
    ply: StrictInt
    token: StrictStr | None = None  # a guest's seat token; a signed-in player's session names the seat


class TurnPost(Body):
    moves: list[StrictStr]  # every step of one turn, in order
    ply: StrictInt
    token: StrictStr | None = None


class PreviewPost(Body):
    moves: list[StrictStr]  # the line played from ``ply``
    ply: StrictInt | None = None  # the match's ply the line starts from (null: its newest)


class UndoPost(Body):
    ply: StrictInt
    token: StrictStr | None = None


class ResignPost(Body):
    token: StrictStr | None = None


class Credentials(Body):
    name: StrictStr
    password: StrictStr


class HeldSeat(Body):
    match: StrictStr
    token: StrictStr


class SignIn(Credentials):
    seats: list[HeldSeat] = []  # the guest seats this browser holds: they become the account's


class PasswordChange(Body):
    old: StrictStr
    new: StrictStr


class PasswordCheck(Body):
    password: StrictStr


class ChatPost(Body):
    text: StrictStr
    token: StrictStr | None = None  # a guest's seat token; a signed-in player's session names the seat


class EmailSet(Body):
    email: StrictStr | None  # the address, or null (or "") to clear it


class NewSeek(Body):
    game: StrictStr
    options: dict[str, Any] = {}
    clock: dict[str, Any] | None = None  # null, {"days": D} or {"initial": S, "increment": S} (.clocks)
    rated: StrictBool = False
    colour: StrictStr = "random"  # the author's seat: first, second or random
    to: StrictStr | None = None   # a player's name: a challenge to them alone


class AnswerPost(Body):
    moves: list[StrictStr] = Field(max_length=64)  # a lesson's answer: its steps, or ["yes"] / ["no"]


class NewTournament(Body):
    """POST /api/tournaments: every field checked by the server itself (:mod:`..tournaments.fields`), so a wrong
    one is named with what is allowed."""

    name: Any = None
    game: Any = None
    options: Any = {}
    format: Any = None
    rounds: Any = None            # a Swiss's rounds (1..20); the other formats compute theirs
    clock: Any = None             # {"days": D} or {"initial": S, "increment": S}; null is refused
    rated: Any = False
    max_players: Any = 64
    rating_range: Any = None      # [lo, hi] or null
    starts: Any = None            # ISO-8601 with its offset, in the future, or null (started by its creator)


class Invite(Body):
    name: Any = None  # ai-1 .. ai-10
