"""The standing championships (docs/server.md, "Tournaments and championships") on SQLite and PostgreSQL: sign-ups,
a first cycle of 3 divisions formed by rating and played to the end through the API, promotion and relegation into
the next cycle, which starts by itself, once."""

from __future__ import annotations

from sqlalchemy import func, select

from hexarena.server.schema import tournaments
from hexarena.tournament import next_divisions
from tests.server.tournament_helpers import event, judge, play_round, players, post

NAMES = [f"p{i:02d}" for i in range(17)]


def strongest(seats: list[str]) -> str:
    """The winner of every game: the player named first in NAMES."""
    return min(seats)


def test_sign_ups_are_kept_once_and_refused_clearly(db_url: str) -> None:
    with players(db_url, ["ann", "bob"]) as c:
        shown = post(c["ann"], "/api/championships/lisbon/join")
        assert shown["joined"] and shown["players"] == ["ann"] and shown["status"] == "waiting"
        assert shown["next_start"] is None and shown["cycle"] == 0 and shown["divisions"] == []
        assert "already signed up" in post(c["ann"], "/api/championships/lisbon/join", status=409)["error"]
        assert "not signed up" in post(c["bob"], "/api/championships/lisbon/leave", status=409)["error"]
        assert post(c["bob"], "/api/championships/chess/join", status=400)["error"].startswith("game 'chess'")
        listed = {ch["game"]: ch for ch in c["bob"].get("/api/championships").json()}
        assert listed["lisbon"]["entrants"] == 1 and not listed["lisbon"]["joined"]
        assert not post(c["ann"], "/api/championships/lisbon/leave")["joined"]


def test_a_three_division_cycle_is_played_out_and_the_next_starts_once_with_promotion_and_relegation(
        db_url: str) -> None:
    with players(db_url, NAMES) as c:
        for name in NAMES:
            post(c[name], "/api/championships/projective-hex/join")
        judge(c["p00"])
        shown = c["p00"].get("/api/championships/projective-hex").json()
        assert shown["status"] == "running" and shown["cycle"] == 1
        assert [d["name"] for d in shown["divisions"]] == ["1", "2a", "2b"]
        first = {d["name"]: d["tournament"] for d in shown["divisions"]}
        division = event(c["p00"], first["1"])
        assert division["by"] == "hexarena" and division["format"] == "round-robin" and division["rated"]
        assert division["clock"] == {"days": 3} and division["championship"] == {
            "game": "projective-hex", "cycle": 1, "division": "1"}
        finals = {}
        for name, event_id in first.items():
            obj = event(c["p00"], event_id)
            while obj["status"] == "running":
                obj = play_round(c, event_id, strongest)
            finals[name] = [r["name"] for r in obj["standings"]]
            assert finals[name] == sorted(finals[name])  # the stronger player always won
        judge(c["p00"])
        again = c["p00"].get("/api/championships/projective-hex").json()
        assert again["cycle"] == 2 and again["status"] == "running"
        formed = {d["name"]: sorted(p["name"] for p in event(c["p00"], d["tournament"])["players"])
                  for d in again["divisions"]}
        assert formed == {k: sorted(v) for k, v in next_divisions(finals, set(), []).items()}
        assert set(finals["2a"][:2]) | set(finals["2b"][:2]) <= set(formed["1"])  # promoted
        assert not set(finals["1"][-2:]) & set(formed["1"])  # relegated
        judge(c["p00"])
        engine = c["p00"].app.state.server.store.db.engine
        with engine.connect() as conn:
            cycles = dict(conn.execute(select(tournaments.c.cycle, func.count()).group_by(tournaments.c.cycle)).all())
        assert cycles == {1: 3, 2: len(formed)}
