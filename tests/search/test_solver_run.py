"""The long solve (hexarena.search): its frontier of symmetry classes, its
files, a run stopped and resumed against one never stopped, its proven
positions against the plain minimax, and ``hexarena solve --after``."""

from __future__ import annotations

import io
import json
import os
import random
from pathlib import Path

import numpy as np
import pytest

import hexarena
from hexarena.search.positions import PositionKeys
from hexarena.search.solutions import load_store, store_name
from hexarena.search.dfpn import PnTable, find, store
from hexarena.cli import main
from hexarena.search.files import load_npz, load_table, save_npz, save_table
from hexarena.search.frontier import Frontier
from hexarena.search.proven import UNKNOWN_PLIES, Proven
from hexarena.search.query import RUN_STORES, position_value
from hexarena.search.run import LongSolve
from hexarena.search.ship import Prover, TableValues, proof_positions, ship

from tests.solve_reference import Reference
from tests.solve_reference_ph import PlainMinimax


@pytest.fixture(scope="module")
def size2():
    return hexarena.load("projective-hex", size=2, opening="none")


@pytest.fixture(scope="module")
def finished(size2, tmp_path_factory):
    """A size-2 run carried to its end in one go (every tracked position proven)."""
    run = LongSolve(size2, tmp_path_factory.mktemp("uninterrupted"), table_bits=14)
    run.run()
    return run


def replay(game, moves) -> np.ndarray:
    s = game.new_state()
    for a in moves:
        s.apply(a)
    return s.array.copy()


@pytest.mark.parametrize("size,classes,second,third", [(2, [6, 3, 3], 23, 115), (3, [6, 3, 6, 6, 3, 3], 120, 1482)])
def test_the_frontier_classes_come_from_the_symmetries(size, classes, second, third):
    game = hexarena.load("projective-hex", size=size, opening="none")
    f = Frontier(game, PositionKeys(game), 3)
    first = f.levels[1]
    assert [1 + len(n.same_as) for n in first] == classes
    cells = sorted(a for n in first for a in (n.moves[0], *n.same_as))
    assert cells == list(range(game.topology.ncells))  # every first move in exactly one class
    assert [len(level) for level in f.levels[2:]] == [second, third]
    assert all(f.by_key[k].level == 2 for n in first for k in n.children)


def test_a_finished_run_matches_the_plain_minimax(finished, size2):
    """Every stored position (the tracked ones and the witnesses from deep in the table), by the
    plain minimax; the first moves as docs/solving.md has them; lengths where stored."""
    ref = Reference(size2)
    report = finished.report()
    assert [(m["move"], m["result"]) for m in report["first_moves"]] == [("a1", "loss"), ("b1", "win"), ("b2", "win")]
    assert all(lv["proven"] == lv["positions"] for lv in report["levels"])
    witnesses = 0
    for key, entry in finished.proven.entries.items():
        s = replay(size2, entry.moves)
        assert finished.dfpn.keys.key(s) == key
        if entry.plies == UNKNOWN_PLIES:
            assert ref.outcome(s) == entry.result, entry.moves
        else:
            assert ref.perfect(s) == (entry.result, entry.plies), entry.moves
        witnesses += len(entry.moves) > 3
    assert witnesses >= 20


def test_a_run_stopped_and_resumed_proves_what_an_uninterrupted_one_does(finished, size2, tmp_path):
    first = LongSolve(size2, tmp_path, table_bits=14, keep=50)
    for _ in range(3):
        first.chunk(first.next_target(), 30)
    first.checkpoint()
    saved = dict(first.proven.entries)
    assert first.dfpn.table.used() > 0 and first.report()["levels"][1]["proven"] < 3  # stopped half-way
    again = LongSolve(size2, tmp_path, table_bits=14, keep=50)
    assert again.proven.entries == saved and again.report()["nodes"] == first.report()["nodes"]
    assert again.dfpn.table.used() >= 50  # the pruned table, and the proven positions written into it
    again.run()
    tracked = [n.key for n in again.frontier]
    assert {k: again.proven.get(k).result for k in tracked} == {k: finished.proven.get(k).result for k in tracked}
    meta = json.loads((tmp_path / "run.json").read_text())
    assert len(meta["sessions"]) == 2 and meta["nodes"] == again.report()["nodes"]


def test_a_failed_write_leaves_the_last_checkpoint(tmp_path, monkeypatch):
    path = tmp_path / "x.npz"
    save_npz(path, a=np.arange(3))
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError("disk gone")))
    with pytest.raises(OSError):
        save_npz(path, a=np.arange(5))
    assert load_npz(path)["a"].tolist() == [0, 1, 2]
    assert [p.name for p in tmp_path.iterdir()] == ["x.npz"]  # no temporary file left


def test_the_table_keeps_its_most_worked_entries(tmp_path):
    table = PnTable(10)
    rng = np.random.default_rng(1)
    keys = rng.integers(1, 2**63, size=600, dtype=np.uint64)
    for i, k in enumerate(keys):
        store(table.arrays, k, i % 7, 3, i)
    used = np.flatnonzero(table.key)
    assert save_table(tmp_path / "t.npz", table, keep=100) == 100
    again = PnTable(12)
    assert load_table(tmp_path / "t.npz", again) == 100
    top = used[np.argsort(table.work[used])[-100:]]
    for slot in top:
        j = find(again.arrays, table.key[slot])
        assert j >= 0
        assert (again.pn[j], again.dn[j], again.work[j]) == (table.pn[slot], table.dn[slot], table.work[slot])


def test_after_values_a_position_and_its_moves_as_the_plain_minimax(size2):
    ref = Reference(size2)
    v = position_value(size2, ["a1", "b2"], table_bits=14)
    s = size2.new_state()
    s.play("a1")
    s.play("b2")
    result, plies = ref.perfect(s.array)
    assert (v.result, v.plies) == ({1: "win", -1: "loss"}[result], plies)
    words = {1: "win", -1: "loss"}
    for m in v.next_moves:
        for name in (m.move, *m.same_as):
            child = s.copy()
            child.play(name)
            r, d = ref.child_perfect(child.array, s.to_move)
            assert (m.result, m.plies) == (words[r], d), name
    assert sum(1 + len(m.same_as) for m in v.next_moves) == 10


def test_after_reads_a_run_store_first(finished, size2):
    node = finished.frontier.levels[3][7]
    entry = finished.proven.get(node.key)
    s, names = size2.new_state(), []
    for a in node.moves:
        names.append(s.move_name(a))
        s.apply(a)
    v = position_value(size2, names, distances=False, table_bits=14, store_dir=finished.dir)
    assert v.source == "store" and v.result == {1: "win", -1: "loss"}[entry.result]
    assert entry.result == PlainMinimax(size2).outcome(s.array)


def test_cli_solve_after(capsys):
    out = io.StringIO()
    args = ["solve", "projective-hex", "-o", "size=2", "-o", "opening=none", "--table-bits", "14"]
    assert main(args + ["--after", "a1 b2 c3", "--json"], out) == 0
    data = json.loads(out.getvalue())
    assert data["moves"] == ["a1", "b2", "c3"] and data["to_move"] == 1 and data["result"] in ("win", "loss")
    assert {m["result"] for m in data["next_moves"]} <= {"win", "loss"} and data["plies"] > 0
    out = io.StringIO()
    assert main(args + ["--after", "a1,b2", "--no-distances"], out) == 0
    assert "after a1 b2: player 1 to move: " in out.getvalue()
    assert main(args + ["--after", "a1 a1"], io.StringIO()) == 2
    assert "occupied" in capsys.readouterr().err


@pytest.mark.slow
def test_stored_positions_of_the_size_3_run_are_those_of_the_plain_minimax():
    """A sample of the committed store (data/solve-ph3): stored positions 12 stones in or more (the
    witnesses from deep in the run's table) by the plain minimax, lengths 16 stones in or more."""
    game = hexarena.load("projective-hex", size=3, opening="none")
    name = "projective-hex-opening=none-size=3.npz"
    path = Path(RUN_STORES[name]) / "proven.npz"
    if not path.exists():
        pytest.skip(f"no store at {path}")
    proven, keys, plain, ref = Proven.load(path, name), PositionKeys(game), PlainMinimax(game), Reference(game)
    deep = sorted((k, e) for k, e in proven.entries.items() if len(e.moves) >= 12)
    if not deep:
        pytest.skip("the store holds no position a plain search can finish yet")
    for key, entry in random.Random(0).sample(deep, min(300, len(deep))):
        s = replay(game, entry.moves)
        assert keys.key(s) == key and plain.outcome(s) == entry.result, entry.moves
        if entry.plies != UNKNOWN_PLIES and len(entry.moves) >= 16:
            assert ref.perfect(s) == (entry.result, entry.plies), entry.moves


def test_a_runs_shipped_proof_holds_the_plain_minimax_values(finished, size2, tmp_path):
    """proof_positions from a size-2 run's files down to the last of 12 stones: every position is the plain
    minimax's value, a won one keeps a child lost for its player and a lost one has every child."""
    save_table(tmp_path / "table.npz", finished.dfpn.table, keep=1 << 20)
    keys, ref = PositionKeys(size2), Reference(size2)
    prover = Prover(size2, keys, 100_000, table_bits=14)
    found = proof_positions(size2, finished.proven, TableValues(tmp_path / "table.npz"), 12, prover, 12)
    assert len(found) > len(finished.proven)
    for key, entry in found.items():
        s = size2.new_state()
        for a in entry.moves:
            s.apply(a)
        assert keys.key(s.array) == key and ref.outcome(s.array) == entry.result, entry.moves
        kids = [s.copy() for _ in s.legal_actions()]
        for kid, a in zip(kids, s.legal_actions(), strict=True):
            kid.apply(a)
        if any(k.is_over() and k.winner() == s.to_move for k in kids):
            continue
        kept = [found[keys.key(k.array)].result for k in kids if keys.key(k.array) in found]
        assert (-1 in kept) if entry.result == 1 else len(kept) == len(kids), entry.moves
    finished.proven.save(tmp_path / "proven.npz", store_name(size2))
    path, n = ship(size2, tmp_path, 12, tmp_path / "ship.npz", 12, 100_000)
    store = load_store(path)
    assert n == len(store) and all(store.lookup(k) in (None, (e.result, e.plies)) for k, e in found.items())
