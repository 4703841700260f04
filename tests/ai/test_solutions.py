"""The size-3 Projective Hex proof shipped with the package (hexarena.search.ship): the stored
positions are the long run's, the AI keeps a proven win from the stored positions and below them
(a bounded VC df-pn), plays on by search in a proven loss, and its hint says "proven win"."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import hexarena
from hexarena.ai import hint_note
from hexarena.ai.mcts import MCTSAgent
from hexarena.search.positions import PositionKeys
from hexarena.search.solutions import STORE_DIR, load_store, perfect_move, proof_text, store_name, stored_value
from hexarena.search.vc import VcDfpn
from hexarena.search.proven import Proven
from hexarena.search.query import RUN_STORES

GAME = hexarena.load("projective-hex", size=3, opening="none")
NAME = store_name(GAME)
SHIPPED = STORE_DIR / NAME
RUN = Path(RUN_STORES[NAME]) / "proven.npz"


@pytest.fixture(scope="module")
def run():
    if not RUN.exists():
        pytest.skip(f"no run store at {RUN}")
    return Proven.load(RUN, NAME)


@pytest.fixture(scope="module")
def keys():
    return PositionKeys(GAME)


def classes(state, keys):
    """One child per class under the symmetries (the game not over)."""
    out = {}
    for a in state.legal_actions():
        child = state.copy()
        child.apply(a)
        out.setdefault(keys.key(child.array), child)
    return list(out.values())


def test_the_shipped_store_holds_the_runs_proven_positions(run):
    store = load_store(SHIPPED)
    assert SHIPPED.stat().st_size < 1_000_000 and len(store) > 10 * len(run)
    for key, entry in run.entries.items():
        assert store.lookup(key) == (entry.result, entry.plies), entry.moves


def test_from_the_start_and_after_each_first_move_class_the_ai_keeps_the_win(run, keys):
    ai = MCTSAgent(level=1, seed=0)
    start = GAME.new_state()
    assert proof_text(start) == "proven win" and stored_value(start) == (1, -1)
    firsts = classes(start, keys)
    assert len(firsts) == 6 and run.get(keys.key(start.array)).result == 1
    move, rate = ai.hint(start)
    assert rate == 1.0 and run.get(keys.key(after(start, move).array)).result == -1
    for first in firsts:  # how soon each proven move comes: bench/proven_moves.py (a clock here flakes under load)
        assert proof_text(first) == "proven loss" and perfect_move(first) is None  # the search plays on
        for second in classes(first, keys):
            move, rate = ai.hint(second)
            assert rate == 1.0 and hint_note(second, rate) == "proven win", second.moves()
            assert run.get(keys.key(after(second, move).array)).result == -1, (second.moves(), move)


def after(state, move):
    child = state.copy()
    child.play(move)
    return child


def test_below_the_shipped_positions_a_bounded_search_proves_the_move(keys):
    """A line off the shipped proof: the winner's moves below it are proven by the bounded VC df-pn
    and checked by a fresh one with a 30 times larger budget."""
    store, check, rng = load_store(SHIPPED), VcDfpn(GAME, 20), random.Random(3)
    searched = 0
    for first in ("A", "J"):
        s = GAME.new_state()
        s.play(first)
        while not s.is_over():
            if s.to_move == 1:
                s.apply(rng.choice(s.legal_actions()))
                continue
            shipped = store.lookup(keys.key(s.array)) is not None
            best = perfect_move(s)  # its time: bench/proven_moves.py
            assert best is not None and best.result == 1, s.moves()
            assert proof_text(s).startswith("proven win")
            s.apply(best.action)
            if not s.is_over() and not shipped:
                searched += 1
                assert check.value(s.array, 2_000_000) == -1, s.moves()
        assert s.winner() == 0
    assert searched >= 4


def test_other_games_and_unproven_positions_are_left_to_the_search():
    s = hexarena.load("projective-hex", size=3, opening="swap").new_state()
    assert perfect_move(s) is None and proof_text(s) is None
    s = hexarena.load("lisbon").new_state()
    assert perfect_move(s) is None and stored_value(s) is None


def test_the_server_hint_says_proven_win(tmp_path):
    from fastapi.testclient import TestClient

    from hexarena.server import create_app
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}")) as client:
        r = client.post("/api/matches", json={"game": "projective-hex", "options": {"size": 3, "opening": "none"},
                                              "seats": ["me", "me"]})
        made = r.json()
        r = client.get(f"/api/matches/{made['id']}/hint", params={"token": made["token"]})
        assert r.status_code == 200 and r.json()["proof"] == "proven win" and r.json()["rate"] == 1.0, r.text


@pytest.mark.slow
def test_a_sample_of_the_shipped_positions_has_a_fresh_dfpns_values(run, keys):
    """The walk over the run's files (no searching) down to 6 stones meets the shipped file's positions
    (it may keep other children where the shipped walk's searches found some first) with their
    values; 150 shipped ones of 5 or 6 stones, re-proven by a fresh VC df-pn, agree."""
    from hexarena.search.ship import TableValues, proof_positions

    table = RUN.with_name("table.npz")
    if not table.exists():
        pytest.skip(f"no run table at {table}")
    found, store = proof_positions(GAME, run, TableValues(table), 6), load_store(SHIPPED)
    shipped = {k: e for k, e in found.items() if store.lookup(k) is not None}
    assert len(shipped) > 0.99 * len(found)  # 12,675 of 12,698 when written
    assert all(store.lookup(k) == (e.result, e.plies) for k, e in shipped.items())
    deep = sorted((k, e) for k, e in shipped.items() if len(e.moves) >= 5)
    fresh = VcDfpn(GAME, 22)
    for key, entry in random.Random(1).sample(deep, min(150, len(deep))):
        s = GAME.new_state()
        for a in entry.moves:
            s.apply(a)
        fresh.table.clear()
        assert keys.key(s.array) == key and fresh.value(s.array, 5_000_000) == entry.result, entry.moves
