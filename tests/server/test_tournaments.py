"""Tournaments over HTTP (docs/server.md, "Tournaments and championships") on SQLite and PostgreSQL: every route and
its refusals, each format played to the end through the API (the judge called by hand), standings against a hand
computation, withdrawal and losses on time."""

from __future__ import annotations

import time
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, select

from hexarena.server import create_app
from hexarena.server.schema import championship_entries, tournament_games, tournament_players, tournaments
from hexarena.tournament import berger_rounds
from tests.server.helpers import SMALL
from tests.server.test_accounts import csrf, register
from tests.server.test_arena import FakeClock
from tests.waits import receive_json
from tests.server.tournament_helpers import (DRAWN, better_seed, by_seed, current_games, entered, event, judge,
                                             new_event, play_round, players, post, resign, event_limits)

FIVE = ["ann", "bob", "cyd", "dan", "eve"]


def counts(url: str) -> tuple[int, ...]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return tuple(conn.execute(select(func.count()).select_from(t)).scalar()
                         for t in (tournaments, tournament_players, tournament_games, championship_entries))
    finally:
        engine.dispose()


# refusals -----------------------------------------------------------------------------------------------------------
BAD_FIELDS = [
    ({"name": ""}, "name: 1 to 60"),
    ({"name": "x" * 61}, "at most 60"),
    ({"name": "a\u202eb"}, "bidirectional control"),
    ({"game": "chess"}, "chess"),
    ({"options": {"size": 99}}, "size"),
    ({"format": "arena"}, "format 'arena': one of round-robin, double-round-robin, swiss, knockout"),
    ({"format": "swiss"}, "a Swiss needs a whole number of rounds from 1 to 20"),
    ({"format": "swiss", "rounds": 21}, "from 1 to 20"),
    ({"rounds": 3}, "computes its own rounds"),
    ({"clock": None}, "an event needs a time control"),
    ({"clock": {"days": 99}}, "days"),
    ({"rated": "yes"}, "rated 'yes': true or false"),
    ({"max_players": 1}, "max_players 1: a whole number from 2 to 500"),
    ({"max_players": 501}, "from 2 to 500"),
    ({"rating_range": [1800, 1200]}, "rating_range"),
    ({"starts": "tomorrow"}, "an ISO-8601 time with its offset"),
    ({"starts": "2001-01-01T00:00:00+00:00"}, "that time has passed"),
]


@pytest.mark.parametrize("fields,message", BAD_FIELDS)
def test_a_bad_field_is_refused_with_a_400_naming_it_and_no_row_is_written(tmp_path, fields, message) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    with players(url, ["ann"]) as clients:
        body = {"name": "Cup", "game": "projective-hex", "options": SMALL, "format": "round-robin",
                "clock": {"days": 3}, **fields}
        answer = post(clients["ann"], "/api/tournaments", body, status=400)
        assert message in answer["error"]
        assert counts(url) == (0, 0, 0, 0)


def test_the_routes_refuse_with_clear_statuses_and_change_nothing(db_url: str) -> None:
    with players(db_url, ["ann", "bob", "cyd"]) as c:
        made = new_event(c["ann"], name="  Autumn\t cup ", rating_range=[1000, 1400], max_players=2)
        assert made["name"] == "Autumn cup" and made["status"] == "upcoming" and made["players"] == []
        assert made["by"] == "ann" and made["entry"] == {"open": True, "why": None}
        eid = made["id"]
        before = counts(db_url)
        assert TestClient(c["ann"].app).post(f"/api/tournaments/{eid}/join").status_code == 401
        assert post(c["ann"], "/api/tournaments/nope/join", status=404)["error"] == "no event 'nope'"
        assert "outside the event's range 1000-1400" in post(c["bob"], f"/api/tournaments/{eid}/join", status=403)[
            "error"]
        assert "only the event's creator may invite" in post(c["bob"], f"/api/tournaments/{eid}/invite",
                                                            {"name": "ai-3"}, status=403)["error"]
        assert "only the AI accounts ai-1 to ai-10" in post(c["ann"], f"/api/tournaments/{eid}/invite",
                                                           {"name": "bob"}, status=400)["error"]
        assert "only the event's creator may start it" in post(c["bob"], f"/api/tournaments/{eid}/start",
                                                              status=403)["error"]
        assert "2 entrants or more" in post(c["ann"], f"/api/tournaments/{eid}/start", status=409)["error"]
        assert "not entered" in post(c["bob"], f"/api/tournaments/{eid}/withdraw", status=409)["error"]
        assert "not started" in c["ann"].get(f"/api/tournaments/{eid}/export.json").json()["error"]
        assert counts(db_url) == before


def test_entry_is_closed_when_full_or_started_and_a_second_join_is_refused(db_url: str) -> None:
    with players(db_url, ["ann", "bob", "cyd"]) as c:
        eid = new_event(c["ann"], max_players=2)["id"]
        post(c["ann"], f"/api/tournaments/{eid}/join")
        assert "already entered" in post(c["ann"], f"/api/tournaments/{eid}/join", status=409)["error"]
        full = post(c["ann"], f"/api/tournaments/{eid}/invite", {"name": "ai-2"})
        assert [p["name"] for p in full["players"]] == ["ann", "ai-2"]
        assert full["entry"] == {"open": False, "why": "the event is full (2 players)"}
        assert "full" in post(c["bob"], f"/api/tournaments/{eid}/join", status=409)["error"]
        left = post(c["ann"], f"/api/tournaments/{eid}/withdraw")  # before the start: the entry is removed
        assert [p["name"] for p in left["players"]] == ["ai-2"]
        post(c["bob"], f"/api/tournaments/{eid}/join")
        started = post(c["ann"], f"/api/tournaments/{eid}/start")
        assert started["status"] == "running" and started["round"] == 1 and started["rounds"] == 1
        assert "has started already" in post(c["ann"], f"/api/tournaments/{eid}/start", status=409)["error"]
        assert "entry is closed" in post(c["cyd"], f"/api/tournaments/{eid}/join", status=409)["error"]
        assert started["entry"] == {"open": False, "why": "the event is running"}


def test_lists_filter_by_status_and_game_and_refuse_unknown_ones(db_url: str) -> None:
    with players(db_url, ["ann", "bob"]) as c:
        first = new_event(c["ann"], name="One")
        second = new_event(c["ann"], name="Two", game="lisbon", options={})
        post(c["ann"], f"/api/tournaments/{first['id']}/join")
        post(c["bob"], f"/api/tournaments/{first['id']}/join")
        post(c["ann"], f"/api/tournaments/{first['id']}/start")
        every = c["bob"].get("/api/tournaments").json()
        assert [e["name"] for e in every] == ["Two", "One"]
        assert every[1] == {"id": first["id"], "name": "One", "game": "projective-hex", "format": "round-robin",
                            "status": "running", "players": 2, "round": 1, "rounds": 1, "starts": None,
                            "clock": {"days": 3}, "rated": False}
        assert [e["id"] for e in c["bob"].get("/api/tournaments?status=upcoming").json()] == [second["id"]]
        assert [e["id"] for e in c["bob"].get("/api/tournaments?game=lisbon").json()] == [second["id"]]
        assert c["bob"].get("/api/tournaments?status=old").status_code == 400
        assert c["bob"].get("/api/tournaments?game=chess").status_code == 400
        profile = c["bob"].get("/api/users/bob").json()
        assert [e["id"] for e in profile["events"]] == [first["id"]]


# formats end to end ----------------------------------------------------------------------------------------------
def test_a_round_robin_of_5_is_paired_by_berger_with_the_bye_and_ranked_as_computed_by_hand(db_url: str) -> None:
    with players(db_url, FIVE) as c:
        obj = entered(c, "ann")
        seeds = by_seed(obj)
        assert seeds == {n: i for i, n in enumerate(FIVE, 1)} and obj["rounds"] == 5
        names = {i: n for n, i in seeds.items()}
        for number, table in enumerate(berger_rounds(5), 1):
            shown = obj["pairings"][number - 1]
            assert [g["seats"] for g in shown["games"]] == [[names[a], names[b]] for a, b in table if b is not None]
            assert shown["bye"] == next(names[a] for a, b in table if b is None)
            match = c["ann"].get(f"/api/matches/{shown['games'][0]['match']}").json()
            assert match["players"] == shown["games"][0]["seats"] and not match["rated"]
            assert match["tournament"] == {"id": obj["id"], "name": "Autumn cup", "round": number}
            obj = play_round(c, obj["id"], better_seed(obj))
        assert obj["status"] == "finished" and obj["round"] == 5
        # by hand: seed k beats every seed after it and has one bye (1 point)
        table = [(r["name"], r["points"], r["buchholz"], r["buchholz_cut1"], r["sonneborn_berger"], r["wins"],
                  r["games"]) for r in obj["standings"]]
        assert table == [("ann", 5, 10, 9, 10, 4, 4), ("bob", 4, 11, 10, 6, 3, 4), ("cyd", 3, 12, 11, 3, 2, 4),
                         ("dan", 2, 13, 12, 1, 1, 4), ("eve", 1, 14, 12, 0, 0, 4)]
        assert obj["crosstable"][0] == {"name": "ann", "results": {"bob": ["1"], "cyd": ["1"], "dan": ["1"],
                                                                   "eve": ["1"]}, "byes": [1]}
        judge(c["ann"])  # a finished event takes no further step
        assert event(c["ann"], obj["id"]) == obj
        assert c["bob"].get(f"/api/tournaments/{obj['id']}/export.json").json() == obj


def test_a_double_round_robin_swaps_the_seats_in_its_second_cycle(db_url: str) -> None:
    with players(db_url, ["ann", "bob", "cyd"]) as c:
        obj = entered(c, "ann", format="double-round-robin")
        assert obj["rounds"] == 6
        while obj["status"] == "running":
            obj = play_round(c, obj["id"], lambda seats: seats[0])  # the first seat always wins
        seats = [tuple(g["seats"]) for r in obj["pairings"] for g in r["games"]]
        assert seats[3:] == [(b, a) for a, b in seats[:3]]
        assert sorted(r["points"] for r in obj["standings"]) == [4, 4, 4]  # 2 wins and 2 byes each


def test_a_knockout_of_6_gives_byes_to_the_top_seeds_and_replays_a_drawn_game_with_seats_swapped(db_url: str) -> None:
    names = ["ann", "bob", "cyd", "dan", "eve", "fay"]
    with players(db_url, names) as c:
        obj = entered(c, "ann", format="knockout", game="palago", options=DRAWN)
        assert obj["rounds"] == 3
        first = obj["pairings"][0]
        assert sorted(first["byes"]) == ["ann", "bob"] and first["bye"] in ("ann", "bob") and len(first["games"]) == 2
        drawn = first["games"][0]
        post(c[drawn["seats"][0]], f"/api/matches/{drawn['match']}/moves",
             {"move": c["ann"].get(f"/api/matches/{drawn['match']}").json()["legal_moves"][0], "ply": 0})
        resign(c[max(first["games"][1]["seats"], key=lambda n: by_seed(obj)[n])], first["games"][1]["match"])
        judge(c["ann"])
        obj = event(c["ann"], obj["id"])
        games = obj["pairings"][0]["games"]
        assert games[0]["result"] == "1/2-1/2" and games[2]["seats"] == drawn["seats"][::-1] and obj["round"] == 1
        assert games[2]["board"] == 5  # after the round's 4 boards: 2 byes and 2 games, in bracket order
        obj = play_round(c, obj["id"], better_seed(obj))
        assert obj["round"] == 2
        while obj["status"] == "running":
            obj = play_round(c, obj["id"], better_seed(obj))
        assert obj["standings"][0]["name"] == "ann" and obj["round"] == 3


# withdrawal and time -----------------------------------------------------------------------------------------------
def test_a_withdrawn_player_resigns_the_game_going_on_and_forfeits_the_rest(db_url: str) -> None:
    with players(db_url, ["ann", "bob", "cyd", "dan"]) as c:
        obj = entered(c, "ann")
        game = next(g for g in current_games(obj) if "dan" in g["seats"])
        left = post(c["dan"], f"/api/tournaments/{obj['id']}/withdraw")
        assert next(p for p in left["players"] if p["name"] == "dan")["withdrawn"]
        assert c["ann"].get(f"/api/matches/{game['match']}").json()["over"]
        assert "already withdrawn" in post(c["dan"], f"/api/tournaments/{obj['id']}/withdraw", status=409)["error"]
        while obj["status"] == "running":
            obj = play_round(c, obj["id"], lambda seats: min(seats))
        later = [g for r in obj["pairings"][1:] for g in r["games"] if "dan" in g["seats"]]
        assert len(later) == 2 and all(g["forfeit"] and g["match"] is None for g in later)
        assert all(g["result"] == ("0-1" if g["seats"][0] == "dan" else "1-0") for g in later)
        dan = next(r for r in obj["standings"] if r["name"] == "dan")
        assert dan["points"] == 0 and dan["games"] == 1 and dan["withdrawn"]


def test_a_loss_on_time_in_a_correspondence_event_withdraws_the_player(db_url: str) -> None:
    clock = FakeClock()
    app = create_app(db_url, clock=clock, limits=event_limits())
    with TestClient(app) as ann:
        c = {"ann": ann, "bob": TestClient(app), "cyd": TestClient(app)}
        for name, client in c.items():
            register(client, name)
        obj = entered(c, "ann", clock={"days": 1})
        clock.advance(86400 + 1)
        judge(ann)
        obj = event(ann, obj["id"])
        lost = obj["pairings"][0]["games"][0]
        withdrawn = {p["name"] for p in obj["players"] if p["withdrawn"]}
        assert withdrawn == {lost["seats"][0]} and lost["result"] == "0-1"  # the first seat ran out of time
        # the next rounds were paired at once: the withdrawn player's game a forfeit, the other player's a bye
        later = [g for r in obj["pairings"][1:] for g in r["games"]]
        assert obj["round"] == 3 and all(g["forfeit"] for g in later if lost["seats"][0] in g["seats"])


def test_a_scheduled_event_is_started_by_the_judge_at_its_time(db_url: str) -> None:
    clock = FakeClock()
    app = create_app(db_url, clock=clock, limits=event_limits())
    with TestClient(app) as ann:
        register(ann, "ann")
        bob = TestClient(app)
        register(bob, "bob")
        starts = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(clock.now + 3600))
        made = new_event(ann, starts=starts)
        for client in (ann, bob):
            post(client, f"/api/tournaments/{made['id']}/join")
        judge(ann)
        assert event(ann, made["id"])["status"] == "upcoming"
        clock.advance(3601)
        judge(ann)
        assert event(ann, made["id"])["round"] == 1


def test_the_account_feed_lists_the_events_where_a_game_goes_on(db_url: str) -> None:
    with players(db_url, ["ann", "bob"]) as c:
        obj = entered(c, "ann")
        state = c["bob"].app.state.server.live_state(c["bob"].app.state.server.accounts.profile("bob")["id"])
        game = obj["pairings"][0]["games"][0]
        assert state["events"] == [{"id": obj["id"], "name": "Autumn cup", "round": 1, "match": game["match"]}]
        summaries = c["bob"].get("/api/account/matches").json()
        assert any(s["tournament"] == {"id": obj["id"], "name": "Autumn cup", "round": 1}
                   for s in summaries["ongoing"] + summaries.get("turn", []))


def test_the_event_socket_sends_the_object_and_again_after_each_change(db_url: str) -> None:
    with players(db_url, ["ann", "bob"]) as c:
        made = new_event(c["ann"])
        with c["bob"].websocket_connect(f"/api/tournaments/{made['id']}/live") as ws:
            assert receive_json(ws)["players"] == []
            post(c["bob"], f"/api/tournaments/{made['id']}/join")
            assert [p["name"] for p in receive_json(ws)["players"]] == ["bob"]
            post(c["ann"], f"/api/tournaments/{made['id']}/join")
            assert len(receive_json(ws)["players"]) == 2
            game = post(c["ann"], f"/api/tournaments/{made['id']}/start")["pairings"][0]["games"][0]
            assert receive_json(ws)["status"] == "running"
            first = c[game["seats"][0]]  # a move in the event's game: the live boards see its ply
            post(first, f"/api/matches/{game['match']}/moves", {"move": "a1", "ply": 0})
            assert receive_json(ws)["pairings"][0]["games"][0]["ply"] == 1
            resign(c["bob"], game["match"])  # the event's only game ends: the event is finished
            while (got := receive_json(ws))["status"] != "finished":
                pass
            assert got["pairings"][0]["games"][0]["result"] in ("1-0", "0-1")


def test_events_made_and_entered_are_limited_per_account(tmp_path) -> None:
    with players(f"sqlite:///{tmp_path / 'h.db'}", ["ann", "bob"], upcoming_events=2, events_per_day=3,
                 entered_events=2) as c:
        made = [new_event(c["ann"])["id"] for _ in range(2)]
        assert "upcoming events" in post(c["ann"], "/api/tournaments", {"name": "x", "game": "projective-hex",
                                                                       "format": "knockout", "clock": {"days": 1}},
                                         status=429)["error"]
        for eid in made:
            post(c["bob"], f"/api/tournaments/{eid}/join")
            post(c["ann"], f"/api/tournaments/{eid}/join")
        post(c["ann"], f"/api/tournaments/{made[0]}/start")
        third = new_event(c["ann"])["id"]
        assert "events not finished" in post(c["bob"], f"/api/tournaments/{third}/join", status=429)["error"]
        post(c["ann"], f"/api/tournaments/{made[1]}/start")
        assert "in the last 24 hours" in post(c["ann"], "/api/tournaments", {
            "name": "x", "game": "projective-hex", "format": "knockout", "clock": {"days": 1}}, status=429)["error"]


def test_a_flood_of_sign_ups_from_one_address_is_rate_limited(tmp_path) -> None:
    from hexarena.server.limits import RATES, Rate
    app = create_app(f"sqlite:///{tmp_path / 'h.db'}", limits=event_limits(
        rates={**RATES, "register": Rate(0, 1), "event": Rate(5, 60)}))
    with TestClient(app) as ann:
        register(ann, "ann")
        eid = new_event(ann)["id"]  # 1 of 5
        statuses = [ann.post(f"/api/tournaments/{eid}/{'join' if i % 2 == 0 else 'withdraw'}",
                             headers=csrf(ann)).status_code for i in range(8)]
        assert statuses[:4] == [200] * 4 and set(statuses[4:]) == {429}


def test_a_swiss_of_3_rounds_with_7_players_pairs_by_the_rules_and_never_pairs_a_withdrawn_player(db_url: str
                                                                                                  ) -> None:
    names = ["ann", "bob", "cyd", "dan", "eve", "fay", "gus"]
    with players(db_url, names) as c:
        obj = entered(c, "ann", format="swiss", rounds=3)
        obj = play_round(c, obj["id"], better_seed(obj))
        post(c["fay"], f"/api/tournaments/{obj['id']}/withdraw")  # fay's round-2 game is resigned
        while obj["status"] == "running":
            obj = play_round(c, obj["id"], better_seed(obj))
        assert obj["round"] == 3 and len(obj["pairings"]) == 3
        met: set[frozenset[str]] = set()
        for r in obj["pairings"]:
            seated = [n for g in r["games"] for n in g["seats"]] + ([r["bye"]] if r["bye"] else [])
            active = [n for n in names if r["round"] <= 2 or n != "fay"]
            assert sorted(seated) == sorted(active), r  # every active player once: a game or the bye
            pairs = {frozenset(g["seats"]) for g in r["games"]}
            assert not pairs & met
            met |= pairs
        byes = [r["bye"] for r in obj["pairings"]]
        assert None not in byes[:1] and len(set(b for b in byes if b)) == len([b for b in byes if b])
        points = {r["name"]: r["points"] for r in obj["standings"]}
        assert sum(points.values()) == sum(len(r["games"]) for r in obj["pairings"]) + sum(
            1 for b in byes if b)  # every game gives 1 point, every bye 1
        assert obj["standings"][0]["name"] == "ann" and points["ann"] == 3


def test_a_real_time_loss_on_time_withdraws_only_a_player_who_never_moved(db_url: str) -> None:
    clock = FakeClock()
    app = create_app(db_url, clock=clock, limits=event_limits())
    names = ["ann", "bob", "cyd", "dan"]
    with TestClient(app) as ann:
        c = {"ann": ann, **{n: TestClient(app) for n in names[1:]}}
        for name, client in c.items():
            register(client, name)
        obj = entered(c, "ann", clock={"initial": 15, "increment": 0})
        played, idle = obj["pairings"][0]["games"]
        for ply in (0, 1):  # both move once in the first game; its first seat then runs out of time
            mover = c[played["seats"][ply]]
            legal = mover.get(f"/api/matches/{played['match']}").json()["legal_moves"]
            post(mover, f"/api/matches/{played['match']}/moves", {"move": legal[0], "ply": ply})
        clock.advance(16)
        judge(ann)
        obj = event(ann, obj["id"])
        assert [g["result"] for g in obj["pairings"][0]["games"]] == ["0-1", "0-1"]
        assert {p["name"] for p in obj["players"] if p["withdrawn"]} == {idle["seats"][0]}


def test_an_invited_ai_plays_its_seat_as_ai_n(db_url: str) -> None:
    with players(db_url, ["ann"]) as c:
        made = new_event(c["ann"])
        post(c["ann"], f"/api/tournaments/{made['id']}/invite", {"name": "ai-1"})
        assert "already entered" in post(c["ann"], f"/api/tournaments/{made['id']}/invite", {"name": "ai-1"},
                                         status=409)["error"]
        assert "ai-1 to ai-10" in post(c["ann"], f"/api/tournaments/{made['id']}/invite", {"name": "ai-11"},
                                       status=400)["error"]
        post(c["ann"], f"/api/tournaments/{made['id']}/join")
        obj = post(c["ann"], f"/api/tournaments/{made['id']}/start")
        game = obj["pairings"][0]["games"][0]
        match = c["ann"].get(f"/api/matches/{game['match']}").json()
        ai_seat = game["seats"].index("ai-1")
        assert match["seats"][ai_seat] == "ai:1" and match["seat_info"][ai_seat]["kind"] == "ai"
        assert match["players"] == game["seats"]


def test_a_knockout_opponent_of_a_withdrawn_player_goes_through_by_forfeit(db_url: str) -> None:
    with players(db_url, ["ann", "bob", "cyd"]) as c:
        obj = entered(c, "ann", format="knockout")
        assert obj["pairings"][0]["bye"] == "ann" and obj["rounds"] == 2
        post(c["ann"], f"/api/tournaments/{obj['id']}/withdraw")
        obj = play_round(c, obj["id"], better_seed(obj))
        final = obj["pairings"][1]["games"]
        assert obj["status"] == "finished" and len(final) == 1 and final[0]["forfeit"]
        assert obj["standings"][0]["name"] == "bob"


def test_a_costly_games_round_waits_for_its_final_scoring(tmp_path) -> None:
    """Lhexus's result needs the scorer: the round is not counted while its final scoring is unknown, and is once
    the scorer answers (its answer takes the judge's step)."""
    with players(f"sqlite:///{tmp_path / 'h.db'}", ["ann", "bob"]) as c:
        server = c["ann"].app.state.server
        obj = entered(c, "ann", game="lhexus", options={"size": 4})
        game = obj["pairings"][0]["games"][0]
        real = server.tournaments.judge_steps.final_of
        server.tournaments.judge_steps.final_of = lambda _match: None  # the scorer still at work
        resign(c[game["seats"][1]], game["match"])
        judge(c["ann"])
        waiting = event(c["ann"], obj["id"])
        assert waiting["status"] == "running" and waiting["pairings"][0]["games"][0]["result"] is None
        server.tournaments.judge_steps.final_of = real
        deadline = time.monotonic() + 50
        while (obj := event(c["ann"], obj["id"]))["status"] != "finished":
            assert time.monotonic() < deadline, "the final scoring never came"
            judge(c["ann"])
            time.sleep(0.2)
        assert obj["pairings"][0]["games"][0]["result"] == "1-0"
