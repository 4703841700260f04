"""`hexarena serve` as real processes: killed with SIGKILL mid-game and
restarted (no move lost, an AI to move resumes), and two processes on one
PostgreSQL (live updates cross them; the same ply posted through both at
once is accepted once)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from hexarena.cli import main
from tests.server.helpers import fresh_pg
from tests.waits import read_line

HEXARENA = str(Path(sys.executable).parent / "hexarena")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """A `hexarena serve` subprocess and an HTTP client for it."""

    def __init__(self, db: str, cwd: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen([HEXARENA, "serve", "--port", str(self.port), "--db", db], cwd=cwd,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.http = httpx.Client(base_url=self.base, timeout=30)
        self.first_line = read_line(self.proc.stdout)
        deadline = time.monotonic() + 60
        while True:
            try:
                if self.http.get("/api/games").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert self.proc.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    def post(self, path: str, body: dict) -> httpx.Response:
        return self.http.post(path, json=body)

    def match(self, match_id: str) -> dict:
        return self.http.get(f"/api/matches/{match_id}").json()

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=30)
        self.proc.stdout.close()
        self.http.close()


@pytest.fixture
def servers() -> Iterator[list[Served]]:
    started: list[Served] = []
    yield started
    for s in started:
        s.stop(signal.SIGKILL)


def hot_seat(server: Served, options: dict) -> tuple[str, str]:
    made = server.post("/api/matches", {"game": "projective-hex", "options": options, "seats": ["me", "me"]}).json()
    return made["id"], made["token"]


def play_on(server: Served, match_id: str, token: str, count: int) -> list[str]:
    """Play ``count`` moves (the first legal each time, fewer if the game ends); the moves."""
    for _ in range(count):
        obj = server.match(match_id)
        if obj["over"]:
            break
        r = server.post(f"/api/matches/{match_id}/moves",
                        {"move": obj["legal_moves"][0], "token": token, "ply": obj["ply"]})
        assert r.status_code == 200, r.text
    return server.match(match_id)["moves"]


def test_serve_prints_its_address_and_refuses_workers_with_sqlite(tmp_path, servers, capsys) -> None:
    servers.append(Served("sqlite:///data/hexarena.db", tmp_path))
    assert servers[0].first_line.strip() == \
        f"hexarena: serving http://127.0.0.1:{servers[0].port} (database sqlite:///data/hexarena.db)"
    assert (tmp_path / "data" / "hexarena.db").exists()
    assert main(["serve", "--workers", "2"]) == 2
    assert "--workers needs PostgreSQL" in capsys.readouterr().err


def test_sigkill_loses_no_move_and_the_ai_resumes(tmp_path, servers) -> None:
    db = f"sqlite:///{tmp_path / 'hexarena.db'}"
    first = Served(db, tmp_path)
    servers.append(first)
    unfinished, token = hot_seat(first, {"size": 3, "opening": "none"})
    played = play_on(first, unfinished, token, 6)
    finished, token2 = hot_seat(first, {"size": 2, "opening": "none"})
    ended = play_on(first, finished, token2, 100)
    assert first.match(finished)["over"]
    ai = first.post("/api/matches", {"game": "projective-hex", "options": {"size": 16, "opening": "none"},
                                     "seats": ["me", "ai:10"]}).json()
    answer = first.post(f"/api/matches/{ai['id']}/moves", {"move": "a1", "token": ai["token"], "ply": 0}).json()
    assert answer["thinking"]
    first.proc.send_signal(signal.SIGKILL)  # mid-think
    first.proc.wait(30)

    again = Served(db, tmp_path)
    servers.append(again)
    assert again.match(unfinished)["moves"] == played and len(played) == 6
    assert again.match(finished)["moves"] == ended and again.match(finished)["over"]
    deadline = time.monotonic() + 60
    while again.match(ai["id"])["thinking"]:
        assert time.monotonic() < deadline, "the AI did not resume"
        time.sleep(0.1)
    assert again.match(ai["id"])["ply"] == 2


@pytest.fixture
def pg_url() -> Iterator[str]:
    with fresh_pg() as url:
        yield url


def signed_in(server: Served, name: str) -> httpx.Client:
    """A client of ``server`` signed in as a new player ``name``, sending its CSRF header."""
    client = httpx.Client(base_url=server.base, timeout=30)
    assert client.post("/api/account/register", json={"name": name, "password": "correct horse"}).status_code == 200
    client.headers["X-CSRF-Token"] = client.cookies["csrf"]
    return client


def test_a_restarted_server_judges_the_time_that_ran_out_while_it_was_down(tmp_path, servers, monkeypatch) -> None:
    offset = tmp_path / "offset"
    monkeypatch.setenv("HEXARENA_CLOCK_OFFSET_FILE", str(offset))
    db = f"sqlite:///{tmp_path / 'hexarena.db'}"
    first = Served(db, tmp_path)
    servers.append(first)
    ann, bob = signed_in(first, "ann"), signed_in(first, "bob")
    seek = ann.post("/api/seeks", json={"game": "projective-hex", "options": {"size": 2, "opening": "none"},
                                        "clock": {"days": 1}, "colour": "first"}).json()
    match_id = bob.post(f"/api/seeks/{seek['id']}/accept").json()["match"]
    assert ann.post(f"/api/matches/{match_id}/moves", json={"move": "a1", "ply": 0}).status_code == 200
    for client in (ann, bob):
        client.close()
    first.stop(signal.SIGKILL)
    offset.write_text(str(86400 + 60))  # a day and a minute later
    again = Served(db, tmp_path)
    servers.append(again)
    m = again.match(match_id)  # judged at start-up, before the first request
    assert m["over"] and m["timed_out"] == 1 and m["winner"] == 0 and m["record"]["result"]["reason"] == "time"


def test_two_processes_on_one_postgresql(tmp_path, servers, pg_url) -> None:
    with ThreadPoolExecutor(2) as pool:  # starting together: both create the tables
        starting = [pool.submit(Served, pg_url, tmp_path) for _ in range(2)]
    servers.extend(f.result() for f in starting if f.exception() is None)  # stopped even if the other failed
    a, b = (f.result() for f in starting)
    match_id, token = hot_seat(a, {"size": 3, "opening": "none"})
    with connect(f"ws://127.0.0.1:{a.port}/api/matches/{match_id}/live") as ws:
        first = json.loads(ws.recv(timeout=10))
        move = first["legal_moves"][0]
        assert b.post(f"/api/matches/{match_id}/moves", {"move": move, "token": token, "ply": 0}).status_code == 200
        assert json.loads(ws.recv(timeout=10))["moves"] == [move]
    for ply in range(1, 6):
        legal = a.match(match_id)["legal_moves"]
        posts = [(a, legal[0]), (b, legal[1])]
        statuses = sorted(pool_post.status_code for pool_post in _at_once(posts, match_id, token, ply))
        assert statuses == [200, 409]
    assert a.match(match_id)["ply"] == b.match(match_id)["ply"] == 6


def _at_once(posts: list[tuple[Served, str]], match_id: str, token: str, ply: int) -> list[httpx.Response]:
    """Post each (server, move) at the same ply at the same time."""
    with ThreadPoolExecutor(len(posts)) as pool:
        return list(pool.map(lambda p: p[0].post(f"/api/matches/{match_id}/moves",
                                                 {"move": p[1], "token": token, "ply": ply}), posts))


def test_workers_serve_one_database(tmp_path, pg_url) -> None:
    port = free_port()
    proc = subprocess.Popen([HEXARENA, "serve", "--port", str(port), "--db", pg_url, "--workers", "2"],
                            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                r = httpx.post(f"http://127.0.0.1:{port}/api/matches",
                               json={"game": "projective-hex", "options": {"size": 2}, "seats": ["me", "open"]})
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        assert r.status_code == 200
        for _ in range(6):  # whichever worker answers, it knows the match
            assert httpx.get(f"http://127.0.0.1:{port}/api/matches/{r.json()['id']}").status_code == 200
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)
