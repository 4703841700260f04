"""Ratings (docs/server.md, "Ratings") on SQLite and PostgreSQL: a rated match changes both players' Glicko-2
ratings once when it ends, whatever ended it; casual and aborted matches change nothing; the AI levels play as
rated accounts; leaderboards, the AI ladder, profiles with history and the record against the AI; rated matches
of one player ending at once all count."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

import hexarena
from hexarena.ratings import Rating, rate
from hexarena.server import create_app, rating
from hexarena.server.limits import Limits
from hexarena.server.schema import accounts, rating_changes, ratings
from hexarena.server.store import Store
from tests.server.helpers import SMALL
from tests.server.test_accounts import csrf, register
from tests.server.test_arena import FakeClock, accept, play, seek, server_of
from tests.waits import WAIT, joined

GAME = "projective-hex"
NEW = Rating()
WON, LOST = rate(NEW, [(NEW, 1.0)]), rate(NEW, [(NEW, 0.0)])


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def arena(db_url: str, clock: FakeClock) -> Iterator[tuple[TestClient, TestClient, TestClient]]:
    """Three signed-in players (ann, bob, cyd) judged by ``clock``; the tests call the judge."""
    app = create_app(db_url, clock=clock, limits=Limits(judge_seconds=0))
    with TestClient(app) as ann:
        bob, cyd = TestClient(app), TestClient(app)
        for client, name in ((ann, "ann"), (bob, "bob"), (cyd, "cyd")):
            register(client, name)
        yield ann, bob, cyd


def rated_match(author: TestClient, acceptor: TestClient, **fields: Any) -> str:
    """A rated match, ``author`` first."""
    return accept(acceptor, seek(author, rated=True, **fields)["id"])


def first_moves(ann: TestClient, bob: TestClient, match_id: str) -> None:
    """One move each (the match then counts whatever ends it)."""
    for client in (ann, bob):
        play(client, match_id, client.get(f"/api/matches/{match_id}").json()["targets"][0]["move"])


def resign(client: TestClient, match_id: str) -> dict[str, Any]:
    r = client.post(f"/api/matches/{match_id}/resign", json={}, headers=csrf(client))
    assert r.status_code == 200, r.text
    return r.json()


def my_rating(client: TestClient) -> dict[str, Any] | None:
    r: dict[str, Any] | None = client.get("/api/account").json()["ratings"].get(GAME)
    return r


# the formulas ---------------------------------------------------------------------------------------------------
def test_two_new_players_after_one_game() -> None:
    assert (round(WON.rating, 1), round(WON.rd, 1)) == (1662.3, 290.3)
    assert (round(LOST.rating, 1), round(LOST.rd, 1)) == (1337.7, 290.3)


# rated matches ----------------------------------------------------------------------------------------------------
def test_a_rated_resignation_changes_both_ratings_once(arena) -> None:
    ann, bob, _ = arena
    match_id = rated_match(ann, bob)
    assert my_rating(ann) is None  # no rated game yet
    first_moves(ann, bob, match_id)
    m = resign(bob, match_id)
    assert m["winner"] == 0 and not m["aborted"]
    assert m["ratings"] == [rating.change(1500, 350, WON.rating, WON.rd), rating.change(1500, 350, LOST.rating,
                                                                                          LOST.rd)]
    assert my_rating(ann) == {"rating": 1662.3, "rd": 290.3, "games": 1, "provisional": True}
    assert my_rating(bob) == {"rating": 1337.7, "rd": 290.3, "games": 1, "provisional": True}
    again = ann.get(f"/api/matches/{match_id}").json()  # read back from the database: the same
    assert again["ratings"] == m["ratings"]
    assert ann.post(f"/api/matches/{match_id}/resign", json={}, headers=csrf(ann)).status_code >= 400
    assert my_rating(ann)["games"] == 1  # type: ignore[index]


def test_a_loss_on_time_counts(arena, clock) -> None:
    ann, bob, _ = arena
    match_id = rated_match(ann, bob, clock={"initial": 60, "increment": 1})
    first_moves(ann, bob, match_id)
    clock.advance(61)
    assert server_of(ann).judge() == [match_id]
    m = ann.get(f"/api/matches/{match_id}").json()
    assert (m["timed_out"], m["winner"]) == (0, 1)
    assert my_rating(bob)["rating"] == pytest.approx(WON.rating, abs=0.05)  # type: ignore[index]
    assert my_rating(ann)["rating"] == pytest.approx(LOST.rating, abs=0.05)  # type: ignore[index]


def test_a_match_ended_before_both_moved_is_aborted(arena, clock) -> None:
    ann, bob, _ = arena
    match_id = rated_match(ann, bob, clock={"initial": 60, "increment": 0})
    clock.advance(61)  # ann never moved
    server_of(ann).judge()
    m = ann.get(f"/api/matches/{match_id}").json()
    assert m["over"] and m["aborted"] and m["ratings"][0]["after"] is None
    assert my_rating(ann) is None and my_rating(bob) is None


def test_a_casual_match_changes_nothing(arena) -> None:
    ann, bob, _ = arena
    match_id = accept(bob, seek(ann, rated=False)["id"])
    first_moves(ann, bob, match_id)
    m = resign(bob, match_id)
    assert m["ratings"] is None and not m["aborted"]
    assert my_rating(ann) is None and my_rating(bob) is None


def test_no_undo_in_a_rated_match(arena) -> None:
    ann, bob, _ = arena
    match_id = rated_match(ann, bob)
    first_moves(ann, bob, match_id)
    r = bob.post(f"/api/matches/{match_id}/undo", json={"ply": 2}, headers=csrf(bob))
    assert (r.status_code, r.json()["error"]) == (403, "no undo in a rated match")


def test_a_draw_moves_both_toward_each_other(db_url) -> None:
    """Glicko-2 for a draw between a 1662 player and a new one, through the ending transaction's settle."""
    store = Store(db_url)
    try:
        with store.db.write() as conn:
            ids = [conn.execute(accounts.insert().values(name=n, name_key=n, created="2026-01-01T00:00:00+00:00"))
                   .inserted_primary_key[0] for n in ("dee", "eve")]
        with store.db.write() as conn:
            conn.execute(ratings.insert().values(account_id=ids[0], game=GAME, rating=WON.rating, rd=WON.rd,
                                                 volatility=WON.volatility, games=1, updated="2026"))
        drawn = SimpleNamespace(is_over=lambda: True, winner=lambda: None, movers=lambda: [0, 1, 0],
                                game=SimpleNamespace(name=GAME))
        start = hexarena.load(GAME, **SMALL).new_state()
        match_id = store.new_matches.create(start, ["human", "human"], [0, 1], "t").id
        with store.db.write() as conn:
            shown = rating.settle(conn, store.db.postgres, match_id, ids, drawn, "2026-01-02T00:00:00+00:00")
        high, low = rate(WON, [(NEW, 0.5)]), rate(NEW, [(WON, 0.5)])
        assert shown == [rating.change(WON.rating, WON.rd, high.rating, high.rd),
                         rating.change(1500, 350, low.rating, low.rd)]
        assert high.rating < WON.rating and low.rating > 1500
        with store.db.engine.connect() as conn:
            assert sorted(r.score for r in conn.execute(select(rating_changes))) == [0.5, 0.5]
    finally:
        store.close()


# the AI as rated players ------------------------------------------------------------------------------------------
def test_a_challenge_to_an_ai_level_starts_at_once_and_rates_both(arena) -> None:
    ann, _, _ = arena
    answer = seek(ann, to="ai-1", rated=True, colour="second")
    match_id = answer["match"]
    m = wait_for(ann, match_id, lambda m: m["ply"] == 1)  # the AI moved first
    assert m["players"] == ["ai-1", "ann"] and m["rated"]
    assert ann.get("/api/seeks").json() == []  # nothing left open
    play(ann, match_id, m["targets"][0]["move"])
    resign(ann, match_id)
    ladder = ann.get(f"/api/leaderboard/{GAME}/ai").json()
    assert [r["name"] for r in ladder] == [f"ai-{n}" for n in range(1, 11)]
    assert ladder[0]["rating"] == round(WON.rating, 1) and ladder[0]["games"] == 1
    assert ladder[1] == {"name": "ai-2", "level": 2, "rating": 1500.0, "rd": 350.0, "games": 0,
                         "provisional": True}
    profile = ann.get("/api/users/ann").json()
    assert profile["against_ai"] == {GAME: [{"level": 1, "name": "ai-1", "wins": 0, "losses": 1, "draws": 0}]}
    assert [(h["before"], h["after"], h["score"]) for h in profile["history"][GAME]] == [
        (1500.0, round(LOST.rating, 1), 0.0)]
    ai = ann.get("/api/users/ai-1").json()
    assert ai["ai_level"] == 1 and ai["ratings"][GAME]["games"] == 1


def wait_for(client: TestClient, match_id: str, ready: Any, seconds: float = 60) -> dict[str, Any]:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        m: dict[str, Any] = client.get(f"/api/matches/{match_id}").json()
        if ready(m):
            return m
        time.sleep(0.05)
    raise AssertionError(f"match {match_id} not ready in {seconds} s")


def test_ai_names_are_reserved_and_ai_accounts_cannot_sign_in(arena) -> None:
    ann, _, _ = arena
    r = TestClient(ann.app).post("/api/account/register", json={"name": "AI-11", "password": "a long password"})
    assert (r.status_code, r.json()["error"]) == (400, "name 'AI-11': names starting with 'ai-' are the AI levels'")
    r = TestClient(ann.app).post("/api/account/login", json={"name": "ai-1", "password": "a long password"})
    assert r.status_code == 401


# leaderboards -----------------------------------------------------------------------------------------------------
def test_the_leaderboard_lists_established_players_best_first(arena) -> None:
    ann, bob, cyd = arena
    for loser in (bob, cyd):
        match_id = rated_match(ann, loser)
        first_moves(ann, loser, match_id)
        resign(loser, match_id)
    assert ann.get(f"/api/leaderboard/{GAME}").json() == []  # all provisional
    server = server_of(ann)
    with server.store.db.write() as conn:
        conn.execute(update(ratings).values(rd=100.0))
    board = ann.get(f"/api/leaderboard/{GAME}").json()
    assert [r["name"] for r in board] == ["ann", "cyd", "bob"]  # cyd lost to a stronger ann: less
    assert board[0]["games"] == 2 and all(r["rd"] == 100.0 for r in board)
    r = ann.get("/api/leaderboard/chess")
    assert r.status_code == 404 and "games: projective-hex, lisbon" in r.json()["error"]


# concurrency ------------------------------------------------------------------------------------------------------
def test_two_rated_matches_of_one_player_ending_at_once_both_count(db_url, clock) -> None:
    """Two processes (two apps on one database) end two rated matches of ann's at the same moment: both rating
    changes apply, one after the other."""
    apps = [create_app(db_url, clock=clock, limits=Limits(judge_seconds=0)) for _ in range(2)]
    with TestClient(apps[0]) as ann, TestClient(apps[1]):
        register(ann, "ann")
        bob, cyd = TestClient(apps[0]), TestClient(apps[1])
        register(bob, "bob")
        register(cyd, "cyd")
        matches = [rated_match(ann, bob), rated_match(ann, cyd)]
        for match_id, opponent in zip(matches, (bob, cyd), strict=True):
            first_moves(ann, opponent, match_id)
        barrier, answers = threading.Barrier(2, timeout=WAIT), []

        def end(client: TestClient, match_id: str) -> None:
            barrier.wait()
            answers.append(client.post(f"/api/matches/{match_id}/resign", json={}, headers=csrf(client)).status_code)

        threads = [threading.Thread(target=end, args=(c, m), daemon=True)
                   for c, m in zip((bob, cyd), matches, strict=True)]
        for t in threads:
            t.start()
        joined(threads)
        assert answers == [200, 200]
        mine = my_rating(ann)
        assert mine is not None and mine["games"] == 2
        second = rate(WON, [(NEW, 1.0)])  # whichever came first, the second met a new player with ann at 1662
        assert mine["rating"] == round(second.rating, 1)
        assert {my_rating(bob)["rating"], my_rating(cyd)["rating"]} <= {  # type: ignore[index]
            round(LOST.rating, 1), round(rate(NEW, [(WON, 0.0)]).rating, 1)}


def test_a_rated_timed_matchs_records_keep_names_ratings_clock_and_time_used(arena, clock) -> None:
    ann, bob, _ = arena
    match_id = rated_match(ann, bob, clock={"initial": 60, "increment": 1})
    clock.advance(2.5)
    play(ann, match_id, ann.get(f"/api/matches/{match_id}").json()["targets"][0]["move"])
    clock.advance(4)
    play(bob, match_id, bob.get(f"/api/matches/{match_id}").json()["targets"][0]["move"])
    resign(bob, match_id)
    record = ann.get(f"/api/matches/{match_id}/record.json").json()
    assert record["players"] == ["ann", "bob"] and record["clock"] == {"initial": 60, "increment": 1}
    assert record["ratings"] == [{"before": 1500, "after": 1662}, {"before": 1500, "after": 1338}]
    assert record["timestamps"]["used"] == [2.5, 4.0]
    text = ann.get(f"/api/matches/{match_id}/record.txt").text
    assert "player1=ann player2=bob rating1=1500>1662 rating2=1500>1338 clock=60+1 used=2.5,4]" in text
    for kept in (record, text.strip()):  # records with clocks replay: imported, the same game
        r = ann.post("/api/matches/import", json={"record": kept, "seats": ["me", "me"]}, headers=csrf(ann))
        assert r.status_code == 200, r.text
        again = ann.get(f"/api/matches/{r.json()['id']}").json()
        assert again["moves"] == record["moves"] and again["resigned"] == 1
