"""The lessons: every position and sample game replays through the library, every stored answer is judged correct
by it and a wrong one refused; the /api/learn routes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

import hexarena
from hexarena.learn import Lesson, check, course, position, sample_state
from hexarena.server import create_app, models

LESSONS = [(g, x) for g in hexarena.GAMES for x in course(g).lessons]


def ids(item: tuple[str, Lesson]) -> str:
    return f"{item[0]}:{item[1].id}"


def wrong_answer(lesson: Lesson) -> list[str]:
    """A wrong answer: the other word of a yes/no, else the first step (a legal one if there is, else any cell)
    that is not the stored one and fails the test."""
    if lesson.kind == "yesno":
        return ["no" if lesson.answer == ("yes",) else "yes"]
    state = position(lesson)
    steps = [*state.legal_moves(), *state.game.topology.names]
    tries = ([m, *lesson.answer[1:]] for m in steps if m != lesson.answer[0])
    return next(t for t in tries if check(lesson, t).correct is False)


def test_every_game_has_a_course_with_two_lessons_or_more_and_one_first_game():
    assert all(len(course(g).lessons) >= 2 for g in hexarena.GAMES)
    assert [g for g in hexarena.GAMES if course(g).first] == ["projective-hex"]
    assert all(course(g).tagline and course(g).how_to_play for g in hexarena.GAMES)


@pytest.mark.parametrize("item", LESSONS, ids=ids)
def test_the_stored_answer_is_correct_and_a_wrong_one_is_refused(item):
    game, lesson = item
    state = position(lesson)
    assert not state.is_over()
    verdict = check(lesson, lesson.answer)
    assert verdict.correct is True, verdict.explanation
    refused = check(lesson, wrong_answer(lesson))
    assert refused.correct is False and refused.explanation


def test_an_illegal_step_is_refused_with_the_rules_reason():
    lesson = course("hex-pushpin").lesson("passes")
    verdict = check(lesson, ["e4"])
    assert verdict.correct is False and "e4 is not legal here" in verdict.explanation


def test_a_right_beginning_of_a_longer_answer_is_neither_right_nor_wrong():
    lesson = course("iqishiqi").lesson("winning-path")
    verdict = check(lesson, lesson.answer[:1])
    assert verdict.correct is None and verdict.state.moves()[-1] == lesson.answer[0]


@pytest.mark.parametrize("game", [g for g in hexarena.GAMES if course(g).samples])
def test_the_sample_games_replay_and_step(game):
    for sample in course(game).samples:
        state = sample_state(game, sample)
        assert hexarena.from_record(state.record_text()) == state
        assert sample_state(game, sample, len(state.history)).history == state.history
        assert sample_state(game, sample, 0).history == []


# --- the routes ----------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def client(tmp_path_factory) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path_factory.mktemp('learn') / 'hexarena.db'}")) as c:
        yield c


def test_the_index_lists_every_game_with_a_picture(client):
    rows = client.get("/api/learn").json()
    TypeAdapter(list[models.CourseCard]).validate_python(rows)  # as its response model names it
    assert [r["name"] for r in rows] == list(hexarena.GAMES)
    assert all(r["svg"].startswith("<svg") and r["tagline"] for r in rows)
    assert sum(r["first"] for r in rows) == 1


def test_a_game_page_has_its_lessons_boards_and_samples(client):
    page = client.get("/api/learn/weituweiqi").json()
    assert page["how_to_play"] and len(page["samples"]) == 2
    escape = next(x for x in page["lessons"] if x["id"] == "escape")
    assert escape["kind"] == "moves" and {"move": "e8e", "cell": "e8"} in escape["targets"]
    assert escape["svg"].startswith("<svg")


def test_answers_are_judged(client):
    right = client.post("/api/learn/weituweiqi/lessons/escape", json={"moves": ["e8e"]}).json()
    assert right["correct"] is True and "wins" in right["explanation"] and right["targets"] == []
    wrong = client.post("/api/learn/projective-hex/lessons/local-ring", json={"moves": ["yes"]}).json()
    assert wrong["correct"] is False and "crosses the glued edges twice" in wrong["explanation"]


def test_sample_positions_step(client):
    start = client.get("/api/learn/hex-pushpin/samples/0?ply=0").json()
    assert start["ply"] == 0 and "pin on g4" in start["status"]
    first = client.get("/api/learn/hex-pushpin/samples/0?ply=1").json()
    assert "pin on k4" in first["status"]


@pytest.mark.parametrize(("method", "path", "status", "words"), [
    ("get", "/api/learn/chess", 404, "games: projective-hex"),
    ("post", "/api/learn/lisbon/lessons/nope", 404, "lessons: one-per-group, y"),
    ("get", "/api/learn/lisbon/samples/0?ply=0", 404, "no sample 0 for lisbon"),
    ("get", "/api/learn/hex-pushpin/samples/0?ply=99", 400, "ply must be from 0 to 13"),
    ("post", "/api/learn/lisbon/lessons/y", 400, "moves"),
])
def test_refusals_name_what_is_allowed(client, method, path, status, words):
    r = client.post(path, json={"moves": []} if "nope" in path else {}) if method == "post" else client.get(path)
    assert r.status_code == status and words in r.json()["error"]
