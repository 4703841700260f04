"""The attacks of issue 28 against a real server while a well-behaved client plays.

    .venv/bin/python bench/abuse.py [--db URL] [--scenario NAME ...] [--seconds 20] [--json]

For each scenario, ``hexarena serve`` starts afresh on a free loopback port
(SQLite in a temporary folder, or a fresh schema of the PostgreSQL database
``--db`` names, dropped afterwards), the attack runs for ``--seconds`` while a
well-behaved client plays: hot-seat moves with GETs of its match and of
``/api/games``, and a match against ``ai:1`` whose reply time it measures.
Then every match anyone got a 2xx for is read again, and a table shows the
well-behaved client's p50/p99 latency (GETs, moves), its ``ai:1`` reply time,
the 5xx responses seen by anyone, the server's peak memory (VmHWM) and whether
every acknowledged move is still there, each judged PASS or FAIL against the
targets of issue 28.  The exit code is 1 if any target fails.

Scenarios: baseline (no attack), dense-lhexus (import a legal base-10 game
where one player filled 90% of the board while the other passed, open it, post
its last moves, again and again), ai-flood (8 ``ai:10`` against ``ai:10``
matches on the largest boards), big-body (a 50 MB body: a 10-million-entry
``seats`` list, again and again), lying-timestamps (imports whose timestamps
are HTML or a 1 MB string, and their ``record.json``), long-name
(``/api/reports/`` and ``/reports/`` + a 5,000-character name), open-flood
(open matches as fast as one client can, and joining every open seat).

Each client has its own loopback address (the well-behaved one 127.0.0.2, the
attacker 127.0.0.3), so limits per client address fall on the attacker only;
an attacker's 403, 413 and 429 are counted as refusals, the well-behaved
client honours ``Retry-After`` and counts every time it was limited.  A
server whose memory passes ``--kill-above`` MB is killed (the machine is
shared).  Every request goes to 127.0.0.1, and every loop is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import httpx

import hexarena
from hexarena.games.base import State
from hexarena.games.lhexus import Lhexus

WELL_BEHAVED, ATTACKER, VERIFIER = "127.0.0.2", "127.0.0.3", "127.0.0.4"
REFUSALS = (403, 413, 429)  # a limit said no: counted, not an error
TARGETS = {"p99_ms": 250.0, "ai_reply_s": 2.0, "rss_mb": 600.0}
HOT_SEAT = ("projective-hex", {"size": 8, "opening": "none"})
VERSUS_AI = ("projective-hex", {"size": 6, "opening": "none"})
PACE = 0.5  # seconds between the well-behaved client's moves
POLL = 0.1  # seconds between its looks at the AI's match
WB_TIMEOUT = 10.0  # the well-behaved client gives up on a request after this long
ATTACK_TIMEOUT = 300.0  # the attacker waits (its tasks are cancelled when the scenario ends)
LARGEST = [("lisbon", {"size": [16, 16]}), ("lisbon", {"size": [16, 16], "sequence": "12*"}),
           ("projective-hex", {"size": 16, "opening": "none"}), ("iqishiqi", {"size": 13}),
           ("weituweiqi", {"size": 13}), ("hex-pushpin", {"size": 13}), ("push-and-pull", {"size": 13}),
           ("palago", {"tiles": 96})]
SCENARIOS = ["baseline", "dense-lhexus", "ai-flood", "big-body", "lying-timestamps", "long-name", "open-flood"]


# bookkeeping -------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile (0-100) of ``values``; nan for none."""
    if not values:
        return math.nan
    ranked = sorted(values)
    return ranked[max(0, math.ceil(q / 100 * len(ranked)) - 1)]


@dataclass
class Tally:
    """What one client saw: statuses, latencies per kind, transport failures."""

    statuses: Counter[int] = field(default_factory=Counter)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    failures: Counter[str] = field(default_factory=Counter)  # timeouts and broken connections, by kind
    limited: int = 0  # 429s met by the well-behaved client

    def record(self, kind: str, status: int | None, seconds: float) -> None:
        self.latencies.setdefault(kind, []).append(seconds)
        if status is not None:
            self.statuses[status] += 1

    def count(self, low: int, high: int) -> int:
        return sum(n for s, n in self.statuses.items() if low <= s <= high)


@dataclass
class Ledger:
    """Every match someone got a 2xx for, and the moves (by ply) acknowledged in it."""

    moves: dict[str, dict[int, str]] = field(default_factory=dict)

    def match(self, match_id: str) -> None:
        self.moves.setdefault(match_id, {})

    def move(self, match_id: str, ply: int, move: str) -> None:
        self.moves.setdefault(match_id, {})[ply] = move

    def seen(self, match_id: str, moves: list[str]) -> None:
        """A 2xx match object showed ``moves``: each is committed."""
        known = self.moves.setdefault(match_id, {})
        for ply, move in enumerate(moves):
            known[ply] = move


def missing(expected: dict[int, str], actual: list[str]) -> int:
    """How many acknowledged moves (ply -> move) ``actual`` (a match's moves) lacks."""
    return sum(1 for ply, move in expected.items() if ply >= len(actual) or actual[ply] != move)


@dataclass
class Result:
    """One scenario's figures."""

    scenario: str
    db: str
    seconds: float
    get_ms: tuple[float, float] = (math.nan, math.nan)
    move_ms: tuple[float, float] = (math.nan, math.nan)
    wb_timeouts: int = 0
    wb_moves: int = 0
    wb_gets: int = 0
    ai_replies: list[float] = field(default_factory=list)
    ai_waiting: float = 0.0  # a reply still awaited when the scenario ended: for how long
    limited: int = 0
    errors_5xx: int = 0
    attack: dict[str, int] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)  # requests with no answer, by kind and cause
    rss_mb: float = math.nan
    killed: str = ""
    matches: int = 0
    acknowledged: int = 0
    lost: int = 0
    unverified: int = 0
    alive: bool = True

    def checks(self) -> list[tuple[str, str, str, bool]]:
        """(what, measured, target, passed) per target of issue 28."""
        worst_ai = max(self.ai_replies + [self.ai_waiting]) if self.ai_replies or self.ai_waiting else math.nan
        return [
            ("GET p50/p99 ms", f"{self.get_ms[0]:.0f} / {self.get_ms[1]:.0f}", "p99 < 250",
             self.get_ms[1] < TARGETS["p99_ms"]),
            ("move p50/p99 ms", f"{self.move_ms[0]:.0f} / {self.move_ms[1]:.0f}", "p99 < 250",
             self.move_ms[1] < TARGETS["p99_ms"]),
            ("ai:1 reply s (max)", ai_text(self), "< 2 s", worst_ai <= TARGETS["ai_reply_s"]),
            ("5xx responses", str(self.errors_5xx), "0", self.errors_5xx == 0),
            ("well-behaved limited", str(self.limited), "0", self.limited == 0),
            ("server peak RSS MB", f"{self.rss_mb:.0f}{' ' + self.killed if self.killed else ''}", "< 600",
             self.rss_mb < TARGETS["rss_mb"] and not self.killed),
            ("acknowledged moves kept", f"{self.acknowledged - self.lost}/{self.acknowledged} in {self.matches} "
             f"matches, {self.unverified} unread", "all", self.lost == 0 and self.unverified == 0 and self.alive),
        ]

    def passed(self) -> bool:
        return all(ok for _, _, _, ok in self.checks())


def ai_text(r: Result) -> str:
    """The ai:1 replies in a few words."""
    shown = f"{len(r.ai_replies)} replies, p50 {percentile(r.ai_replies, 50):.2f}, max {max(r.ai_replies):.2f}" \
        if r.ai_replies else "no reply"
    return shown + (f"; one awaited {r.ai_waiting:.1f} s at the end" if r.ai_waiting else "")


# the server ----------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def memory_mb(pid: int, key: str = "VmRSS") -> float:
    """The process's ``key`` line of /proc/PID/status (VmRSS, VmHWM) in MB; nan once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return math.nan


def same_hexarena() -> dict[str, str]:
    """The environment for a server that runs the hexarena this bench imported (a worktree's src/, say),
    whatever its working directory."""
    source = str(Path(hexarena.__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}


class Server:
    """``hexarena serve`` on a free loopback port, its output in a log file."""

    def __init__(self, db: str, folder: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"serve-{self.port}.log"
        exe = Path(sys.executable).parent / "hexarena"
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen([str(exe), "serve", "--port", str(self.port), "--db", db], cwd=folder,
                                         stdout=out, stderr=subprocess.STDOUT, env=same_hexarena())
        self.peak = 0.0
        self.killed = ""
        self._wait_up()

    def _wait_up(self, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and self.proc.poll() is None:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/api/games", timeout=5).status_code == 200:
                    return
            time.sleep(0.1)
        self.stop()
        raise SystemExit(f"the server did not start: {self.log.read_text()[-2000:]}")

    def sample(self, kill_above: float) -> None:
        """Note the memory now; kill the server past ``kill_above`` MB."""
        rss = memory_mb(self.proc.pid)
        if not math.isnan(rss):
            self.peak = max(self.peak, rss, memory_mb(self.proc.pid, "VmHWM"))
        if rss > kill_above and not self.killed:
            self.killed = f"(killed at {rss:.0f} MB)"
            self.proc.kill()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@contextlib.contextmanager
def database(db: str | None, folder: Path, name: str) -> Iterator[str]:
    """A fresh database URL for one scenario: SQLite in ``folder``, or a new schema of PostgreSQL ``db``."""
    if db is None:
        yield f"sqlite:///{folder / (name + '.db')}"
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    schema = f"abuse_{name.replace('-', '_')}_{secrets.token_hex(4)}"
    engine = create_engine(db)
    with engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(db).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


# clients -------------------------------------------------------------------------
class Client:
    """An HTTP client from its own loopback address, tallying what it sees."""

    def __init__(self, base: str, address: str, timeout: float) -> None:
        self.http = httpx.AsyncClient(base_url=base, transport=httpx.AsyncHTTPTransport(local_address=address),
                                      timeout=timeout)
        self.tally = Tally()
        self.timeout = timeout

    async def call(self, kind: str, method: str, path: str, body: Any = None,
                   content: bytes | None = None) -> tuple[int | None, Any, httpx.Headers | None]:
        """(status, JSON answer or None, headers); status None when the request failed or timed out."""
        start = time.perf_counter()
        headers = {"Content-Type": "application/json"} if content is not None else None
        try:
            answer = await self.http.request(method, path, json=body, content=content, headers=headers)
        except httpx.TimeoutException:
            self.tally.record(kind, None, time.perf_counter() - start)
            self.tally.failures[f"{kind} timeout"] += 1
            return None, None, None
        except httpx.TransportError as e:
            self.tally.record(kind, None, time.perf_counter() - start)
            self.tally.failures[f"{kind} {type(e).__name__}"] += 1
            return None, None, None
        self.tally.record(kind, answer.status_code, time.perf_counter() - start)
        try:
            data = answer.json()
        except ValueError:
            data = None
        return answer.status_code, data, answer.headers

    async def close(self) -> None:
        await self.http.aclose()


@dataclass
class Context:
    """What the tasks of one scenario share."""

    deadline: float
    ledger: Ledger
    ai_replies: list[float] = field(default_factory=list)
    ai_waiting: float = 0.0

    def open(self) -> bool:
        return time.monotonic() < self.deadline

    def left(self) -> float:
        return max(0.0, self.deadline - time.monotonic())


def ok(status: int | None) -> bool:
    return status is not None and 200 <= status < 300


async def honour(client: Client, status: int | None, headers: httpx.Headers | None, ctx: Context) -> None:
    """The well-behaved client's answer to a 429: wait as told (and count it)."""
    if status == 429:
        client.tally.limited += 1
        try:
            wait = float(headers.get("Retry-After", "1") if headers is not None else "1")
        except ValueError:
            wait = 1.0
        await asyncio.sleep(min(wait, ctx.left()))


async def new_match(client: Client, ctx: Context, game: tuple[str, dict], seats: list[str]) -> dict | None:
    """A new match of the well-behaved client: {"id", "token"} or None (after waiting if limited)."""
    status, made, headers = await client.call("create", "POST", "/api/matches",
                                              {"game": game[0], "options": game[1], "seats": seats})
    if not ok(status):
        await honour(client, status, headers, ctx)
        await asyncio.sleep(min(PACE, ctx.left()))
        return None
    ctx.ledger.match(made["id"])
    return made


async def look(client: Client, ctx: Context, match_id: str) -> dict | None:
    """GET a match (a "get" latency); its moves are committed."""
    status, obj, headers = await client.call("get", "GET", f"/api/matches/{match_id}")
    if not ok(status):
        await honour(client, status, headers, ctx)
        return None
    ctx.ledger.seen(match_id, obj["moves"])
    return obj


async def play(client: Client, ctx: Context, match: dict, obj: dict, rng: random.Random) -> dict | None:
    """Post one random legal move; the match object after it, or None."""
    move = rng.choice(obj["legal_moves"])
    body = {"move": move, "token": match["token"], "ply": obj["ply"]}
    status, after, headers = await client.call("move", "POST", f"/api/matches/{match['id']}/moves", body)
    if not ok(status):
        await honour(client, status, headers, ctx)
        return None
    ctx.ledger.move(match["id"], obj["ply"], move)
    return after


async def hot_seat(client: Client, ctx: Context) -> None:
    """Hot-seat games: look at the match, move, now and then list the games."""
    rng, match, turn = random.Random(1), None, 0
    while ctx.open():
        if match is None:
            match = await new_match(client, ctx, HOT_SEAT, ["me", "me"])
            continue
        obj = await look(client, ctx, match["id"])
        if obj is not None and obj["over"]:
            match = None
        elif obj is not None:
            await play(client, ctx, match, obj, rng)
        if turn % 4 == 0:
            status, _, headers = await client.call("get", "GET", "/api/games")
            await honour(client, status, headers, ctx)
        turn += 1
        await asyncio.sleep(min(PACE, ctx.left()))


async def await_reply(client: Client, ctx: Context, match_id: str, ply: int, since: float) -> dict | None:
    """Poll the match until the AI has answered (moved past ``ply``): the object, or None when time is up."""
    while ctx.open():
        obj = await look(client, ctx, match_id)
        if obj is not None and obj["ply"] > ply and (obj["over"] or not obj["thinking"]):
            ctx.ai_replies.append(time.monotonic() - since)
            return obj
        await asyncio.sleep(min(POLL, ctx.left()))
    ctx.ai_waiting = time.monotonic() - since
    return None


async def versus_ai(client: Client, ctx: Context) -> None:
    """Games against ai:1 (the well-behaved player moves first); the AI's reply times."""
    rng, match, obj = random.Random(2), None, None
    while ctx.open():
        if match is None:
            match = await new_match(client, ctx, VERSUS_AI, ["me", "ai:1"])
            obj = None if match is None else await look(client, ctx, match["id"])
            continue
        if obj is None or obj["over"]:
            match = None
            continue
        since = time.monotonic()
        after = await play(client, ctx, match, obj, rng)
        if after is None:
            obj = await look(client, ctx, match["id"])
            continue
        obj = after if after["over"] else await await_reply(client, ctx, match["id"], after["ply"], since)
        await asyncio.sleep(min(PACE, ctx.left()))


# the attacks ---------------------------------------------------------------------
Attack = Callable[[Client, Context], Coroutine[Any, Any, None]]


def dense_lhexus_game(seed: int = 0, fill: float = 0.9) -> State:
    """A legal base-10 Lhexus game: player 2 declines the White stone and passes every turn, player 1 (White)
    grows and places new groups until ``fill`` of the board is his, then passes."""
    rng = random.Random(seed)
    game = hexarena.load("lhexus", size=10)
    assert isinstance(game, Lhexus)
    state, names = game.new_state(), game.topology.names
    state.play(names[rng.randrange(len(names))])
    state.play("decline")
    while not state.is_over():
        full = (game.stones(state.array) != 0).sum() >= fill * len(names)
        grow, new = game.growth_cells(state.array)
        cells = [c for c in range(len(names)) if grow[c]] or [c for c in range(len(names)) if new[c]]
        filling = state.to_move == 0 and not full and cells
        state.play(names[rng.choice(cells)] if filling else "end")
    return state


def prefix(state: State, plies: int) -> State:
    """``state``'s game after its first ``plies`` moves."""
    out = state.game.new_state()
    for action in state.history[:plies]:
        out.apply(action)
    return out


def dense_attack(last: int = 10) -> Attack:
    """Import the dense game but its last ``last`` moves (the text record), open it, post the rest; again."""
    game = dense_lhexus_game()
    moves = game.moves()
    start = prefix(game, len(moves) - last)
    record = start.record_text()

    async def attack(client: Client, ctx: Context) -> None:
        while ctx.open():
            status, made, _ = await client.call("import", "POST", "/api/matches/import",
                                                {"record": record, "seats": ["me", "me"]})
            if not ok(status):
                await asyncio.sleep(min(1.0, ctx.left()))
                continue
            for ply, move in enumerate(moves[:len(moves) - last]):
                ctx.ledger.move(made["id"], ply, move)
            await client.call("get", "GET", f"/api/matches/{made['id']}")
            for ply in range(len(moves) - last, len(moves)):
                body = {"move": moves[ply], "token": made["token"], "ply": ply}
                status, _, _ = await client.call("move", "POST", f"/api/matches/{made['id']}/moves", body)
                if not ok(status):
                    break
                ctx.ledger.move(made["id"], ply, moves[ply])

    return attack


async def ai_flood(client: Client, ctx: Context) -> None:
    """Eight ai:10 against ai:10 matches on the largest boards, watched every few seconds."""
    ids = []
    for name, options in LARGEST:
        status, made, _ = await client.call("create", "POST", "/api/matches",
                                            {"game": name, "options": options, "seats": ["ai:10", "ai:10"]})
        if ok(status):
            ctx.ledger.match(made["id"])
            ids.append(made["id"])
    while ctx.open():
        for match_id in ids:
            status, obj, _ = await client.call("get", "GET", f"/api/matches/{match_id}")
            if ok(status):
                ctx.ledger.seen(match_id, obj["moves"])
        await asyncio.sleep(min(3.0, ctx.left()))


def big_body() -> bytes:
    """A 50 MB POST /api/matches body: a 10-million-entry seats list."""
    return b'{"game":"projective-hex","options":{},"seats":[' + b'"me",' * 9_999_999 + b'"me"]}'


def big_body_attack() -> Attack:
    body = big_body()

    async def attack(client: Client, ctx: Context) -> None:
        while ctx.open():
            status, made, _ = await client.call("create", "POST", "/api/matches", content=body)
            if ok(status):
                ctx.ledger.match(made["id"])
            elif status is None:
                await asyncio.sleep(min(0.1, ctx.left()))

    return attack


def lying_records() -> tuple[list[dict], list[str]]:
    """Two JSON records of a one-move game whose timestamps lie (HTML, a 1 MB string); the game's moves."""
    state = hexarena.load(HOT_SEAT[0], **HOT_SEAT[1]).new_state()
    state.play(state.legal_moves()[0])
    html = state.record()
    html["timestamps"] = {"started": "<script>alert(1)</script>", "moves": ["<img src=x onerror=alert(1)>"]}
    huge = state.record()
    huge["timestamps"] = {"started": None, "moves": ["9" * 1_000_000]}
    return [html, huge], state.moves()


async def lying_timestamps(client: Client, ctx: Context) -> None:
    """Import the lying records and fetch their record.json, again and again."""
    records, moves = lying_records()
    while ctx.open():
        for record in records:
            status, made, _ = await client.call("import", "POST", "/api/matches/import",
                                                {"record": record, "seats": ["me", "me"]})
            if ok(status):
                for ply, move in enumerate(moves):
                    ctx.ledger.move(made["id"], ply, move)
                await client.call("record", "GET", f"/api/matches/{made['id']}/record.json")
            else:
                await asyncio.sleep(min(0.2, ctx.left()))


async def long_name(client: Client, ctx: Context) -> None:
    """Reports with 5,000-character names, as fast as one client can."""
    name = "a" * 5000
    while ctx.open():
        await client.call("report", "GET", f"/api/reports/{name}")
        await client.call("report", "GET", f"/reports/{name}")


async def open_creator(client: Client, ctx: Context) -> None:
    while ctx.open():
        status, made, _ = await client.call("create", "POST", "/api/matches",
                                            {"game": "projective-hex", "options": {}, "seats": ["me", "open"]})
        if ok(status):
            ctx.ledger.match(made["id"])
        elif status in REFUSALS:
            await asyncio.sleep(min(0.05, ctx.left()))


async def open_joiner(client: Client, ctx: Context) -> None:
    while ctx.open():
        status, listed, _ = await client.call("list", "GET", "/api/matches?list=open")
        for row in listed if ok(status) else []:
            await client.call("join", "POST", f"/api/matches/{row['id']}/join")
        if not ok(status) or not listed:
            await asyncio.sleep(min(0.05, ctx.left()))


async def open_flood(client: Client, ctx: Context) -> None:
    """Open matches as fast as one client can (three requests at a time), and joining every open seat."""
    await asyncio.gather(open_creator(client, ctx), open_creator(client, ctx), open_creator(client, ctx),
                         open_joiner(client, ctx))


async def no_attack(client: Client, ctx: Context) -> None:
    await asyncio.sleep(ctx.left())


def attack_for(name: str) -> Attack:
    """The attack of scenario ``name`` (built before the server starts: the dense game, the big body)."""
    makers: dict[str, Callable[[], Attack]] = {
        "baseline": lambda: no_attack, "dense-lhexus": dense_attack, "ai-flood": lambda: ai_flood,
        "big-body": big_body_attack, "lying-timestamps": lambda: lying_timestamps, "long-name": lambda: long_name,
        "open-flood": lambda: open_flood}
    return makers[name]()


# one scenario --------------------------------------------------------------------
@contextlib.asynccontextmanager
async def watching(server: Server, kill_above: float) -> AsyncIterator[None]:
    """Sample the server's memory every 0.2 s meanwhile (killing it past ``kill_above`` MB)."""
    stop = asyncio.Event()

    async def watch() -> None:
        while not stop.is_set():
            server.sample(kill_above)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.2)

    task = asyncio.create_task(watch())
    try:
        yield
    finally:
        stop.set()
        await task


async def verify(server: Server, ledger: Ledger, budget: float, kill_above: float) -> tuple[int, int]:
    """Read every match of ``ledger`` again: (acknowledged moves missing, matches that could not be read)."""
    client = Client(server.base, VERIFIER, timeout=max(1.0, budget))
    queue = list(ledger.moves.items())
    lost = unread = 0
    deadline = time.monotonic() + budget

    async def worker() -> None:
        nonlocal lost, unread
        while queue:
            match_id, expected = queue.pop()
            if time.monotonic() > deadline:
                unread += 1
                continue
            status, obj, _ = await client.call("get", "GET", f"/api/matches/{match_id}")
            if status == 200:
                lost += missing(expected, obj["moves"])
            elif status == 404:
                lost += max(1, len(expected))
            else:
                unread += 1

    try:
        async with watching(server, kill_above):
            await asyncio.gather(*(worker() for _ in range(4)))
    finally:
        await client.close()
    return lost, unread


async def warm_up(base: str) -> None:
    """Load what the well-behaved client's first requests would otherwise wait for (numba's cached kernels,
    the AI's search): a hot-seat move and an ai:1 reply, uncounted."""
    client = Client(base, VERIFIER, timeout=120)
    ctx = Context(deadline=time.monotonic() + 120, ledger=Ledger())
    try:
        await client.call("get", "GET", "/api/games")
        for game, seats in ((HOT_SEAT, ["me", "me"]), (VERSUS_AI, ["me", "ai:1"])):
            match = await new_match(client, ctx, game, seats)
            obj = None if match is None else await look(client, ctx, match["id"])
            if match is None or obj is None:
                continue
            after = await play(client, ctx, match, obj, random.Random(0))
            if after is not None and "ai:1" in seats:
                await await_reply(client, ctx, match["id"], after["ply"], time.monotonic())
    finally:
        await client.close()


async def attack_while_playing(server: Server, attack: Attack, seconds: float, kill_above: float,
                               ) -> tuple[Context, Client, Client]:
    """Run the attack and the well-behaved client for ``seconds`` (after a warm-up)."""
    await warm_up(server.base)
    ctx = Context(deadline=time.monotonic() + seconds, ledger=Ledger())
    wb = Client(server.base, WELL_BEHAVED, WB_TIMEOUT)
    attacker = Client(server.base, ATTACKER, ATTACK_TIMEOUT)
    tasks = [asyncio.create_task(t) for t in (attack(attacker, ctx), hot_seat(wb, ctx), versus_ai(wb, ctx))]
    try:
        async with watching(server, kill_above):
            await asyncio.sleep(seconds)
            for task in tasks:
                task.cancel()
            ended = await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        await wb.close()
        await attacker.close()
    for outcome in ended:
        if isinstance(outcome, Exception):  # a bug of the bench, not of the server
            raise outcome
    return ctx, wb, attacker


def figures(result: Result, ctx: Context, wb: Client, attacker: Client) -> None:
    """Fill ``result`` from what the clients saw."""
    gets, moves = wb.tally.latencies.get("get", []), wb.tally.latencies.get("move", [])
    result.get_ms = (1000 * percentile(gets, 50), 1000 * percentile(gets, 99))
    result.move_ms = (1000 * percentile(moves, 50), 1000 * percentile(moves, 99))
    result.wb_gets, result.wb_moves = len(gets), len(moves)
    result.wb_timeouts = sum(wb.tally.failures.values())
    result.ai_replies, result.ai_waiting = [round(s, 3) for s in ctx.ai_replies], round(ctx.ai_waiting, 3)
    result.limited = wb.tally.limited
    result.errors_5xx = wb.tally.count(500, 599) + attacker.tally.count(500, 599)
    t = attacker.tally
    result.attack = {"2xx": t.count(200, 299), "refused (403/413/429)": sum(t.statuses[s] for s in REFUSALS),
                     "other 4xx": t.count(400, 499) - sum(t.statuses[s] for s in REFUSALS),
                     "5xx": t.count(500, 599), "failed (timeout, closed)": sum(t.failures.values())}
    result.failures = dict(t.failures + wb.tally.failures)
    result.matches = len(ctx.ledger.moves)
    result.acknowledged = sum(len(m) for m in ctx.ledger.moves.values())


def run_scenario(name: str, db: str | None, seconds: float, kill_above: float = 3000.0) -> Result:
    """Scenario ``name`` on a fresh server and database; its figures."""
    attack = attack_for(name)
    result = Result(scenario=name, db="postgresql" if db else "sqlite", seconds=seconds)
    with tempfile.TemporaryDirectory(prefix="abuse-") as tmp, database(db, Path(tmp), name) as url:
        server = Server(url, Path(tmp))
        try:
            ctx, wb, attacker = asyncio.run(attack_while_playing(server, attack, seconds, kill_above))
            figures(result, ctx, wb, attacker)
            result.alive = server.alive()
            server = restarted(server, url, Path(tmp))
            result.lost, result.unverified = asyncio.run(verify(server, ctx.ledger, max(60.0, seconds), kill_above))
            server.sample(kill_above)
        finally:
            server.stop()
        result.rss_mb, result.killed = server.peak, result.killed or server.killed
    return result


def restarted(server: Server, url: str, folder: Path) -> Server:
    """``server`` if it still runs, else a new one on the same database (to read the matches back)."""
    if server.alive():
        return server
    fresh = Server(url, folder)
    fresh.peak, fresh.killed = server.peak, server.killed
    return fresh


# output --------------------------------------------------------------------------
def table(r: Result) -> str:
    """A scenario's figures and verdicts as text."""
    lines = [f"== {r.scenario} ({r.db}, {r.seconds:g} s): well-behaved client {r.wb_moves} moves, {r.wb_gets} GETs, "
             f"{r.wb_timeouts} failed or timed out, limited {r.limited} times"]
    for what, measured, target, passed in r.checks():
        lines.append(f"  {what:<24} {measured:<44} {target:<10} {'PASS' if passed else 'FAIL'}")
    lines.append("  attacker: " + ", ".join(f"{k} {v}" for k, v in r.attack.items()))
    if r.failures:
        lines.append("  no answer: " + ", ".join(f"{k} {v}" for k, v in sorted(r.failures.items())))
    if not r.alive:
        lines.append("  the server died during the attack (restarted to read the matches back)")
    return "\n".join(lines)


def as_json(r: Result) -> dict[str, Any]:
    out = {k: v for k, v in r.__dict__.items()}
    out["checks"] = [{"what": w, "measured": m, "target": t, "pass": p} for w, m, t, p in r.checks()]
    out["pass"] = r.passed()
    return out


def warm_numba(out: TextIO) -> None:
    """Compile (or load) the kernels and AI searches of every game the scenarios play into numba's on-disk
    cache first (``hexarena warmup``): a server compiling a search for minutes is not an attack."""
    games = sorted({HOT_SEAT[0], VERSUS_AI[0], "lhexus"} | {name for name, _ in LARGEST})
    exe = Path(sys.executable).parent / "hexarena"
    subprocess.run([str(exe), "warmup", *games], stdout=out, stderr=subprocess.STDOUT, env=same_hexarena(), check=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--db", default=None, help="a PostgreSQL URL (a fresh schema per scenario); default SQLite")
    ap.add_argument("--scenario", action="append", choices=SCENARIOS, help="repeatable; default: all")
    ap.add_argument("--seconds", type=float, default=20.0, help="per scenario")
    ap.add_argument("--kill-above", type=float, default=3000.0, help="MB: kill a server growing past this")
    ap.add_argument("--json", action="store_true", help="print one JSON list instead of the tables")
    ap.add_argument("--no-warmup", action="store_true", help="skip `hexarena warmup` of the games played")
    args = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the server and drop the schema on a kill
    if not args.no_warmup:
        warm_numba(sys.stderr)
    results = []
    for name in args.scenario or SCENARIOS:
        results.append(run_scenario(name, args.db, args.seconds, args.kill_above))
        if not args.json:
            print(table(results[-1]), flush=True)
    if args.json:
        print(json.dumps([as_json(r) for r in results], indent=1, default=str))
    return 0 if all(r.passed() for r in results) else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
