"""Reviews of finished matches with the AI (docs/server.md, "Review"), and hints in a finished match's replay
positions, on SQLite and PostgreSQL; the library's review (hexarena.ai.review) checked against its own
definitions."""

from __future__ import annotations

import time
from typing import Any

import hexarena
from fastapi.testclient import TestClient
from hexarena.ai.review import BLUNDER, Ply, drain, reviewing
from hexarena.server import models
from tests.server.helpers import SMALL, create, get, play


def finished(client: TestClient) -> tuple[str, dict[str, Any]]:
    """A hot-seat projective-hex match on size 2 played to its end."""
    made = create(client, ["me", "me"])
    obj = get(client, made["id"])
    while not obj["over"]:
        obj = play(client, made["id"], made["token"], obj["legal_moves"][0], obj["ply"])
    return made["id"], obj


def test_a_review_starts_once_reports_progress_and_is_kept(client: TestClient) -> None:
    match_id, obj = finished(client)
    first = client.get(f"/api/matches/{match_id}/analysis").json()
    assert first["status"] in ("running", "done")
    deadline = time.monotonic() + 120
    review = first
    while review["status"] != "done":
        assert time.monotonic() < deadline, "the review never finished"
        assert 0 <= review["progress"] <= 1 and review["plies"] == []
        time.sleep(0.1)
        review = client.get(f"/api/matches/{match_id}/analysis").json()
    models.Review.model_validate(review)  # as its response model names it
    plies = review["plies"]
    assert [p["move"] for p in plies] == obj["moves"] and [p["ply"] for p in plies] == list(range(obj["ply"]))
    state = hexarena.load("projective-hex", **SMALL).new_state()
    for p in plies:
        assert p["mover"] == state.to_move and p["best"] in state.legal_moves()
        assert 0 <= p["before"] <= 1 and 0 <= p["after"] <= 1
        assert p["flagged"] == (p["loss"] > BLUNDER and p["move"] != p["best"])
        state.play(p["move"])
    assert plies[-1]["after"] == (1.0 if state.winner() == plies[-1]["mover"] else 0.0)  # the result
    assert client.get(f"/api/matches/{match_id}/analysis").json() == review  # kept


def test_no_review_while_the_game_goes_on(client: TestClient) -> None:
    made = create(client, ["me", "me"])
    r = client.get(f"/api/matches/{made['id']}/analysis")
    assert r.status_code == 409 and "finished game" in r.json()["error"]


def test_hints_in_a_finished_matchs_replay_positions(client: TestClient) -> None:
    match_id, obj = finished(client)
    r = client.get(f"/api/matches/{match_id}/hint", params={"ply": 1})  # anyone, any ply before the end
    assert r.status_code == 200
    state = hexarena.load("projective-hex", **SMALL).new_state()
    state.play(obj["moves"][0])
    assert r.json()["move"] in state.legal_moves()
    r = client.get(f"/api/matches/{match_id}/hint", params={"ply": obj["ply"]})
    assert (r.status_code, r.json()["error"]) == (400, "no hint: the game is over at this ply")
    assert client.get(f"/api/matches/{match_id}/hint", params={"ply": 99}).status_code == 400
    going = create(client, ["me", "me"])
    play(client, going["id"], going["token"], "a1", 0)
    r = client.get(f"/api/matches/{going['id']}/hint", params={"ply": 0, "token": going["token"]})
    assert r.status_code == 403
    assert r.json()["error"] == "hints at earlier plies or in other lines are for finished games"


def test_the_library_review_rates_each_move_from_the_movers_side() -> None:
    s = hexarena.load("projective-hex", size=2, opening="none").new_state()
    while not s.is_over():
        s.play(s.legal_moves()[-1])
    plies = drain(reviewing(s, simulations=200))
    assert len(plies) == len(s.history)
    for p, q in zip(plies, plies[1:], strict=False):  # after = the next position's rate, from the mover's side
        assert p.after == (q.before if q.mover == p.mover else 1 - q.before)
    assert isinstance(plies[0], Ply) and plies[0].shown()["loss"] == round(plies[0].loss, 3)
