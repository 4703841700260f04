"""Accounts (docs/server.md, "Accounts") on SQLite and PostgreSQL: register, log in and out, sessions and
CSRF, names on the board, seats played by the session, guest seats kept on signing in, password changes,
deletion, and every refusal leaving the rows as they were."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select

from hexarena.server import accounts as accounts_module
from hexarena.server import create_app
from hexarena.server.guards import FairTurns
from hexarena.server.limits import RATES, Limits, Rate
from hexarena.server.schema import accounts, match_players, matches, sessions
from tests.server.helpers import SMALL

PASSWORD = "correct horse"


@pytest.fixture
def app(db_url: str) -> Iterator[tuple[TestClient, str]]:
    with TestClient(create_app(db_url)) as c:
        yield c, db_url


def register(client: TestClient, name: str, password: str = PASSWORD, **extra) -> dict:
    r = client.post("/api/account/register", json={"name": name, "password": password, **extra})
    assert r.status_code == 200, r.text
    return r.json()


def csrf(client: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": client.cookies.get("csrf")}


def counts(url: str) -> tuple[int, ...]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return tuple(conn.execute(select(func.count()).select_from(t)).scalar()
                         for t in (accounts, sessions, match_players, matches))
    finally:
        engine.dispose()


def test_register_sets_the_session_and_csrf_cookies(app) -> None:
    client, _ = app
    r = client.post("/api/account/register", json={"name": "Ada_1", "password": PASSWORD})
    assert r.status_code == 200 and r.json() == {"name": "Ada_1"}
    cookies = {c.split("=", 1)[0]: c for c in r.headers.get_list("set-cookie")}
    assert "HttpOnly" in cookies["session"] and "SameSite=lax" in cookies["session"]
    assert "HttpOnly" not in cookies["csrf"]
    assert client.get("/api/account").json() == {"name": "Ada_1", "ratings": {}, "email": None, "email_verified": False}


def test_secure_cookies_under_the_option(db_url) -> None:
    from hexarena.server.limits import Limits

    with TestClient(create_app(db_url, limits=Limits(secure_cookies=True)), base_url="https://testserver") as c:
        r = c.post("/api/account/register", json={"name": "sec", "password": PASSWORD})
        assert all("Secure" in c for c in r.headers.get_list("set-cookie"))


def test_login_logout_and_signed_out(app) -> None:
    client, _ = app
    register(client, "bob")
    assert client.post("/api/account/logout", headers=csrf(client)).json() == {}
    assert client.get("/api/account").status_code == 401
    r = client.post("/api/account/login", json={"name": "BOB", "password": PASSWORD})
    assert r.status_code == 200 and r.json() == {"name": "bob"}
    assert client.get("/api/account").json()["name"] == "bob"


def test_refusals_change_no_row(app) -> None:
    client, url = app
    register(client, "Carol")
    before = counts(url)
    fresh = TestClient(client.app)
    cases = [
        (fresh.post("/api/account/login", json={"name": "carol", "password": "wrong password"}), 401),
        (fresh.post("/api/account/login", json={"name": "nobody", "password": PASSWORD}), 401),
        (fresh.post("/api/account/register", json={"name": "CAROL", "password": PASSWORD}), 409),
        (fresh.post("/api/account/register", json={"name": "no", "password": PASSWORD}), 400),
        (fresh.post("/api/account/register", json={"name": "bad name", "password": PASSWORD}), 400),
        (fresh.post("/api/account/register", json={"name": "x" * 21, "password": PASSWORD}), 400),
        (fresh.post("/api/account/register", json={"name": "dave", "password": "short"}), 400),
        (fresh.post("/api/account/register", json={"name": "dave", "password": "p" * 257}), 400),
        (client.post("/api/account/logout"), 403),
        (client.post("/api/account/logout", headers={"X-CSRF-Token": "forged"}), 403),
        (client.post("/api/account/password", json={"old": "wrong password", "new": "another one"},
                     headers=csrf(client)), 401),
        (client.request("DELETE", "/api/account", json={"password": "wrong password"}, headers=csrf(client)), 401),
        (fresh.post("/api/account/logout"), 401),
    ]
    for response, status in cases:
        assert response.status_code == status, response.text
        assert set(response.json()) == {"error"}
    assert counts(url) == before


def at_address(client: TestClient, address: str) -> TestClient:
    """Another browser of ``client``'s app, at client address ``address``."""
    return TestClient(client.app, client=(address, 50000))


def login(client: TestClient, name: str, password: str = PASSWORD) -> int:
    return client.post("/api/account/login", json={"name": name, "password": password}).status_code


def test_too_many_failed_logins_for_a_name_from_one_address(app) -> None:
    client, _ = app
    register(client, "erin")
    for _ in range(10):
        assert login(client, "erin", "wrong guess") == 401
    r = client.post("/api/account/login", json={"name": "ERIN", "password": PASSWORD})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
    assert r.json()["error"].startswith("too many failed logins for 'ERIN' from your address; retry in ")


def test_failed_logins_from_many_addresses_never_lock_the_player_out(db_url) -> None:
    """Issue 42, item 4: guesses at one name from 10 addresses, each until it is refused, and the player's right
    password from an address of their own still gets in (before: 429 "too many failed logins for 'vic'")."""
    with TestClient(create_app(db_url, limits=Limits(rates={**RATES, "failed": Rate(3, 300)}))) as client:
        register(client, "vic")
        for n in range(10):
            guesser = at_address(client, f"10.0.0.{n + 1}")
            assert [login(guesser, "vic", f"guess {n} {i}") for i in range(4)] == [401] * 3 + [429]
        assert login(at_address(client, "10.0.1.1"), "VIC") == 200


def test_too_many_failed_logins_from_one_address_for_any_names(db_url) -> None:
    limits = Limits(rates={**RATES, "failed_all": Rate(3, 3600)})
    with TestClient(create_app(db_url, limits=limits)) as client:
        register(client, "vic")
        guesser = at_address(client, "10.0.0.9")
        assert [login(guesser, name, "guess one") for name in ("vic", "ann", "bob", "cyd")] == [401] * 3 + [429]
        r = guesser.post("/api/account/login", json={"name": "vic", "password": PASSWORD})
        assert r.status_code == 429 and r.json()["error"].startswith("too many failed logins from your address")
        assert login(at_address(client, "10.0.0.10"), "vic") == 200


def test_too_many_logins_from_an_address(db_url) -> None:
    limits = Limits(rates={**RATES, "login": Rate(3, 300)})
    with TestClient(create_app(db_url, limits=limits)) as client:
        for name in ("a1a", "b2b", "c3c"):
            assert client.post("/api/account/login", json={"name": name, "password": PASSWORD}).status_code == 401
        r = client.post("/api/account/login", json={"name": "d4d", "password": PASSWORD})
        assert r.status_code == 429 and "Retry-After" in r.headers


def play_online(app) -> tuple[TestClient, TestClient, str]:
    """Two accounts in a match: the first creates it (an open seat), the second joins."""
    client, _ = app
    other = TestClient(client.app)
    register(client, "first")
    register(other, "second")
    made = client.post("/api/matches", json={"game": "projective-hex", "options": SMALL, "seats": ["me", "open"]},
                       headers=csrf(client)).json()
    joined = other.post(f"/api/matches/{made['id']}/join", headers=csrf(other))
    assert joined.status_code == 200, joined.text
    return client, other, made["id"]


def test_names_on_the_board_and_moves_by_session(app) -> None:
    client, other, match_id = play_online(app)
    m = client.get(f"/api/matches/{match_id}").json()
    assert m["players"] == ["first", "second"]
    r = client.post(f"/api/matches/{match_id}/moves", json={"move": m["legal_moves"][0], "ply": 0},
                    headers=csrf(client))
    assert r.status_code == 200, r.text
    assert r.json()["record"]["players"] == ["first", "second"]
    # out of turn, and without the CSRF header: refused, nothing stored
    mv = r.json()["legal_moves"][0]
    assert client.post(f"/api/matches/{match_id}/moves", json={"move": mv, "ply": 1},
                       headers=csrf(client)).status_code == 403
    assert other.post(f"/api/matches/{match_id}/moves", json={"move": mv, "ply": 1}).status_code == 403
    stranger = TestClient(client.app)
    assert stranger.post(f"/api/matches/{match_id}/moves", json={"move": mv, "ply": 1}).status_code == 403
    assert client.get(f"/api/matches/{match_id}").json()["ply"] == 1
    assert other.post(f"/api/matches/{match_id}/moves", json={"move": mv, "ply": 1},
                      headers=csrf(other)).status_code == 200


def test_ai_and_guest_seats_are_named(app) -> None:
    client, _ = app
    made = client.post("/api/matches", json={"game": "projective-hex", "options": SMALL,
                                             "seats": ["me", "ai:3"]}).json()
    assert client.get(f"/api/matches/{made['id']}").json()["players"] == [None, "ai-3"]


def test_a_guest_keeps_the_seats_of_this_browser_on_signing_in(app) -> None:
    client, _ = app
    made = client.post("/api/matches", json={"game": "projective-hex", "options": SMALL,
                                             "seats": ["me", "open"]}).json()
    register(client, "guesty", seats=[{"match": made["id"], "token": made["token"]},
                                      {"match": "unknown", "token": "nothing"}])
    m = client.get(f"/api/matches/{made['id']}").json()
    assert m["players"] == ["guesty", None]
    r = client.post(f"/api/matches/{made['id']}/moves", json={"move": m["legal_moves"][0], "ply": 0},
                    headers=csrf(client))
    assert r.status_code == 200, r.text
    # the token still plays too
    assert TestClient(client.app).post(f"/api/matches/{made['id']}/resign",
                                       json={"token": made["token"]}).status_code == 200


def test_another_account_cannot_take_a_seat_held_by_an_account(app) -> None:
    client, other, match_id = play_online(app)
    thief = TestClient(client.app)
    register(thief, "thief", seats=[{"match": match_id, "token": "guessed"}])
    assert client.get(f"/api/matches/{match_id}").json()["players"] == ["first", "second"]


def test_password_change_ends_other_sessions(app) -> None:
    client, _ = app
    register(client, "pat")
    elsewhere = TestClient(client.app)
    elsewhere.post("/api/account/login", json={"name": "pat", "password": PASSWORD})
    assert elsewhere.get("/api/account").status_code == 200
    r = client.post("/api/account/password", json={"old": PASSWORD, "new": "a new secret"}, headers=csrf(client))
    assert r.status_code == 200, r.text
    assert client.get("/api/account").status_code == 200
    assert elsewhere.get("/api/account").status_code == 401
    assert TestClient(client.app).post("/api/account/login", json={"name": "pat", "password": PASSWORD}
                                       ).status_code == 401
    assert TestClient(client.app).post("/api/account/login", json={"name": "pat", "password": "a new secret"}
                                       ).status_code == 200


def test_delete_keeps_the_matches_and_the_name(app) -> None:
    client, other, match_id = play_online(app)
    r = client.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=csrf(client))
    assert r.status_code == 200, r.text
    assert client.get("/api/account").status_code == 401
    assert other.get(f"/api/matches/{match_id}").json()["players"] == ["(deleted)", "second"]
    fresh = TestClient(client.app)
    assert fresh.post("/api/account/login", json={"name": "first", "password": PASSWORD}).status_code == 401
    assert fresh.post("/api/account/register", json={"name": "First", "password": PASSWORD}).status_code == 409


def test_passwords_are_stored_as_argon2id_hashes(app) -> None:
    client, url = app
    register(client, "hashy")
    engine = create_engine(url)
    with engine.connect() as conn:
        stored = conn.execute(select(accounts.c.password).where(accounts.c.name == "hashy")).scalar()
    engine.dispose()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored


def test_the_argon2id_cost_is_the_environments_or_argon2_cffis(monkeypatch) -> None:
    """``$HEXARENA_ARGON2`` sets the cost (the suite's is the least); unset, argon2-cffi's RFC 9106 defaults."""
    monkeypatch.setenv(accounts_module.ARGON2_ENV, "2,1024,1")
    accounts_module.hasher.cache_clear()
    try:
        assert accounts_module.hashed("x").startswith("$argon2id$v=19$m=1024,t=2,p=1$")
        monkeypatch.delenv(accounts_module.ARGON2_ENV)
        accounts_module.hasher.cache_clear()
        digest = accounts_module.hashed("x")
        assert digest.startswith("$argon2id$v=19$m=65536,t=3,p=4$") and accounts_module.verify(digest, "x")
    finally:
        monkeypatch.undo()
        accounts_module.hasher.cache_clear()


# fair turns at password hashing (issue 42, item 5) ------------------------------------------------------------
def wait_until(check: Callable[[], bool], what: str, seconds: float = 20) -> None:
    """Wait for ``check`` (polling), failing with ``what`` if it is not true within ``seconds``."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        time.sleep(0.01)


async def served_in_order(turns: FairTurns, keys: list[str]) -> list[str]:
    """The order in which ``turns`` serves jobs of ``keys`` (queued in that order), the first held until all the
    others wait."""
    order: list[str] = []
    hold = asyncio.Event()

    async def job(n: int, key: str) -> None:
        async with turns.turn(key):
            order.append(f"{key}{n}")
            if n == 0:
                await hold.wait()

    tasks = []
    for n, key in enumerate(keys):
        tasks.append(asyncio.create_task(job(n, key)))
        await asyncio.sleep(0)
    while turns.waiting() < len(keys) - turns.slots:
        await asyncio.sleep(0.001)
    hold.set()
    await asyncio.wait_for(asyncio.gather(*tasks), 20)
    return order


def test_many_queued_hashes_of_one_address_wait_behind_another_addresss() -> None:
    order = asyncio.run(served_in_order(FairTurns(1), ["a", "a", "a", "a", "b", "c"]))
    assert order == ["a0", "b4", "c5", "a1", "a2", "a3"]


def test_an_address_without_failures_is_served_before_the_flooding_ones() -> None:
    failures = {"a": 30.0, "b": 2.0, "c": 2.0}
    order = asyncio.run(served_in_order(FairTurns(1, lambda key: failures.get(key, 0.0)),
                                        ["a", "a", "b", "c", "b", "c", "a", "me"]))
    assert order == ["a0", "me7", "b2", "c3", "b4", "c5", "a1", "a6"]


def test_one_hash_in_flight_per_address_even_with_a_free_slot() -> None:
    async def scenario() -> list[str]:
        turns, order = FairTurns(2), []

        async def job(key: str, name: str) -> None:
            async with turns.turn(key):
                order.append(name)

        async with turns.turn("a"):
            second = asyncio.create_task(job("a", "a's second"))
            await asyncio.wait_for(job("b", "b"), 20)  # served in the free slot
            assert turns.waiting() == 1  # a's second still waits
            order.append("a's first ends")
        await asyncio.wait_for(second, 20)
        return order

    assert asyncio.run(scenario()) == ["b", "a's first ends", "a's second"]


def test_a_cancelled_wait_leaves_the_queue() -> None:
    async def scenario() -> list[str]:
        turns, order = FairTurns(1), []
        async with turns.turn("a"):
            gone = asyncio.create_task(turns.turn("b").__aenter__())
            await asyncio.sleep(0)
            assert turns.waiting() == 1
            gone.cancel()
            await asyncio.gather(gone, return_exceptions=True)
            assert turns.waiting() == 0
        async with turns.turn("c"):
            order.append("c")
        return order

    assert asyncio.run(scenario()) == ["c"]


def test_a_flood_of_logins_from_one_address_does_not_hold_up_another(app, monkeypatch) -> None:
    """Five wrong logins at once from one address, the first hash stuck: a player's login from another address
    is hashed and answered meanwhile (before, the flood took both hashing slots and the player waited)."""
    client, _ = app
    register(client, "vic")
    stuck, real_verify = threading.Event(), accounts_module.verify
    hashed: list[str] = []

    def verify(digest: str, password: str) -> bool:
        hashed.append(password)
        if password.startswith("guess"):
            assert stuck.wait(20), "the test never released the flood's hash"
        return real_verify(digest, password)

    monkeypatch.setattr(accounts_module, "verify", verify)
    flood = [threading.Thread(target=login, args=(at_address(client, "10.0.0.66"), "vic", f"guess {n}"), daemon=True)
             for n in range(5)]
    for thread in flood:
        thread.start()
    hashing = client.app.state.server.accounts.hashing  # type: ignore[attr-defined]
    wait_until(lambda: hashing.waiting() == 4 and len(hashed) == 1, "one flood hash in flight, four waiting")
    assert login(at_address(client, "10.0.0.2"), "vic") == 200
    assert hashed[1] == PASSWORD
    stuck.set()
    for thread in flood:
        thread.join(30)
        assert not thread.is_alive(), "a flood login never ended"
    assert sorted([hashed[0], *hashed[2:]]) == [f"guess {n}" for n in range(5)]


def test_accounts_registered_per_address_in_a_day(db_url) -> None:
    now = [time.time()]
    with TestClient(create_app(db_url, limits=Limits(address_accounts=2), clock=lambda: now[0])) as client:
        for name in ("one", "two"):
            register(at_address(client, "10.0.0.5"), name)
        before = counts(db_url)
        r = at_address(client, "10.0.0.5").post("/api/account/register", json={"name": "three", "password": PASSWORD})
        assert r.status_code == 429 and r.json() == {
            "error": "too many accounts registered from your address: 2 in 24 hours, the most one address may register"}
        assert 86000 < int(r.headers["Retry-After"]) <= 86400 and counts(db_url) == before
        register(at_address(client, "10.0.0.6"), "three")
        now[0] += 86401
        register(at_address(client, "10.0.0.5"), "four")


def test_an_address_that_signed_in_goes_first_then_the_fewest_failures(app) -> None:
    client, _ = app
    accounts = client.app.state.server.accounts  # type: ignore[attr-defined]
    register(at_address(client, "10.0.0.1"), "regular")
    for n in range(3):
        assert login(at_address(client, "10.0.0.2"), f"nobody{n}", "a wrong guess") == 401
    ranks = [accounts.rank(a) for a in ("10.0.0.1", "10.0.0.3", "10.0.0.2")]
    assert ranks[0] == -1 and ranks[1] == 0 and 2.9 < ranks[2] <= 3


def test_two_turns_in_flight_per_key_when_asked() -> None:
    """per_key=2: a key's third waits even with a slot free, and another key takes that slot."""
    async def scenario() -> tuple[list[str], int]:
        turns, started, release = FairTurns(3, per_key=2), [], asyncio.Event()

        async def job(name: str) -> None:
            async with turns.turn(name[0]):
                started.append(name)
                await release.wait()

        tasks = [asyncio.create_task(job(name)) for name in ("a0", "a1", "a2", "a3", "b4")]
        while len(started) < 3:
            await asyncio.sleep(0.001)
        waiting = turns.waiting()
        release.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 20)
        return started, waiting

    assert asyncio.run(scenario()) == (["a0", "a1", "b4", "a2", "a3"], 2)
