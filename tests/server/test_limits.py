"""Limits at every door (issue 28; docs/server.md "Limits"): request bodies
refused unread (413), requests per client address (429 with Retry-After,
X-Forwarded-For only from a trusted proxy), open matches per client and
their expiry, WebSockets per address, imported fields bounded on SQLite and
PostgreSQL, and the security headers of every response."""

from __future__ import annotations

import asyncio
import re
import select
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy import text, update
from starlette.websockets import WebSocketDisconnect

import hexarena
from hexarena.cli import build_parsers
from hexarena.record_writer import at
from hexarena.server import create_app
from hexarena.server import migrations
from hexarena.server.core import Server
from hexarena.server.guards import CALLER, Buckets, NameCaller
from hexarena.server.limits import RATES, Limits, Rate, limits_from, parse_rate
from hexarena.server.schema import match_clients, matches
from tests.server.helpers import SMALL
from tests.server.test_processes import free_port
from tests.waits import receive_json, receive_text

HTML = "<img src=x onerror=alert(1)>"


def app_client(url: str, **limits: Any) -> TestClient:
    return TestClient(create_app(url, limits=Limits(**limits)))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'limits.db'}"


def new_match(client: TestClient, seats: list[str], headers: dict[str, str] | None = None) -> Any:
    return client.post("/api/matches", json={"game": "projective-hex", "options": SMALL, "seats": seats},
                       headers=headers)


# request bodies ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """The app under uvicorn in a thread (as `hexarena serve` runs it), on a free port: the port."""
    port = free_port()
    app = create_app(f"sqlite:///{tmp_path_factory.mktemp('served') / 'h.db'}")
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning", ws="websockets-sansio",
                                           proxy_headers=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield port
    server.should_exit = True
    thread.join(30)


def peak_rss_mb() -> float:
    """This process's peak resident memory (the server runs in it)."""
    status = Path("/proc/self/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM"))) / 1024


def huge_seats(entries: int) -> Iterator[bytes]:
    """A POST /api/matches body with an ``entries``-long seats list, in 64 KiB pieces."""
    yield b'{"game": "projective-hex", "options": {}, "seats": ["me"'
    piece = b', "me"' * (65536 // 6)
    for _ in range(entries // (65536 // 6)):
        yield piece
    yield b"]}"


def post_raw(port: int, head: bytes, pieces: Iterator[bytes]) -> tuple[bytes, int]:
    """Send a request by hand, piece by piece until the server answers; (the answer, the body bytes sent)."""
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(head)
        for piece in pieces:
            if select.select([sock], [], [], 0)[0]:  # answered: stop sending
                break
            try:
                sock.sendall(piece)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(piece)
        answer = b""
        with suppress(ConnectionResetError):
            while chunk := sock.recv(65536):
                answer += chunk
    return answer, sent


def test_a_50_mb_body_is_refused_unread_and_memory_stays_flat(served: int) -> None:
    """Issue 28 item 3: a 50 MB body of a 10-million-entry seats list took 7.4 s and 800 MB to refuse.  Refused
    unread: answered before a fifth of the body was sent (no clock: a loaded machine is slow, not wrong)."""
    before = peak_rss_mb()
    size = sum(map(len, huge_seats(10_000_000)))
    assert size > 50_000_000
    head = (f"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {size}\r\n\r\n").encode()
    answer, sent = post_raw(served, head, huge_seats(10_000_000))
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert answer.endswith(b'{"error":"request body too large: at most 1048576 bytes"}')
    assert sent < 10_000_000  # answered on the headers, long before the body was through
    # the same body chunked (no Content-Length): refused once the bytes received pass the limit
    chunked = (b"%x\r\n%s\r\n" % (len(p), p) for p in huge_seats(10_000_000))
    head = (b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    answer, sent = post_raw(served, head, chunked)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert 1 << 20 < sent < 10_000_000
    grown = peak_rss_mb() - before
    assert grown < 30, grown
    with httpx.Client(base_url=f"http://127.0.0.1:{served}") as http:  # and the server answers as before
        assert http.get("/api/games").status_code == 200


def test_bodies_up_to_the_limit_are_read(sqlite_url: str) -> None:
    with app_client(sqlite_url, body_bytes=200) as client:
        assert new_match(client, ["me", "me"]).status_code == 200
        padded = {"game": "projective-hex", "options": SMALL, "seats": ["me", "me"], "x": "a" * 200}
        answer = client.post("/api/matches", json=padded)
        assert answer.status_code == 413 and answer.json() == {"error": "request body too large: at most 200 bytes"}
        stream = client.post("/api/matches", content=iter([b'{"game": "projective-hex",'] * 20),
                             headers={"Content-Type": "application/json"})
        assert stream.status_code == 413 and "too large" in stream.json()["error"]


# requests per client address ----------------------------------------------------------------------------
def test_buckets_refill_at_their_rate() -> None:
    now = [0.0]
    buckets = Buckets({"move": Rate(3, 30)}, clock=lambda: now[0])
    assert [buckets.take("move", "a") for _ in range(3)] == [0, 0, 0]
    assert buckets.take("move", "a") == pytest.approx(10)  # one request back every 10 s
    assert buckets.take("move", "b") == 0  # another address has its own bucket
    now[0] = 10.0
    assert buckets.take("move", "a") == 0 and buckets.take("move", "a") == pytest.approx(10)
    assert buckets.take("hint", "a") == 0  # a kind with no rate is not limited


KINDS = {  # kind: the request, given a match of ["me", "open"] and its token
    "create": lambda c, m: new_match(c, ["me", "me"]),
    "import": lambda c, m: c.post("/api/matches/import", json={"record": "[projective-hex size=2 opening=none] *",
                                                               "seats": ["me", "me"]}),
    "join": lambda c, m: c.post(f"/api/matches/{m['id']}/join"),
    "move": lambda c, m: c.post(f"/api/matches/{m['id']}/resign", json={"token": m["token"]}),
    # a hint refused (no seat's token) counts all the same, and answers at once: a searched one waits for the AI's
    # worker, and the bucket would refill meanwhile
    "hint": lambda c, m: c.get(f"/api/matches/{m['id']}/hint", params={"token": "no-seat"}),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_is_limited_per_address_with_retry_after(sqlite_url: str, kind: str) -> None:
    rates = {k: Rate(0, 1) for k in RATES} | {kind: Rate(2, 60)}
    with app_client(sqlite_url, rates=rates) as client:
        made = new_match(client, ["me", "open"]).json()  # a creation: one of two
        allowed = 1 if kind == "create" else 2
        answers = [KINDS[kind](client, made) for _ in range(allowed + 1)]
        assert all(a.status_code != 429 for a in answers[:allowed]), [a.text for a in answers]
        refused = answers[allowed]
        # 30 s less what the requests took (a hint takes seconds on a loaded machine; the exact figure is
        # test_buckets_refill_at_their_rate's, on a clock of its own)
        wait = int(refused.headers["Retry-After"])
        assert refused.status_code == 429 and 1 <= wait <= 30
        assert refused.json()["error"] == f"too many requests ({kind}): at most 2 per 60 s from one address; " \
                                          f"retry in {wait} s"
        assert client.get(f"/api/matches/{made['id']}").status_code == 200  # reading is not limited


def test_a_fast_hot_seat_game_never_meets_the_default_limits(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        posted = 0
        for game in range(4):  # four games, each move posted as soon as the last is answered
            options = {"size": 3, "opening": "none"}
            made = client.post("/api/matches", json={"game": "projective-hex", "options": options,
                                                     "seats": ["me", "me"]}).json()
            state = hexarena.load("projective-hex", **options).new_state()
            while not state.is_over():
                move = state.legal_moves()[(game + len(state.history)) % len(state.legal_moves())]
                answer = client.post(f"/api/matches/{made['id']}/moves",
                                     json={"move": move, "token": made["token"], "ply": len(state.history)})
                assert answer.status_code == 200, answer.text
                state.play(move)
                posted += 1
        assert posted > 40


def test_x_forwarded_for_names_the_client_only_from_a_trusted_proxy(sqlite_url: str) -> None:
    rates = {"create": Rate(1, 60)}
    alice, bob = {"X-Forwarded-For": "203.0.113.7"}, {"X-Forwarded-For": "198.51.100.9"}
    with app_client(sqlite_url, rates=rates) as client:  # no trusted proxy: the header is ignored
        assert new_match(client, ["me", "me"], alice).status_code == 200
        assert new_match(client, ["me", "me"], bob).status_code == 429
    with app_client(sqlite_url, rates=rates, forwarded_allow_ips="testclient") as client:
        assert new_match(client, ["me", "me"], alice).status_code == 200
        assert new_match(client, ["me", "me"], bob).status_code == 200
        assert new_match(client, ["me", "me"], alice).status_code == 429
    with app_client(sqlite_url, rates=rates, forwarded_allow_ips="10.0.0.1") as client:  # another proxy
        assert new_match(client, ["me", "me"], alice).status_code == 200
        assert new_match(client, ["me", "me"], bob).status_code == 429


def test_serve_options_give_the_limits() -> None:
    _, parsers = build_parsers()
    defaults = limits_from(parsers["serve"].parse_args([]))
    assert defaults == Limits() and defaults.forwarded_allow_ips is None and defaults.body_bytes == 1 << 20
    given = limits_from(parsers["serve"].parse_args(
        ["--max-body", "4096", "--rate", "move=5/10", "--rate", "hint=0/1", "--max-open-matches", "3",
         "--open-seat-hours", "0.5", "--max-websockets", "4", "--forwarded-allow-ips", "10.0.0.1,10.1.0.0/16"]))
    assert given == Limits(4096, {**RATES, "move": Rate(5, 10), "hint": Rate(0, 1)}, 3, 0.5, 4,
                           "10.0.0.1,10.1.0.0/16")
    assert Limits.from_json(given.to_json()) == given
    caps = limits_from(parsers["serve"].parse_args(
        ["--max-accounts-per-address", "0", "--max-open-seeks-per-address", "7", "--rate", "failed=3/60"]))
    assert (caps.address_accounts, caps.address_seeks, caps.rates["failed"]) == (0, 7, Rate(3, 60))
    assert Limits.from_json(caps.to_json()) == caps
    for bad in ("moves=5/10", "move=5", "move=-1/10", "move=5/0", "move=x/1"):
        with pytest.raises(ValueError, match="move=|the kind is one of"):
            parse_rate(bad)


def test_serve_options_give_the_ai_caps_and_pool() -> None:
    """--ai-searches, --ai-searches-per-owner, --ai-trees-mb, --pool and --ray-address, through the JSON that
    --workers processes read; a pool that is neither is refused naming both."""
    _, parsers = build_parsers()
    given = limits_from(parsers["serve"].parse_args(
        ["--ai-searches", "8", "--ai-searches-per-owner", "1", "--ai-trees-mb", "64", "--pool", "ray",
         "--ray-address", "10.0.0.5:6379"]))
    assert (given.ai.searches, given.ai.owner_searches, given.ai.trees_mb) == (8, 1, 64)
    assert (given.pool, given.ray_address) == ("ray", "10.0.0.5:6379")
    assert Limits.from_json(given.to_json()) == given
    for bad in (["--pool", "threads"], ["--ai-searches", "0"], ["--ai-trees-mb", "8"]):
        with pytest.raises(SystemExit):
            parsers["serve"].parse_args(bad)


# open matches per client and their expiry ----------------------------------------------------------------
def test_the_open_match_flood_is_capped_and_real_games_stay_listed(db_url: str) -> None:
    """Issue 28 item 6: one client made 4,000 open matches in 45 s and hid every real game."""
    flood, player = {"X-Forwarded-For": "203.0.113.7"}, {"X-Forwarded-For": "198.51.100.9"}
    with app_client(db_url, forwarded_allow_ips="testclient", rates={}) as client:
        real = new_match(client, ["me", "open"], player).json()["id"]
        answers = [new_match(client, ["open", "me"], flood) for _ in range(40)]
        assert [a.status_code for a in answers] == [200] * 20 + [429] * 20
        refused = answers[-1]
        assert refused.json()["error"].startswith("too many open matches: 20 from your address wait for a player "
                                                  "(at most 20); the oldest expires in 1440 min")
        assert 86000 < int(refused.headers["Retry-After"]) <= 86400
        assert new_match(client, ["me", "me"], flood).status_code == 200  # no open seat: not capped
        listed = [m["id"] for m in client.get("/api/matches?list=open").json()]
        assert len(listed) == 21 and real in listed
        joined = client.post(f"/api/matches/{answers[0].json()['id']}/join", headers=player)
        assert joined.status_code == 200  # a seat taken frees a place
        assert new_match(client, ["open", "me"], flood).status_code == 200
        assert new_match(client, ["open", "me"], flood).status_code == 429


def age(client: TestClient, match_id: str, hours: float) -> None:
    """Make ``match_id`` as if created ``hours`` ago (a new version, so that no thread's cached copy of the
    match, which may be remembered after the update, is taken for the stored one)."""
    store = client.app.state.server.store
    stamp = at(time.time() - hours * 3600)
    with store.db.engine.begin() as conn:
        conn.execute(update(matches).where(matches.c.id == match_id).values(created=stamp,
                                                                            version=matches.c.version + 1))
        conn.execute(update(match_clients).where(match_clients.c.match_id == match_id).values(created=stamp))
    store.matches._cache.clear()


def test_open_seats_expire(db_url: str) -> None:
    with app_client(db_url, open_matches=2, open_hours=1.0) as client:
        old, fresh = (new_match(client, ["me", "open"]).json()["id"] for _ in range(2))
        assert new_match(client, ["me", "open"]).status_code == 429
        age(client, old, 1.5)
        assert [m["id"] for m in client.get("/api/matches?list=open").json()] == [fresh]
        expired = client.post(f"/api/matches/{old}/join")
        assert expired.status_code == 409 and expired.json()["error"] == \
            "no open seat: it expired, nobody joined within 1 h"
        assert client.get(f"/api/matches/{old}").json()["seats"] == ["human", "open"]  # unchanged
        assert new_match(client, ["me", "open"]).status_code == 200  # the expired one no longer counts


def test_a_database_of_the_older_schema_gains_its_creators_table(db_url: str) -> None:
    with app_client(db_url) as client:
        waiting = new_match(client, ["me", "open"]).json()["id"]
        new_match(client, ["me", "me"])
        engine = client.app.state.server.store.db.engine
        migrations.downgrade(engine, "0001")  # as before issue 28 (and migrations)
        with engine.begin() as conn:
            conn.execute(text("DROP TABLE alembic_version"))
    with app_client(db_url, open_matches=1) as client:
        assert [m["id"] for m in client.get("/api/matches?list=open").json()] == [waiting]
        assert new_match(client, ["me", "open"]).status_code == 200  # its creator was not known
        assert client.post(f"/api/matches/{waiting}/join").status_code == 200
        assert len(client.get("/api/matches?list=open").json()) == 1


# WebSockets per address --------------------------------------------------------------------------------
def test_websockets_per_address_are_capped(sqlite_url: str) -> None:
    with app_client(sqlite_url, websockets=2) as client:
        mid = new_match(client, ["me", "me"]).json()["id"]
        with client.websocket_connect(f"/api/matches/{mid}/live") as one, \
                client.websocket_connect(f"/api/matches/{mid}/live") as two:
            assert receive_json(one)["id"] == receive_json(two)["id"] == mid
            with client.websocket_connect(f"/api/matches/{mid}/live") as three:
                assert receive_json(three) == \
                    {"error": "too many live connections from your address (at most 2)"}
                with pytest.raises(WebSocketDisconnect) as closed:
                    receive_text(three)
                assert closed.value.code == 4429
        with client.websocket_connect(f"/api/matches/{mid}/live") as again:  # the closed ones are counted off
            assert receive_json(again)["id"] == mid


def test_live_sockets_opened_too_often_are_refused_at_the_handshake(sqlite_url: str) -> None:
    """Issue 42 item 8: 640 sockets from 20 addresses, refused and opened again as fast as the attacker could
    (about 460 handshakes a second), slowed everyone; the openings per address are rate-limited ("live")."""
    with app_client(sqlite_url, rates={**RATES, "live": Rate(2, 60)}) as client:
        mid = new_match(client, ["me", "me"]).json()["id"]
        for _ in range(2):
            with client.websocket_connect(f"/api/matches/{mid}/live") as ws:
                assert receive_json(ws)["id"] == mid
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect("/api/account/live"):
            pass
        assert refused.value.code == 4429 and "too many requests (live)" in refused.value.reason
        assert new_match(client, ["me", "me"]).status_code == 200  # other kinds are not touched


# imported fields --------------------------------------------------------------------------------------
def one_move_record() -> dict[str, Any]:
    state = hexarena.load("projective-hex", **SMALL).new_state()
    state.play(state.legal_moves()[0])
    return state.record()


@pytest.mark.parametrize("stamp, words", [
    (HTML, "must be an ISO 8601 date and time of at most 32 characters"),
    ("2" * 1_000_000, "must be an ISO 8601 date and time of at most 32 characters"),
    ("2026-02-30T10:00:00.000+00:00", "is no real date and time"),
    ("2026-11-25T10:00:00.123456+00:00 ", "must be an ISO 8601"),
])
def test_lying_timestamps_are_refused_on_both_databases(db_url: str, stamp: str, words: str) -> None:
    """Issue 28 item 4: stored and served back on SQLite, a 500 on PostgreSQL (VARCHAR(32))."""
    with app_client(db_url) as client:
        for where in ("moves", "started"):
            record = one_move_record()
            record["timestamps"][where] = [stamp] if where == "moves" else stamp
            answer = client.post("/api/matches/import", json={"record": record, "seats": ["me", "me"]})
            assert answer.status_code == 400, answer.text[:200]
            assert answer.json()["error"].startswith(f"record: record field 'timestamps.{where}")
            assert words in answer.json()["error"] and len(answer.json()["error"]) < 300
        assert client.get("/api/matches?list=recent").json() == []


def test_the_longest_true_timestamp_is_stored_on_both_databases(db_url: str) -> None:
    record = one_move_record()
    record["timestamps"]["moves"] = ["2026-11-25T10:00:00.123456+00:00"]
    with app_client(db_url) as client:
        made = client.post("/api/matches/import", json={"record": record, "seats": ["me", "me"]})
        assert made.status_code == 200, made.text
        served = client.get(f"/api/matches/{made.json()['id']}/record.json").json()
        assert served["timestamps"]["moves"] == ["2026-11-25T10:00:00.123456+00:00"]


JUNK: list[Any] = [None, 2**70, 1.5, True, "", "x" * 5000, HTML, ["x"] * 3, {"a": 1}, "\u0000é"]


def test_no_imported_field_gives_a_5xx(db_url: str) -> None:
    with app_client(db_url, rates={}) as client:
        for key in ("format", "game", "options", "players", "moves", "result", "timestamps", "colours"):
            for junk in JUNK:
                record = one_move_record() | {key: junk}
                answer = client.post("/api/matches/import", json={"record": record, "seats": ["me", "me"]})
                assert answer.status_code < 500, (key, junk, answer.text[:200])
        for junk in JUNK:
            for record in ({**one_move_record(), "players": [junk, "b"]},
                           {**one_move_record(), "timestamps": {"started": junk, "moves": [junk]}},
                           {**one_move_record(), "options": {"size": junk}}):
                answer = client.post("/api/matches/import", json={"record": record, "seats": ["me", "me"]})
                assert answer.status_code < 500, (record, answer.text[:200])


# security headers --------------------------------------------------------------------------------------
def assert_secured(answer: Any) -> None:
    policy = answer.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Referrer-Policy"] == "no-referrer"


def test_every_response_carries_the_security_headers(sqlite_url: str) -> None:
    app = create_app(sqlite_url, limits=Limits(body_bytes=100, rates={"create": Rate(1, 60)}))

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        answers = [client.get(p) for p in ("/", "/static/app.js", "/static/app.css", "/api/games", "/nothing",
                                           "/api/matches/nothing", "/reports", "/boom")]
        answers += [new_match(client, ["me", "me"]), new_match(client, ["me", "me"]),
                    client.post("/api/matches/x/moves", content=b"x" * 101)]
        assert [a.status_code for a in answers] == [200, 200, 200, 200, 404, 404, 200, 500, 200, 429, 413]
        for answer in answers:
            assert_secured(answer)
        assert answers[0].headers["Content-Security-Policy"].startswith("default-src 'self'; script-src 'self'")


def test_the_pages_hold_no_inline_script_style_or_handler() -> None:
    static = Path(hexarena.__file__).parent / "server" / "static"
    for page in static.glob("*.html"):
        text = page.read_text()
        assert not re.search(r"<style|\sstyle\s*=|\son[a-z]+\s*=|javascript:", text, re.IGNORECASE), page
        scripts = re.findall(r"<script([^>]*)>(.*?)</script>", text, re.DOTALL)
        assert scripts and all(" src=" in attrs and not body.strip() for attrs, body in scripts), page


def test_threaded_store_work_takes_fair_turns_by_client_address(sqlite_url: str) -> None:
    """One address's 60 slow database calls (more than the threads) never keep another address's call
    waiting behind them: each address has at most two in the threads, and the addresses take turns."""
    server = Server(sqlite_url)
    gate = threading.Event()

    async def call(address: str, work: Any) -> Any:
        CALLER.set(address)
        return await server.call(work, heavy=True)

    async def scenario() -> str:
        flood = [asyncio.create_task(call("198.51.100.1", lambda: gate.wait(20))) for _ in range(60)]
        await asyncio.sleep(0.05)
        try:
            return await asyncio.wait_for(call("203.0.113.9", lambda: "served"), 10)
        finally:
            gate.set()
            await asyncio.wait_for(asyncio.gather(*flood), 20)

    try:
        assert asyncio.run(scenario()) == "served"
    finally:
        gate.set()
        server.close()


def test_a_request_names_its_address_for_the_store_turns() -> None:
    seen: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(CALLER.get())

    asyncio.run(NameCaller(app)({"type": "http", "client": ("203.0.113.5", 4000)}, None, None))
    asyncio.run(NameCaller(app)({"type": "lifespan"}, None, None))
    assert seen == ["203.0.113.5", "server"]
