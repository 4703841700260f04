"""The attacks of issues 28 and 42 against a real server while a well-behaved client plays.

    .venv/bin/python bench/abuse.py [--db URL] [--scenario NAME ...] [--seconds 20] [--json]

For each scenario, ``hexarena serve`` starts afresh on a free loopback port
(SQLite in a temporary folder, or a fresh schema of the PostgreSQL database
``--db`` names, dropped afterwards), the attack runs for ``--seconds`` while a
well-behaved client plays.  That client registers (and posts a seek), signs in
again every few seconds, plays hot-seat moves with GETs of its match and of
``/api/games``, plays a rated match against ``ai-1`` (a challenge) whose reply
times it measures, and finishes small Lhexus games, timing until their exact
scores appear.  Then every match anyone got a 2xx for is read again, and every
rating change the client saw, and a table shows its p50/p99 latency (GETs,
moves), its sign-in times, its ``ai:1`` reply time, its Lhexus result time,
the 5xx responses seen by anyone, the server's peak memory (VmHWM) and whether
every acknowledged move and rating change is still there, each judged PASS or
FAIL against the targets of issue 42 (and a scenario's own figure where it has
one).  The exit code is 1 if any target fails.

Scenarios of issue 28: baseline (no attack), dense-lhexus (import a legal
base-10 game where one player filled 90% of the board while the other passed,
open it, post its last moves, again and again), ai-flood (8 ``ai:10`` against
``ai:10`` matches on the largest boards), big-body (a 50 MB body: a
10-million-entry ``seats`` list, again and again), lying-timestamps (imports
whose timestamps are HTML or a 1 MB string, and their ``record.json``),
long-name (``/api/reports/`` and ``/reports/`` + a 5,000-character name),
open-flood (open matches as fast as one client can, and joining every open
seat).  Scenarios of issue 42: login-lockout (one failed login a second
against the well-behaved client's name, from 10 addresses), login-flood (wrong
passwords from 40 addresses as fast as they are allowed), ai-many (80
``ai:10`` matches against a human seat that moves at once, 8 from each of 10
addresses, on the largest boards), scoring-flood (30 dense Lhexus games
finished from 5 addresses at once), spectators (640 live sockets, 32 from each
of 20 addresses, on the well-behaved client's hot-seat match), seek-flood (50
accounts x 10 seeks of another game from 25 addresses: is the client's own
seek still listed to another account?), rating-farm (two accounts play 65
rated games, one resigning after both moved: how many moved the ratings?).

Each client has its own loopback address (the well-behaved one 127.0.0.2, the
attacker 127.0.0.3, the many attackers 127.0.0.10 on), so limits per client
address fall on the attackers only; an attacker's 403, 413 and 429 are
counted as refusals, the well-behaved client honours ``Retry-After`` and
counts every time it was limited.  A server whose memory passes
``--kill-above`` MB is killed (the machine is shared).  Every request goes to
127.0.0.1, and every loop and wait is bounded in time.
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
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

import hexarena
from hexarena.games.base import State
from hexarena.games.lhexus import Lhexus

WELL_BEHAVED, ATTACKER, VERIFIER, LOOKER = "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"
REFUSALS = (403, 413, 429)  # a limit said no: counted, not an error
TARGETS = {"p99_ms": 250.0, "ai_reply_s": 2.0, "sign_in_s": 2.0, "result_s": 5.0, "rss_mb": 800.0}
HOT_SEAT = ("projective-hex", {"size": 8, "opening": "none"})
VERSUS_AI = ("projective-hex", {"size": 4, "opening": "none"})  # small: a rated game ends within the run
SMALL_LHEXUS = ("lhexus", {"size": 4})
SMALL_PLIES = 12  # the well-behaved client's small Lhexus games: this many plies of stones, then both pass
SEEK = {"game": "projective-hex", "options": {"size": 8}, "clock": None, "rated": False, "colour": "random"}
PASSWORD, WRONG = "a well-behaved password", "not the password"
PACE = 0.5  # seconds between the well-behaved client's moves
POLL = 0.1  # seconds between its looks at a match it waits for
SIGN_IN_EVERY = 3.0  # seconds between its sign-ins
WB_TIMEOUT = 10.0  # the well-behaved client gives up on a request after this long
ATTACK_TIMEOUT = 300.0  # the attacker waits (its tasks are cancelled when the scenario ends)
JUDGE_TIMEOUT = 30.0  # reading a scenario's own figure after the attack
LARGEST = [("lisbon", {"size": [16, 16]}), ("lisbon", {"size": [16, 16], "sequence": "12*"}),
           ("projective-hex", {"size": 16, "opening": "none"}), ("iqishiqi", {"size": 13}),
           ("weituweiqi", {"size": 13}), ("hex-pushpin", {"size": 13}), ("push-and-pull", {"size": 13}),
           ("palago", {"tiles": 96})]
SEEK_LISTED = "own seek listed (?game= too)"  # seek-flood's own figure
FLOOD_IN_FLIGHT = 4  # login-flood: requests in flight per address
SPECTATORS = (20, 32)  # addresses, live sockets each
SEEKERS, SEEKS_EACH, SEEK_ADDRESSES, FLOOD_GAME = 50, 10, 25, "hex-pushpin"
FARM_GAMES, FARM_ADDRESSES, FARM_GAME = 65, 4, ("projective-hex", {"size": 4, "opening": "none"})
FARM_CAP = 3  # issue 42: at most this many rated games between the same two accounts move their ratings a day
SCENARIOS = ["baseline", "dense-lhexus", "ai-flood", "big-body", "lying-timestamps", "long-name", "open-flood",
             "login-lockout", "login-flood", "ai-many", "scoring-flood", "spectators", "seek-flood", "rating-farm"]
Row = tuple[str, str, str, bool]  # a judged figure: (what, measured, target, passed)


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


def merged(tallies: list[Tally]) -> Tally:
    """What several clients saw, together."""
    out = Tally()
    for t in tallies:
        out.statuses += t.statuses
        out.failures += t.failures
        out.limited += t.limited
        for kind, seconds in t.latencies.items():
            out.latencies.setdefault(kind, []).extend(seconds)
    return out


@dataclass
class Ledger:
    """Every match someone got a 2xx for, the moves (by ply) acknowledged in it, and the rating changes the
    well-behaved client saw (per match: its account, the game, its rating after)."""

    moves: dict[str, dict[int, str]] = field(default_factory=dict)
    ratings: dict[str, tuple[str, str, float]] = field(default_factory=dict)

    def match(self, match_id: str) -> None:
        self.moves.setdefault(match_id, {})

    def move(self, match_id: str, ply: int, move: str) -> None:
        self.moves.setdefault(match_id, {})[ply] = move

    def seen(self, match_id: str, moves: list[str]) -> None:
        """A 2xx match object showed ``moves``: each is committed."""
        known = self.moves.setdefault(match_id, {})
        for ply, move in enumerate(moves):
            known[ply] = move

    def rated(self, match_id: str, name: str, game: str, after: float) -> None:
        self.ratings[match_id] = (name, game, after)


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
    sign_ins: list[float] = field(default_factory=list)  # seconds, the registration first
    sign_ins_refused: int = 0  # not signed in: refused or unanswered
    ai_replies: list[float] = field(default_factory=list)
    ai_waiting: float = 0.0  # a reply still awaited when the scenario ended: for how long
    results: list[float] = field(default_factory=list)  # small Lhexus: seconds from the last move to the scores
    result_waiting: float = 0.0  # scores still awaited when the scenario ended: for how long
    unscored: int = 0  # small Lhexus games that ended without scores
    limited: int = 0
    errors_5xx: int = 0
    attack: dict[str, int] = field(default_factory=dict)
    notes: dict[str, float] = field(default_factory=dict)  # the attack's own counts
    judged: list[Row] = field(default_factory=list)  # the scenario's own figures, judged
    failures: dict[str, int] = field(default_factory=dict)  # requests with no answer, by kind and cause
    rss_mb: float = math.nan
    killed: str = ""
    matches: int = 0
    acknowledged: int = 0
    lost: int = 0
    unverified: int = 0
    rating_changes: int = 0
    ratings_lost: int = 0
    alive: bool = True

    def checks(self) -> list[Row]:
        """(what, measured, target, passed) per target of issue 42, then the scenario's own."""
        return [
            ("GET p50/p99 ms", f"{self.get_ms[0]:.0f} / {self.get_ms[1]:.0f}", "p99 < 250",
             self.get_ms[1] < TARGETS["p99_ms"]),
            ("move p50/p99 ms", f"{self.move_ms[0]:.0f} / {self.move_ms[1]:.0f}", "p99 < 250",
             self.move_ms[1] < TARGETS["p99_ms"]),
            ("sign-in s (max), refused", sign_in_text(self), "< 2 s, 0",
             max(self.sign_ins, default=math.nan) < TARGETS["sign_in_s"] and self.sign_ins_refused == 0),
            ("ai:1 reply s (max)", waits_text(self.ai_replies, self.ai_waiting, "replies"), "< 2 s",
             worst(self.ai_replies, self.ai_waiting) <= TARGETS["ai_reply_s"]),
            ("small Lhexus result s", waits_text(self.results, self.result_waiting, "results", self.unscored),
             "< 5 s", worst(self.results, self.result_waiting) <= TARGETS["result_s"] and not self.unscored),
            ("5xx responses", str(self.errors_5xx), "0", self.errors_5xx == 0),
            ("well-behaved limited", str(self.limited), "0", self.limited == 0),
            ("server peak RSS MB", f"{self.rss_mb:.0f}{' ' + self.killed if self.killed else ''}", "< 800",
             self.rss_mb < TARGETS["rss_mb"] and not self.killed),
            ("acknowledged moves kept", f"{self.acknowledged - self.lost}/{self.acknowledged} in {self.matches} "
             f"matches, {self.unverified} unread", "all", self.lost == 0 and self.unverified == 0 and self.alive),
            ("rating changes kept", f"{self.rating_changes - self.ratings_lost}/{self.rating_changes}", "all",
             self.ratings_lost == 0),
            *self.judged,
        ]

    def passed(self) -> bool:
        return all(ok for _, _, _, ok in self.checks())


def worst(times: list[float], waiting: float) -> float:
    """The longest of ``times`` and of a wait unfinished at the end (``waiting``); nan for neither."""
    return max(times + [waiting]) if times or waiting else math.nan


def waits_text(times: list[float], waiting: float, what: str, unscored: int = 0) -> str:
    """Waits for the AI's replies or for scores in a few words."""
    shown = f"{len(times)} {what}, p50 {percentile(times, 50):.2f}, max {max(times):.2f}" if times else f"no {what}"
    return shown + (f"; one awaited {waiting:.1f} s at the end" if waiting else "") + \
        (f"; {unscored} unscored" if unscored else "")


def sign_in_text(r: Result) -> str:
    if not r.sign_ins:
        return "none"
    return f"{len(r.sign_ins)}, p50 {percentile(r.sign_ins, 50):.2f}, max {max(r.sign_ins):.2f}; " \
           f"{r.sign_ins_refused} refused"


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
    """An HTTP client from its own loopback address, tallying what it sees; once signed in (``cookies``: another
    client's session) it sends the CSRF header with every change."""

    def __init__(self, base: str, address: str, timeout: float, cookies: httpx.Cookies | None = None) -> None:
        self.http = httpx.AsyncClient(base_url=base, transport=httpx.AsyncHTTPTransport(local_address=address),
                                      timeout=timeout, cookies=cookies)
        self.address = address
        self.tally = Tally()
        self.timeout = timeout

    async def call(self, kind: str, method: str, path: str, body: Any = None,
                   content: bytes | None = None) -> tuple[int | None, Any, httpx.Headers | None]:
        """(status, JSON answer or None, headers); status None when the request failed or timed out."""
        start = time.perf_counter()
        headers = {"Content-Type": "application/json"} if content is not None else {}
        csrf = self.http.cookies.get("csrf")
        if csrf and method != "GET":
            headers["X-CSRF-Token"] = csrf
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


Judge = Callable[[Client], Awaitable[Row]]  # a scenario's own figure, read after the attack by a verifier


@dataclass
class Context:
    """What the tasks of one scenario share."""

    deadline: float
    ledger: Ledger
    base: str = ""
    name: str = ""  # the well-behaved client's account
    seek: str = ""  # its seek
    hot_seat: dict | None = None  # its hot-seat match {"id", "token"}
    sign_ins_refused: int = 0
    ai_replies: list[float] = field(default_factory=list)
    results: list[float] = field(default_factory=list)
    unscored: int = 0
    waiting: dict[str, float] = field(default_factory=dict)  # "ai", "result": awaited since (monotonic)
    crowd: list[Client] = field(default_factory=list)  # the attackers' clients beside the first
    notes: Counter[str] = field(default_factory=Counter)
    judges: list[Judge] = field(default_factory=list)

    def open(self) -> bool:
        return time.monotonic() < self.deadline

    def left(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def waited(self, what: str) -> float:
        """How long the wait for ``what`` unfinished at the deadline had lasted then (0: none)."""
        return max(0.0, self.deadline - self.waiting[what]) if what in self.waiting else 0.0


def ok(status: int | None) -> bool:
    return status is not None and 200 <= status < 300


def retry_after(headers: httpx.Headers | None) -> float:
    """A 429's ``Retry-After`` in seconds (1 when absent or unreadable)."""
    try:
        return float(headers.get("Retry-After", "1") if headers is not None else "1")
    except ValueError:
        return 1.0


async def honour(client: Client, status: int | None, headers: httpx.Headers | None, ctx: Context) -> None:
    """The well-behaved client's answer to a 429: wait as told (and count it)."""
    if status == 429:
        client.tally.limited += 1
        await asyncio.sleep(min(retry_after(headers), ctx.left()))


async def new_match(client: Client, ctx: Context, game: tuple[str, dict], seats: list[str]) -> dict | None:
    """A new match of ``client``: {"id", "token"} or None (after waiting if limited)."""
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


async def play(client: Client, ctx: Context, match: dict, obj: dict, rng: random.Random,
               move: str | None = None) -> dict | None:
    """Post ``move`` (default: a random legal one) with the match's token, if any (else the session plays);
    the match object after it, or None."""
    move = move or rng.choice(obj["legal_moves"])
    body = {"move": move, "ply": obj["ply"], **({"token": match["token"]} if match.get("token") else {})}
    status, after, headers = await client.call("move", "POST", f"/api/matches/{match['id']}/moves", body)
    if not ok(status):
        await honour(client, status, headers, ctx)
        return None
    ctx.ledger.move(match["id"], obj["ply"], move)
    return after


async def hot_seat(client: Client, ctx: Context) -> None:
    """Hot-seat games (the first made by :func:`set_up`): look at the match, move, now and then list the games."""
    rng, turn = random.Random(1), 0
    while ctx.open():
        if ctx.hot_seat is None:
            ctx.hot_seat = await new_match(client, ctx, HOT_SEAT, ["me", "me"])
            continue
        obj = await look(client, ctx, ctx.hot_seat["id"])
        if obj is not None and obj["over"]:
            ctx.hot_seat = None
        elif obj is not None:
            await play(client, ctx, ctx.hot_seat, obj, rng)
        if turn % 4 == 0:
            status, _, headers = await client.call("get", "GET", "/api/games")
            await honour(client, status, headers, ctx)
        turn += 1
        await asyncio.sleep(min(PACE, ctx.left()))


async def poll(client: Client, ctx: Context, match_id: str, done: Callable[[dict], bool]) -> dict | None:
    """GET the match every ``POLL`` s until ``done(obj)``: that object, or None when time is up."""
    while ctx.open():
        obj = await look(client, ctx, match_id)
        if obj is not None and done(obj):
            return obj
        await asyncio.sleep(min(POLL, ctx.left()))
    return None


async def await_reply(client: Client, ctx: Context, match_id: str, ply: int, since: float) -> dict | None:
    """Poll the match until the AI has answered (moved past ``ply``): the object, or None when time is up."""
    ctx.waiting["ai"] = since
    obj = await poll(client, ctx, match_id, lambda o: o["ply"] > ply and (o["over"] or not o["thinking"]))
    if obj is not None:
        ctx.ai_replies.append(time.monotonic() - ctx.waiting.pop("ai"))
    return obj


async def challenge_ai(client: Client, ctx: Context) -> dict | None:
    """A rated match against ``ai-1`` (a challenge, accepted at once), the client first: {"id"} or None."""
    body = {"game": VERSUS_AI[0], "options": VERSUS_AI[1], "rated": True, "colour": "first", "to": "ai-1"}
    status, seek, headers = await client.call("create", "POST", "/api/seeks", body)
    if not ok(status):
        await honour(client, status, headers, ctx)
        await asyncio.sleep(min(PACE, ctx.left()))
        return None
    ctx.ledger.match(seek["match"])
    return {"id": seek["match"]}


def note_rating(ctx: Context, match_id: str, obj: dict) -> None:
    """Keep the rating change a finished rated match object shows for the well-behaved client (seat 0)."""
    change = (obj.get("ratings") or [None])[0]
    if obj["over"] and change and change.get("after") is not None:
        ctx.ledger.rated(match_id, ctx.name, obj["game"], change["after"])


async def versus_ai(client: Client, ctx: Context) -> None:
    """Rated games against ai-1 (the well-behaved player moves first), their rating changes kept; the AI's reply
    times."""
    rng, match, obj = random.Random(2), None, None
    while ctx.open():
        if match is None:
            match = await challenge_ai(client, ctx)
            obj = None if match is None else await look(client, ctx, match["id"])
            continue
        if obj is None or obj["over"]:
            if obj is not None:
                note_rating(ctx, match["id"], obj)
            match = None
            continue
        since = time.monotonic()
        after = await play(client, ctx, match, obj, rng)
        if after is None:
            obj = await look(client, ctx, match["id"])
            continue
        obj = after if after["over"] else await await_reply(client, ctx, match["id"], after["ply"], since)
        await asyncio.sleep(min(PACE, ctx.left()))


def small_move(obj: dict, rng: random.Random) -> str:
    """A small Lhexus game's next move: stones (or the swap's answer) for ``SMALL_PLIES`` plies, then passes."""
    legal = obj["legal_moves"]
    if obj["ply"] < SMALL_PLIES:
        return rng.choice([m for m in legal if m != "end"] or legal)
    return "end" if "end" in legal else rng.choice(legal)


async def small_lhexus(client: Client, ctx: Context) -> None:
    """Small hot-seat Lhexus games, one after another."""
    rng = random.Random(3)
    while ctx.open():
        await small_game(client, ctx, rng)


async def small_game(client: Client, ctx: Context, rng: random.Random) -> None:
    """A small hot-seat Lhexus game played to its end, timed from its last move until its exact scores appear in
    the match object."""
    match = await new_match(client, ctx, SMALL_LHEXUS, ["me", "me"])
    obj = None if match is None else await look(client, ctx, match["id"])
    while match is not None and obj is not None and not obj["over"] and ctx.open():
        since = time.monotonic()
        obj = await play(client, ctx, match, obj, rng, small_move(obj, rng)) or await look(client, ctx, match["id"])
        if obj is not None and obj["over"]:
            await await_scores(client, ctx, match["id"], obj, since)
        else:
            await asyncio.sleep(min(PACE, ctx.left()))


async def await_scores(client: Client, ctx: Context, match_id: str, obj: dict, since: float) -> None:
    """Poll a finished match until it is scored (counted in ``ctx.results``, or ``unscored`` without scores)."""
    ctx.waiting["result"] = since
    if obj.get("scoring") or obj["scores"] is None:
        obj = await poll(client, ctx, match_id, lambda o: not o.get("scoring"))
    if obj is None:
        return
    ctx.waiting.pop("result")
    if obj["scores"] is None:
        ctx.unscored += 1
    else:
        ctx.results.append(time.monotonic() - since)


async def sign_in(client: Client, ctx: Context, door: str = "login") -> bool:
    """Register (``door`` "register") or sign in as the well-behaved client; a "sign-in" latency; whether it
    got in (a refusal or no answer is counted)."""
    status, _, _ = await client.call("sign-in", "POST", f"/api/account/{door}",
                                     {"name": ctx.name, "password": PASSWORD})
    if not ok(status):
        ctx.sign_ins_refused += 1
    return ok(status)


async def signing_in(client: Client, ctx: Context) -> None:
    """Sign in again every ``SIGN_IN_EVERY`` s, as a person on another device would (a refusal is not waited
    out: the next try comes at its time)."""
    while ctx.open():
        await asyncio.sleep(min(SIGN_IN_EVERY, ctx.left()))
        if ctx.open():
            await sign_in(client, ctx)


async def set_up(client: Client, ctx: Context) -> None:
    """The well-behaved client's start: its account registered, its seek posted, its first hot-seat match."""
    ctx.name = "wb" + secrets.token_hex(4)
    if not await sign_in(client, ctx, "register"):
        raise RuntimeError(f"the well-behaved client could not register: {dict(client.tally.statuses)}")
    status, seek, _ = await client.call("seek", "POST", "/api/seeks", SEEK)
    if not ok(status):
        raise RuntimeError(f"the well-behaved client's seek was refused: {status} {seek}")
    ctx.seek = seek["id"]
    ctx.hot_seat = await new_match(client, ctx, HOT_SEAT, ["me", "me"])


def well_behaved(client: Client, ctx: Context) -> list[Coroutine[Any, Any, None]]:
    """The well-behaved client's tasks."""
    return [hot_seat(client, ctx), versus_ai(client, ctx), small_lhexus(client, ctx), signing_in(client, ctx)]


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


async def imported(client: Client, ctx: Context, record: str, moves: list[str], plies: int) -> dict | None:
    """Import ``record`` (the first ``plies`` of ``moves``) as a hot-seat match: {"id", "token"}, or None."""
    status, made, _ = await client.call("import", "POST", "/api/matches/import",
                                        {"record": record, "seats": ["me", "me"]})
    if not ok(status):
        return None
    for ply, move in enumerate(moves[:plies]):
        ctx.ledger.move(made["id"], ply, move)
    return made


async def post_rest(client: Client, ctx: Context, made: dict, moves: list[str], start: int) -> None:
    """Post ``moves`` from ply ``start`` on to the imported match ``made``, stopping at a refusal."""
    for ply in range(start, len(moves)):
        body = {"move": moves[ply], "token": made["token"], "ply": ply}
        status, _, _ = await client.call("move", "POST", f"/api/matches/{made['id']}/moves", body)
        if not ok(status):
            return
        ctx.ledger.move(made["id"], ply, moves[ply])


def cut(state: State, last: int) -> tuple[str, list[str], int]:
    """``state``'s game but its last ``last`` moves as a text record; all its moves; the record's plies."""
    moves = state.moves()
    return prefix(state, len(moves) - last).record_text(), moves, len(moves) - last


def dense_attack(last: int = 10) -> Attack:
    """Import the dense game but its last ``last`` moves (the text record), open it, post the rest; again."""
    record, moves, plies = cut(dense_lhexus_game(), last)

    async def attack(client: Client, ctx: Context) -> None:
        while ctx.open():
            made = await imported(client, ctx, record, moves, plies)
            if made is None:
                await asyncio.sleep(min(1.0, ctx.left()))
                continue
            await client.call("get", "GET", f"/api/matches/{made['id']}")
            await post_rest(client, ctx, made, moves, plies)

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


# the attacks of issue 42: many addresses -------------------------------------------
def attackers(count: int) -> list[str]:
    """``count`` attackers' loopback addresses, 127.0.0.10 on."""
    return [f"127.0.0.{10 + i}" for i in range(count)]


def enlist(ctx: Context, address: str, cookies: httpx.Cookies | None = None) -> Client:
    """One more attacker's client (closed with the scenario, its tally counted with the attacker's)."""
    client = Client(ctx.base, address, ATTACK_TIMEOUT, cookies)
    ctx.crowd.append(client)
    return client


async def registered(ctx: Context, address: str, stem: str) -> Client | None:
    """A new account ``stem`` + a random suffix, registered and signed in from ``address``; None if refused."""
    client = enlist(ctx, address)
    status, _, _ = await client.call("register", "POST", "/api/account/register",
                                     {"name": stem + secrets.token_hex(3), "password": PASSWORD})
    return client if ok(status) else None


async def login_lockout(client: Client, ctx: Context) -> None:
    """One failed login a second against the well-behaved client's name, from 10 addresses in turn."""
    crowd = [enlist(ctx, a) for a in attackers(10)]
    start, turn = time.monotonic(), 0
    while ctx.open():
        await crowd[turn % len(crowd)].call("login", "POST", "/api/account/login",
                                            {"name": ctx.name, "password": WRONG})
        turn += 1
        await asyncio.sleep(min(max(0.0, start + turn - time.monotonic()), ctx.left()))


async def wrong_logins(client: Client, ctx: Context) -> None:
    """Wrong passwords for fresh names (no name's own limit comes into play) as fast as ``client``'s address is
    allowed: a 429's ``Retry-After`` is waited out."""
    while ctx.open():
        status, _, headers = await client.call("login", "POST", "/api/account/login",
                                               {"name": "x" + secrets.token_hex(6), "password": WRONG})
        if status == 429:
            await asyncio.sleep(min(retry_after(headers), ctx.left()))
        elif status is None:
            await asyncio.sleep(min(0.1, ctx.left()))


async def login_flood(client: Client, ctx: Context) -> None:
    """40 addresses sending wrong passwords, ``FLOOD_IN_FLIGHT`` requests at a time each."""
    crowd = [enlist(ctx, a) for a in attackers(40)]
    await asyncio.gather(*(wrong_logins(c, ctx) for c in crowd for _ in range(FLOOD_IN_FLIGHT)))


@contextlib.asynccontextmanager
async def live(ctx: Context, address: str, match_id: str) -> AsyncIterator[ClientConnection]:
    """A WebSocket on match ``match_id``'s live updates from ``address`` (opening bounded by 10 s)."""
    url = "ws" + ctx.base.removeprefix("http") + f"/api/matches/{match_id}/live"
    async with connect(url, local_addr=(address, 0), open_timeout=10, close_timeout=1, ping_interval=None,
                       max_size=None) as ws:
        yield ws


async def received(ws: ClientConnection, ctx: Context, wait: float = 1.0) -> dict | None:
    """The next match object on ``ws``, or None after ``wait`` s without one (or when time is up)."""
    try:
        text = await asyncio.wait_for(ws.recv(), min(wait, ctx.left()) or 0.01)
    except TimeoutError:
        return None
    return json.loads(text)


async def reply_at_once(client: Client, ctx: Context, game: tuple[str, dict], rng: random.Random) -> None:
    """An ``["me", "ai:10"]`` match whose human seat moves the moment it may (each push of its live socket,
    reopened a second after it fails)."""
    match = await new_match(client, ctx, game, ["me", "ai:10"])
    acted = [-1]
    while match is not None and ctx.open():
        try:
            async with live(ctx, client.address, match["id"]) as ws:
                while ctx.open():
                    await move_at_once(client, ctx, match, await received(ws, ctx), acted, rng)
        except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as e:
            ctx.notes[f"live socket {type(e).__name__}"] += 1
            await asyncio.sleep(min(1.0, ctx.left()))


async def move_at_once(client: Client, ctx: Context, match: dict, obj: dict | None, acted: list[int],
                       rng: random.Random) -> None:
    """Post random moves for seat 0 while ``obj`` (then each answer) shows it to move at a ply not yet acted on
    (``acted[0]``: the last such ply)."""
    while obj is not None and "moves" in obj and not obj["over"] and obj["to_move"] == 0 and obj["ply"] > acted[0] \
            and ctx.open():
        ctx.ledger.seen(match["id"], obj["moves"])
        acted[0] = obj["ply"]
        obj = await play(client, ctx, match, obj, rng)


async def ai_many(client: Client, ctx: Context) -> None:
    """80 ``ai:10`` matches against a human seat that moves at once, 8 from each of 10 addresses, one on each
    of the largest boards."""
    crowd = [enlist(ctx, a) for a in attackers(10)]
    rng = random.Random(4)
    await asyncio.gather(*(reply_at_once(c, ctx, game, rng) for c in crowd for game in LARGEST))


def scoring_flood_attack(each: int = 6) -> Attack:
    """30 dense Lhexus games finished at once, ``each`` from each of 5 addresses (imported but their last two
    moves, the passes, then posted), then watched every 3 s until scored."""
    games = [cut(dense_lhexus_game(seed), 2) for seed in range(5)]

    async def finish(client: Client, ctx: Context, record: str, moves: list[str], plies: int) -> None:
        made = await imported(client, ctx, record, moves, plies)
        if made is None:
            return
        await post_rest(client, ctx, made, moves, plies)
        ctx.notes["dense games finished"] += 1
        while ctx.open():
            status, obj, _ = await client.call("get", "GET", f"/api/matches/{made['id']}")
            if ok(status) and not obj.get("scoring"):
                ctx.notes["dense games scored"] += 1
                return
            await asyncio.sleep(min(3.0, ctx.left()))

    async def attack(client: Client, ctx: Context) -> None:
        crowd = [enlist(ctx, a) for a in attackers(len(games))]
        await asyncio.gather(*(finish(c, ctx, *game) for c, game in zip(crowd, games, strict=True)
                               for _ in range(each)))

    return attack


async def spectate(address: str, ctx: Context) -> None:
    """One live socket from ``address`` on the well-behaved client's hot-seat match (the next one when it
    changes), every push read; reopened a second after it closes."""
    while ctx.open():
        match_id = ctx.hot_seat["id"] if ctx.hot_seat else None
        if match_id is None:
            await asyncio.sleep(min(0.1, ctx.left()))
            continue
        try:
            async with live(ctx, address, match_id) as ws:
                ctx.notes["sockets opened"] += 1
                ctx.notes["sockets open"] += 1
                ctx.notes["sockets open, most"] = max(ctx.notes["sockets open, most"], ctx.notes["sockets open"])
                try:
                    while ctx.open() and ctx.hot_seat and ctx.hot_seat["id"] == match_id:
                        if await received(ws, ctx) is not None:
                            ctx.notes["pushes read"] += 1
                finally:
                    ctx.notes["sockets open"] -= 1
        except ConnectionClosed as e:
            ctx.notes[f"sockets closed by the server ({e.rcvd.code if e.rcvd else 'no code'})"] += 1
            await asyncio.sleep(min(1.0, ctx.left()))
        except (InvalidHandshake, OSError, TimeoutError) as e:
            ctx.notes[f"sockets not opened ({type(e).__name__})"] += 1
            await asyncio.sleep(min(1.0, ctx.left()))


async def spectators(client: Client, ctx: Context) -> None:
    """640 live sockets, 32 from each of 20 addresses, on the well-behaved client's match."""
    addresses, each = SPECTATORS
    await asyncio.gather(*(spectate(a, ctx) for a in attackers(addresses) for _ in range(each)))


async def seeker(ctx: Context, address: str) -> None:
    """An account registered from ``address`` posting ``SEEKS_EACH`` seeks of ``FLOOD_GAME`` (to the end,
    whatever the deadline: :func:`seek_flood` bounds it)."""
    client = await registered(ctx, address, "sf")
    ctx.notes["flood accounts"] += client is not None
    posted = 0
    while client is not None and posted < SEEKS_EACH:
        status, _, headers = await client.call("seek", "POST", "/api/seeks", {**SEEK, "game": FLOOD_GAME,
                                                                              "options": {}})
        posted += ok(status)
        ctx.notes["flood seeks"] += ok(status)
        if status == 429:
            await asyncio.sleep(min(retry_after(headers), JUDGE_TIMEOUT))
        elif not ok(status):
            return


async def listed(client: Client, ctx: Context) -> tuple[bool, bool]:
    """Whether ``client`` (another account) sees the well-behaved client's seek in ``/api/seeks``, and in
    ``/api/seeks?game=`` its game."""
    seen = []
    for query in ("", f"?game={SEEK['game']}"):
        status, seeks, _ = await client.call("list", "GET", "/api/seeks" + query)
        seen.append(ok(status) and any(s["id"] == ctx.seek for s in seeks))
    return seen[0], seen[1]


async def seek_flood(client: Client, ctx: Context) -> None:
    """50 accounts x 10 seeks of another game from 25 addresses, while another account looks every 2 s for the
    well-behaved client's seek (with and without ``?game=``); judged by a last look once the flood is over (it
    goes on past the deadline, for at most ``JUDGE_TIMEOUT`` more)."""
    looker = await registered(ctx, LOOKER, "look")
    if looker is None:
        async def unlooked(_: Client) -> Row:
            return SEEK_LISTED, "not looked: the looking account was not registered", "listed", False

        ctx.judges.append(unlooked)
        return
    addresses, start = attackers(SEEK_ADDRESSES), time.monotonic()
    flood = asyncio.ensure_future(asyncio.gather(*(seeker(ctx, addresses[i % len(addresses)])
                                                   for i in range(SEEKERS))))

    async def judge(_: Client) -> Row:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(flood, JUDGE_TIMEOUT)
        ctx.notes["flood seconds"] = time.monotonic() - start
        plain, by_game = await listed(looker, ctx)
        return (SEEK_LISTED, f"{'yes' if plain else 'no'} / {'yes' if by_game else 'no'} after "
                f"{ctx.notes['flood seeks']:.0f} seeks", "listed", plain and by_game)

    ctx.judges.append(judge)
    while ctx.open():
        plain, by_game = await listed(looker, ctx)
        ctx.notes["looks"] += 1
        ctx.notes["seek listed"] += plain
        ctx.notes["seek listed with ?game="] += by_game
        await asyncio.sleep(min(2.0, ctx.left()))


async def farmed(winner: Client, loser: Client, ctx: Context) -> bool:
    """One rated game: ``winner`` seeks (first to move), ``loser`` accepts, both move, ``loser`` resigns."""
    status, seek, _ = await winner.call("seek", "POST", "/api/seeks", {**SEEK, "game": FARM_GAME[0],
                                                                       "options": FARM_GAME[1], "rated": True,
                                                                       "colour": "first"})
    if not ok(status):
        return False
    status, accepted, _ = await loser.call("seek", "POST", f"/api/seeks/{seek['id']}/accept")
    if not ok(status):
        return False
    match, obj = {"id": accepted["match"]}, await look(winner, ctx, accepted["match"])
    rng = random.Random(5)
    for player in (winner, loser):
        obj = None if obj is None else await play(player, ctx, match, obj, rng)
    if obj is None:
        return False
    status, obj, _ = await loser.call("move", "POST", f"/api/matches/{match['id']}/resign", {})
    if ok(status) and obj["ratings"] and obj["ratings"][0]:
        ctx.notes["winner's rating seen"] = obj["ratings"][0]["after"] or 0.0
    return ok(status)


async def rating_farm(client: Client, ctx: Context) -> None:
    """Two accounts play up to 65 rated games as fast as they can, the same one resigning each time after both
    moved, each from ``FARM_ADDRESSES`` addresses; judged by the rated games their profiles count."""
    addresses, names = attackers(2 * FARM_ADDRESSES), []

    async def judge(verifier: Client) -> Row:
        if not names:
            return "farm games that moved ratings", "none: the pair was not registered in time", "<= 3", False
        counted = [await rated_games(verifier, name) for name in names]
        changed = max(n for n, _ in counted)
        return ("farm games that moved ratings", f"{changed} of {ctx.notes['farm games played']:.0f} (winner "
                f"{counted[0][1]:.0f})", f"<= {FARM_CAP}", changed <= FARM_CAP)

    ctx.judges.append(judge)
    winner, loser = await asyncio.gather(registered(ctx, addresses[0], "fw"), registered(ctx, addresses[1], "fl"))
    if winner is None or loser is None:
        return
    winners = [winner] + [enlist(ctx, a, winner.http.cookies) for a in addresses[2::2]]
    losers = [loser] + [enlist(ctx, a, loser.http.cookies) for a in addresses[3::2]]
    names.extend([await name_of(winner), await name_of(loser)])
    for game in range(FARM_GAMES):
        if not ctx.open():
            return
        ctx.notes["farm games played"] += await farmed(winners[game % len(winners)], losers[game % len(losers)],
                                                       ctx)


async def name_of(client: Client) -> str:
    """The signed-in account's name."""
    _, me, _ = await client.call("get", "GET", "/api/account")
    return me["name"]


async def rated_games(client: Client, name: str) -> tuple[int, float]:
    """How many rated games moved ``name``'s rating in ``FARM_GAME``'s game (its history), and its rating."""
    status, user, _ = await client.call("get", "GET", f"/api/users/{name}")
    if not ok(status):
        return -1, math.nan
    game = FARM_GAME[0]
    return len(user["history"].get(game, [])), user["ratings"].get(game, {}).get("rating", math.nan)


async def no_attack(client: Client, ctx: Context) -> None:
    await asyncio.sleep(ctx.left())


def attack_for(name: str) -> Attack:
    """The attack of scenario ``name`` (built before the server starts: the dense game, the big body)."""
    makers: dict[str, Callable[[], Attack]] = {
        "baseline": lambda: no_attack, "dense-lhexus": dense_attack, "ai-flood": lambda: ai_flood,
        "big-body": big_body_attack, "lying-timestamps": lambda: lying_timestamps, "long-name": lambda: long_name,
        "open-flood": lambda: open_flood, "login-lockout": lambda: login_lockout, "login-flood": lambda: login_flood,
        "ai-many": lambda: ai_many, "scoring-flood": scoring_flood_attack, "spectators": lambda: spectators,
        "seek-flood": lambda: seek_flood, "rating-farm": lambda: rating_farm}
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


async def verify(server: Server, ledger: Ledger, budget: float, kill_above: float) -> tuple[int, int, int]:
    """Read every match of ``ledger`` again, and the profiles of the rating changes it saw: (acknowledged moves
    missing, matches that could not be read, rating changes missing)."""
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
            ratings_lost = await ratings_missing(client, ledger)
    finally:
        await client.close()
    return lost, unread, ratings_lost


async def ratings_missing(client: Client, ledger: Ledger) -> int:
    """How many rating changes of ``ledger`` their player's profile (its rating history) lacks."""
    kept: dict[str, set[tuple[str, str, float]]] = {}
    for name in {name for name, _, _ in ledger.ratings.values()}:
        status, user, _ = await client.call("get", "GET", f"/api/users/{name}")
        kept[name] = {(game, h["match"], h["after"]) for game, rows in (user["history"] if ok(status) else {}).items()
                      for h in rows}
    return sum((game, match_id, after) not in kept[name] for match_id, (name, game, after) in ledger.ratings.items())


async def warm_up(base: str) -> None:
    """Load what the well-behaved client's first requests would otherwise wait for (numba's cached kernels,
    the AI's search, the scoring process): a hot-seat move, an ai:1 reply and a small Lhexus game's scores,
    uncounted."""
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
        await small_game(client, ctx, random.Random(0))
    finally:
        await client.close()


async def attack_while_playing(server: Server, attack: Attack, seconds: float, kill_above: float,
                               ) -> tuple[Context, Client, list[Client], list[Row]]:
    """Run the attack and the well-behaved client for ``seconds`` (after a warm-up and its set-up); then the
    scenario's own figures."""
    await warm_up(server.base)
    ctx = Context(deadline=time.monotonic() + 60, ledger=Ledger(), base=server.base)
    wb = Client(server.base, WELL_BEHAVED, WB_TIMEOUT)
    attacker = Client(server.base, ATTACKER, ATTACK_TIMEOUT)
    try:
        await set_up(wb, ctx)
        ctx.deadline = time.monotonic() + seconds
        tasks = [asyncio.create_task(t) for t in (attack(attacker, ctx), *well_behaved(wb, ctx))]
        async with watching(server, kill_above):
            await asyncio.sleep(seconds)
            for task in tasks:
                task.cancel()
            ended = await asyncio.gather(*tasks, return_exceptions=True)
            judged = await judge(server.base, ctx)
    finally:
        for client in (wb, attacker, *ctx.crowd):
            await client.close()
    for outcome in ended:
        if isinstance(outcome, Exception):  # a bug of the bench, not of the server
            raise outcome
    return ctx, wb, [attacker, *ctx.crowd], judged


async def judge(base: str, ctx: Context) -> list[Row]:
    """The scenario's own figures, each read within twice ``JUDGE_TIMEOUT`` (a FAIL if not)."""
    verifier, rows = Client(base, VERIFIER, JUDGE_TIMEOUT), []
    try:
        for j in ctx.judges:
            try:
                rows.append(await asyncio.wait_for(j(verifier), 2 * JUDGE_TIMEOUT))
            except TimeoutError:
                rows.append(("the scenario's own figure", f"not read in {2 * JUDGE_TIMEOUT:g} s", "read", False))
    finally:
        await verifier.close()
    return rows


def figures(result: Result, ctx: Context, wb: Client, attackers: list[Client]) -> None:
    """Fill ``result`` from what the clients saw."""
    gets, moves = wb.tally.latencies.get("get", []), wb.tally.latencies.get("move", [])
    result.get_ms = (1000 * percentile(gets, 50), 1000 * percentile(gets, 99))
    result.move_ms = (1000 * percentile(moves, 50), 1000 * percentile(moves, 99))
    result.wb_gets, result.wb_moves = len(gets), len(moves)
    result.wb_timeouts = sum(wb.tally.failures.values())
    result.sign_ins = [round(s, 3) for s in wb.tally.latencies.get("sign-in", [])]
    result.sign_ins_refused = ctx.sign_ins_refused
    result.ai_replies, result.ai_waiting = [round(s, 3) for s in ctx.ai_replies], round(ctx.waited("ai"), 3)
    result.results, result.result_waiting = [round(s, 3) for s in ctx.results], round(ctx.waited("result"), 3)
    result.unscored = ctx.unscored
    result.limited = wb.tally.limited
    t = merged([a.tally for a in attackers])
    result.errors_5xx = wb.tally.count(500, 599) + t.count(500, 599)
    result.attack = {"2xx": t.count(200, 299), "refused (403/413/429)": sum(t.statuses[s] for s in REFUSALS),
                     "other 4xx": t.count(400, 499) - sum(t.statuses[s] for s in REFUSALS),
                     "5xx": t.count(500, 599), "failed (timeout, closed)": sum(t.failures.values())}
    result.notes = {k: round(v, 1) for k, v in ctx.notes.items() if k != "sockets open"}
    result.failures = dict(t.failures + wb.tally.failures)
    result.matches = len(ctx.ledger.moves)
    result.acknowledged = sum(len(m) for m in ctx.ledger.moves.values())
    result.rating_changes = len(ctx.ledger.ratings)


def run_scenario(name: str, db: str | None, seconds: float, kill_above: float = 3000.0) -> Result:
    """Scenario ``name`` on a fresh server and database; its figures."""
    attack = attack_for(name)
    result = Result(scenario=name, db="postgresql" if db else "sqlite", seconds=seconds)
    with tempfile.TemporaryDirectory(prefix="abuse-") as tmp, database(db, Path(tmp), name) as url:
        server = Server(url, Path(tmp))
        try:
            ctx, wb, attackers, result.judged = asyncio.run(attack_while_playing(server, attack, seconds,
                                                                                 kill_above))
            figures(result, ctx, wb, attackers)
            result.alive = server.alive()
            server = restarted(server, url, Path(tmp))
            result.lost, result.unverified, result.ratings_lost = asyncio.run(
                verify(server, ctx.ledger, max(60.0, seconds), kill_above))
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
    if r.notes:
        lines.append("  attack figures: " + ", ".join(f"{k} {v:g}" for k, v in sorted(r.notes.items())))
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
