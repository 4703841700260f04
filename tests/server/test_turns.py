"""A whole turn at once (DESIGN.md, the turn builder's Confirm): POST /api/matches/{id}/turn applies every step
of one turn in one transaction, or none, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

import hexarena
from tests.server.helpers import create, get, rows


def turn(client: TestClient, match_id: str, token: str, moves: list[str], ply: int) -> Any:
    return client.post(f"/api/matches/{match_id}/turn", json={"moves": moves, "token": token, "ply": ply})


def test_a_turn_of_several_steps_is_applied_whole_or_not_at_all(client: TestClient) -> None:
    made = create(client, ["me", "open"], game="lisbon", options={})
    joined = client.post(f"/api/matches/{made['id']}/join").json()
    state = hexarena.load("lisbon").new_state()
    first = state.legal_moves()[0]
    assert turn(client, made["id"], made["token"], [first], 0).status_code == 200  # turn 1: one stone
    state.play(first)
    a = state.legal_moves()[0]
    state.play(a)
    b = state.legal_moves()[-1]  # turn 2: two stones
    before = rows(client, made["id"])
    refused = [
        (turn(client, made["id"], joined["token"], [a], 1), 400, "the turn is not finished after 1 steps"),
        (turn(client, made["id"], joined["token"], [a, b, first], 1), 400, "the turn ended after step 2"),
        (turn(client, made["id"], joined["token"], [a, a], 1), 400, "step 2 of the turn: "),
        (turn(client, made["id"], joined["token"], [], 1), 400, "moves: the steps of one turn, 1 to 64; got 0"),
        (turn(client, made["id"], joined["token"], [a, b], 0), 409, "ply 0 is stale"),
        (turn(client, made["id"], made["token"], [a, b], 1), 403, "not your turn"),
    ]
    for answer, status, message in refused:
        assert (answer.status_code, message in answer.json()["error"]) == (status, True), answer.text
    assert rows(client, made["id"]) == before  # nothing changed
    obj = turn(client, made["id"], joined["token"], [a, b], 1).json()
    state.play(b)
    assert obj["moves"] == state.moves() and obj["ply"] == 3 and obj["to_move"] == 0
    assert obj == get(client, made["id"])


def preview(client: TestClient, match_id: str, moves: list[str], ply: int | None = None) -> Any:
    return client.post(f"/api/matches/{match_id}/preview", json={"moves": moves, "ply": ply})


def test_a_preview_draws_staged_steps_and_says_why_a_step_is_refused(client: TestClient) -> None:
    made = create(client, ["me", "me"], game="lisbon", options={})
    state = hexarena.load("lisbon").new_state()
    first = state.legal_moves()[0]
    before = rows(client, made["id"])
    staged = preview(client, made["id"], [first]).json()
    state.play(first)
    assert staged["moves"] == [first] and staged["ply"] == 1 and staged["turn_done"] and staged["to_move"] == 1
    assert staged["svg"].startswith("<svg") and [t["move"] for t in staged["targets"]] == state.legal_moves()
    a = state.legal_moves()[0]
    half = preview(client, made["id"], [first, a]).json()
    assert half["turn_done"] and half["from"] == 0 and half["line"] == [first, a]  # the turn begun at ply 0 ended
    client.post(f"/api/matches/{made['id']}/moves", json={"move": first, "ply": 0, "token": made["token"]})
    before = rows(client, made["id"])
    half = preview(client, made["id"], [a]).json()
    assert not half["turn_done"] and half["from"] == 1 and half["to_move"] == 1  # one stone of two staged
    r = preview(client, made["id"], [a, a])
    assert r.status_code == 400 and r.json()["error"].startswith(f"{a!r}")  # the library's reason, as it says it
    r = preview(client, made["id"], [a, "zz99", a])
    assert r.status_code == 400 and r.json()["error"].startswith("step 2 of the line: ")
    assert rows(client, made["id"]) == before  # a preview changes nothing
    assert preview(client, made["id"], [], ply=5).status_code == 400  # past the match's ply


def test_a_finished_matchs_lines_get_hints(client: TestClient) -> None:
    made = create(client, ["me", "me"])
    obj = get(client, made["id"])
    while not obj["over"]:
        obj = client.post(f"/api/matches/{made['id']}/moves", json={"move": obj["legal_moves"][0], "ply": obj["ply"],
                                                                    "token": made["token"]}).json()
    branch = preview(client, made["id"], [obj["moves"][0] == "a1" and "b1" or "a1"], ply=0).json()
    r = client.get(f"/api/matches/{made['id']}/hint", params={"ply": 0, "move": branch["line"]})
    assert r.status_code == 200 and r.json()["move"] in branch["legal_moves"]


def test_moves_that_lose_at_once_are_marked_in_every_game() -> None:
    """``loses`` on a target exactly when the library's game, after that move, is over and won by the other
    player (Weituweiqi's edge-drops in the auction among them); never judged for a costly game's end."""
    import random

    from hexarena.server.scoring import costly
    from hexarena.server.view import targets
    marked: dict[str, int] = {}
    for game in hexarena.GAMES:
        rng, state = random.Random(7), hexarena.load(game).new_state()
        while not state.is_over() and len(state.history) < 40:
            for target in rng.sample(shown := targets(state)[0], min(len(shown), 25)):
                after = state.copy()
                after.play(target["move"])
                loses = after.is_over() and after.winner() not in (None, state.to_move) and not costly(state.game)
                assert target.get("loses", False) == loses, (game, target)
                marked[game] = marked.get(game, 0) + loses
            state.play(rng.choice(state.legal_moves()))
    assert marked["weituweiqi"] > 0 and marked["palago"] > 0
