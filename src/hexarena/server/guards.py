"""The limits enforced (:mod:`.limits`): ASGI middlewares that answer before a
route runs, so a refused request is answered before its body is read or
parsed: :class:`BodyLimit` (413), :class:`RateLimit` (429 with
``Retry-After``); :class:`SecurityHeaders` on every response; the count
of WebSockets per client address and per match (:class:`Sockets`); and fair
turns at password hashing across addresses (:class:`FairTurns`).
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

from starlette.responses import JSONResponse

from .limits import RATED, Rate

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_ADDRESS = 64  # characters of a client address kept (an IPv6 address is at most 45)


def client_address(scope: Scope) -> str:
    """The client's address (the proxy's X-Forwarded-For where ``Limits.forwarded_allow_ips`` trusts it)."""
    client = scope.get("client")
    return str(client[0])[:MAX_ADDRESS] if client else "unknown"


CALLER: ContextVar[str] = ContextVar("caller", default="server")  # the address a request came from


class NameCaller:
    """Name the request's client address in :data:`CALLER` for the work it asks of the server (whose turns at
    the database it takes: :class:`FairTurns`); work of the server's own (the AI, the clocks) is "server"."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            CALLER.set(client_address(scope))
        await self.app(scope, receive, send)


def refuse(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def retry_after(seconds: float) -> dict[str, str]:
    """The ``Retry-After`` header for a wait of ``seconds`` (whole seconds, at least 1)."""
    return {"Retry-After": str(max(1, math.ceil(seconds)))}


class Buckets:
    """Token buckets per (kind, client address); idle full buckets are dropped when there are many."""

    def __init__(self, rates: dict[str, Rate], clock: Callable[[], float] = time.monotonic,
                 most: int = 100_000) -> None:
        self.rates, self.clock, self.most = rates, clock, most
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}  # (tokens, when)

    def take(self, kind: str, address: str) -> float:
        """Take one request of ``kind`` from ``address``'s bucket: 0 if allowed, else the seconds to wait."""
        rate = self.rates.get(kind)
        if rate is None or rate.count == 0:
            return 0.0
        now, key = self.clock(), (kind, address)
        tokens, when = self._buckets.get(key, (float(rate.count), now))
        tokens = min(float(rate.count), tokens + (now - when) * rate.count / rate.seconds)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return (1 - tokens) * rate.seconds / rate.count
        self._buckets[key] = (tokens - 1, now)
        if len(self._buckets) > self.most:
            self._prune(now)
        return 0.0

    def waiting(self, kind: str, address: str) -> float:
        """The seconds until ``address`` may make one more request of ``kind`` (0: now), taking nothing."""
        rate = self.rates.get(kind)
        if rate is None or rate.count == 0:
            return 0.0
        tokens = rate.count - self.spent(kind, address)
        return 0.0 if tokens >= 1 else (1 - tokens) * rate.seconds / rate.count

    def spent(self, kind: str, address: str) -> float:
        """How much of ``address``'s bucket of ``kind`` is spent now (0: full, or no limit)."""
        rate = self.rates.get(kind)
        if rate is None or rate.count == 0 or (kind, address) not in self._buckets:
            return 0.0
        tokens, when = self._buckets[(kind, address)]
        return max(0.0, rate.count - tokens - (self.clock() - when) * rate.count / rate.seconds)

    def _prune(self, now: float) -> None:
        """Forget the buckets that have refilled (a forgotten bucket starts full: the same)."""
        for key, (tokens, when) in list(self._buckets.items()):
            rate = self.rates[key[0]]
            if tokens + (now - when) * rate.count / rate.seconds >= rate.count:
                del self._buckets[key]


class RateLimit:
    """429 with ``Retry-After`` for a client address over its rate of creations, imports, joins, moves,
    hints ... (:data:`~.limits.RATED`), before the request's body is read; a WebSocket opened too often is closed
    at its handshake (code 4429)."""

    def __init__(self, app: ASGIApp, buckets: Buckets) -> None:
        self.app, self.buckets = app, buckets

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = rated_kind(scope) if scope["type"] in ("http", "websocket") else None
        if kind is not None:
            wait = self.buckets.take(kind, client_address(scope))
            if wait:
                rate = self.buckets.rates[kind]
                message = (f"too many requests ({kind}): at most {rate.count} per {rate.seconds:g} s from one "
                           f"address; retry in {max(1, math.ceil(wait))} s")
                if scope["type"] == "websocket":  # refused at the handshake (an HTTP 403), before any work
                    await receive()
                    return await send({"type": "websocket.close", "code": 4429, "reason": message[:120]})
                return await refuse(429, message, retry_after(wait))(scope, receive, send)
        await self.app(scope, receive, send)


def rated_kind(scope: Scope) -> str | None:
    """The limited kind of an HTTP request or a WebSocket's opening ("WS"), or None."""
    method, path = scope.get("method", "WS"), scope["path"]
    return next((kind for m, pattern, kind in RATED if m == method and pattern.fullmatch(path)), None)


class BodyLimit:
    """413 for a request body over ``most`` bytes, refused before it is parsed: at once by its
    ``Content-Length``, else (a chunked body) as soon as the bytes received pass the limit."""

    def __init__(self, app: ASGIApp, most: int) -> None:
        self.app, self.most = app, most

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = header(scope, b"content-length")
        if declared is not None and not (declared.isdigit() and int(declared) <= self.most):
            return await self.too_large(scope, receive, send)
        chunks: list[bytes] = []
        size, first = 0, None
        while first is None:
            message = await receive()
            if message["type"] != "http.request":  # the client left: let the app see it
                first = message
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.most:
                return await self.too_large(scope, receive, send)
            chunks.append(chunk)
            if not message.get("more_body", False):
                first = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        pending: list[Message] = [first]

        async def replay() -> Message:
            return pending.pop() if pending else await receive()

        await self.app(scope, replay, send)

    async def too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"request body too large: at most {self.most} bytes"
        await refuse(413, message, {"Connection": "close"})(scope, receive, send)


def header(scope: Scope, name: bytes) -> str | None:
    """The first value of request header ``name`` (lower case), or None."""
    return next((v.decode("latin-1").strip() for k, v in scope["headers"] if k == name), None)


# The pages' policy: scripts and styles from the app's own files only (no inline script, style or handler),
# images from the app or data: URLs, live updates to the app's own WebSocket, no framing by other sites.
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
          "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = ((b"content-security-policy", POLICY.encode()), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY"))


class SecurityHeaders:
    """Every HTTP response gets the security headers it does not set itself (a report page sets its own
    Content-Security-Policy), and ``X-Server-Time``: the server's time by ``now`` in milliseconds since the epoch
    (clients show clocks by it, whatever their own clock says)."""

    def __init__(self, app: ASGIApp, now: Callable[[], float]) -> None:
        self.app, self.now = app, now

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in HEADERS if k not in present]
                headers.append((b"x-server-time", str(round(self.now() * 1000)).encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


class Sockets:
    """Live connections per key (a client address, a match), at most ``most`` at once (per process; 0: any
    number)."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()  # the sockets of a test's other clients run in other threads

    def open(self, key: str) -> bool:
        """Count one more connection of ``key``; False (nothing counted) when it has ``most``."""
        with self._lock:
            held = self._open.get(key, 0)
            if self.most and held >= self.most:
                return False
            self._open[key] = held + 1
            return True

    def close(self, key: str) -> None:
        with self._lock:
            held = self._open.get(key, 0) - 1
            if held > 0:
                self._open[key] = held
            else:
                self._open.pop(key, None)


class FairTurns:
    """Turns at a costly job (a password hash, a database call): at most ``slots`` jobs at once, at most
    ``per_key`` in flight per key (a client address), and the keys waiting served in turn (round robin), so the
    many requests of one key (or of 40) never keep another key waiting behind all of them.  ``rank(key)`` puts
    keys first: the lowest rank waiting is served first (the accounts rank an address by its recent failed
    logins, so a flood of wrong passwords waits behind an address that has not failed), round robin among
    equals.  The waiting holds no thread; safe across threads and event loops."""

    def __init__(self, slots: int = 2, rank: Callable[[str], float] = lambda key: 0.0, per_key: int = 1) -> None:
        self.slots, self.rank, self.per_key = slots, rank, per_key
        self._lock = threading.Lock()
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()  # keys in turn order
        self._busy: Counter[str] = Counter()  # per key, its turns in flight

    def waiting(self) -> int:
        """How many turns are waiting."""
        with self._lock:
            return sum(len(q) for q in self._waiting.values())

    @asynccontextmanager
    async def turn(self, key: str) -> AsyncIterator[None]:
        """Wait for ``key``'s turn, and hold it in the block."""
        ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._lock:
            self._waiting.setdefault(key, deque()).append(ticket)
            self._serve()
        try:
            await ticket
        except asyncio.CancelledError:
            self._leave(key, ticket)
            raise
        try:
            yield
        finally:
            self._done(key)

    def _serve(self) -> None:
        """Start the turns due (the lock held): of the keys below ``per_key`` in flight, the lowest ranked, the
        first in turn order among equals; a key with more waiting goes to the back of the order."""
        while self._busy.total() < self.slots:
            free = [key for key in self._waiting if self._busy[key] < self.per_key]
            if not free:
                return
            key = min(free, key=self.rank)  # the first of the lowest: turn order among equal ranks
            queue = self._waiting.pop(key)
            ticket = queue.popleft()
            if queue:
                self._waiting[key] = queue
            self._busy[key] += 1
            ticket.get_loop().call_soon_threadsafe(_wake, ticket)

    def _leave(self, key: str, ticket: asyncio.Future[None]) -> None:
        """A waiter cancelled: its ticket leaves the queue, or, already served, its turn ends."""
        with self._lock:
            queue = self._waiting.get(key)
            if queue is not None and ticket in queue:
                queue.remove(ticket)
                if not queue:
                    del self._waiting[key]
                return
        self._done(key)

    def _done(self, key: str) -> None:
        """``key``'s turn ended: its next waits behind the other keys waiting."""
        with self._lock:
            self._busy[key] -= 1
            if self._busy[key] <= 0:
                del self._busy[key]
            if key in self._waiting:
                self._waiting.move_to_end(key)
            self._serve()


def _wake(ticket: asyncio.Future[None]) -> None:
    if not ticket.done():
        ticket.set_result(None)
