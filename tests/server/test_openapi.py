"""The HTTP contract as OpenAPI: served at /api/openapi.json, and equal to the snapshot in
tests/data/openapi.json, so that a change to the contract shows as a diff in review.

After an intended change: HEXARENA_UPDATE_OPENAPI=1 .venv/bin/python -m pytest tests/server/test_openapi.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from collections.abc import Iterator
from typing import Any

from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from pydantic import BaseModel, TypeAdapter

from hexarena.server import create_app
from tests.server.helpers import SMALL
from tests.server.test_accounts import PASSWORD, csrf, register

SNAPSHOT = Path(__file__).parents[1] / "data" / "openapi.json"


def test_openapi_is_served_and_matches_the_snapshot(tmp_path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'hexarena.db'}")) as client:
        r = client.get("/api/openapi.json")
    assert r.status_code == 200
    spec = r.json()
    text = json.dumps(spec, indent=1, sort_keys=True) + "\n"
    if os.environ.get("HEXARENA_UPDATE_OPENAPI"):
        SNAPSHOT.write_text(text)
    assert text == SNAPSHOT.read_text(), ("the HTTP contract changed: if that is intended, update the snapshot "
                                          "(HEXARENA_UPDATE_OPENAPI=1, see this module's docstring) and say so in "
                                          "docs/server.md")
    paths = set(spec["paths"])
    assert {"/api/matches", "/api/matches/{match_id}/moves", "/api/account/login", "/api/games"} <= paths
    assert not any(p.startswith("/static") or p == "/" for p in paths)


# Routes whose 200 answer is not a JSON object of the server's: downloads and the analysis reports' files.
NOT_JSON = {("get", "/api/matches/{match_id}/record.json"), ("get", "/api/matches/{match_id}/record.txt"),
            ("get", "/api/reports/{name}"), ("get", "/api/account/email/verify")}


def success_schema(operation: dict) -> dict:
    """The JSON schema an operation's success answer names ({} when it names none)."""
    answers = operation["responses"]
    ok = answers.get("200") or answers.get("201") or {}
    return ok.get("content", {}).get("application/json", {}).get("schema", {})


def test_every_route_the_client_reads_names_its_response_schema(tmp_path) -> None:
    """Every JSON route's success answer is described in the OpenAPI document (before issue 43: none was, the
    routes answering ready Responses), down to named component schemas."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'hexarena.db'}")) as client:
        spec = client.get("/api/openapi.json").json()
    unnamed = [f"{method.upper()} {path}" for path, item in spec["paths"].items() for method, operation in item.items()
               if (method, path) not in NOT_JSON and not success_schema(operation)]
    assert unnamed == [], f"routes without a response schema: {unnamed}"
    match = spec["components"]["schemas"]["MatchObject"]["properties"]
    assert {"id", "seats", "players", "legal_moves", "clock", "chat", "seat_info"} <= set(match)
    games = success_schema(spec["paths"]["/api/games"]["get"])
    assert games["type"] == "array" and games["items"] == {"$ref": "#/components/schemas/GameInfo"}

# Routes the visit below does not take: the AI's hint and review search (tests/server/test_ai.py,
# tests/server/test_review.py), the lobby's course list (every game's board drawn), the reports (none here).
UNVISITED = {("GET", "/api/matches/{match_id}/hint"), ("GET", "/api/matches/{match_id}/analysis"),
             ("GET", "/api/learn"), ("GET", "/api/reports")}


class Reader:
    """A browser of the app: each answer read is checked against its route's response model."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.models = {(method, route.path): route.response_model for route in api_routes(client.app.routes)
                       for method in route.methods}
        self.checked: set[tuple[str, str]] = set()

    def __call__(self, method: str, route: str, json: Any = None, **path: str) -> Any:
        """``method`` on ``route`` (its {parameters} from ``path``; a query string after it): its JSON answer."""
        template, _, query = route.partition("?")
        url = template.format(**path) + (f"?{query}" if query else "")
        signed_in = self.client.cookies.get("csrf") is not None
        r = self.client.request(method, url, json=json, headers=csrf(self.client) if signed_in else None)
        assert r.status_code == 200, f"{method} {url}: {r.status_code} {r.text}"
        body = r.json()
        model = self.models[(method, template)]
        assert model is not None, f"{method} {template} names no response model"
        TypeAdapter(model).validate_python(body)
        named(model, body)
        self.checked.add((method, template))
        return body


def api_routes(routes: list[Any]) -> Iterator[APIRoute]:
    """The API routes among ``routes``, those of included routers too (FastAPI 0.165 keeps them apart)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif hasattr(route, "original_router"):
            yield from api_routes(route.original_router.routes)


def named(model: Any, body: Any) -> None:
    """Every field of the answer ``body`` (or of its items) is one its ``model`` names (even where the model
    allows more, so the document shows every field the routes answer)."""
    items, model = (body, model.__args__[0]) if isinstance(body, list) else ([body], model)
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        return
    fields = {f.alias or name for name, f in model.model_fields.items()}
    for item in items:
        assert set(item) <= fields, f"{model.__name__} does not name {sorted(set(item) - fields)}"


def test_the_response_models_accept_what_the_routes_answer(db_url) -> None:
    """A guest's and two accounts' visit through every route the client reads, on SQLite and PostgreSQL: each
    answer validates against its route's model and has no field the model does not name."""
    with TestClient(create_app(db_url)) as ann, TestClient(ann.app) as bob:
        read, other = Reader(ann), Reader(bob)
        read("GET", "/api/games")
        read("POST", "/api/account/register", {"name": "ann", "password": PASSWORD})
        register(bob, "bob")
        read("GET", "/api/account")
        read("POST", "/api/account/email", {"email": "ann@example.org"})
        finished = play_a_match(read)
        read("POST", "/api/matches/import", {"record": finished["record"], "seats": ["me", "me"]})
        made = read("POST", "/api/matches", {"game": "projective-hex", "options": SMALL, "seats": ["me", "open"]})
        read("GET", "/api/matches?list=open")
        read("GET", "/api/matches?list=recent")
        other("POST", "/api/matches/{match_id}/join", {}, match_id=made["id"])
        read("GET", "/api/account/turn")
        read("GET", "/api/account/matches")
        read("GET", "/api/users/{name}", name="ann")
        read("GET", "/api/leaderboard/{game}", game="projective-hex")
        read("GET", "/api/leaderboard/{game}/ai", game="projective-hex")
        seek_round(read, other)
        event_round(read, other)
        learn_round(read)
        read("POST", "/api/account/logout")
        read("POST", "/api/account/login", {"name": "ann", "password": PASSWORD})
        read("POST", "/api/account/password", {"old": PASSWORD, "new": PASSWORD + "!"})
        other("DELETE", "/api/account", {"password": PASSWORD})
    described = {route for route, model in read.models.items() if model is not None}
    assert read.checked | other.checked == described - UNVISITED


def play_a_match(read: Reader) -> dict:
    """A hot-seat match played, previewed, chatted in, undone and resigned: its last match object."""
    made = read("POST", "/api/matches", {"game": "projective-hex", "options": SMALL, "seats": ["me", "me"]})
    ids = {"match_id": made["id"]}
    obj = read("GET", "/api/matches/{match_id}", **ids)
    read("POST", "/api/matches/{match_id}/preview", {"moves": obj["legal_moves"][:1]}, **ids)
    obj = read("POST", "/api/matches/{match_id}/moves",
               {"move": obj["legal_moves"][0], "token": made["token"], "ply": 0}, **ids)
    obj = read("POST", "/api/matches/{match_id}/turn",
               {"moves": obj["legal_moves"][:1], "token": made["token"], "ply": 1}, **ids)
    read("POST", "/api/matches/{match_id}/chat", {"text": "hello", "token": made["token"]}, **ids)
    read("POST", "/api/matches/{match_id}/undo", {"token": made["token"], "ply": 2}, **ids)
    read("GET", "/api/matches/{match_id}/position?ply=1", **ids)
    return read("POST", "/api/matches/{match_id}/resign", {"token": made["token"]}, **ids)


def seek_round(read: Reader, other: Reader) -> None:
    """A seek posted, listed and accepted; another withdrawn."""
    seek = {"game": "projective-hex", "options": SMALL, "clock": {"days": 3}, "rated": True, "colour": "first"}
    posted = read("POST", "/api/seeks", seek)
    other("GET", "/api/seeks")
    accepted = other("POST", "/api/seeks/{seek_id}/accept", seek_id=posted["id"])
    read("GET", "/api/matches/{match_id}", match_id=accepted["match"])
    withdrawn = read("POST", "/api/seeks", {**seek, "to": "bob"})
    read("DELETE", "/api/seeks/{seek_id}", seek_id=withdrawn["id"])


def event_round(read: Reader, other: Reader) -> None:
    """An event made, joined, started, read, listed and exported, another with an AI invited and left; a
    championship joined, read and left."""
    body = {"name": "Cup", "game": "projective-hex", "options": SMALL, "format": "round-robin", "clock": {"days": 3}}
    ids = {"event_id": read("POST", "/api/tournaments", body)["id"]}
    read("POST", "/api/tournaments/{event_id}/join", **ids)
    other("POST", "/api/tournaments/{event_id}/join", **ids)
    read("POST", "/api/tournaments/{event_id}/start", **ids)
    other("GET", "/api/tournaments/{event_id}", **ids)
    other("GET", "/api/tournaments?status=running")
    other("GET", "/api/tournaments/{event_id}/export.json", **ids)
    later = {"event_id": read("POST", "/api/tournaments", body)["id"]}
    read("POST", "/api/tournaments/{event_id}/invite", {"name": "ai-2"}, **later)
    other("POST", "/api/tournaments/{event_id}/join", **later)
    other("POST", "/api/tournaments/{event_id}/withdraw", **later)
    other("POST", "/api/championships/{game}/join", game="projective-hex")
    other("GET", "/api/championships")
    read("GET", "/api/championships/{game}", game="projective-hex")
    other("POST", "/api/championships/{game}/leave", game="projective-hex")


def learn_round(read: Reader) -> None:
    """A game's how-to-play page, an answer to its first lesson, a step of its first sample game."""
    page = read("GET", "/api/learn/{game}", game="projective-hex")
    read("POST", "/api/learn/{game}/lessons/{lesson_id}", {"moves": []}, game="projective-hex",
         lesson_id=page["lessons"][0]["id"])
    read("GET", "/api/learn/{game}/samples/{index}?ply=1", game="projective-hex", index="0")
