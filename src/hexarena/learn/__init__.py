"""How to play each game: its rules for the web board, lessons checked by the library, the sources' samples.

A game's course is ``learn/<game>.json``.  A lesson is a position (``moves`` from the start, with ``options``), a
question and a ``test`` that the library decides:

- ``{"wins": P}``: player P has won;
- ``{"connects": [a, b]}``: the stones on ``a`` and ``b`` are one player's, in one group;
- ``{"legal": m}``: ``m`` is a legal move.

Its ``kind`` says how it is answered: ``moves`` (steps played from the position, after which the test must hold) or
``yesno`` (whether the test holds in the position, or after its ``suppose`` moves).  ``answer`` is the stored
answer, which the tests check.

>>> lesson = course("hex-pushpin").lessons[0]
>>> check(lesson, lesson.answer).correct
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

import hexarena
from hexarena.games.base import State

KINDS = ("moves", "yesno")
TESTS = ("wins", "connects", "legal")


@dataclass(frozen=True)
class Lesson:
    game: str
    id: str
    title: str
    text: str
    question: str
    kind: str
    test: dict[str, Any]
    answer: tuple[str, ...]
    moves: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    suppose: tuple[str, ...] = ()  # a yesno lesson's moves played before its test
    explain: str = ""  # said with the verdict


@dataclass(frozen=True)
class Sample:
    title: str
    source: str
    record: str  # a text record


@dataclass(frozen=True)
class Course:
    game: str
    tagline: str
    first: bool
    how_to_play: tuple[str, ...]
    picture: Lesson  # the lobby's picture: the position of this lesson
    lessons: tuple[Lesson, ...]
    samples: tuple[Sample, ...]

    def lesson(self, lesson_id: str) -> Lesson:
        """The lesson ``lesson_id``; KeyError names the lessons there are."""
        for lesson in self.lessons:
            if lesson.id == lesson_id:
                return lesson
        raise KeyError(f"no lesson {lesson_id!r} for {self.game}; lessons: {', '.join(x.id for x in self.lessons)}")


class Verdict(NamedTuple):
    correct: bool | None  # None: the answer is right so far, more steps to come
    explanation: str
    state: State  # the position after the answer


@cache
def course(game: str) -> Course:
    """The course of ``game`` (a name of :data:`hexarena.GAMES`); KeyError names the games."""
    if game not in hexarena.GAMES:
        raise KeyError(f"no course for {game!r}; games: {', '.join(hexarena.GAMES)}")
    data = json.loads(resources.files(__package__).joinpath(f"{game}.json").read_text(encoding="utf-8"))
    lessons = tuple(_lesson(game, d) for d in data["lessons"])
    return Course(game, data["tagline"], data["first"], tuple(data["how_to_play"]),
                  next(x for x in lessons if x.id == data["picture"]), lessons,
                  tuple(Sample(**d) for d in data["samples"]))


def _lesson(game: str, d: dict[str, Any]) -> Lesson:
    if d["kind"] not in KINDS or len(d["test"]) != 1 or next(iter(d["test"])) not in TESTS:
        raise ValueError(f"lesson {d['id']!r}: kind is one of {KINDS}, test one of {TESTS}")
    return Lesson(game=game, **{**d, "answer": tuple(d["answer"]), "moves": tuple(d.get("moves", ())),
                     "suppose": tuple(d.get("suppose", ()))})


def position(lesson: Lesson) -> State:
    """The lesson's position, played from the start by the library."""
    state = hexarena.load(lesson.game, **lesson.options).new_state()
    for move in lesson.moves:
        state.play(move)
    return state


def holds(state: State, test: dict[str, Any]) -> bool:
    """Whether the lesson's ``test`` holds in ``state``, as the library sees it."""
    (name, arg), = test.items()
    if name == "wins":
        return state.is_over() and state.winner() == arg
    if name == "legal":
        return arg in state.legal_moves()
    return any(connected(state, player, *arg) for player in (0, 1))


def connected(state: State, player: int, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` hold ``player``'s stones joined by a chain of them."""
    topo = state.game.topology
    own = state.game.planes(state.array, player)[0]
    start, goal = topo.index(a), topo.index(b)
    seen, todo = {start}, [start] if own[start] else []
    while todo:
        for m in topo.neighbours(todo.pop()):
            if own[m] and m not in seen:
                seen.add(m)
                todo.append(m)
    return bool(own[goal]) and goal in seen


def check(lesson: Lesson, answer: list[str] | tuple[str, ...]) -> Verdict:
    """Judge ``answer`` to ``lesson`` with the library: a ``yesno`` lesson's "yes" or "no" against its test in
    the position; a ``moves`` lesson's steps played from the position (an illegal one is wrong, with the rule's
    reason), then its test, or, with fewer steps than the stored answer, None (so far legal)."""
    state = position(lesson)
    if lesson.kind == "yesno":
        return _yes_or_no(lesson, answer, state)
    for move in answer:
        try:
            state.play(move)
        except hexarena.IllegalMove as e:
            return Verdict(False, f"{move} is not legal here: {e}", state)
        if state.is_over():
            break
    if holds(state, lesson.test):
        return Verdict(True, _said(lesson.explain, state), state)
    if len(answer) < len(lesson.answer) and not state.is_over():
        return Verdict(None, f"so far so good: {state.game.status(state)}", state)
    return Verdict(False, f"after {' '.join(answer)}, {unmet(state, lesson.test)} ({state.game.status(state)})", state)


def unmet(state: State, test: dict[str, Any]) -> str:
    """What a failed ``test`` wanted, in words."""
    (name, arg), = test.items()
    if name == "wins":
        return f"{state.game.PLAYERS[arg]} has not won"
    if name == "connects":
        return f"{arg[0]} and {arg[1]} are not joined"
    return f"{arg} is not legal"


def _yes_or_no(lesson: Lesson, answer: list[str] | tuple[str, ...], state: State) -> Verdict:
    if list(answer) not in (["yes"], ["no"]):
        return Verdict(False, "answer yes or no", state)
    for move in lesson.suppose:
        state.play(move)
    truth = holds(state, lesson.test)
    return Verdict((answer[0] == "yes") == truth, _said(lesson.explain, state), state)


def _said(explain: str, state: State) -> str:
    return f"{explain} ({state.game.status(state)})" if explain else state.game.status(state)


def sample_state(game: str, sample: Sample, ply: int | None = None) -> State:
    """The sample game replayed by the library, to its end (a resignation included) or its first ``ply`` moves."""
    state = hexarena.from_record(sample.record)
    if state.game.name != game:
        raise ValueError(f"the sample {sample.title!r} is a record of {state.game.name}, not {game}")
    if ply is None or ply >= len(state.history):
        return state
    shown = hexarena.load(game, **state.game.options).new_state()
    for action in state.history[:ply]:
        shown.apply(action)
    return shown
