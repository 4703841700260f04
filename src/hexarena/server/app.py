"""The web app (docs/server.md): ``create_app(db_url)``, its routers (:mod:`.routes`, one per resource), the
middlewares at its doors and its error answers.

Route handlers that touch the database or the rules are plain functions,
run by FastAPI in its thread pool, so the event loop only carries
WebSockets; the AI searches in worker processes (:mod:`.searchers`) fed by its scheduler (:mod:`.thinker`).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

import hexarena

from .clocks import Clock
from .core import JUDGE_TOPIC, Server
from .guards import BodyLimit, Buckets, NameCaller, RateLimit, SecurityHeaders, retry_after
from .http import error, validation_message
from .limits import Limits
from .live import listen
from .mail import MailSettings
from .routes import accounts, championships, chat, email, games, learn, matches, ratings, seeks, tournaments, users
from .routes.reports import reports_router
from .errors import Refused

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("hexarena.server")
DB_ENV = "HEXARENA_DB"  # the database URL for app_from_env (uvicorn's workers)
REPORTS_ENV = "HEXARENA_REPORTS"  # the reports directory for app_from_env
LIMITS_ENV = "HEXARENA_LIMITS"  # the limits (Limits.to_json) for app_from_env
MAIL_ENV = "HEXARENA_MAIL"  # the e-mail settings (MailSettings.to_json) for app_from_env
REPORTS = "data/reports"
OPENAPI = "/api/openapi.json"


class App(FastAPI):
    """FastAPI with the security headers outermost, on every response (a 500 too)."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack(), lambda: self.state.server.clock())


def create_app(db_url: str, ai_workers: int = 2, reports_dir: str | Path = REPORTS,
               limits: Limits | None = None, mail: MailSettings | None = None, clock: Clock | None = None,
               warm_ai: bool = False) -> FastAPI:
    """The web app on the database ``db_url`` (an SQLAlchemy URL), showing the analysis reports in
    ``reports_dir``, with ``limits`` at every door (the defaults if None), mailing as ``mail`` says (nothing
    if None), judging time by ``clock`` (None: the real time, or ``$HEXARENA_CLOCK_OFFSET_FILE``'s,
    :func:`.clocks.clock_from_env`); with ``warm_ai`` (``hexarena serve``), the AI's workers start at once and
    load every game's search in the background, so no player's first AI move waits for that."""
    server = Server(db_url, ai_workers, limits, mail, clock)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        tasks = [asyncio.create_task(listen(server.hub, server.store.db.listen_conninfo()))] \
            if server.store.db.postgres else []
        await run_in_threadpool(server.thinker.resume)
        await run_in_threadpool(server.resume_scoring)  # what a stop left unscored
        await run_in_threadpool(server.judge)  # what ran out while the server was down
        if warm_ai:
            server.thinker.pool.warm(hexarena.GAMES)
        if server.limits.judge_seconds:
            tasks.append(asyncio.create_task(judging(server)))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
                with suppress(asyncio.CancelledError):
                    await task
            server.close()

    app = App(title="hexarena", version="1", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=OPENAPI)
    app.state.server = server
    add_limits(app, server.limits)
    add_errors(app)
    app.include_router(accounts.router)
    app.include_router(email.router)
    app.include_router(games.router)
    app.include_router(learn.router)
    app.include_router(matches.router)
    app.include_router(chat.router)
    app.include_router(seeks.router)
    app.include_router(users.router)
    app.include_router(tournaments.router)
    app.include_router(championships.router)
    app.include_router(ratings.router)
    app.include_router(reports_router(Path(reports_dir)))
    add_static(app)
    return app


async def judging(server: Server) -> None:
    """Flag the players out of time and forget expired seeks, every ``judge_seconds`` or at the nearest deadline
    if it comes sooner (a real-time clock's flag falls on time)."""
    wait = server.limits.judge_seconds
    woken = server.hub.watch(JUDGE_TOPIC)  # a clock of this process's changed: its deadline may come sooner
    while True:
        with suppress(TimeoutError):
            await asyncio.wait_for(woken.changed(), wait)
        wait = server.limits.judge_seconds
        try:
            await run_in_threadpool(server.judge)
            await run_in_threadpool(server.seeks.purge)
            nearest = await run_in_threadpool(server.store.lookups.nearest_deadline)
        except Exception:  # a lost database connection: judged again next time
            log.exception("hexarena: judging the clocks failed")
            continue
        if nearest is not None:
            wait = min(wait, max(0.05, nearest - server.clock() + 0.01))


def app_from_env() -> FastAPI:
    """The app on the database named by $HEXARENA_DB, reports from $HEXARENA_REPORTS, limits from
    $HEXARENA_LIMITS, e-mail settings from $HEXARENA_MAIL (for ``uvicorn --workers``)."""
    limits = Limits.from_json(os.environ[LIMITS_ENV]) if os.environ.get(LIMITS_ENV) else None
    mail = MailSettings.from_json(os.environ[MAIL_ENV]) if os.environ.get(MAIL_ENV) else None
    return create_app(os.environ[DB_ENV], reports_dir=os.environ.get(REPORTS_ENV, REPORTS), limits=limits,
                      mail=mail, warm_ai=True)


def add_limits(app: FastAPI, limits: Limits) -> None:
    """The middlewares that refuse before a route runs, outermost last: the client's address from a trusted
    proxy, then the rate per address (429), then the body's size (413), then the address named for the fair
    turns at the database (:data:`~.guards.CALLER`)."""
    app.add_middleware(NameCaller)
    app.add_middleware(BodyLimit, most=limits.body_bytes)
    app.add_middleware(RateLimit, buckets=Buckets(limits.rates))
    if limits.forwarded_allow_ips:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=limits.forwarded_allow_ips)


def add_errors(app: FastAPI) -> None:
    @app.exception_handler(Refused)
    async def refused(_request: Request, exc: Refused) -> JSONResponse:
        answer = error(exc.status, exc.message)
        if exc.retry_after is not None:
            answer.headers.update(retry_after(exc.retry_after))
        return answer

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return error(400, validation_message(exc))

    @app.exception_handler(HTTPException)
    async def http(_request: Request, exc: HTTPException) -> JSONResponse:
        return error(exc.status_code, str(exc.detail).lower() if exc.status_code != 404 else "not found")


def add_static(app: FastAPI) -> None:
    """The browser client: / is its page, /static/ the rest."""
    STATIC.mkdir(exist_ok=True)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/@/{name}", include_in_schema=False)
    def profile_page(name: str) -> FileResponse:
        """A player's profile: the client's page, which reads /api/users/{name}."""
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
