"""The final scoring of costly games (docs/server.md "Fair AI time and costly scoring"): the fair queue of the
scoring pool, a scoring stopped with its server is no result, a real failure names its cause, and `hexarena
serve` stopped (SIGTERM) or killed (SIGKILL) mid-scoring scores the match again after its restart, unasked."""

from __future__ import annotations

import argparse
import fcntl
import os
import random
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, update

import hexarena
from hexarena.games.base import State
from hexarena.server import create_app, scoring
from hexarena.server.core import Server
from hexarena.server.limits import Limits, add_limit_arguments, limits_from
from hexarena.server.schema import finals, matches
from tests.server.helpers import fresh_pg
from tests.server.test_processes import HEXARENA, free_port
from tests.waits import until

WAIT = 60.0  # the longest any wait here may take before the test fails


def finished_lhexus(size: int, fill: float, seed: int = 1) -> State:
    """A finished Lhexus game on a base-``size`` board by legal play: Black places stones at random until
    ``fill`` of the board is taken while White only passes, then both pass."""
    state = hexarena.load("lhexus", size=size).new_state()
    rng = random.Random(seed)
    n = state.game.topology.ncells
    state.play(state.game.topology.names[n // 2])
    state.play("decline")
    while not state.is_over():
        taken = int((state.game.stones(state.array) > 0).sum())
        moves = [m for m in state.legal_moves() if m != "end"] if state.to_move == 1 and taken < fill * n else []
        state.play(rng.choice(moves) if moves else "end")
    return state


# the fair queue ------------------------------------------------------------------
class HeldWorkers:
    """A scoring backend whose jobs wait until the test lets each go: notes the order jobs start in (by their
    board's size and moves), answers each with empty fields."""

    def __init__(self) -> None:
        self.started: list[tuple[int, int]] = []
        self.go = threading.Semaphore(0)
        self._lock = threading.Lock()

    def __call__(self, _memory_mb: int) -> HeldWorkers.Worker:
        return HeldWorkers.Worker(self)

    class Worker:
        def __init__(self, held: HeldWorkers) -> None:
            self.held = held
            self.jobs: list[tuple[int, int]] = []
            self.warmed = False

        def score(self, job: dict[str, Any], seconds: float) -> dict[str, Any]:
            with self.held._lock:
                self.held.started.append((job["options"]["size"], len(job["moves"])))
                self.jobs.append(self.held.started[-1])
            assert self.held.go.acquire(timeout=WAIT), "the test never let the job go"
            return {"scores": None, "status": "", "reason": None, "svg": ""}

        def warm(self) -> None:
            self.warmed = True

        def stop(self) -> None:
            pass

    def starts(self, count: int) -> list[tuple[int, int]]:
        """The jobs started, once there are ``count``."""
        return until(lambda: len(self.started) >= count and list(self.started), f"{count} jobs never started")


def label(state: State) -> tuple[int, int]:
    return state.game.options["size"], len(state.moves())


@pytest.fixture
def held() -> Iterator[tuple[HeldWorkers, scoring.Scorer, list[str]]]:
    """A Scorer with one lane for any board (and the small boards' lane) on held workers, and the keys done."""
    workers, done = HeldWorkers(), []
    scorer = scoring.Scorer(lambda key, _state, _fields: done.append(key), workers=1, backend=workers)
    yield workers, scorer, done
    for _ in range(20):
        workers.go.release()
    scorer.shutdown()


def test_a_small_result_never_waits_behind_another_owners_long_scorings(held) -> None:
    """The issue's starved queue: one owner's four large boards are queued, the only lane for any board scoring
    the first; another owner's small board is scored at once (its own lane), before the other three."""
    workers, scorer, done = held
    large = [finished_lhexus(10, 0.3, seed) for seed in range(4)]
    small = finished_lhexus(4, 0.5)
    for i, state in enumerate(large):
        assert scorer.request(f"large{i}", state, "10.0.0.1")
    assert workers.starts(1) == [label(large[0])]
    assert scorer.request("small", small, "10.0.0.2")
    assert workers.starts(2) == [label(large[0]), label(small)]
    for _ in range(5):
        workers.go.release()
    until(lambda: len(done) == 5, "not every job was done")


def test_the_small_boards_lane_works_only_when_the_others_are_busy(held) -> None:
    """A small board goes to an idle lane for any board (the small boards' lane starts no process meanwhile);
    once that lane is busy the small boards' lane warms its worker, and the next small board goes there."""
    workers, scorer, done = held
    first, second = finished_lhexus(4, 0.3), finished_lhexus(4, 0.6)
    assert not scorer.workers[1].warmed
    scorer.request("first", first, "a")
    workers.starts(1)
    until(lambda: scorer.workers[1].warmed, "the small boards' lane did not warm its worker")
    scorer.request("second", second, "a")
    workers.starts(2)
    assert [w.jobs for w in scorer.workers] == [[label(first)], [label(second)]]


def test_owners_take_turns_on_a_busy_lane(held) -> None:
    """Round robin between owners: with one owner's three large boards queued and one each from two other
    owners, the lane scores A, B, C, then A's others; within an owner, the smaller board first."""
    workers, scorer, _done = held
    a = [finished_lhexus(10, 0.3, seed) for seed in range(2)] + [finished_lhexus(8, 0.3)]
    b, c = finished_lhexus(10, 0.3, 7), finished_lhexus(10, 0.3, 8)
    scorer.request("a0", a[0], "a")
    workers.starts(1)
    for i, state in enumerate(a[1:], 1):
        scorer.request(f"a{i}", state, "a")
    scorer.request("b", b, "b")
    scorer.request("c", c, "c")
    for count in range(2, 6):
        workers.go.release()
        workers.starts(count)
    assert workers.started == [label(a[0]), label(b), label(c), label(a[2]), label(a[1])]


# stopped is not failed -------------------------------------------------------------
def waiting_bytes(pid: int) -> int:
    """The bytes written to process ``pid``'s stdin (a pipe) that it has not read yet."""
    fd = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NONBLOCK)
    try:
        return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]
    finally:
        os.close(fd)


def scoring_children(pid: int) -> list[int]:
    """The scoring worker processes of process ``pid``."""
    kids = [int(k) for task in Path(f"/proc/{pid}/task").iterdir()
            for k in (task / "children").read_text().split()]
    return [k for k in kids if b"hexarena.server.scoring" in Path(f"/proc/{k}/cmdline").read_bytes()]


def busy_worker(parent: int) -> int:
    """Process ``parent``'s scoring worker once it has read its job (the scoring runs): its job was seen waiting
    in its stdin (the worker takes a while to start), then gone."""
    written: set[int] = set()

    def reading() -> int | None:
        for kid in scoring_children(parent):
            if waiting_bytes(kid):
                written.add(kid)
            elif kid in written:
                return kid
        return None
    deadline = time.monotonic() + WAIT
    while (kid := reading()) is None:
        assert time.monotonic() < deadline, "no scoring worker took its job"
        time.sleep(0.005)
    return kid


SLOW = (12, 0.85)  # a base-12 Lhexus board 85% Black's: its exact scoring takes a few seconds


@pytest.fixture(scope="module")
def slow_game() -> State:
    return finished_lhexus(*SLOW)


def test_a_scoring_stopped_with_its_scorer_is_no_result(slow_game) -> None:
    """Shutdown while the worker scores: the job is put down and nothing is done with it (no "not scored"
    result to store)."""
    done: list[dict[str, Any]] = []
    scorer = scoring.Scorer(lambda _key, _state, fields: done.append(fields), workers=2)  # no lane warms
    try:
        scorer.request("slow", slow_game)
        busy_worker(os.getpid())
    finally:
        scorer.shutdown()
    until(lambda: not scorer.pending("slow"), "the stopped job is still pending")
    assert done == []


def test_a_killed_scoring_process_says_how_it_ended(slow_game) -> None:
    """A worker killed while it scores (here: SIGKILL, as the system's out-of-memory killer does) is a real
    failure: the result names the signal, not a guess."""
    done: list[dict[str, Any]] = []
    scorer = scoring.Scorer(lambda _key, _state, fields: done.append(fields), workers=2)  # no lane warms
    try:
        scorer.request("slow", slow_game)
        os.kill(busy_worker(os.getpid()), signal.SIGKILL)
        until(lambda: done, "the failure was never told")
    finally:
        scorer.shutdown()
    assert done[0]["scores"] is None and done[0]["error"] == "the scoring process was killed by SIGKILL"
    assert "not scored (the scoring process was killed by SIGKILL)" in done[0]["status"]


def test_a_scoring_process_that_exits_says_its_status(monkeypatch) -> None:
    """A worker that exits without answering: the result names its exit status."""
    monkeypatch.setattr(scoring, "worker_command", lambda _mb: ([sys.executable, "-c", "raise SystemExit(3)"], {}))
    done: list[dict[str, Any]] = []
    scorer = scoring.Scorer(lambda _key, _state, fields: done.append(fields))
    try:
        scorer.request("small", finished_lhexus(4, 0.5))
        until(lambda: done, "the failure was never told")
    finally:
        scorer.shutdown()
    assert done[0]["error"] == "the scoring process exited with status 3"


# a real server stopped while scoring --------------------------------------------------
class Served:
    """`hexarena serve` on ``db`` as a subprocess, up."""

    def __init__(self, db: str, cwd: Path) -> None:
        self.port = free_port()
        env = {**os.environ, "PYTHONPATH": str(Path(hexarena.__file__).parents[1])}
        self.proc = subprocess.Popen([HEXARENA, "serve", "--port", str(self.port), "--db", db], cwd=cwd, env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=WAIT)
        until(self._up, "the server did not start")

    def _up(self) -> bool:
        assert self.proc.poll() is None, f"the server ended with {self.proc.returncode}"
        try:
            return self.http.get("/api/games").status_code == 200
        except httpx.TransportError:
            return False

    def stop(self, sig: int) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=WAIT)
        self.http.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'h.db'}"
        return
    with fresh_pg() as url:
        yield url


def stored(db: str, match_id: str) -> list[dict[str, Any]]:
    """The final fields stored for ``match_id``, read straight from the database."""
    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            return [dict(r.fields) for r in conn.execute(select(finals.c.fields).where(finals.c.match_id == match_id))]
    finally:
        engine.dispose()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_server_stopped_while_scoring_scores_again_after_its_restart(db, sig, tmp_path, slow_game) -> None:
    """The issue's lost score: a finished dense Lhexus game is imported and shown ("scoring"), and while its
    worker scores the server is stopped (SIGTERM) or killed (SIGKILL). Nothing is stored for it; the restarted
    server scores it again by itself (no read of the match: the stored result is watched in the database), and
    it is exact."""
    first = Served(db, tmp_path)
    try:
        made = first.http.post("/api/matches/import", json={"record": slow_game.record_text(),
                                                            "seats": ["me", "me"]}).json()
        assert first.http.get(f"/api/matches/{made['id']}").json()["scoring"] is True
        busy_worker(first.proc.pid)
        assert stored(db, made["id"]) == [], "the scoring ended before the stop: pick a slower board"
    finally:
        first.stop(sig)
    assert stored(db, made["id"]) == []
    again = Served(db, tmp_path)
    try:
        until(lambda: stored(db, made["id"]), "the restarted server did not score the match")
        shown = again.http.get(f"/api/matches/{made['id']}").json()
    finally:
        again.stop(signal.SIGTERM)
    expected = slow_game.scores()
    assert [f["scores"] for f in stored(db, made["id"])] == [expected]
    assert shown["scoring"] is False and shown["scores"] == expected


def test_an_imported_finished_game_is_scored_unasked(tmp_path) -> None:
    """Importing a finished costly game starts its scoring: its result is stored with no read of the match."""
    db = f"sqlite:///{tmp_path / 'h.db'}"
    state = finished_lhexus(4, 0.5)
    with TestClient(create_app(db)) as c:
        made = c.post("/api/matches/import", json={"record": state.record_text(), "seats": ["me", "me"]}).json()
        kept = until(lambda: stored(db, made["id"]), "the imported game was not scored")
    assert [f["scores"] for f in kept] == [state.scores()]


def test_scoring_workers_option(capsys) -> None:
    """`--scoring-workers N`: N processes for any board and one for small boards; at least 1."""
    parser = argparse.ArgumentParser()
    add_limit_arguments(parser)
    limits = limits_from(parser.parse_args(["--scoring-workers", "3"]))
    assert Limits.from_json(limits.to_json()).scoring_workers == 3
    assert Limits().scoring_workers == (os.cpu_count() or 1)
    server = Server("sqlite://", limits=limits)
    try:
        assert len(server.scorer.workers) == 4
    finally:
        server.close()
    with pytest.raises(SystemExit):
        parser.parse_args(["--scoring-workers", "0"])
    assert "--scoring-workers: '0' is not an integer of at least 1" in capsys.readouterr().err


def test_an_older_servers_guess_is_scored_again_at_start_up(tmp_path) -> None:
    """A match for which a server before this fix stored "the scoring process ended (out of memory?)" (often
    a scoring stopped with it) is scored again when the server starts, unasked."""
    db = f"sqlite:///{tmp_path / 'h.db'}"
    state = finished_lhexus(4, 0.5)
    with TestClient(create_app(db)) as c:
        made = c.post("/api/matches/import", json={"record": state.record_text(), "seats": ["me", "me"]}).json()
        until(lambda: c.get(f"/api/matches/{made['id']}").json()["scoring"] is False, "the game was not scored")
    guess = scoring.unscored(state, "the scoring process ended (out of memory?)")  # what they stored
    engine = create_engine(db)
    with engine.begin() as conn:
        conn.execute(update(finals).where(finals.c.match_id == made["id"]).values(fields=guess))
        conn.execute(update(matches).where(matches.c.id == made["id"]).values(status=guess["status"]))
    engine.dispose()
    assert stored(db, made["id"]) == [guess]
    with TestClient(create_app(db)):
        kept = until(lambda: [f for f in stored(db, made["id"]) if f["scores"] is not None], "not scored again")
    assert [f["scores"] for f in kept] == [state.scores()]


@pytest.mark.slow  # a local Ray starts (10-20 s) and its actor loads the scoring's kernels
def test_scorings_run_on_ray_with_the_pool_ray(slow_game) -> None:
    """With ``--pool ray`` the scorings run in Ray actors (a local Ray instance here): the exact scores come, and a
    scoring over its time is stopped and says so."""
    ray = pytest.importorskip("ray")
    small = finished_lhexus(4, 0.6)
    done: dict[str, dict[str, Any]] = {}
    ray.init(num_cpus=1, include_dashboard=False)
    scorer = scoring.Scorer(lambda key, _state, fields: done.update({key: fields}), workers=1,
                            backend=scoring.RayScoring)
    try:
        scorer.request("small", small)
        until(lambda: "small" in done, "no scores from the Ray actor", 240)
        assert done["small"]["scores"] == small.scores() and "error" not in done["small"]
        scorer.seconds = 0.01
        scorer.request("slow", slow_game)
        until(lambda: "slow" in done, "the slow scoring was never stopped", 240)
        assert done["slow"]["error"] == "the exact scoring took over 0.01 s and was stopped"
    finally:
        scorer.shutdown()
        ray.shutdown()
