"""/api/learn: each game's how-to-play page, its lessons (answers judged by :mod:`hexarena.learn`) and the sources'
sample games, step by step."""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

import hexarena
from hexarena import learn
from hexarena.games.base import State

from ..http import reply
from ..errors import Refused
from ..models import CourseCard, HowToPlay, Position, Verdict
from ..view import board_object
from .bodies import AnswerPost

router = APIRouter(prefix="/api/learn", tags=["learn"])
BOARD = ("svg", "targets", "labels", "pictures")  # what a lesson's board needs of the match object


def board(state: State) -> dict[str, Any]:
    """The position as the match page's board draws it: its SVG and the click targets of its legal moves, without
    the marks of moves that lose at once (a lesson's question may be which ones do)."""
    shown = board_object(state)
    shown["targets"] = [{k: v for k, v in t.items() if k != "loses"} for t in shown["targets"]]
    return {k: shown[k] for k in BOARD if k in shown}


def course(game: str) -> learn.Course:
    try:
        return learn.course(game)
    except KeyError as e:
        raise Refused(404, e.args[0]) from None


def lesson(game: str, lesson_id: str) -> learn.Lesson:
    try:
        return course(game).lesson(lesson_id)
    except KeyError as e:
        raise Refused(404, e.args[0]) from None


@cache
def index() -> list[dict[str, Any]]:
    return [{"name": g, "tagline": c.tagline, "first": c.first, "svg": learn.position(c.picture).svg()}
            for g in hexarena.GAMES for c in [learn.course(g)]]


@cache
def page(game: str) -> dict[str, Any]:
    c = course(game)
    lessons = [{"id": x.id, "title": x.title, "text": x.text, "question": x.question, "kind": x.kind,
                **board(learn.position(x))} for x in c.lessons]
    samples = [{"title": s.title, "source": s.source, "record": s.record,
                "moves": learn.sample_state(game, s).moves()} for s in c.samples]
    return {"name": game, "tagline": c.tagline, "how_to_play": c.how_to_play, "lessons": lessons, "samples": samples}


@router.get("", response_model=list[CourseCard])
def courses() -> Response:
    """Every game's name, one line of its character, whether it is the suggested first game, and a picture."""
    return reply(index())


@router.get("/{game}", response_model=HowToPlay)
def how_to_play(game: str) -> Response:
    return reply(page(game))


@router.post("/{game}/lessons/{lesson_id}", response_model=Verdict)
def answer(game: str, lesson_id: str, body: AnswerPost) -> Response:
    """The verdict on an answer (``correct`` null: right so far, go on) and the board after it."""
    verdict = learn.check(lesson(game, lesson_id), body.moves)
    return reply({"correct": verdict.correct, "explanation": verdict.explanation, **board(verdict.state)})


@router.get("/{game}/samples/{index}", response_model=Position)
def sample(game: str, index: int, ply: int) -> Response:
    """Sample game ``index`` after its first ``ply`` moves."""
    samples = course(game).samples
    if not 0 <= index < len(samples):
        raise Refused(404, f"no sample {index} for {game}; it has {len(samples)}")
    total = len(page(game)["samples"][index]["moves"])
    if not 0 <= ply <= total:
        raise Refused(400, f"ply must be from 0 to {total}")
    state = learn.sample_state(game, samples[index], ply)
    return reply({"ply": ply, "svg": state.svg(), "status": state.game.status(state)})
