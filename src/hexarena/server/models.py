"""What the routes the web client reads answer, as pydantic models: the response schemas of the OpenAPI document
(/api/openapi.json, docs/server.md).

The routes keep answering objects built by the server and serialised once (:func:`.http.reply`): a route that
returns a ready :class:`~fastapi.Response` is not validated again by FastAPI, so the models cost the hot routes
nothing; tests/server/test_openapi.py validates real answers against them.  Objects that carry a game's own
fields (the board, the record, a review's plies) allow more fields than they name.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

Options = dict[str, Any]  # a game's options, as its rules name them


class Closed(BaseModel):
    """An object with exactly the fields it names."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Open(BaseModel):
    """An object that may carry more fields than it names (a game's own)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


class Empty(Closed):
    """``{}``: done."""


# games ------------------------------------------------------------------------------------------------------------
class GameOption(Closed):
    default: Any
    allowed: Any = Field(description="the values allowed, as the option names them")
    doc: str


class Bounds(Closed):
    min: float
    max: float


class GameInfo(Closed):
    """A game of GET /api/games."""

    name: str
    options: dict[str, GameOption]
    doc: str
    players: list[str]
    rules: str | None = None
    time_control: dict[str, Bounds] = Field(description="the time control's bounds, (initial, increment, days)")
    ai_levels: Bounds = Field(description="the AI's levels (ai:LEVEL seats, ai-LEVEL accounts)")


# the board and the match object ----------------------------------------------------------------------------------
class Target(Closed):
    """A legal move and the cell a click plays it by (None for a word such as "pass")."""

    move: str
    cell: str | None
    picture: int | None = Field(None, description="its picture's index in ``pictures``, for games that draw them")
    loses: bool | None = Field(None, description="true for a move that loses at once")


class Board(Open):
    """A position as the board shows it: ``hexarena replay --json``'s object, its SVG and the click targets."""

    game: str
    options: Options
    moves: list[str]
    to_move: int | None
    over: bool
    winner: int | None
    reason: str | None
    scores: Any = Field(description="per player, where the game scores (null while a costly game goes on)")
    legal_moves: list[str]
    ply: int
    status: str
    turn: int
    step: int
    turns: list[Any] = Field(description="per turn written so far: [turn, [[move, ply], ...]]")
    targets: list[Target]
    labels: dict[str, str]
    svg: str
    pictures: list[str] | None = None


class Preview(Board):
    """POST /api/matches/{id}/preview: the board after a line of moves."""

    from_: int = Field(alias="from")
    line: list[str]
    turn_done: bool


class RatingChange(Closed):
    """A seat's rating in a rated match: before, and after once rated."""

    before: float
    rd: float
    provisional: bool
    after: float | None
    rd_after: float | None


class MatchClock(Closed):
    remaining: list[float]
    deadline: str | None
    running: int | None
    turn_started: str | None


class ChatLine(Closed):
    from_: str = Field(alias="from")
    seat: int
    text: str
    at: str


class SeatInfo(Closed):
    """Who plays a seat."""

    kind: str = Field(description='"human", "ai" or "open"')
    level: int | None
    name: str | None


class MatchObject(Board):
    """GET /api/matches/{id}, the answer to every change of a match, and its live feed's messages."""

    id: str
    seats: list[str]
    record: dict[str, Any]
    resigned: int | None
    thinking: bool
    thinking_seconds: float | None
    scoring: bool
    updated: str
    players: list[str | None]
    time_control: dict[str, int] | None
    rated: bool
    ratings: list[RatingChange | None] | None
    aborted: bool
    uncounted: bool
    clock: MatchClock | None
    timed_out: int | None
    help_closed: str | None
    chat: list[ChatLine]
    tournament: MatchEvent | None = Field(description="the event this match is a game of, or null")
    seat_info: list[SeatInfo] = Field(description="per seat, who plays it: kind, AI level, name")


class MatchEvent(Closed):
    """The event a match is a game of."""

    id: str
    name: str
    round: int


class MatchCreated(Closed):
    id: str
    seats: list[int] = Field(description="the creator's seats")
    token: str


class Joined(Closed):
    seat: int
    token: str


class MatchListed(Closed):
    """A match of GET /api/matches?list=open|recent."""

    id: str
    game: str
    options: Options
    seats: list[str]
    ply: int
    over: bool
    status: str
    updated: str


class Hint(Closed):
    move: str
    rate: float
    proof: str | None


class Position(Closed):
    ply: int
    svg: str
    status: str


class Review(Closed):
    status: str = Field(description='"running" or "done"')
    progress: float
    plies: list[dict[str, Any]]


class ChatPosted(Closed):
    chat: list[ChatLine]


# accounts, players, ratings -------------------------------------------------------------------------------------
class Named(Closed):
    name: str


class Rating(Closed):
    rating: float
    rd: float
    games: int
    provisional: bool


class Me(Closed):
    """GET /api/account."""

    name: str
    ratings: dict[str, Rating]
    email: str | None
    email_verified: bool


class EmailAddress(Closed):
    email: str | None
    email_verified: bool
    verification_sent: bool


class MatchSummary(Closed):
    """A match in an account's lists and on a profile."""

    id: str
    game: str
    options: Options
    players: list[str | None]
    to_move: int | None
    my_seats: list[int]
    ply: int
    over: bool
    winner: int | None
    status: str
    deadline: str | None
    updated: str
    created: str
    clock: dict[str, int] | None
    rated: bool
    seat_info: list[SeatInfo] = Field(description="per seat, who plays it")
    tournament: MatchEvent | None = Field(description="the event this match is a game of, or null")


class MyMatches(Closed):
    ongoing: list[MatchSummary]
    finished: list[MatchSummary]


class RatedGame(Closed):
    at: str
    match: str
    score: float
    before: float
    after: float
    rd: float


class AgainstAI(Closed):
    level: int
    name: str
    wins: int
    losses: int
    draws: int


class Conduct(Closed):
    games: int
    losses: int
    resigned: int
    abandoned: int
    flag: str | None


class Profile(Closed):
    """GET /api/users/{name}."""

    name: str
    joined: str
    ai_level: int | None
    ratings: dict[str, Rating]
    history: dict[str, list[RatedGame]]
    against_ai: dict[str, list[AgainstAI]]
    conduct: Conduct
    matches: list[MatchSummary]
    events: list[EventSummary]


class Leader(Closed):
    name: str
    rating: float
    rd: float
    games: int


class Rung(Leader):
    """An AI level on a game's ladder."""

    level: int
    provisional: bool


# tournaments and championships ------------------------------------------------------------------------------------
class EventSummary(Closed):
    """An event in the lists and on a profile."""

    id: str
    name: str
    game: str
    format: str = Field(description="round-robin, double-round-robin, swiss or knockout")
    status: str = Field(description="upcoming, running or finished")
    players: int
    round: int
    rounds: int = Field(description="0 before the start for the formats that compute their own")
    starts: str | None
    clock: dict[str, int] = Field(description='as a seek\'s: {"initial", "increment"} or {"days"}')
    rated: bool


class EventPlayer(Closed):
    name: str
    seed: int | None = Field(description="1..N, fixed at the start (null before)")
    rating: float
    withdrawn: bool


class Standing(Closed):
    rank: int
    name: str
    points: float
    buchholz: float
    buchholz_cut1: float
    sonneborn_berger: float
    wins: float = Field(description="games won over the board (a float, as every number of a standings row)")
    games: float = Field(description="games played over the board")
    withdrawn: bool


class CrossRow(Closed):
    name: str
    results: dict[str, list[str]] = Field(description='per opponent, the results in round order: "1", "½", "0", '
                                                      '"+", "-" (forfeits)')
    byes: list[int]


class EventGame(Closed):
    seats: list[str]
    match: str | None = Field(description="the match; null for a forfeit")
    result: str | None = Field(description='"1-0", "0-1", "1/2-1/2" from seats[0]\'s side; null while played')
    board: int
    forfeit: bool
    ply: int = Field(description="moves made in its match (0 for a forfeit): a move changes the event object")


class EventRound(Closed):
    round: int
    games: list[EventGame]
    bye: str | None
    byes: list[str] = Field(description="every bye of the round (a knockout's first round may have several)")


class EventEntry(Closed):
    open: bool
    why: str | None


class EventChampionship(Closed):
    game: str
    cycle: int
    division: str


class EventObject(Closed):
    """GET /api/tournaments/{id}, the answer to every change of an event, its live feed's messages."""

    id: str
    name: str
    by: str
    game: str
    options: Options
    format: str
    clock: dict[str, int]
    rated: bool
    status: str
    round: int
    rounds: int
    starts: str | None
    max_players: int
    rating_range: list[int] | None
    players: list[EventPlayer]
    standings: list[Standing]
    crosstable: list[CrossRow]
    pairings: list[EventRound]
    entry: EventEntry
    championship: EventChampionship | None


class Division(Closed):
    name: str
    tournament: str
    players: int


class Championship(Closed):
    """GET /api/championships: a game's standing championship."""

    game: str
    entrants: int
    cycle: int
    status: str = Field(description="waiting or running")
    divisions: list[Division]
    joined: bool
    players: list[str] | None = None
    next_start: str | None = None


# seeks ------------------------------------------------------------------------------------------------------------
class Seek(Closed):
    id: str
    by: str
    game: str
    options: Options
    clock: dict[str, int] | None
    rated: bool
    colour: str
    to: str | None
    created: str
    expires: str


class ListedSeek(Seek):
    rating: int | None = Field(description="its author's rating in its game, whole; null for none")
    established: bool


class Accepted(Closed):
    match: str


# learning ---------------------------------------------------------------------------------------------------------
class CourseCard(Closed):
    name: str
    tagline: str
    first: bool
    svg: str


class LessonBoard(Closed):
    svg: str
    targets: list[dict[str, Any]] = Field(description="the board's click targets (as Target, without ``loses``)")
    labels: dict[str, str] | None = None
    pictures: list[str] | None = None


class Lesson(LessonBoard):
    id: str
    title: str
    text: str
    question: str
    kind: str


class Sample(Closed):
    title: str
    source: str
    record: str = Field(description="the game's record in the text notation")
    moves: list[str]


class HowToPlay(Closed):
    name: str
    tagline: str
    how_to_play: list[str]
    lessons: list[Lesson]
    samples: list[Sample]


class Verdict(LessonBoard):
    correct: bool | None = Field(description="null: right so far, go on")
    explanation: str | None


# the analysis reports ---------------------------------------------------------------------------------------------
class ReportListed(Closed):
    """A report of GET /api/reports."""

    name: str
    title: str
    game: str
    agents: Any
    games: int
    sets: list[str]
    seed: Any
    updated: str
    html: str
    json_: str = Field(alias="json")
