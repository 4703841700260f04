"""bench/abuse.py (issues 28 and 42): its bookkeeping, its attacks' inputs, and short scenarios against a real
server."""

from __future__ import annotations

import asyncio
import math
import random
import socket
import sys
from pathlib import Path

import pytest

import hexarena

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
try:
    import abuse
finally:
    sys.path.pop(0)


def good_result(**changes: object) -> abuse.Result:
    """A scenario's figures that meet every target, with ``changes``."""
    r = abuse.Result(scenario="baseline", db="sqlite", seconds=1.0, get_ms=(10.0, 40.0), move_ms=(20.0, 60.0),
                     sign_ins=[0.3, 0.5], ai_replies=[0.1, 0.3], results=[0.2], rss_mb=250.0, matches=2,
                     acknowledged=10, rating_changes=1)
    for k, v in changes.items():
        setattr(r, k, v)
    return r


def test_percentile_is_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert abuse.percentile(values, 50) == 50.0
    assert abuse.percentile(values, 99) == 99.0
    assert abuse.percentile([3.0], 99) == 3.0
    assert math.isnan(abuse.percentile([], 50))


def test_missing_counts_acknowledged_moves_not_there():
    ledger = abuse.Ledger()
    ledger.seen("m", ["a1", "b2"])
    ledger.move("m", 2, "c3")
    assert abuse.missing(ledger.moves["m"], ["a1", "b2", "c3", "d4"]) == 0
    assert abuse.missing(ledger.moves["m"], ["a1", "b2"]) == 1  # the last one lost
    assert abuse.missing(ledger.moves["m"], ["a1", "x9", "c3"]) == 1  # one replaced
    assert abuse.missing(ledger.moves["m"], []) == 3


@pytest.mark.parametrize("changes, failing", [
    ({}, None),
    ({"get_ms": (10.0, 300.0)}, "GET p50/p99 ms"),
    ({"move_ms": (10.0, math.nan)}, "move p50/p99 ms"),  # no move at all
    ({"ai_replies": [0.1, 2.5]}, "ai:1 reply s (max)"),
    ({"ai_replies": [], "ai_waiting": 1.0}, None),  # one reply awaited 1 s when time was up: still within 2 s
    ({"ai_replies": [0.1], "ai_waiting": 9.0}, "ai:1 reply s (max)"),
    ({"ai_replies": []}, "ai:1 reply s (max)"),  # never asked
    ({"errors_5xx": 1}, "5xx responses"),
    ({"limited": 1}, "well-behaved limited"),
    ({"rss_mb": 700.0}, None),  # issue 42's target is 800 MB
    ({"rss_mb": 850.0}, "server peak RSS MB"),
    ({"killed": "(killed at 3001 MB)"}, "server peak RSS MB"),
    ({"lost": 1}, "acknowledged moves kept"),
    ({"unverified": 1}, "acknowledged moves kept"),
    ({"alive": False}, "acknowledged moves kept"),
    ({"sign_ins": [0.3, 2.1]}, "sign-in s (max), refused"),
    ({"sign_ins": []}, "sign-in s (max), refused"),  # never signed in
    ({"sign_ins_refused": 1}, "sign-in s (max), refused"),  # a correct password refused (a lock-out)
    ({"results": [0.2, 5.5]}, "small Lhexus result s"),
    ({"results": [], "result_waiting": 6.0}, "small Lhexus result s"),  # scores still awaited at the end
    ({"results": [], "result_waiting": 1.0}, None),
    ({"results": []}, "small Lhexus result s"),  # no game finished
    ({"unscored": 1}, "small Lhexus result s"),
    ({"ratings_lost": 1}, "rating changes kept"),
    ({"judged": [("farm games that moved ratings", "65 of 65", "<= 3", False)]}, "farm games that moved ratings"),
    ({"judged": [("own seek listed (?game= too)", "yes / yes", "listed", True)]}, None),
])
def test_each_target_is_judged(changes, failing):
    r = good_result(**changes)
    failed = [what for what, _, _, passed in r.checks() if not passed]
    assert failed == ([failing] if failing else [])
    assert r.passed() is (failing is None)


def test_merged_tallies_add_up():
    one, two = abuse.Tally(), abuse.Tally()
    one.record("get", 200, 0.1)
    one.failures["get timeout"] += 1
    two.record("get", 500, 0.3)
    two.record("login", 401, 0.2)
    two.limited = 2
    both = abuse.merged([one, two])
    assert both.latencies == {"get": [0.1, 0.3], "login": [0.2]} and both.limited == 2
    assert both.count(500, 599) == 1 and both.count(200, 499) == 2 and both.failures["get timeout"] == 1


def test_a_wait_unfinished_at_the_deadline_counts_until_it():
    ctx = abuse.Context(deadline=100.0, ledger=abuse.Ledger())
    assert ctx.waited("ai") == 0.0
    ctx.waiting["ai"] = 97.5
    assert ctx.waited("ai") == 2.5


def test_rating_changes_are_checked_against_the_history():
    ledger = abuse.Ledger()
    ledger.rated("m1", "wb1", "projective-hex", 1580.2)
    ledger.rated("m2", "wb1", "projective-hex", 1490.0)

    class Profiles:
        async def call(self, kind, method, path, body=None):
            assert path == "/api/users/wb1"
            return 200, {"history": {"projective-hex": [{"match": "m1", "after": 1580.2}]}}, None

    assert asyncio.run(abuse.ratings_missing(Profiles(), ledger)) == 1  # m2's change is not there


def test_small_lhexus_game_places_stones_then_passes():
    rng = random.Random(0)
    early = {"ply": 3, "legal_moves": ["a1", "b2", "end"]}
    assert {abuse.small_move(early, rng) for _ in range(20)} == {"a1", "b2"}
    assert abuse.small_move({"ply": 0, "legal_moves": ["end"]}, rng) == "end"
    assert abuse.small_move({"ply": abuse.SMALL_PLIES, "legal_moves": ["a1", "end"]}, rng) == "end"
    assert abuse.small_move({"ply": 40, "legal_moves": ["accept", "decline"]}, rng) in ("accept", "decline")


def test_many_attackers_have_addresses_of_their_own_that_bind():
    addresses = abuse.attackers(41)
    assert len(set(addresses)) == 41 and addresses[-1] == "127.0.0.50"
    assert not {abuse.WELL_BEHAVED, abuse.ATTACKER, abuse.VERIFIER, abuse.LOOKER} & set(addresses)
    with socket.socket() as server, socket.socket() as client:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(5)
        client.settimeout(5)
        client.bind((addresses[-1], 0))
        client.connect(server.getsockname())
        peer = server.accept()[0]
        with peer:
            assert peer.getpeername()[0] == "127.0.0.50"


def test_every_scenario_has_its_attack():
    assert len(set(abuse.SCENARIOS)) == 14
    for name in abuse.SCENARIOS:
        if name not in ("dense-lhexus", "big-body", "scoring-flood"):  # these build their inputs: slow
            assert callable(abuse.attack_for(name))


def test_dense_lhexus_game_is_legal_and_one_sided():
    state = abuse.dense_lhexus_game()
    stones = state.game.stones(state.array)
    assert state.is_over() and state.game.colour(state.array, 0) == "white"
    assert (stones == 1).sum() == 0 and (stones == 2).sum() >= 0.9 * len(stones)
    start = abuse.prefix(state, len(state.history) - 10)
    again = hexarena.from_record(start.record_text())  # what the server reads back
    assert again.moves() == state.moves()[:-10] and not again.is_over()


def test_big_body_has_ten_million_seats():
    body = abuse.big_body()
    assert 50_000_000 <= len(body) < 51_000_000
    assert body.count(b'"me"') == 10_000_000 and body.endswith(b'"me"]}')


@pytest.mark.slow  # a real server starting up: some 15 s each
@pytest.mark.parametrize("scenario", ["long-name", "login-lockout", "rating-farm"])
def test_a_short_scenario_against_a_real_server(scenario):
    """A scenario for 2 s: the well-behaved client signed in and played, every acknowledged move was read back,
    and each target (and the scenario's own figure) was judged."""
    r = abuse.run_scenario(scenario, None, seconds=2.0)
    assert r.wb_moves > 0 and r.wb_gets > 0 and r.ai_replies and r.sign_ins
    assert r.acknowledged >= r.wb_moves and r.lost == 0 and r.unverified == 0 and r.alive
    assert sum(r.attack.values()) > 0  # the attacker was answered (or cut off) many times
    assert 50 < r.rss_mb < 3000
    text = abuse.table(r)
    own = {"rating-farm": 1}.get(scenario, 0)
    assert text.startswith(f"== {scenario} (sqlite, 2 s)") and text.count("PASS") + text.count("FAIL") == 10 + own
    if scenario == "rating-farm":  # judged even when the pair had no time to play
        assert [row[0] for row in r.judged] == ["farm games that moved ratings"]
