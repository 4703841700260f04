"""What the tournament tests share: an app with many signed-in players judged by hand, events made and played
through the API."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient

from hexarena.server import create_app
from hexarena.server.limits import RATES, Limits, Rate
from tests.server.helpers import SMALL
from tests.server.test_accounts import csrf, register

UNLIMITED = Rate(0, 1)  # a COUNT of 0 lifts a rate limit
DRAWN = {"tiles": 2, "exhausted": "draw"}  # palago whose first tile empties the pool: a draw


def event_limits(**fields: Any) -> Limits:
    """No judging loop (the tests call the judge), no limit on registering or on events' requests."""
    return Limits(**{"judge_seconds": 0, "address_accounts": 0, "championship_wait": 0,
                     "rates": {**RATES, "register": UNLIMITED, "event": UNLIMITED, "move": UNLIMITED}, **fields})


@contextmanager
def players(db_url: str, names: list[str], **limits: Any) -> Iterator[dict[str, TestClient]]:
    """One app on ``db_url`` and a signed-in client per name (the first one's runs the app's lifespan)."""
    app = create_app(db_url, limits=event_limits(**limits))
    with TestClient(app) as first:
        clients = {names[0]: first, **{n: TestClient(app) for n in names[1:]}}
        for name, client in clients.items():
            register(client, name)
        yield clients


def post(client: TestClient, path: str, body: dict[str, Any] | None = None, status: int = 200) -> Any:
    r = client.post(path, json=body, headers=csrf(client))
    assert r.status_code == status, r.text
    return r.json()


def new_event(client: TestClient, **fields: Any) -> dict[str, Any]:
    body = {"name": "Autumn cup", "game": "projective-hex", "options": SMALL, "format": "round-robin",
            "clock": {"days": 3}, "rated": False, **fields}
    return post(client, "/api/tournaments", body)


def event(client: TestClient, event_id: str) -> dict[str, Any]:
    r = client.get(f"/api/tournaments/{event_id}")
    assert r.status_code == 200, r.text
    return r.json()


def entered(clients: dict[str, TestClient], creator: str, **fields: Any) -> dict[str, Any]:
    """An event made by ``creator`` with every client entered, started: its object."""
    made = new_event(clients[creator], **fields)
    for client in clients.values():
        post(client, f"/api/tournaments/{made['id']}/join")
    return post(clients[creator], f"/api/tournaments/{made['id']}/start")


def judge(client: TestClient) -> None:
    client.app.state.server.judge()


def current_games(obj: dict[str, Any]) -> list[dict[str, Any]]:
    """The games of the event's current round not over yet (forfeits are over)."""
    rounds = [r for r in obj["pairings"] if r["round"] == obj["round"]]
    return [g for r in rounds for g in r["games"] if g["result"] is None]


def resign(client: TestClient, match_id: str) -> None:
    post(client, f"/api/matches/{match_id}/resign", {})


def play_round(clients: dict[str, TestClient], event_id: str, winner: Any) -> dict[str, Any]:
    """Every game of the current round ended by its loser resigning (``winner(seats)`` names the winner), then the
    judge's step: the event object after it."""
    obj = event(next(iter(clients.values())), event_id)
    for game in current_games(obj):
        won = winner(game["seats"])
        loser = game["seats"][1] if won == game["seats"][0] else game["seats"][0]
        resign(clients[loser], game["match"])
    judge(next(iter(clients.values())))
    return event(next(iter(clients.values())), event_id)


def by_seed(obj: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["seed"] for p in obj["players"]}


def better_seed(obj: dict[str, Any]) -> Any:
    """A ``winner`` for :func:`play_round`: the better seed wins."""
    seeds = by_seed(obj)
    return lambda seats: min(seats, key=lambda n: seeds[n])
