"""Load benchmark of the web app on loopback: concurrent clients playing
random games through HTTP, then GET latency while a level-10 AI thinks.

    .venv/bin/python bench/load.py [--clients 100] [--seconds 20] [--moves 20000]
                                  [--db sqlite:///TMP/load.db] [--games projective-hex,lisbon,...]

Starts ``hexarena serve`` on a free loopback port (SQLite in a temporary
folder unless ``--db`` says otherwise), runs ``--clients`` clients at once,
each creating hot-seat matches and posting random legal moves (as the
browser would: the move names the server lists) until ``--seconds`` pass or
``--moves`` moves were accepted in all; prints accepted moves/s, the p50 and
p99 latency of the move posts and the errors.  Then it starts a match
between two ``ai:10`` seats and measures GET latency of another match
while they think.  Every request goes to 127.0.0.1 only, and every loop is bounded in
count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

# small boards, so a client finishes games and starts new ones
DEFAULT_GAMES = {"projective-hex": {"opening": "none"}, "lisbon": {"size": "5,4"}, "hex-pushpin": {},
                 "iqishiqi": {"size": 5}, "weituweiqi": {"size": 4}, "push-and-pull": {"size": 5}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: str, port: int) -> subprocess.Popen:
    exe = Path(sys.executable).parent / "hexarena"
    proc = subprocess.Popen([str(exe), "serve", "--port", str(port), "--db", db],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"the server did not start: {proc.stderr.read().decode()[-2000:]}")


class Tally:
    def __init__(self, budget: int, seconds: float) -> None:
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}
        self.budget, self.deadline = budget, time.monotonic() + seconds
        self.elapsed = 0.0

    def open(self) -> bool:
        return len(self.latencies) < self.budget and time.monotonic() < self.deadline

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


class Connection:
    """One keep-alive HTTP/1.1 connection on raw asyncio streams: a load
    generator this cheap leaves the two cores to the server (httpx's client
    took more CPU than the server it measured)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        data = json.dumps(body).encode() if body is not None else b""
        self.writer.write(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = int(next(line.split(b":", 1)[1] for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:")))
        return status, json.loads(await self.reader.readexactly(length))

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def client(port: int, games: dict, tally: Tally, rng: random.Random) -> None:
    """Hot-seat matches of random games, random legal moves, until the tally closes."""
    conn = Connection(port)
    try:
        while tally.open():
            name = rng.choice(sorted(games))
            status, created = await conn.request("POST", "/api/matches",
                                                 {"game": name, "options": games[name], "seats": ["me", "me"]})
            if status != 200:
                tally.error(f"create {status}")
                return
            status, match = await conn.request("GET", f"/api/matches/{created['id']}")
            while tally.open() and not match["over"]:
                body = {"move": rng.choice(match["legal_moves"]), "token": created["token"], "ply": match["ply"]}
                start = time.perf_counter()
                status, match = await conn.request("POST", f"/api/matches/{created['id']}/moves", body)
                if status != 200:
                    tally.error(f"move {status}")
                    break
                tally.latencies.append(time.perf_counter() - start)
    finally:
        conn.close()


async def play_load(port: int, clients: int, seconds: float, budget: int, games: dict) -> Tally:
    tally = Tally(budget, seconds)
    start = time.perf_counter()
    await asyncio.gather(*(client(port, games, tally, random.Random(i)) for i in range(clients)))
    tally.elapsed = time.perf_counter() - start
    return tally


def ai_latency(base: str, samples: int = 40) -> tuple[list[float], int]:
    """GET latency of one match while level-10 AIs play each other in another
    (their searches run back to back); the latencies and the AI moves made meanwhile."""
    with httpx.Client(base_url=base, timeout=30) as http:
        other = http.post("/api/matches", json={"game": "lisbon", "options": {}, "seats": ["me", "me"]}).json()
        ai = http.post("/api/matches", json={"game": "lisbon", "options": {}, "seats": ["ai:10", "ai:10"]}).json()
        time.sleep(0.5)  # the AI is thinking now
        out = []
        for _ in range(samples):
            start = time.perf_counter()
            http.get(f"/api/matches/{other['id']}").raise_for_status()
            out.append(time.perf_counter() - start)
            time.sleep(0.05)
        still = http.get(f"/api/matches/{ai['id']}").json()
        if not still["thinking"]:
            raise SystemExit("the AIs stopped before the GETs did: the measurement is void")
        return out, still["ply"]


def ms(values: list[float], q: float) -> float:
    return 1000 * statistics.quantiles(values, n=100)[int(q) - 1] if len(values) > 1 else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--moves", type=int, default=20_000, help="stop after this many accepted moves in all")
    ap.add_argument("--db", default=None, help="database URL (default: SQLite in a temporary folder)")
    ap.add_argument("--games", default=",".join(DEFAULT_GAMES))
    args = ap.parse_args(argv)
    games = {g: DEFAULT_GAMES.get(g, {}) for g in args.games.split(",")}
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{os.path.join(tmp, 'load.db')}"
        port = free_port()
        proc = start_server(db, port)
        base = f"http://127.0.0.1:{port}"
        try:
            tally = asyncio.run(play_load(port, args.clients, args.seconds, args.moves, games))
            moves = len(tally.latencies)
            print(f"{args.clients} clients, {moves} accepted moves in {tally.elapsed:.1f} s: "
                  f"{moves / tally.elapsed:,.0f} moves/s; latency p50 {ms(tally.latencies, 50):.0f} ms, "
                  f"p99 {ms(tally.latencies, 99):.0f} ms; errors: {sum(tally.errors.values())} {tally.errors or ''}")
            lat, plies = ai_latency(base)
            print(f"GET while level-10 AIs think ({plies} moves searched meanwhile): p50 {ms(lat, 50):.0f} ms, "
                  f"p99 {ms(lat, 99):.0f} ms, max {1000 * max(lat):.0f} ms")
        finally:
            proc.kill()
            proc.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
