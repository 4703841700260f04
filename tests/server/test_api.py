"""The web app's server (docs/server.md) on SQLite and PostgreSQL: the HTTP
contract, refusals that change nothing, undo/resign/hint/records/import,
games against the AI over HTTP and WebSocket, and a server killed mid-game."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import hexarena
from hexarena.server import create_app, models
from hexarena.server.errors import Refused
from hexarena.server.store.seats import seat_kind
from hexarena.time_control import ClockError, parse
from tests.server.helpers import SMALL, create, get, play, rows, settled
from tests.waits import receive_json


# the contract --------------------------------------------------------------------
def test_games_list_every_game_with_options_and_rules(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert [g["name"] for g in games] == list(hexarena.GAMES)
    for g in games:
        assert g["rules"] and g["players"] and len(g["players"]) == 2
        for option in g["options"].values():
            assert {"default", "allowed", "doc"} <= set(option)


def test_online_match_join_moves_and_the_match_object(client: TestClient) -> None:
    made = create(client, ["me", "open"])
    assert made["seats"] == [0] and made["token"]
    joined = client.post(f"/api/matches/{made['id']}/join").json()
    assert joined["seat"] == 1 and joined["token"] != made["token"]
    assert client.post(f"/api/matches/{made['id']}/join").status_code == 409
    obj = play(client, made["id"], made["token"], "a1", 0)
    obj = play(client, made["id"], joined["token"], "b2", 1)
    assert obj == get(client, made["id"])
    state = hexarena.load("projective-hex", **SMALL).new_state()
    state.play("a1")
    state.play("b2")
    assert obj["moves"] == ["a1", "b2"] and obj["ply"] == 2 and obj["seats"] == ["human", "human"]
    assert obj["legal_moves"] == state.legal_moves() and obj["to_move"] == 0 and not obj["over"]
    assert obj["status"] == state.game.status(state) and obj["svg"].startswith("<svg")
    assert obj["turns"] == [[1, [["a1", 1]]], [2, [["b2", 2]]]] and obj["turn"] == state.turn and obj["step"] == 0
    assert [t["move"] for t in obj["targets"]] == obj["legal_moves"]
    assert all(t["cell"] == t["move"] for t in obj["targets"])
    assert obj["record"]["moves"] == ["a1", "b2"] and obj["resigned"] is None and not obj["thinking"]
    assert obj["reason"] is None and obj["labels"] == {}
    assert obj["updated"].endswith("+00:00")  # UTC, as records write times


def test_the_match_object_says_who_sits_each_seat(client: TestClient) -> None:
    human, ai, open_seat = ({"kind": k, "level": lv, "name": n} for k, lv, n in
                            (("human", None, None), ("ai", 3, "ai-3"), ("open", None, None)))
    against_ai = create(client, ["me", "ai:3"])
    assert get(client, against_ai["id"])["seat_info"] == [human, ai]
    online = create(client, ["me", "open"])
    with client.websocket_connect(f"/api/matches/{online['id']}/live") as ws:
        assert receive_json(ws)["seat_info"] == [human, open_seat]
        client.post("/api/account/register", json={"name": "seated", "password": "a long enough password"})
        r = client.post(f"/api/matches/{online['id']}/join", headers={"X-CSRF-Token": client.cookies.get("csrf")})
        assert r.status_code == 200, r.text
        assert receive_json(ws)["seat_info"] == [human, {**human, "name": "seated"}]
    assert get(client, online["id"])["players"] == [None, "seated"]  # (the names the contract gave already)


def test_the_games_give_the_time_controls_bounds(client: TestClient) -> None:
    games = client.get("/api/games").json()
    bounds = games[0]["time_control"]
    assert all(g["time_control"] == bounds for g in games)
    assert set(bounds) == {"initial", "increment", "days"}
    for key, form in (("initial", {"increment": 0}), ("increment", {"initial": 60}), ("days", {})):
        low, high = bounds[key]["min"], bounds[key]["max"]
        assert parse({**form, key: low}) and parse({**form, key: high})
        for outside in (low - 1, high + 1):
            with pytest.raises(ClockError, match=key):
                parse({**form, key: outside})


def test_the_games_give_the_ai_levels(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert all(g["ai_levels"] == {"min": 1, "max": 10} for g in games)
    assert seat_kind("ai:1") and seat_kind("ai:10")
    for outside in ("ai:0", "ai:11"):
        with pytest.raises(Refused):
            seat_kind(outside)


def test_targets_name_no_cell_for_words(client: TestClient) -> None:
    made = create(client, ["me", "me"], options={"size": 2, "opening": "swap"})
    obj = play(client, made["id"], made["token"], "a1", 0)
    assert {"move": "swap", "cell": None} in obj["targets"]
    assert obj["labels"] == {"swap": "Swap"}  # the game's label for each word (Game.word_label)


def test_turns_give_each_written_move_the_ply_after_it(client: TestClient) -> None:
    """A written move of several steps (Push and Pull's placement with its marker moves) maps to the
    position after its last step: what the client's move list jumps to."""
    made = create(client, ["me", "me"], game="push-and-pull", options={"size": 5})
    obj = get(client, made["id"])
    for ply in range(5):
        obj = play(client, made["id"], made["token"], obj["legal_moves"][0], ply)
    state = hexarena.load("push-and-pull", size=5).new_state()
    for move in obj["moves"]:
        state.play(move)
    assert obj["turns"] == [[t, [[m, ply] for m, ply in written]] for t, written in state.written_turns()]
    plies = [ply for _, written in obj["turns"] for _, ply in written]
    assert plies == sorted(set(plies)) and plies[-1] == 5 and len(plies) < 5
    assert [[t, [m for m, _ in written]] for t, written in obj["turns"]] == [list(t) for t in state.turns()]
    assert obj["turns"][0][1][0] == [" ".join(obj["moves"][:3]), 3]


def refusals(client: TestClient, mid: str, token: str, other: str) -> list[tuple[int, Any]]:
    """(status, request) pairs that must be refused with nothing changed, in a match at ply 1, player 2 to move."""
    url = f"/api/matches/{mid}"
    post = client.post
    return [
        (403, lambda: post(f"{url}/moves", json={"move": "b2", "token": "forged", "ply": 1})),
        (403, lambda: post(f"{url}/moves", json={"move": "b2", "token": token, "ply": 1})),  # out of turn
        (404, lambda: post("/api/matches/nosuchmatch/moves", json={"move": "b2", "token": other, "ply": 1})),
        (404, lambda: client.get("/api/matches/nosuchmatch")),
        (400, lambda: post(f"{url}/moves", content=b"{not json", headers={"content-type": "application/json"})),
        (400, lambda: post(f"{url}/moves", json={"move": "b2", "token": other, "ply": "1"})),
        (400, lambda: post(f"{url}/moves", json={"move": 7, "token": other, "ply": 1})),
        (400, lambda: post(f"{url}/moves", json={"move": "b2", "token": other})),
        (400, lambda: post(f"{url}/moves", json=["b2"])),
        (400, lambda: post(f"{url}/moves", json={"move": "zz9", "token": other, "ply": 1})),
        (400, lambda: post(f"{url}/moves", json={"move": "a1", "token": other, "ply": 1})),  # occupied
        (409, lambda: post(f"{url}/moves", json={"move": "b2", "token": other, "ply": 0})),  # stale
        (409, lambda: post(f"{url}/moves", json={"move": "b2", "token": other, "ply": 2})),
        (409, lambda: post(f"{url}/join")),
        (403, lambda: post(f"{url}/undo", json={"token": token, "ply": 1})),  # online: no undo
        (403, lambda: post(f"{url}/resign", json={"token": "forged"})),
        (403, lambda: post(f"{url}/resign", json={})),  # no token and no session: no seat
        (403, lambda: client.get(f"{url}/hint?token=forged")),
        (403, lambda: client.get(f"{url}/hint?token={token}")),  # not their turn
        (400, lambda: client.get(f"{url}/position?ply=5")),
        (400, lambda: client.get(f"{url}/position?ply=x")),
        (400, lambda: client.get("/api/matches?list=everything")),
        (400, lambda: post("/api/matches", json={"game": "chess", "options": {}, "seats": ["me", "open"]})),
        (400, lambda: post("/api/matches", json={"game": "projective-hex", "options": {"size": 99},
                                                 "seats": ["me", "open"]})),
        (400, lambda: post("/api/matches", json={"game": "projective-hex", "seats": ["me", "ai:11"]})),
        (400, lambda: post("/api/matches", json={"game": "projective-hex", "seats": ["me"]})),
        (400, lambda: post("/api/matches/import", json={"record": "[chess] 1. e4 *", "seats": ["me", "me"]})),
        (400, lambda: post("/api/matches/import", json={"record": 5, "seats": ["me", "me"]})),
    ]


def test_refusals_change_nothing(client: TestClient) -> None:
    made = create(client, ["me", "open"])
    other = client.post(f"/api/matches/{made['id']}/join").json()["token"]
    play(client, made["id"], made["token"], "a1", 0)
    before_rows, before = rows(client, made["id"]), get(client, made["id"])
    listing = client.get("/api/matches?list=recent").json()
    for status, request in refusals(client, made["id"], made["token"], other):
        r = request()
        assert r.status_code == status, (status, r.text)
        error = r.json()["error"]
        assert isinstance(error, str) and error and "\n" not in error
        assert rows(client, made["id"]) == before_rows and get(client, made["id"]) == before
    assert client.get("/api/matches?list=recent").json() == listing


def test_seats_are_me_open_or_an_ai_level() -> None:
    assert [seat_kind(s) for s in ("me", "open", "ai:1", "ai:10")] == ["me", "open", "ai:1", "ai:10"]
    for bad in ("ai", "ai:", "ai:0", "ai:05", "ai:uct", "mcts:3", "random", "human", "", 5, None, ["ai:1"]):
        with pytest.raises(Refused, match=r"is not 'me', 'open' or 'ai:LEVEL' \(LEVEL 1..10\)"):
            seat_kind(bad)


def test_a_repeated_post_is_applied_once(client: TestClient) -> None:
    made = create(client, ["me", "me"])
    body = {"move": "a1", "token": made["token"], "ply": 0}
    assert client.post(f"/api/matches/{made['id']}/moves", json=body).status_code == 200
    r = client.post(f"/api/matches/{made['id']}/moves", json=body)
    assert r.status_code == 409 and "stale" in r.json()["error"]
    assert get(client, made["id"])["moves"] == ["a1"]


def test_unknown_routes_answer_one_line_errors(client: TestClient) -> None:
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json() == {"error": "not found"}


# undo, resign, hint, position, records, import, listing ------------------------------
def test_undo_in_hot_seat_takes_back_one_move(client: TestClient) -> None:
    made = create(client, ["me", "me"])
    mid, token = made["id"], made["token"]
    play(client, mid, token, "a1", 0)
    play(client, mid, token, "b2", 1)
    r = client.post(f"/api/matches/{mid}/undo", json={"token": token, "ply": 2})
    assert r.status_code == 200 and r.json()["moves"] == ["a1"]
    assert rows(client, mid)[1][0][2] == "a1" and len(rows(client, mid)[1]) == 1
    assert client.post(f"/api/matches/{mid}/undo", json={"token": token, "ply": 2}).status_code == 409
    play(client, mid, token, "c3", 1)
    assert get(client, mid)["moves"] == ["a1", "c3"]


def test_undo_against_the_ai_goes_back_to_your_turn_and_keeps_its_opening(client: TestClient) -> None:
    made = create(client, ["ai:1", "me"])
    mid, token = made["id"], made["token"]
    obj = settled(client, mid)
    assert obj["ply"] == 1 and obj["to_move"] == 1
    r = client.post(f"/api/matches/{mid}/undo", json={"token": token, "ply": 1})
    assert r.status_code == 400 and "not moved yet" in r.json()["error"]
    after = play(client, mid, token, obj["legal_moves"][0], 1)
    assert after["thinking"] and after["ply"] == 2
    obj = settled(client, mid)
    assert obj["ply"] == 3 and obj["to_move"] == 1
    back = client.post(f"/api/matches/{mid}/undo", json={"token": token, "ply": 3}).json()
    assert back["ply"] == 1 and back["to_move"] == 1 and not back["thinking"]


def test_resign_is_stored_and_undo_takes_it_back(db_url: str) -> None:
    with TestClient(create_app(db_url)) as client:
        made = create(client, ["me", "open"])
        mid = made["id"]
        play(client, mid, made["token"], "a1", 0)
        obj = client.post(f"/api/matches/{mid}/resign", json={"token": made["token"]}).json()
        assert obj["over"] and obj["winner"] == 1 and obj["resigned"] == 0 and "resigns" in obj["status"]
        assert obj["reason"] == "resignation"
        assert client.post(f"/api/matches/{mid}/resign", json={"token": made["token"]}).status_code == 400
    with TestClient(create_app(db_url)) as client:  # a restart keeps it
        obj = get(client, mid)
        assert obj["resigned"] == 0 and obj["over"] and obj["record"]["result"]["resigned"] == 0
        hot = create(client, ["me", "me"])
        client.post(f"/api/matches/{hot['id']}/resign", json={"token": hot["token"]})
        back = client.post(f"/api/matches/{hot['id']}/undo", json={"token": hot["token"], "ply": 0}).json()
        assert back["resigned"] is None and not back["over"] and back["reason"] is None


def test_hint_suggests_a_legal_move_to_the_seat_to_move(client: TestClient) -> None:
    made = create(client, ["me", "me"])
    r = client.get(f"/api/matches/{made['id']}/hint", params={"token": made["token"]})
    assert r.status_code == 200
    hint = r.json()
    models.Hint.model_validate(hint)  # as its response model names it
    assert hint["move"] in get(client, made["id"])["legal_moves"] and 0 <= hint["rate"] <= 1


def test_position_replays_the_first_moves(client: TestClient) -> None:
    made = create(client, ["me", "me"])
    for ply, move in enumerate(["a1", "b2", "c3"]):
        play(client, made["id"], made["token"], move, ply)
    state = hexarena.load("projective-hex", **SMALL).new_state()
    state.play("a1")
    r = client.get(f"/api/matches/{made['id']}/position", params={"ply": 1}).json()
    assert r == {"ply": 1, "svg": state.svg(), "status": state.game.status(state)}
    assert client.get(f"/api/matches/{made['id']}/position", params={"ply": 3}).json()["svg"] == \
        get(client, made["id"])["svg"]


def test_records_download_and_import_round_trip(client: TestClient) -> None:
    made = create(client, ["me", "me"], game="push-and-pull", options={"size": 5})
    mid, token = made["id"], made["token"]
    obj = get(client, mid)
    for _ in range(7):
        obj = play(client, mid, token, obj["legal_moves"][-1], obj["ply"])
    r = client.get(f"/api/matches/{mid}/record.json")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    assert r.headers["content-disposition"].endswith('.json"')
    record = r.json()
    assert hexarena.from_record(record).moves() == obj["moves"]
    text = client.get(f"/api/matches/{mid}/record.txt")
    assert text.status_code == 200 and text.text.startswith("[push-and-pull")
    for source in (record, text.text.strip()):
        imported = client.post("/api/matches/import", json={"record": source, "seats": ["me", "open"]}).json()
        again = get(client, imported["id"])
        assert again["moves"] == obj["moves"] and again["seats"] == ["human", "open"]
        assert [r[2] for r in rows(client, imported["id"])[1]] == obj["moves"]
        assert again["legal_moves"] == obj["legal_moves"]


def test_listings_of_open_and_recent_matches(client: TestClient) -> None:
    open_ = create(client, ["me", "open"])
    full = create(client, ["me", "me"])
    listed = client.get("/api/matches", params={"list": "open"}).json()
    assert [m["id"] for m in listed] == [open_["id"]]
    assert set(listed[0]) == {"id", "game", "options", "seats", "ply", "over", "status", "updated"}
    recent = [m["id"] for m in client.get("/api/matches", params={"list": "recent"}).json()]
    assert recent == [full["id"], open_["id"]]
    client.post(f"/api/matches/{open_['id']}/join")
    assert client.get("/api/matches", params={"list": "open"}).json() == []


def test_the_static_client_is_served(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "<html" in r.text.lower()


# against the AI, live ---------------------------------------------------------------
def test_a_full_game_against_the_ai_over_http_and_websocket(client: TestClient) -> None:
    made = create(client, ["me", "ai:1"], options={"size": 2, "opening": "swap"})
    mid, token = made["id"], made["token"]
    with client.websocket_connect(f"/api/matches/{mid}/live") as ws:
        obj = receive_json(ws)
        assert obj["ply"] == 0 and obj["to_move"] == 0
        seen = [obj["ply"]]
        while not obj["over"]:
            if obj["to_move"] == 0 and not obj["thinking"]:
                answer = play(client, mid, token, obj["legal_moves"][0], obj["ply"])
                assert answer["thinking"] or answer["over"]
            obj = receive_json(ws)
            seen.append(obj["ply"])
        assert seen == sorted(seen)
    final = get(client, mid)
    assert final["over"] and final["winner"] in (0, 1) and final["record"]["result"]["over"]
    assert [r[2] for r in rows(client, mid)[1]] == final["moves"]


def test_a_watcher_sees_every_change(client: TestClient) -> None:
    made = create(client, ["me", "open"])
    other = client.post(f"/api/matches/{made['id']}/join").json()["token"]
    with client.websocket_connect(f"/api/matches/{made['id']}/live") as ws:
        assert receive_json(ws)["ply"] == 0
        play(client, made["id"], made["token"], "a1", 0)
        assert receive_json(ws)["moves"] == ["a1"]
        play(client, made["id"], other, "b2", 1)
        assert receive_json(ws)["moves"] == ["a1", "b2"]
    with client.websocket_connect("/api/matches/nosuchmatch/live") as ws:
        assert "error" in receive_json(ws)


def test_other_requests_are_answered_while_a_strong_ai_thinks(tmp_path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}")) as client:
        other = create(client, ["me", "me"])
        create(client, ["me", "ai:10"], options={"size": 4, "opening": "none"})  # warm the AI's compiled search
        made = create(client, ["ai:10", "me"], options={"size": 16, "opening": "none"})
        for _ in range(5):  # how soon: bench/abuse.py's GET figures (a clock here flakes on a loaded machine)
            assert get(client, made["id"])["thinking"], "the AI stopped thinking before 5 other requests"
            get(client, other["id"])
