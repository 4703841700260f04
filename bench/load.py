"""Load benchmark of the web app on loopback: concurrent clients playing
random games through HTTP, then GET latency while a level-10 AI thinks;
with ``--accounts N``, signed-in players instead.

    .venv/bin/python bench/load.py [--clients 100] [--seconds 20] [--moves 20000]
                                  [--db sqlite:///TMP/load.db] [--games projective-hex,lisbon,...]
    .venv/bin/python bench/load.py --accounts 100 [--seconds 20] [--db URL]

Starts ``hexarena serve`` on a free loopback port (SQLite in a temporary
folder unless ``--db`` says otherwise), runs ``--clients`` clients at once,
each creating hot-seat matches and posting random legal moves (as the
browser would: the move names the server lists) until ``--seconds`` pass or
``--moves`` moves were accepted in all; prints accepted moves/s, the p50 and
p99 latency of the move posts and the errors.  Then it starts a match
between two ``ai:10`` seats and measures GET latency of another match
while they think.

``--accounts N`` registers N accounts (N/2 pairs) and opens each one's "my
games" WebSocket (``/api/account/live``), which it reads all along; then
the measured run starts: in each pair one posts a correspondence seek
(``{"days": 3}``), the other accepts it, and they play random legal moves
by their sessions (cookies and ``X-CSRF-Token``, no seat tokens), each
after ``--think`` seconds on average (0: at once, every pair always
waiting on the server), match after match, until the time or move budget
runs out: accepted moves/s, the p50 and p99 latency of the moves, the feed
messages received during the run, and the errors.

The bench comes from one address, so its server runs with the per-address
limits lifted (``--rate KIND=0/1``, ``--max-websockets 0``,
``--max-open-matches 0``, ``--max-accounts-per-address 0``,
``--max-open-seeks-per-address 0``).  Every request goes to 127.0.0.1 only, and every
loop is bounded in count and time.
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
import websockets

# small boards, so a client finishes games and starts new ones
DEFAULT_GAMES = {"projective-hex": {"opening": "none"}, "lisbon": {"size": "5,4"}, "hex-pushpin": {},
                 "iqishiqi": {"size": 5}, "weituweiqi": {"size": 4}, "push-and-pull": {"size": 5}}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# one address plays every client: its per-address limits lifted
UNLIMITED = [arg for kind in ("create", "join", "move", "register", "login", "seek", "chat")
             for arg in ("--rate", f"{kind}=0/1")] + ["--max-websockets", "0", "--max-open-matches", "0",
                                                      "--max-accounts-per-address", "0",
                                                      "--max-open-seeks-per-address", "0"]


def start_server(db: str, port: int) -> subprocess.Popen:
    exe = Path(sys.executable).parent / "hexarena"
    proc = subprocess.Popen([str(exe), "serve", "--port", str(port), "--db", db, *UNLIMITED],
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
        self.cookies: dict[str, str] = {}  # what Set-Cookie gave (a signed-in player's session and csrf)
        self.idle: bool | None = None  # whether the request under way reuses a connection

    async def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        """One request; on a keep-alive connection the server closed while idle (uvicorn closes them after 5 s),
        the request is sent again on a new one: the server never read it."""
        try:
            return await self._request(method, path, body)
        except (asyncio.IncompleteReadError, ConnectionResetError, BrokenPipeError):
            if self.idle is False:
                raise
            self.close()
            self.writer = None
            return await self._request(method, path, body)

    async def _request(self, method: str, path: str, body: dict | None) -> tuple[int, dict]:
        self.idle = self.writer is not None  # a reused connection, which the server may have closed meanwhile
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        data = json.dumps(body).encode() if body is not None else b""
        self.writer.write(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          f"{self.session_headers()}Content-Length: {len(data)}\r\n\r\n".encode() + data)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        lines = head.split(b"\r\n")
        for line in lines:
            if line.lower().startswith(b"set-cookie:"):
                name, _, value = line.split(b":", 1)[1].split(b";", 1)[0].strip().decode().partition("=")
                self.cookies[name] = value
        length = int(next(line.split(b":", 1)[1] for line in lines if line.lower().startswith(b"content-length:")))
        return status, json.loads(await self.reader.readexactly(length))

    def session_headers(self) -> str:
        if not self.cookies:
            return ""
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return f"Cookie: {cookie}\r\nX-CSRF-Token: {self.cookies.get('csrf', '')}\r\n"

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


async def feed(port: int, conn: Connection, run: Run, index: int) -> None:
    """An account's "my games" WebSocket, read until the run is over (what it receives during the run counted)."""
    cookie = "; ".join(f"{k}={v}" for k, v in conn.cookies.items())
    async with websockets.connect(f"ws://127.0.0.1:{port}/api/account/live",
                                  additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"}) as ws:
        while not run.started.is_set() or run.tally.open():
            try:
                await asyncio.wait_for(ws.recv(), timeout=1.0)
                run.received += run.started.is_set()
            except TimeoutError:
                pass


async def pair(port: int, index: int, run: Run, rng: random.Random) -> None:
    """Two accounts: registered and their feeds opened before the measured run; then one seeks a correspondence
    match, the other accepts it, and both play random legal moves by their sessions, match after match, until the
    tally closes."""
    players = [Connection(port), Connection(port)]
    for i, conn in enumerate(players):
        status, _ = await conn.request("POST", "/api/account/register",
                                       {"name": f"load{index}x{i}", "password": "load-test-password"})
        if status != 200:
            run.errors.append(f"register {status}")
    feeds = [asyncio.ensure_future(feed(port, conn, run, index)) for conn in players]
    await run.ready()
    tally = run.tally
    try:
        while not run.errors and tally.open():
            status, seek = await players[0].request("POST", "/api/seeks", {
                "game": "projective-hex", "options": {"opening": "none"}, "clock": {"days": 3}, "rated": False,
                "colour": "random", "to": None})
            if status != 200:
                tally.error(f"seek {status}")
                return
            status, accepted = await players[1].request("POST", f"/api/seeks/{seek['id']}/accept")
            if status != 200:
                tally.error(f"accept {status}")
                return
            await play_match(players, accepted["match"], tally, rng, run.think)
    finally:
        for task in feeds:
            task.cancel()
        for conn in players:
            conn.close()


class Run:
    """The pairs' common start: the measured run (its tally) begins once every account is registered and its
    feed open."""

    def __init__(self, pairs: int, seconds: float, budget: int, think: float) -> None:
        self.pairs, self.seconds, self.budget, self.think = pairs, seconds, budget, think
        self.waiting, self.errors, self.received = pairs, [], 0
        self.started = asyncio.Event()
        self.tally = Tally(budget, seconds)

    async def ready(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.tally = Tally(self.budget, self.seconds)
            self.start = time.perf_counter()
            self.started.set()
        await self.started.wait()


async def play_match(players: list[Connection], match_id: str, tally: Tally, rng: random.Random,
                     think: float) -> None:
    """Random legal moves by the players' sessions (the seat to move named by its account), each after a think
    of ``think`` seconds on average (drawn from an exponential; 0: at once), until the end."""
    status, match = await players[0].request("GET", f"/api/matches/{match_id}")
    while tally.open() and not match["over"]:
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))
        mover = players[0] if match["players"][match["to_move"]].endswith("x0") else players[1]
        body = {"move": rng.choice(match["legal_moves"]), "ply": match["ply"]}
        start = time.perf_counter()
        status, match = await mover.request("POST", f"/api/matches/{match_id}/moves", body)
        if status != 200:
            tally.error(f"move {status}")
            return
        tally.latencies.append(time.perf_counter() - start)


async def accounts_load(port: int, accounts: int, seconds: float, budget: int, think: float) -> Run:
    run = Run(accounts // 2, seconds, budget, think)
    await asyncio.gather(*(pair(port, i, run, random.Random(i)) for i in range(accounts // 2)))
    run.tally.elapsed = time.perf_counter() - run.start
    return run


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
    ap.add_argument("--accounts", type=int, default=0, help="signed-in players in pairs instead of hot-seat clients")
    ap.add_argument("--think", type=float, default=0.0,
                    help="with --accounts: a player's mean think time before a move, in seconds (0: at once)")
    args = ap.parse_args(argv)
    games = {g: DEFAULT_GAMES.get(g, {}) for g in args.games.split(",")}
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{os.path.join(tmp, 'load.db')}"
        port = free_port()
        proc = start_server(db, port)
        base = f"http://127.0.0.1:{port}"
        try:
            if args.accounts:
                run = asyncio.run(accounts_load(port, args.accounts, args.seconds, args.moves, args.think))
                tally, moves = run.tally, len(run.tally.latencies)
                errors = {**tally.errors, **{e: run.errors.count(e) for e in run.errors}}
                print(f"{args.accounts} signed-in players with their feeds open (think {args.think:g} s), {moves} "
                      f"accepted moves in {tally.elapsed:.1f} s: {moves / tally.elapsed:,.0f} moves/s; latency p50 "
                      f"{ms(tally.latencies, 50):.0f} ms, p99 {ms(tally.latencies, 99):.0f} ms; {run.received} feed "
                      f"messages; errors: {sum(errors.values())} {errors or ''}")
                return 0
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
