"""Live updates (docs/server.md, "Storage, the AI and live updates"), issue 42 items 3 and 8: a watcher never
misses a change (in any event loop, across processes, a lost LISTEN connection, chat lines committed out of their
ids' order), a change is read once for all its watchers, and spectators are capped per match while its players
always get in."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, create_engine, insert, text
from sqlalchemy.engine import make_url
from starlette.websockets import WebSocketDisconnect

from hexarena.cli import build_parsers
from hexarena.server import create_app
from hexarena.server.limits import Limits, limits_from
from hexarena.server.live import Hub, listen
from hexarena.server.schema import chat
from hexarena.server.store.notify import NOTIFY_CHANNEL
from tests.server.helpers import SMALL, fresh_pg
from tests.server.test_accounts import csrf, play_online
from tests.server.test_chat import say
from tests.waits import receive_json, receive_text


@pytest.fixture
def app(db_url: str) -> Iterator[tuple[TestClient, str]]:
    with TestClient(create_app(db_url)) as c:
        yield c, db_url


def texts(obj: dict[str, Any]) -> list[str]:
    return [line["text"] for line in obj["chat"]]


def test_a_watcher_in_another_event_loop_is_woken_in_its_own(app, monkeypatch) -> None:
    """Issue 42 item 3: the hub woke every watcher from the event loop it was bound to at start-up; a socket
    served in another loop (a second TestClient's, in a thread of its own) was woken from the wrong thread, which
    does not wake its loop, and its test waited for ever.  asyncio's debug mode refuses such a wake-up outright."""
    client, other, match_id = play_online(app)
    monkeypatch.setenv("PYTHONASYNCIODEBUG", "1")  # the loops made from now on check the thread that calls them
    with TestClient(client.app).websocket_connect(f"/api/matches/{match_id}/live") as ws:
        assert receive_json(ws)["chat"] == []
        say(other, match_id, "watch this")
        assert texts(receive_json(ws, 10)) == ["watch this"]
        move = client.get(f"/api/matches/{match_id}").json()["legal_moves"][0]
        r = client.post(f"/api/matches/{match_id}/moves", json={"move": move, "ply": 0}, headers=csrf(client))
        assert r.status_code == 200, r.text
        assert receive_json(ws, 10)["moves"] == [move]


def notify(conn: Connection, match_id: str) -> None:
    conn.execute(text("SELECT pg_notify(:channel, :id)"), {"channel": NOTIFY_CHANNEL, "id": match_id})


def line(match_id: str, words: str) -> dict[str, Any]:
    return {"match_id": match_id, "seat": 0, "account_id": None, "text": words, "at": "2026-11-29T00:00:00.000+00:00"}


def test_a_chat_line_committed_after_a_later_one_still_reaches_the_watchers() -> None:
    """Issue 42 item 3: chat ids come from a sequence, and two lines can commit out of order.  The chat was
    cached by its newest line's id: read between the two commits, it was kept without the earlier line under
    the later line's id, which the earlier line's commit does not change, so that line was never shown."""
    with fresh_pg() as url, TestClient(create_app(url)) as client:
        _, _, match_id = play_online((client, url))
        engine = create_engine(url)
        try:
            with client.websocket_connect(f"/api/matches/{match_id}/live") as ws, engine.connect() as early:
                assert receive_json(ws)["chat"] == []
                early.execute(insert(chat).values(line(match_id, "drawn first")))  # its id, not yet committed
                with engine.begin() as late:
                    late.execute(insert(chat).values(line(match_id, "committed first")))
                    notify(late, match_id)
                assert texts(receive_json(ws)) == ["committed first"]
                notify(early, match_id)
                early.commit()
                assert texts(receive_json(ws)) == ["drawn first", "committed first"]
        finally:
            engine.dispose()


def test_a_listener_that_reconnects_wakes_every_watcher() -> None:
    """Issue 42 item 3: NOTIFYs sent while the LISTEN connection is lost are never heard; on reconnecting, every
    watcher is woken to read what may have changed meanwhile."""
    with fresh_pg() as url:
        name = f"hexarena_live_{secrets.token_hex(4)}"  # this test's listener, among everyone's
        conninfo = f"{make_url(url).set(drivername='postgresql').render_as_string(hide_password=False)}" \
                   f"&application_name={name}"
        hub = Hub()

        async def scenario() -> None:
            watch = hub.watch("a match")
            listener = asyncio.create_task(listen(hub, conninfo))
            try:
                await asyncio.wait_for(watch.changed(), 20)  # connected: told to read
                killed = await asyncio.to_thread(terminate, conninfo, name)
                assert killed == 1, "the listener's connection was not found"
                await asyncio.wait_for(watch.changed(), 20)  # reconnected: told again
            finally:
                listener.cancel()

        asyncio.run(scenario())


def terminate(conninfo: str, name: str) -> int:
    """End the connections named ``name`` but this one (as a server restart or a network cut would): how many."""
    with psycopg.connect(conninfo, autocommit=True) as conn:
        return len(conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s "
                                "AND pid <> pg_backend_pid()", [name]).fetchall())


def test_a_change_is_read_once_for_all_its_watchers(app, monkeypatch) -> None:
    """Issue 42 item 8: each watcher read and serialised the match itself, 640 sockets 640 times a change."""
    client, url = app
    made = client.post("/api/matches", json={"game": "projective-hex", "options": SMALL,
                                             "seats": ["me", "me"]}).json()
    server = client.app.state.server
    reads: list[str] = []  # the match objects built (the AI's moves read the store, but build none)
    real_object = server.object
    monkeypatch.setattr(server, "object", lambda match: reads.append(match.id) or real_object(match))
    live = f"/api/matches/{made['id']}/live"
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(live)) for _ in range(5)]
        assert {receive_json(ws)["ply"] for ws in sockets} == {0}
        reads.clear()
        r = client.post(f"/api/matches/{made['id']}/moves", json={"move": "a1", "token": made["token"], "ply": 0})
        assert r.status_code == 200, r.text
        assert [receive_json(ws)["moves"] for ws in sockets] == [["a1"]] * 5
    # the mover's answer and one read for all five watchers (on PostgreSQL the NOTIFY may wake them once more
    # after the local wake-up: one more shared read); a read per watcher would be 6 or more
    assert reads[0] == made["id"] and 2 <= len(reads) <= 3, reads


# spectators per match ------------------------------------------------------------------------------------
def refused(ws: Any, words: str) -> None:
    assert receive_json(ws) == {"error": words}
    with pytest.raises(WebSocketDisconnect) as closed:
        receive_text(ws)
    assert closed.value.code == 4429


def test_spectators_beyond_the_cap_are_refused_and_the_players_always_get_in(db_url: str) -> None:
    with TestClient(create_app(db_url, limits=Limits(watchers=2))) as client:
        first, second, match_id = play_online((client, db_url))
        spectator = TestClient(client.app)  # and a guest of its own match
        guest = spectator.post("/api/matches", json={"game": "projective-hex", "options": SMALL,
                                                     "seats": ["me", "open"]}).json()
        for mid in (match_id, guest["id"]):
            live = f"/api/matches/{mid}/live"
            with spectator.websocket_connect(live) as one, spectator.websocket_connect(live) as two:
                assert receive_json(one)["id"] == receive_json(two)["id"] == mid
                with spectator.websocket_connect(live) as three:
                    refused(three, "too many watchers of this match (at most 2); its players always get in")
                with spectator.websocket_connect(f"{live}?token=guessed") as four:
                    refused(four, "too many watchers of this match (at most 2); its players always get in")
                if mid == match_id:  # the players by their session
                    with first.websocket_connect(live) as a, second.websocket_connect(live) as b:
                        assert receive_json(a)["id"] == receive_json(b)["id"] == mid
                else:  # the guest by its seat's token
                    with spectator.websocket_connect(f"{live}?token={guest['token']}") as a:
                        assert receive_json(a)["id"] == mid
            with spectator.websocket_connect(live) as again:  # the spectators who left are counted off
                assert receive_json(again)["id"] == mid


def test_serve_takes_max_watchers() -> None:
    _, parsers = build_parsers()
    assert limits_from(parsers["serve"].parse_args([])).watchers == Limits().watchers == 100
    given = limits_from(parsers["serve"].parse_args(["--max-watchers", "0"]))
    assert given.watchers == 0 and Limits.from_json(given.to_json()) == given
    with pytest.raises(SystemExit):
        parsers["serve"].parse_args(["--max-watchers", "-1"])
