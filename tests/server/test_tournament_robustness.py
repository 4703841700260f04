"""A round of an event starts and ends once across processes and restarts (docs/server.md, "Tournaments and
championships", "Robustness"), on SQLite and PostgreSQL: two servers on one database racing the judge's step pair
a round once; a `hexarena serve` killed with SIGKILL during a round change leaves the old round or the new one
whole, and a restarted server goes on (no round started twice, no game lost, no result counted twice)."""

from __future__ import annotations

import signal
from contextlib import suppress
import threading
from collections import Counter
from pathlib import Path

import httpx
from sqlalchemy import select

from hexarena.server.core import Server
from hexarena.server.schema import tournament_games
from tests.server.test_processes import Served, servers, signed_in  # noqa: F401 (servers: a fixture)
from tests.server.tournament_helpers import entered, event, event_limits, players

__all__ = ["servers"]
FOUR = ["ann", "bob", "cyd", "dan"]


def games_rows(server: Server, event_id: str) -> list[tuple[int, int, str | None]]:
    with server.store.db.engine.connect() as conn:
        return [(r.round, r.board, r.match_id) for r in conn.execute(
            select(tournament_games).where(tournament_games.c.tournament_id == event_id))]


def resign_quietly(server: Server, match_id: str) -> None:
    """The first seat resigns ``match_id`` in the store, telling nobody: no judge's step follows."""
    server.store.writes.change(match_id, lambda _match, state: state.resign(0))


def test_two_servers_racing_the_judges_step_pair_each_round_once(db_url: str) -> None:
    with players(db_url, FOUR) as c:
        first = c["ann"].app.state.server
        second = Server(db_url, limits=event_limits())
        try:
            obj = entered(c, "ann")
            for number in (2, 3):
                for game in obj["pairings"][-1]["games"]:
                    resign_quietly(second, game["match"])
                start, failures = threading.Barrier(2), []
                threads = [threading.Thread(target=race, args=(s, obj["id"], start, failures))
                           for s in (first, second)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join(timeout=60)
                assert not failures and not any(t.is_alive() for t in threads)
                obj = event(c["ann"], obj["id"])
                assert obj["round"] == number and len(obj["pairings"]) == number
                rows = games_rows(first, obj["id"])
                assert Counter(r for r, _, _ in rows) == {r: 2 for r in range(1, number + 1)}
                assert len({m for _, _, m in rows}) == len(rows)
        finally:
            second.close()


def race(server: Server, event_id: str, start: threading.Barrier, failures: list[Exception]) -> None:
    """The judge's step of ``event_id`` on ``server`` once ``start`` lets it go; a failure kept in ``failures``."""
    start.wait(timeout=30)
    try:
        server.tournaments.advance(event_id)
    except Exception as e:  # noqa: BLE001 (reported by the test)
        failures.append(e)


def test_sigkill_during_a_round_change_leaves_a_whole_round_and_a_restart_goes_on(db_url: str, tmp_path: Path,
                                                                                 servers) -> None:  # noqa: F811
    served = Served(db_url, tmp_path)
    servers.append(served)
    clients = {name: signed_in(served, name) for name in FOUR}
    made = clients["ann"].post("/api/tournaments", json={"name": "Cup", "game": "projective-hex",
                                                        "options": {"size": 2, "opening": "none"},
                                                        "format": "round-robin", "clock": {"days": 3}}).json()
    assert "id" in made, made
    for client in clients.values():
        assert client.post(f"/api/tournaments/{made['id']}/join").status_code == 200
    obj = clients["ann"].post(f"/api/tournaments/{made['id']}/start").json()
    for number, delay in ((1, 0.0), (2, 0.05)):
        games = obj["pairings"][-1]["games"]
        assert clients[games[0]["seats"][1]].post(f"/api/matches/{games[0]['match']}/resign",
                                                   json={}).status_code == 200
        last = games[1]
        sender = threading.Thread(target=quietly_post, args=(clients[last["seats"][1]],
                                                             f"/api/matches/{last['match']}/resign"))
        sender.start()
        threading.Event().wait(delay)
        served.stop(signal.SIGKILL)  # during the last game's resignation and the round change it makes
        sender.join(timeout=60)
        served = Served(db_url, tmp_path)  # judges at start-up: a round left to pair is paired now
        servers.append(served)
        for client in clients.values():
            client.base_url = served.base
        obj = served.http.get(f"/api/tournaments/{made['id']}").json()
        whole(obj, number + 1)
        if obj["round"] == number:  # the resignation was lost with the process: resigned again
            assert clients[last["seats"][1]].post(f"/api/matches/{last['match']}/resign", json={}).status_code \
                == 200
            obj = served.http.get(f"/api/tournaments/{made['id']}").json()
        assert obj["round"] == number + 1
        whole(obj, number + 1)


def quietly_post(client: httpx.Client, path: str) -> None:
    """POST ``path``; the server may die before it answers."""
    with suppress(httpx.TransportError):
        client.post(path, json={})


def whole(obj: dict, most: int) -> None:
    """The event shows whole rounds only, at most ``most``: each of its 2 games with a match of its own, each
    pair met once."""
    shown = [[(g["seats"], g["result"], g["board"]) for g in r["games"]] for r in obj["pairings"]]
    assert obj["round"] in (most - 1, most) and len(obj["pairings"]) == obj["round"], shown
    games = [g for r in obj["pairings"] for g in r["games"]]
    assert all(len(r["games"]) == 2 for r in obj["pairings"])
    assert len({g["match"] for g in games}) == len(games) and None not in {g["match"] for g in games}
    assert len({frozenset(g["seats"]) for g in games}) == len(games)
