"""Chat between the players of a match (docs/server.md, "Chat") on SQLite and PostgreSQL: posted by session or
seat token, read by everyone in the match object and live, refused to spectators and for bad text (no row
changed), limited per seat, bounded, and never bumping the match's version."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, insert, select

from hexarena.server import chat as chat_module
from hexarena.server import create_app
from hexarena.server.schema import chat, matches
from tests.server.helpers import fresh_pg
from tests.server.test_accounts import PASSWORD, csrf, play_online
from tests.waits import receive_json


@pytest.fixture
def app(db_url: str) -> Iterator[tuple[TestClient, str]]:
    with TestClient(create_app(db_url)) as c:
        yield c, db_url


def say(client: TestClient, match_id: str, text: str, **extra) -> dict:
    headers = csrf(client) if client.cookies.get("csrf") else {}
    r = client.post(f"/api/matches/{match_id}/chat", json={"text": text, **extra}, headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


def table_rows(url: str) -> list[tuple]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            lines = conn.execute(select(chat.c.match_id, chat.c.seat, chat.c.text).order_by(chat.c.id)).all()
            versions = conn.execute(select(matches.c.id, matches.c.version).order_by(matches.c.id)).all()
            return [tuple(r) for r in lines] + [tuple(r) for r in versions]
    finally:
        engine.dispose()


def test_players_chat_both_ways_and_everyone_reads_it(app) -> None:
    client, other, match_id = play_online(app)
    assert client.get(f"/api/matches/{match_id}").json()["chat"] == []
    answer = say(client, match_id, "good luck <b>&</b>\nhave fun")
    assert [line["text"] for line in answer["chat"]] == ["good luck <b>&</b>\nhave fun"]
    say(other, match_id, "  you too  ")
    spectator = TestClient(client.app)
    lines = spectator.get(f"/api/matches/{match_id}").json()["chat"]
    assert [(line["from"], line["seat"], line["text"]) for line in lines] == [
        ("first", 0, "good luck <b>&</b>\nhave fun"), ("second", 1, "  you too  ")]
    assert all(line["at"].endswith("+00:00") for line in lines)
    r = client.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=csrf(client))
    assert r.status_code == 200, r.text
    assert [line["from"] for line in spectator.get(f"/api/matches/{match_id}").json()["chat"]] == [
        "(deleted)", "second"]


def test_guests_chat_by_seat_token_signed_with_the_seat(app) -> None:
    client, _ = app
    made = client.post("/api/matches", json={"game": "projective-hex", "options": {"size": 2},
                                             "seats": ["me", "open"]}).json()
    joined = client.post(f"/api/matches/{made['id']}/join").json()
    say(client, made["id"], "hello", token=made["token"])
    say(client, made["id"], "hi", token=joined["token"])
    lines = client.get(f"/api/matches/{made['id']}").json()["chat"]
    assert [(line["from"], line["text"]) for line in lines] == [("guest (first)", "hello"), ("guest (second)", "hi")]


def test_refusals_change_no_row(app) -> None:
    client, url = app
    _, other, match_id = play_online(app)
    say(client, match_id, "a line")
    before = table_rows(url)
    spectator = TestClient(client.app)
    post = f"/api/matches/{match_id}/chat"
    cases = [
        (client.post(post, json={"text": "x" * 501}, headers=csrf(client)), 400, "501 characters, at most 500"),
        (client.post(post, json={"text": ""}, headers=csrf(client)), 400, "not only white space"),
        (client.post(post, json={"text": " \n\t "}, headers=csrf(client)), 400, "not only white space"),
        (client.post(post, json={"text": "bell\x07"}, headers=csrf(client)), 400, "control character"),
        (client.post(post, json={"text": "abc\u202edef"}, headers=csrf(client)), 400,
         "the bidirectional control U+202E (RIGHT-TO-LEFT OVERRIDE) is not allowed"),
        (client.post(post, json={"text": "\u2066isolated\u2069"}, headers=csrf(client)), 400, "U+2066"),
        (client.post(post, json={"text": "z" + "\u0336" * 300}, headers=csrf(client)), 400,
         "more than 3 combining marks on character 1; at most 3 on one character"),
        (client.post(post, json={"text": "ok z\u0336\u0337\u0336\u0337"}, headers=csrf(client)), 400, "character 4"),
        (client.post(post, json={"text": 5}, headers=csrf(client)), 400, "text"),
        (client.post(post, json={}, headers=csrf(client)), 400, "text"),
        (client.post(post, json={"text": "no csrf"}), 403, "X-CSRF-Token"),
        (spectator.post(post, json={"text": "I watch"}), 403, "no seat of this match is yours"),
        (spectator.post(post, json={"text": "I guess", "token": "guessed"}), 403, "no seat"),
        (client.post("/api/matches/nosuch/chat", json={"text": "hi"}, headers=csrf(client)), 404, "no match"),
    ]
    for response, status, words in cases:
        assert response.status_code == status, response.text
        assert set(response.json()) == {"error"} and words in response.json()["error"], response.text
    assert table_rows(url) == before
    assert len(say(other, match_id, "x" * 500)["chat"][-1]["text"]) == 500


def test_text_is_kept_in_nfc_with_a_few_marks_and_the_bidi_marks(app) -> None:
    """Issue 42 item 11: 300 combining marks drew over other lines, U+202E reversed a line; the text is now
    normalised (NFC) before it is measured and kept, so "e" + U+0301 is one character, "é"; pointed Hebrew (3
    marks on a letter, put in canonical order), the right-to-left mark U+200F and emoji sequences are kept."""
    client, url = app
    _, other, match_id = play_online(app)
    sent = ["cafe\u0301", "e\u0301" * 300, "\u05e9\u05bc\u05c1\u05b6", "\u05e9\u05dc\u05d5\u05dd\u200f 42",
            "1\ufe0f\u20e3 \U0001F3F3\ufe0f\u200d\U0001F308"]
    for words in sent:
        say(other, match_id, words)
    kept = ["caf\u00e9", "\u00e9" * 300, "\u05e9\u05b6\u05bc\u05c1", "\u05e9\u05dc\u05d5\u05dd\u200f 42",
            "1\ufe0f\u20e3 \U0001F3F3\ufe0f\u200d\U0001F308"]
    assert [line["text"] for line in client.get(f"/api/matches/{match_id}").json()["chat"]] == kept
    assert [r[2] for r in table_rows(url) if len(r) == 3] == kept


def test_a_line_reaches_the_watchers_at_once_and_bumps_no_version(app) -> None:
    client, url = app
    _, other, match_id = play_online(app)
    version = dict(table_rows(url)[-1:])[match_id]
    with TestClient(client.app).websocket_connect(f"/api/matches/{match_id}/live") as ws:
        assert receive_json(ws)["chat"] == []
        say(other, match_id, "watch this")
        assert [line["text"] for line in receive_json(ws)["chat"]] == ["watch this"]
        move = client.get(f"/api/matches/{match_id}").json()["legal_moves"][0]
        r = client.post(f"/api/matches/{match_id}/moves", json={"move": move, "ply": 0}, headers=csrf(client))
        assert r.status_code == 200 and [line["text"] for line in r.json()["chat"]] == ["watch this"]
        pushed = receive_json(ws)
        assert pushed["moves"] == [move] and len(pushed["chat"]) == 1
    assert dict(table_rows(url)[-1:])[match_id] == version + 1  # the move, not the line


def test_too_many_lines_from_one_seat(app, monkeypatch) -> None:
    client, _, match_id = play_online(app)
    for i in range(chat_module.SEAT_RATE.count):
        say(client, match_id, f"line {i}")
    r = client.post(f"/api/matches/{match_id}/chat", json={"text": "one more"}, headers=csrf(client))
    assert r.status_code == 429 and "from your seat" in r.json()["error"] and int(r.headers["Retry-After"]) >= 1


def test_the_newest_lines_are_shown_and_a_full_chat_refuses(app) -> None:
    client, url = app
    _, other, match_id = play_online(app)
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(insert(chat), [{"match_id": match_id, "seat": i % 2, "account_id": None, "text": f"n{i}",
                                     "at": "2026-11-26T00:00:00.000+00:00"} for i in range(chat_module.MOST - 1)])
    answer = say(other, match_id, "the last")
    assert len(answer["chat"]) == chat_module.SHOWN
    assert [line["text"] for line in answer["chat"][-2:]] == [f"n{chat_module.MOST - 2}", "the last"]
    r = client.post(f"/api/matches/{match_id}/chat", json={"text": "too many"}, headers=csrf(client))
    assert r.status_code == 409 and "full" in r.json()["error"]
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(chat)).scalar() == chat_module.MOST
    engine.dispose()


def test_a_line_posted_through_one_process_reaches_the_watchers_of_another() -> None:
    with fresh_pg() as url, TestClient(create_app(url)) as one, TestClient(create_app(url)) as two:
        _, other, match_id = play_online((one, None))
        with two.websocket_connect(f"/api/matches/{match_id}/live") as ws:
            assert receive_json(ws)["chat"] == []
            say(other, match_id, "across")
            assert [line["text"] for line in receive_json(ws)["chat"]] == ["across"]
