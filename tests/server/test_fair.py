"""Fair play (docs/server.md, "Fair play") on SQLite and PostgreSQL: while a rated match or a match between two
people goes on, nobody (its players, spectators) gets hints, reviews or lines tried ahead, refused by the server
(403 naming why) and shown as closed in the match object; after the end everything opens; casual games against the
AI and hot-seat keep their hints.  Rated games between the same two accounts count at most PAIR_GAMES a day; quick
losses (resigned at once, abandoned) show on the loser's profile."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import hexarena
from hexarena.server import create_app, rating
from hexarena.server.limits import Limits
from tests.server.helpers import create, get
from tests.server.test_accounts import csrf, register
from tests.server.test_arena import FakeClock, accept, seek
from tests.server.test_ratings import first_moves, resign


@pytest.fixture
def people(db_url: str) -> Any:
    """Three clients of one server: ann and bob signed in, and a signed-out watcher."""
    app = create_app(db_url, clock=FakeClock(), limits=Limits(judge_seconds=0))
    with TestClient(app) as ann:
        bob, watcher = TestClient(app), TestClient(app)
        register(ann, "ann")
        register(bob, "bob")
        yield ann, bob, watcher


def to_move(players: tuple[TestClient, TestClient], match_id: str) -> TestClient:
    """The client of the seat to move (ann holds seat 0: her seeks say "first")."""
    return players[get(players[0], match_id)["to_move"]]


def helps(client: TestClient, match_id: str) -> dict[str, Any]:
    """Every kind of help asked by ``client``: name -> the response."""
    url = f"/api/matches/{match_id}"
    return {"hint": client.get(f"{url}/hint"),
            "review": client.get(f"{url}/analysis"),
            "scratch": client.post(f"{url}/preview", json={"ply": 0, "moves": get(client, match_id)["moves"][:1]}),
            "line": client.post(f"{url}/preview", json={"moves": two_turns(client, match_id)})}


def two_turns(client: TestClient, match_id: str) -> list[str]:
    """Moves from the match's position into the opponent's turn (a line ahead)."""
    obj = get(client, match_id)
    state = hexarena.load(obj["game"], **obj["options"]).new_state()
    for m in obj["moves"]:
        state.play(m)
    line: list[str] = []
    start = (state.to_move, state.turn)
    while (state.to_move, state.turn) == start:
        line.append(state.legal_moves()[0])
        state.play(line[-1])
    line.append(state.legal_moves()[0])
    return line


def assert_closed(client: TestClient, match_id: str, why: str) -> None:
    for name, r in helps(client, match_id).items():
        assert r.status_code == 403, (name, r.text)
        assert why in r.json()["error"] and "fair play" in r.json()["error"], (name, r.text)


@pytest.mark.parametrize("rated", [True, False])
def test_no_help_for_anyone_while_a_game_between_two_people_goes_on(people, rated: bool) -> None:
    ann, bob, watcher = people
    match_id = accept(bob, seek(ann, rated=rated)["id"])
    first_moves(ann, bob, match_id)
    why = "a rated game is in progress" if rated else "a game between two people is in progress"
    assert get(ann, match_id)["help_closed"] == why
    for client in (to_move((ann, bob), match_id), ann, bob, watcher):
        assert_closed(client, match_id, why)
    # the turn builder's own steps and a move's preview stay open to the player to move
    mover = to_move((ann, bob), match_id)
    step = get(mover, match_id)["legal_moves"][0]
    r = mover.post(f"/api/matches/{match_id}/preview", json={"moves": [step]})
    assert r.status_code == 200, r.text
    resign(ann, match_id)
    assert get(watcher, match_id)["help_closed"] is None
    opened = helps(watcher, match_id)
    assert opened["review"].status_code == 200 and opened["scratch"].status_code == 200
    assert watcher.get(f"/api/matches/{match_id}/hint", params={"ply": 0}).status_code == 200


def test_casual_games_against_the_ai_and_hot_seat_keep_their_hints(people) -> None:
    guest = people[2]
    for seats in (["me", "ai:1"], ["me", "me"]):
        made = create(guest, seats)
        assert get(guest, made["id"])["help_closed"] is None
        r = guest.get(f"/api/matches/{made['id']}/hint", params={"token": made["token"]})
        assert r.status_code == 200 and r.json()["move"] in get(guest, made["id"])["legal_moves"], r.text


def test_a_rated_game_against_the_ai_gives_no_hint(people) -> None:
    ann, _, _ = people
    r = ann.post("/api/seeks", json={"game": "projective-hex", "options": {"size": 2, "opening": "none"},
                                     "clock": {"days": 3}, "rated": True, "colour": "first", "to": "ai-1"},
                 headers=csrf(ann))
    assert r.status_code == 200, r.text
    match_id = r.json()["match"]
    r = ann.get(f"/api/matches/{match_id}/hint")
    assert r.status_code == 403 and "a rated game is in progress" in r.json()["error"]


def test_rated_games_between_the_same_two_accounts_count_a_few_a_day(people) -> None:
    ann, bob, _ = people
    ratings = []
    for _ in range(rating.PAIR_GAMES + 2):
        match_id = accept(bob, seek(ann, rated=True)["id"])
        first_moves(ann, bob, match_id)
        obj = resign(bob, match_id)
        ratings.append(ann.get("/api/account").json()["ratings"]["projective-hex"])
        counted = len(ratings) <= rating.PAIR_GAMES
        assert obj["uncounted"] is not counted and (obj["ratings"][0]["after"] is not None) is counted
    assert [r["games"] for r in ratings] == [1, 2, 3, 3, 3]
    assert ratings[-1] == ratings[rating.PAIR_GAMES - 1]


def test_quick_resignations_show_on_the_profile(people) -> None:
    ann, bob, watcher = people
    for i in range(rating.CONDUCT_FLAGGED):
        cyd = TestClient(ann.app)
        register(cyd, f"cyd{i}")  # a new opponent each time: the pair limit is not in the way
        match_id = accept(cyd, seek(bob, rated=True)["id"])
        first_moves(bob, cyd, match_id)
        resign(bob, match_id)
    conduct = watcher.get("/api/users/bob").json()["conduct"]
    assert conduct["resigned"] == rating.CONDUCT_FLAGGED and conduct["losses"] == rating.CONDUCT_FLAGGED
    assert "resigning at once or abandoning" in conduct["flag"]
    assert watcher.get("/api/users/cyd0").json()["conduct"]["flag"] is None


def test_a_fair_loss_is_not_quick() -> None:
    state = hexarena.load("projective-hex", size=2, opening="none").new_state()
    for _ in range(2 * (rating.QUICK_TURNS + 1)):
        state.play(state.legal_moves()[0])
    state.resign(state.to_move)
    assert rating.quick_loss(state, state.resigned, None) is None
    state.undo()
    state.lose_on_time(state.to_move)
    loser = state.timed_out
    assert rating.quick_loss(state, loser, None) == "abandoned"  # a correspondence clock ran out
    assert rating.quick_loss(state, loser, [10.0, 10.0]) is None  # a real-time flag with 10 s left: fair
    assert rating.quick_loss(state, loser, [600.0, 600.0]) == "abandoned"
