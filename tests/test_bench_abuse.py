"""bench/abuse.py (issue 28): its bookkeeping, its attacks' inputs, and one short scenario against a real server."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

import hexarena

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
try:
    import abuse
finally:
    sys.path.pop(0)


def good_result(**changes: object) -> abuse.Result:
    """A scenario's figures that meet every target, with ``changes``."""
    r = abuse.Result(scenario="baseline", db="sqlite", seconds=1.0, get_ms=(10.0, 40.0), move_ms=(20.0, 60.0),
                     ai_replies=[0.1, 0.3], rss_mb=250.0, matches=2, acknowledged=10)
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
    ({"rss_mb": 700.0}, "server peak RSS MB"),
    ({"killed": "(killed at 3001 MB)"}, "server peak RSS MB"),
    ({"lost": 1}, "acknowledged moves kept"),
    ({"unverified": 1}, "acknowledged moves kept"),
    ({"alive": False}, "acknowledged moves kept"),
])
def test_each_target_is_judged(changes, failing):
    r = good_result(**changes)
    failed = [what for what, _, _, passed in r.checks() if not passed]
    assert failed == ([failing] if failing else [])
    assert r.passed() is (failing is None)


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


@pytest.mark.slow  # a real server starting up: some 15 s
def test_one_short_scenario_against_a_real_server():
    """The long-name attack for 1 s: the well-behaved client played and every acknowledged move was read back."""
    r = abuse.run_scenario("long-name", None, seconds=1.0)
    assert r.wb_moves > 0 and r.wb_gets > 0 and r.ai_replies
    assert r.acknowledged >= r.wb_moves and r.lost == 0 and r.unverified == 0 and r.alive
    assert sum(r.attack.values()) > 0  # the attacker was answered (or cut off) many times
    assert 50 < r.rss_mb < 3000
    text = abuse.table(r)
    assert text.startswith("== long-name (sqlite, 1 s)") and text.count("PASS") + text.count("FAIL") == 7
