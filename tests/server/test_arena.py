"""The arena (docs/server.md, "Seeks and challenges", "Time limits", "My games and profiles") on SQLite and
PostgreSQL: seeks and challenges posted, listed, accepted, withdrawn and declined; clocks kept a turn at a time;
losses on time judged (a late move, the judge, a restart, once across processes); "my games", profiles and the
per-account live socket; every refusal leaving the rows as they were."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert, select
from starlette.websockets import WebSocketDisconnect

import hexarena
from hexarena.server import clocks, create_app
from hexarena.server.accounts import Account
from hexarena.server.core import JUDGE_TOPIC, Server
from hexarena.server.limits import Limits
from hexarena.record_writer import at
from hexarena.server.schema import match_players, matches, moves, ratings, seeks
from hexarena.server.errors import Refused
from tests.server.helpers import SMALL
from tests.server.test_accounts import csrf, register
from tests.waits import WAIT, joined, receive_json

DAY = 86400


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def arena(db_url: str, clock: FakeClock) -> Iterator[tuple[TestClient, TestClient, TestClient, str]]:
    """Three signed-in players (ann, bob, cyd) on one app judging by ``clock``, with no judging loop (the tests
    call the judge)."""
    app = create_app(db_url, clock=clock, limits=Limits(judge_seconds=0, open_seeks=3))
    with TestClient(app) as ann:
        bob, cy = TestClient(app), TestClient(app)
        for client, name in ((ann, "ann"), (bob, "bob"), (cy, "cyd")):
            register(client, name)
        yield ann, bob, cy, db_url


def rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tables the arena writes."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return {t.name: sorted(map(tuple, conn.execute(select(t))), key=repr)
                    for t in (seeks, matches, match_players, moves)}
    finally:
        engine.dispose()


def seek(client: TestClient, **fields: Any) -> dict[str, Any]:
    body = {"game": "projective-hex", "options": SMALL, "clock": {"days": 3}, "rated": False, "colour": "first",
            **fields}
    r = client.post("/api/seeks", json=body, headers=csrf(client))
    assert r.status_code == 200, r.text
    return r.json()


def accept(client: TestClient, seek_id: str) -> str:
    r = client.post(f"/api/seeks/{seek_id}/accept", headers=csrf(client))
    assert r.status_code == 200, r.text
    return r.json()["match"]


def play(client: TestClient, match_id: str, move: str) -> dict[str, Any]:
    ply = client.get(f"/api/matches/{match_id}").json()["ply"]
    r = client.post(f"/api/matches/{match_id}/moves", json={"move": move, "ply": ply}, headers=csrf(client))
    assert r.status_code == 200, r.text
    return r.json()


def server_of(client: TestClient) -> Server:
    server: Server = client.app.state.server  # type: ignore[attr-defined]
    return server


# time controls -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value, message", [
    ("3", "clock '3': give null, {\"days\": D} (1..14)"),
    ({"days": 0}, "clock days 0: a whole number from 1 to 14"),
    ({"days": 15}, "clock days 15: a whole number from 1 to 14"),
    ({"days": 1.5}, "clock days 1.5: a whole number from 1 to 14"),
    ({"days": True}, "clock days True: a whole number from 1 to 14"),
    ({"initial": 14, "increment": 0}, "clock initial 14: a whole number from 15 to 10800"),
    ({"initial": 10801, "increment": 0}, "clock initial 10801"),
    ({"initial": 60, "increment": 181}, "clock increment 181: a whole number from 0 to 180"),
    ({"initial": 60}, "clock {'initial': 60}: give null"),
    ({"days": 3, "initial": 60}, "give null"),
])
def test_a_bad_time_control_is_refused_naming_the_allowed_forms(value, message) -> None:
    with pytest.raises(clocks.ClockError) as e:
        clocks.parse(value)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_time_controls_parse() -> None:
    assert clocks.parse(None) is None
    assert clocks.parse({"days": 14}) == {"days": 14}
    assert clocks.parse({"initial": 15, "increment": 0}) == {"initial": 15, "increment": 0}
    assert clocks.parse({"initial": 10800, "increment": 180}) == {"initial": 10800, "increment": 180}


def test_a_real_time_clock_runs_a_turn_at_a_time() -> None:
    control = {"initial": 60, "increment": 2}
    t = 1_000_000.0
    timing = clocks.start(control, 0, t)
    assert timing.remaining == [60.0, 60.0] and clocks.seconds(timing.deadline) == pytest.approx(t + 60)
    same_turn = clocks.advance(control, timing, 0, 0, False, t + 10)
    assert same_turn == timing  # a step within the turn: nothing changes
    after = clocks.advance(control, timing, 0, 1, True, t + 10)
    assert after.remaining == [52.0, 60.0]  # 10 s used, the increment once
    assert clocks.seconds(after.deadline) == pytest.approx(t + 70)
    assert not clocks.expired(after, t + 69.9) and clocks.expired(after, t + 70)
    over = clocks.advance(control, after, 1, None, True, t + 15)
    assert over.remaining == [52.0, 55.0] and over.deadline is None and over.turn_started is None


def test_the_ais_share_of_a_clock() -> None:
    """A share of the time beyond the reserve plus most of the increment, never into the reserve; no limit without
    a real-time clock."""
    assert clocks.ai_seconds(None, 60.0) is None and clocks.ai_seconds({"days": 1}, 10.0) is None
    blitz = {"initial": 60, "increment": 0}
    reserve = clocks.ai_reserve(blitz)
    assert 0 < reserve < 10
    assert clocks.ai_seconds(blitz, 60.0) == pytest.approx((60 - reserve) * clocks.AI_SHARE)
    assert clocks.ai_seconds(blitz, reserve) == clocks.ai_seconds(blitz, reserve / 2) == 0.0
    with_increment = {"initial": 60, "increment": 5}
    assert clocks.ai_seconds(with_increment, 60.0) == pytest.approx(
        (60 - reserve) * clocks.AI_SHARE + 5 * clocks.AI_INCREMENT)
    assert clocks.ai_seconds(with_increment, reserve + 1) == pytest.approx(1.0)  # never into the reserve
    assert clocks.ai_reserve({"initial": 15, "increment": 0}) < reserve  # a short clock keeps less
    assert clocks.ai_reserve({"initial": 3600, "increment": 0}) == clocks.ai_reserve({"initial": 600, "increment": 0})


TURN_COST = 0.26  # bench/ai_clock.py, 1+0: a Lhexus turn's mean cost beyond its share (its steps), on a loaded machine


def test_a_long_game_on_the_ais_share_never_runs_out() -> None:
    """1+0, 80 turns (twice the AI's most in bench/ai_clock.py's games, Lhexus's) each taking its share and
    TURN_COST: the time left stays above zero (the reserve pays for the turns once the shares shrink)."""
    blitz, left = {"initial": 60, "increment": 0}, 60.0
    for _ in range(80):
        share = clocks.ai_seconds(blitz, left)
        assert share is not None
        left -= share + TURN_COST
    assert left > 0


def test_the_offset_file_moves_the_servers_clock(tmp_path, monkeypatch) -> None:
    path = tmp_path / "offset"
    monkeypatch.setenv(clocks.OFFSET_ENV, str(path))
    clock = clocks.clock_from_env()
    assert abs(clock() - time.time()) < 5  # no file yet: the real time
    path.write_text("86400\n")
    assert abs(clock() - time.time() - 86400) < 5  # read at every call
    monkeypatch.delenv(clocks.OFFSET_ENV)
    assert clocks.clock_from_env() is clocks.real_clock


# seeks and challenges ------------------------------------------------------------------------------------------
def test_a_seek_is_posted_listed_and_accepted_into_a_match(arena, clock) -> None:
    ann, bob, cy, _ = arena
    s = seek(ann, clock={"days": 2}, rated=True)
    assert {k: s[k] for k in ("by", "game", "clock", "rated", "colour", "to")} == {
        "by": "ann", "game": "projective-hex", "clock": {"days": 2}, "rated": True, "colour": "first", "to": None}
    assert s["options"] == {"size": 2, "opening": "none"}
    assert [x["id"] for x in bob.get("/api/seeks").json()] == [s["id"]]
    match_id = accept(bob, s["id"])
    assert bob.get("/api/seeks").json() == [] and ann.get("/api/seeks").json() == []
    m = ann.get(f"/api/matches/{match_id}").json()
    assert m["players"] == ["ann", "bob"] and m["seats"] == ["human", "human"] and m["rated"] is True
    assert m["time_control"] == {"days": 2} and m["clock"]["running"] == 0
    assert m["clock"]["remaining"] == [2 * DAY, 2 * DAY]
    assert clocks.seconds(m["clock"]["deadline"]) == pytest.approx(clock.now + 2 * DAY, abs=0.01)
    # the session names the seat: ann moves, bob may not move for her
    r = bob.post(f"/api/matches/{match_id}/moves", json={"move": "a1", "ply": 0}, headers=csrf(bob))
    assert r.status_code == 403
    clock.advance(3600)
    m = play(ann, match_id, "a1")
    assert m["clock"]["running"] == 1
    assert clocks.seconds(m["clock"]["deadline"]) == pytest.approx(clock.now + 2 * DAY, abs=0.01)
    assert cy.get(f"/api/matches/{match_id}").json()["clock"] == m["clock"]


def test_the_colour_chosen_seats_the_author(arena) -> None:
    ann, bob, _, _ = arena
    second = accept(bob, seek(ann, colour="second")["id"])
    assert ann.get(f"/api/matches/{second}").json()["players"] == ["bob", "ann"]
    drawn = {tuple(ann.get(f"/api/matches/{accept(bob, seek(ann, colour='random', clock=None)['id'])}").json()
                   ["players"]) for _ in range(12)}
    assert drawn == {("ann", "bob"), ("bob", "ann")}  # 12 draws both ways but for 1 chance in 2048


def test_a_challenge_is_seen_by_its_two_players_only_and_can_be_declined(arena) -> None:
    ann, bob, cy, _ = arena
    heard: list[tuple[int, dict]] = []
    server_of(ann).on_challenge = lambda to, s: heard.append((to, s))  # type: ignore[method-assign]
    c = seek(ann, to="BOB")
    assert c["to"] == "bob" and heard == [(server_of(ann).accounts.profile("bob")["id"], c)]
    assert [x["id"] for x in bob.get("/api/seeks").json()] == [c["id"]]
    assert [x["id"] for x in ann.get("/api/seeks").json()] == [c["id"]]
    assert cy.get("/api/seeks").json() == []
    r = cy.post(f"/api/seeks/{c['id']}/accept", headers=csrf(cy))
    assert r.status_code == 403 and r.json() == {"error": "this challenge is addressed to another player"}
    assert bob.delete(f"/api/seeks/{c['id']}", headers=csrf(bob)).json() == {}
    assert ann.get("/api/seeks").json() == []
    mine = seek(ann)
    assert ann.delete(f"/api/seeks/{mine['id']}", headers=csrf(ann)).status_code == 200


def test_seek_refusals_change_no_row(arena, clock) -> None:
    ann, bob, cy, url = arena
    own = seek(ann)
    challenge = seek(ann, to="bob")
    old = seek(cy)
    clock.advance(73 * 3600)  # old, own and challenge expired: post fresh ones
    own, challenge = seek(ann), seek(ann, to="bob")
    seek(ann, clock=None)  # ann's third: the most (open_seeks=3)
    signed_out = TestClient(ann.app)
    good = {"game": "projective-hex", "options": SMALL, "clock": None, "rated": False, "colour": "first"}
    before = rows(url)

    def post(client: TestClient, **fields: Any) -> Any:
        return client.post("/api/seeks", json={**good, **fields}, headers=csrf(client))

    cases = [
        (signed_out.post("/api/seeks", json=good), 401, "sign in first"),
        (signed_out.get("/api/seeks"), 401, "sign in first"),
        (signed_out.post(f"/api/seeks/{own['id']}/accept"), 401, "sign in first"),
        (signed_out.delete(f"/api/seeks/{own['id']}"), 401, "sign in first"),
        (bob.post(f"/api/seeks/{own['id']}/accept"), 403, "X-CSRF-Token"),
        (bob.delete(f"/api/seeks/{own['id']}"), 403, "X-CSRF-Token"),
        (post(bob, game="chess"), 400, "chess"),
        (post(bob, options={"size": 99}), 400, "size"),
        (post(bob, options={"colour": 1}), 400, "colour"),
        (post(bob, clock={"days": 30}), 400, "clock days 30: a whole number from 1 to 14"),
        (post(bob, clock={"initial": 5, "increment": 0}), 400, "clock initial 5"),
        (post(bob, colour="white"), 400, "colour 'white': first, second or random"),
        (post(bob, rated="yes"), 400, "rated"),
        (post(bob, to="bob"), 400, "to: you cannot challenge yourself"),
        (post(bob, to="nobody"), 404, "to: no player 'nobody'"),
        (post(ann), 429, "too many open seeks: you have 3"),
        (ann.post(f"/api/seeks/{own['id']}/accept", headers=csrf(ann)), 400, "you cannot accept your own seek"),
        (cy.post(f"/api/seeks/{challenge['id']}/accept", headers=csrf(cy)), 403, "addressed to another player"),
        (bob.post(f"/api/seeks/{old['id']}/accept", headers=csrf(bob)), 409, "expired"),
        (bob.post("/api/seeks/nope/accept", headers=csrf(bob)), 409, "seek 'nope' is gone"),
        (cy.delete(f"/api/seeks/{own['id']}", headers=csrf(cy)), 403, "only its author may withdraw a seek"),
        (bob.delete("/api/seeks/nope", headers=csrf(bob)), 404, "no open seek 'nope'"),
        (bob.delete(f"/api/seeks/{old['id']}", headers=csrf(bob)), 404, "no open seek"),
    ]
    for r, status, message in cases:
        assert r.status_code == status, (r.status_code, r.text, message)
        error = r.json()["error"]
        assert message in error and "\n" not in error, (error, message)
    assert int(cases[15][0].headers["Retry-After"]) > 0
    assert rows(url) == before


def test_expired_seeks_are_not_listed_and_are_purged(arena, clock) -> None:
    ann, bob, _, url = arena
    seek(ann)
    clock.advance(72 * 3600 + 1)
    assert bob.get("/api/seeks").json() == []
    assert server_of(ann).seeks.purge() == 1 and rows(url)["seeks"] == []


# the lobby's filter and fair play against floods (issue 42, item 9) ----------------------------------------------
def flood(client: TestClient, clock: FakeClock, game: str, count: int = 500) -> None:
    """``count`` open seeks of ``game``, newer than any seek before, by a new account ("flood", no rating), from
    one address."""
    server = server_of(client)
    author = server.accounts.register("flood", "correct horse").id
    with server.store.db.write() as conn:
        conn.execute(insert(seeks), [
            {"id": f"flood{n}", "author_id": author, "to_id": None, "game": game, "options": {}, "clock": None,
             "client": "203.0.113.7",
             "rated": True, "colour": "random", "created": at(clock.now + 1 + n / 1000),
             "expires": at(clock.now + DAY)} for n in range(count)])


def rate(client: TestClient, name: str, game: str, rating: float, rd: float) -> None:
    """Give ``name`` a rating in ``game``."""
    server = server_of(client)
    with server.store.db.write() as conn:
        conn.execute(insert(ratings).values(account_id=server.accounts.profile(name)["id"], game=game, rating=rating,
                                            rd=rd, volatility=0.06, games=20, updated=at(time.time())))


def listed(client: TestClient, query: str = "") -> list[str]:
    r = client.get(f"/api/seeks{query}")
    assert r.status_code == 200, r.text
    return [s["id"] for s in r.json()]


def test_a_flood_of_another_games_seeks_never_hides_a_seek_of_the_game_asked(arena, clock) -> None:
    ann, bob, _, _ = arena
    real = seek(ann)["id"]
    flood(ann, clock, "lisbon")
    assert listed(bob)[:2] == ["flood499", real]  # its address's turn comes before the flood's second seek
    assert listed(bob, "?game=projective-hex") == [real]
    assert len(listed(bob, "?game=lisbon")) == 500 and listed(bob, "?game=palago") == []


def test_established_players_seeks_are_listed_before_a_flood_of_new_accounts(arena, clock) -> None:
    ann, bob, cy, _ = arena
    rate(ann, "ann", "projective-hex", 1700, 60)
    rate(ann, "cyd", "projective-hex", 1650, 200)  # rated, but provisional: not established
    real, newcomer = seek(ann)["id"], seek(cy)["id"]
    flood(ann, clock, "projective-hex")
    shown = bob.get("/api/seeks?game=projective-hex").json()
    # then by turns between addresses: the flood's newest beside the newcomer's (its address's first or second)
    ids = [s["id"] for s in shown]
    assert len(shown) == 500 and ids[:2] == [real, "flood499"] and newcomer in ids[:4]
    assert {k: shown[0][k] for k in ("by", "rating", "established")} == {"by": "ann", "rating": 1700,
                                                                          "established": True}
    assert {k: shown[1][k] for k in ("by", "rating", "established")} == {"by": "flood", "rating": None,
                                                                          "established": False}
    assert listed(bob, "?rating=1600-1800") == [real, newcomer]  # by the seekers' ratings in the seek's game
    assert listed(bob, "?game=projective-hex&rating=1660-2000") == [real]
    assert len(listed(bob, "?rating=1500-1500")) == 500  # no rating counts as 1500


def test_challenges_to_and_from_me_are_always_listed(arena, clock) -> None:
    ann, bob, cy, _ = arena
    posted = []
    for client, to in ((cy, "bob"), (bob, "ann"), (bob, None)):
        posted.append(seek(client, to=to)["id"])
        clock.advance(1)
    to_me, from_me, mine = posted
    flood(ann, clock, "projective-hex")
    shown = listed(bob, "?rating=2000-2100")
    assert shown == [mine, from_me, to_me]
    assert listed(bob, "?game=projective-hex")[:3] == [mine, from_me, to_me]
    assert listed(bob, "?game=lisbon") == []


@pytest.mark.parametrize("query, message", [
    ("?game=chess", "game 'chess': not a game here; the games are projective-hex, "),
    ("?game=", "game '': not a game here"),
    ("?rating=1800-1500", "rating '1800-1500': give MIN-MAX, two whole numbers with MIN <= MAX"),
    ("?rating=abc", "rating 'abc': give MIN-MAX"),
    ("?rating=1500", "rating '1500': give MIN-MAX"),
])
def test_a_bad_filter_is_refused_naming_what_is_allowed(arena, query, message) -> None:
    ann, *_ = arena
    r = ann.get(f"/api/seeks{query}")
    assert r.status_code == 400 and r.json()["error"].startswith(message), r.text


def test_open_seeks_are_capped_per_address_across_its_accounts(db_url, clock) -> None:
    app = create_app(db_url, clock=clock, limits=Limits(judge_seconds=0, address_seeks=3))
    with TestClient(app) as ann:
        bob, cy = TestClient(app), TestClient(app, client=("10.0.0.7", 50000))
        for client, name in ((ann, "ann"), (bob, "bob"), (cy, "cyd")):
            register(client, name)
        first = seek(ann)
        seek(ann, to="cyd"), seek(bob)
        before = rows(db_url)
        r = bob.post("/api/seeks", json={"game": "projective-hex", "options": SMALL, "clock": None, "rated": False,
                                         "colour": "first"}, headers=csrf(bob))
        assert r.status_code == 429 and r.json()["error"].startswith("too many open seeks from your address: 3")
        assert int(r.headers["Retry-After"]) > 0 and rows(db_url) == before
        seek(cy)  # another address
        assert ann.delete(f"/api/seeks/{first['id']}", headers=csrf(ann)).status_code == 200
        seek(bob)


def test_two_accepts_at_once_make_one_match(db_url, clock) -> None:
    server = Server(db_url, ai_workers=1, clock=clock)
    try:
        ids = [server.accounts.register(n, "correct horse").id for n in ("ann", "bob", "cyd")]
        s = server.seeks.post(Account(ids[0], "ann"), "projective-hex", SMALL, None, False, "first", None)
        results: list[Any] = []
        barrier = threading.Barrier(2, timeout=WAIT)

        def take(account: Account) -> None:
            barrier.wait()
            try:
                results.append(server.seeks.accept(account, s["id"], "test"))
            except Refused as e:
                results.append(e.status)

        takers = [Account(i, n) for i, n in zip(ids[1:], ("bob", "cyd"), strict=True)]
        threads = [threading.Thread(target=take, args=(a,), daemon=True) for a in takers]
        for t in threads:
            t.start()
        joined(threads)
        assert len(results) == 2 and results.count(409) == 1
        with server.store.db.engine.connect() as conn:
            assert len(conn.execute(select(matches)).all()) == 1
    finally:
        server.close()


# losses on time --------------------------------------------------------------------------------------------------
def test_the_judge_flags_a_correspondence_match_past_its_deadline(arena, clock) -> None:
    ann, bob, _, _ = arena
    match_id = accept(bob, seek(ann, clock={"days": 1})["id"])
    play(ann, match_id, "a1")
    server = server_of(ann)
    with ann.websocket_connect(f"/api/matches/{match_id}/live") as ws:
        assert receive_json(ws)["over"] is False
        clock.advance(DAY - 1)
        assert server.judge() == []
        clock.advance(2)
        assert server.judge() == [match_id]
        told = receive_json(ws)
    assert server.judge() == []  # once
    assert told["over"] is True and told["winner"] == 0 and told["timed_out"] == 1 and told["reason"] == "time"
    assert told["status"] == "player 2 (second) lost on time: player 1 (first) wins"
    assert told["clock"]["deadline"] is None and told["clock"]["running"] is None
    record = ann.get(f"/api/matches/{match_id}/record.json").json()
    assert record["result"]["reason"] == "time" and record["result"]["winner"] == 0
    assert ann.get(f"/api/matches/{match_id}/record.txt").text.strip().endswith("1. a1 time 1-0")
    assert hexarena.from_record(record).timed_out == 1
    r = ann.post(f"/api/matches/{match_id}/undo", json={"ply": 1}, headers=csrf(ann))
    assert r.status_code == 409 and "a loss on time stands" in r.json()["error"]


def test_a_move_after_the_deadline_stores_the_loss_instead(arena, clock) -> None:
    ann, bob, _, url = arena
    match_id = accept(bob, seek(ann, clock={"initial": 30, "increment": 5})["id"])
    clock.advance(10)
    m = play(ann, match_id, "a1")
    assert m["clock"]["remaining"] == [25.0, 30.0] and m["clock"]["running"] == 1
    clock.advance(31)
    r = bob.post(f"/api/matches/{match_id}/moves", json={"move": "a2", "ply": 1}, headers=csrf(bob))
    assert r.status_code == 409 and r.json()["error"] == ("too late: player 2 (second) lost on time: player 1 "
                                                          "(first) wins")
    m = bob.get(f"/api/matches/{match_id}").json()
    assert m["over"] and m["timed_out"] == 1 and m["ply"] == 1 and m["clock"]["remaining"] == [25.0, 0.0]
    assert server_of(ann).judge() == []
    with create_engine(url).connect() as conn:
        row = conn.execute(select(matches.c.timed_out, matches.c.deadline, matches.c.winner)).one()
    assert tuple(row) == (1, None, 0)


def test_a_restart_judges_what_ran_out_meanwhile(db_url, clock) -> None:
    limits = Limits(judge_seconds=0)
    with TestClient(create_app(db_url, clock=clock, limits=limits)) as ann:
        register(ann, "ann")
        bob = TestClient(ann.app)
        register(bob, "bob")
        match_id = accept(bob, seek(ann, clock={"days": 1})["id"])
    clock.advance(DAY + 1)
    with TestClient(create_app(db_url, clock=clock, limits=limits)) as again:
        m = again.get(f"/api/matches/{match_id}").json()
    assert m["over"] and m["timed_out"] == 0 and m["winner"] == 1


def test_the_judge_flags_once_across_processes(db_url, clock) -> None:
    servers = [Server(db_url, ai_workers=1, clock=clock) for _ in range(2)]
    try:
        a, b = (servers[0].accounts.register(n, "correct horse") for n in ("ann", "bob"))
        found = []
        for _ in range(3):
            s = servers[0].seeks.post(a, "projective-hex", SMALL, {"days": 1}, False, "first", None)
            found.append(servers[0].seeks.accept(b, s["id"], "test"))
        clock.advance(DAY + 1)
        flagged: list[list[str]] = []
        barrier = threading.Barrier(2, timeout=WAIT)

        def judge(server: Server) -> None:
            barrier.wait()
            flagged.append(server.judge())

        threads = [threading.Thread(target=judge, args=(s,), daemon=True) for s in servers]
        for t in threads:
            t.start()
        joined(threads)
        assert sorted(flagged[0] + flagged[1]) == sorted(found)
        with servers[0].store.db.engine.connect() as conn:
            assert conn.execute(select(matches.c.timed_out)).scalars().all() == [0, 0, 0]
    finally:
        for s in servers:
            s.close()


# my games, profiles and the live socket -----------------------------------------------------------------------
def test_my_turn_nearest_deadline_first_and_my_other_matches(arena, clock) -> None:
    ann, bob, cy, _ = arena
    slow = accept(bob, seek(ann, clock={"days": 5})["id"])
    fast = accept(cy, seek(ann, clock={"days": 1})["id"])
    free = accept(bob, seek(ann, clock=None)["id"])
    assert [s["id"] for s in ann.get("/api/account/turn").json()] == [fast, slow, free]
    summary = ann.get("/api/account/turn").json()[0]
    assert set(summary) == {"id", "game", "options", "players", "seat_info", "to_move", "my_seats", "ply", "over",
                            "winner", "status", "deadline", "updated", "created", "clock", "rated", "tournament"}
    assert summary["tournament"] is None
    assert summary["players"] == ["ann", "cyd"] and summary["my_seats"] == [0] and summary["to_move"] == 0
    assert summary["seat_info"] == [{"kind": "human", "level": None, "name": n} for n in ("ann", "cyd")]
    assert bob.get("/api/account/turn").json() == []
    play(ann, fast, "a1")
    assert [s["id"] for s in ann.get("/api/account/turn").json()] == [slow, free]
    assert [s["id"] for s in cy.get("/api/account/turn").json()] == [fast]
    r = ann.post(f"/api/matches/{free}/resign", json={}, headers=csrf(ann))
    assert r.status_code == 200
    mine = ann.get("/api/account/matches").json()
    assert [s["id"] for s in mine["ongoing"]] == [fast] and [s["id"] for s in mine["finished"]] == [free]
    assert mine["finished"][0]["winner"] == 1
    assert TestClient(ann.app).get("/api/account/turn").status_code == 401


def test_a_profile_shows_a_players_matches(arena) -> None:
    ann, bob, _, _ = arena
    match_id = accept(bob, seek(ann)["id"])
    fresh = TestClient(ann.app)
    p = fresh.get("/api/users/BOB").json()
    assert p["name"] == "bob" and p["ratings"] == {} and p["joined"]
    assert [(m["id"], m["my_seats"], m["players"]) for m in p["matches"]] == [(match_id, [1], ["ann", "bob"])]
    r = fresh.get("/api/users/nobody")
    assert r.status_code == 404 and r.json() == {"error": "no player 'nobody'"}
    page = fresh.get("/@/bob")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")


def test_a_summary_says_who_sits_each_seat_against_the_ai(arena) -> None:
    ann, _, _, _ = arena
    match_id = seek(ann, to="ai-3", clock=None)["match"]
    listed = ann.get("/api/account/turn").json()
    assert [(m["id"], m["players"]) for m in listed] == [(match_id, ["ann", "ai-3"])]
    assert listed[0]["seat_info"] == [{"kind": "human", "level": None, "name": "ann"},
                                      {"kind": "ai", "level": 3, "name": "ai-3"}]


def test_the_account_socket_tells_of_my_turn_and_challenges(arena) -> None:
    ann, bob, _, _ = arena
    with ann.websocket_connect("/api/account/live") as ws:
        assert receive_json(ws) == {"turn": [], "count": 0, "challenges": [], "seeks": [], "events": []}
        mine = seek(ann)
        assert [s["id"] for s in receive_json(ws)["seeks"]] == [mine["id"]]
        match_id = accept(bob, mine["id"])
        while (got := receive_json(ws))["count"] == 0:
            pass
        assert [s["id"] for s in got["turn"]] == [match_id] and got["seeks"] == []
        challenge = seek(bob, to="ann")
        while not (got := receive_json(ws))["challenges"]:
            pass
        assert [s["id"] for s in got["challenges"]] == [challenge["id"]] and got["count"] == 1
        play(ann, match_id, "a1")
        while (got := receive_json(ws))["count"] == 1:
            pass
        assert got["turn"] == []


def test_the_account_socket_needs_a_session_from_this_site(arena) -> None:
    ann, _, _, _ = arena
    fresh = TestClient(ann.app)
    with fresh.websocket_connect("/api/account/live") as ws:
        assert receive_json(ws) == {"error": "sign in first"}
        with pytest.raises(WebSocketDisconnect) as e:
            receive_json(ws)
        assert e.value.code == 4401
    with ann.websocket_connect("/api/account/live", headers={"Origin": "https://evil.example"}) as ws:
        assert receive_json(ws) == {"error": "another site's page"}
        with pytest.raises(WebSocketDisconnect) as e:
            receive_json(ws)
        assert e.value.code == 4403
    with ann.websocket_connect("/api/account/live", headers={"Origin": "http://testserver"}) as ws:
        assert receive_json(ws)["count"] == 0


def test_a_real_time_turn_of_several_steps_is_one_clock_period(arena, clock) -> None:
    ann, bob, _, _ = arena
    match_id = accept(bob, seek(ann, game="lisbon", options={}, clock={"initial": 60, "increment": 5})["id"])

    def step(client: TestClient, seconds: float) -> dict[str, Any]:
        clock.advance(seconds)
        return play(client, match_id, client.get(f"/api/matches/{match_id}").json()["targets"][0]["move"])

    assert step(ann, 10)["clock"]["remaining"] == [55.0, 60.0]  # turn 1: one stone
    first = step(bob, 3)["clock"]  # turn 2: two stones, one period
    assert first["remaining"] == [55.0, 60.0] and first["running"] == 1
    second = step(bob, 4)["clock"]
    assert second["remaining"] == [55.0, 58.0] and second["running"] == 0  # 7 s used, the increment once
    assert clocks.seconds(second["deadline"]) == pytest.approx(clock.now + 55, abs=0.01)


def test_the_account_socket_hears_of_changes_made_by_another_process(db_url, clock) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("several processes share PostgreSQL only")
    other = Server(db_url, ai_workers=1, clock=clock)  # another process: its hub wakes nobody here
    try:
        with TestClient(create_app(db_url, clock=clock, limits=Limits(judge_seconds=0))) as ann:
            register(ann, "ann")
            bob = other.accounts.register("bob", "correct horse")
            with ann.websocket_connect("/api/account/live") as ws:
                assert receive_json(ws)["challenges"] == []
                time.sleep(0.5)  # the listener connects
                challenge = other.seeks.post(bob, "projective-hex", SMALL, {"days": 1}, False, "second", "ann")
                assert [c["id"] for c in receive_json(ws)["challenges"]] == [challenge["id"]]
    finally:
        other.close()


def test_the_judging_loop_flags_with_nobody_asking(db_url, clock) -> None:
    with TestClient(create_app(db_url, clock=clock, limits=Limits(judge_seconds=0.05))) as ann:
        register(ann, "ann")
        bob = TestClient(ann.app)
        register(bob, "bob")
        match_id = accept(bob, seek(ann, clock={"initial": 15, "increment": 0})["id"])
        clock.advance(16)
        for _ in range(200):
            if (m := ann.get(f"/api/matches/{match_id}").json())["over"]:
                break
            time.sleep(0.05)
        assert m["timed_out"] == 0 and m["winner"] == 1 and m["reason"] == "time"


def test_a_running_clock_that_changes_wakes_the_judging_loop(arena) -> None:
    ann, bob, _, _ = arena
    server = server_of(ann)
    woken = ann.portal.call(server.hub.watch, JUDGE_TOPIC)  # a watcher in the app's event loop, as the judge's
    s, free = seek(ann, clock={"initial": 15, "increment": 0}), seek(ann, clock=None)
    accept(bob, free["id"])
    # a wake-up is queued on that loop before the accept answers, so these calls run after it
    assert not ann.portal.call(woken.woken)  # no clock: nothing for the judge
    accept(bob, s["id"])
    assert ann.portal.call(woken.woken)


def test_an_imported_record_keeps_its_loss_on_time_and_its_resignation(arena) -> None:
    ann, _, _, _ = arena
    state = hexarena.load("projective-hex", **SMALL).new_state()
    state.play("a1")
    for on_time in (True, False):
        ended = state.copy()
        ended.resign(1, on_time=on_time)
        made = ann.post("/api/matches/import", json={"record": ended.record(), "seats": ["me", "me"]},
                        headers=csrf(ann)).json()
        server_of(ann).store.matches._cache.clear()  # read back from the database
        m = ann.get(f"/api/matches/{made['id']}").json()
        assert (m["over"], m["winner"], m["timed_out"], m["resigned"]) == (
            True, 0, ended.timed_out, ended.resigned)
