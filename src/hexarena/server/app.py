"""The web app's HTTP and WebSocket routes (docs/server.md): ``create_app(db_url)``.

Route handlers that touch the database or the rules are plain functions,
run by FastAPI in its thread pool, so the event loop only carries
WebSockets; the AI searches in its own threads (:mod:`.thinker`).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

import hexarena
from hexarena.ai import hint as ai_hint, take_back
from hexarena.ai.solutions import proof_text
from hexarena.info import game_info, replay_summary
from hexarena.games.base import State
from hexarena.games.options import shown

from . import reports
from .guards import BodyLimit, Buckets, RateLimit, SecurityHeaders, Sockets, client_address, retry_after
from .limits import Limits
from .live import Hub, listen
from .store import Match, Refused, Store, new_token, seat_kind
from .thinker import Thinker

STATIC = Path(__file__).parent / "static"
DB_ENV = "HEXARENA_DB"  # the database URL for app_from_env (uvicorn's workers)
REPORTS_ENV = "HEXARENA_REPORTS"  # the reports directory for app_from_env
LIMITS_ENV = "HEXARENA_LIMITS"  # the limits (Limits.to_json) for app_from_env
REPORTS = "data/reports"
HINT_LEVEL = 5


# request bodies ------------------------------------------------------------
class Body(BaseModel):
    model_config = ConfigDict(strict=True)


class NewMatch(Body):
    game: StrictStr
    options: dict[str, Any] = {}
    seats: list[StrictStr]


class Import(Body):
    record: dict[str, Any] | StrictStr
    seats: list[StrictStr]


class MovePost(Body):
    move: StrictStr
    token: StrictStr
    ply: StrictInt


class UndoPost(Body):
    token: StrictStr
    ply: StrictInt


class ResignPost(Body):
    token: StrictStr


# the match object ------------------------------------------------------------
def targets(state: State) -> tuple[list[dict[str, Any]], list[str]]:
    """Per legal move, the cell a click plays it by (None for a word) and, for games that draw them, the index
    of its picture in the list of distinct pictures (returned second)."""
    game, names = state.game, state.game.topology.names
    out: list[dict[str, Any]] = []
    pictures: dict[str, int] = {}
    for action in state.legal_actions():
        cell = game.move_target(state.array, action)
        target: dict[str, Any] = {"move": game.action_name(state.array, action),
                                  "cell": None if cell is None else names[cell]}
        picture = game.move_picture(state.array, action)
        if picture is not None:
            target["picture"] = pictures.setdefault(picture, len(pictures))
        out.append(target)
    return out, list(pictures)


def match_object(match: Match) -> dict[str, Any]:
    """The match as GET /api/matches/{id} shows it."""
    state = match.state
    moves, pictures = targets(state)
    labels = {t["move"]: state.game.word_label(t["move"]) for t in moves if t["cell"] is None}
    turns = [[t, [[m, ply] for m, ply in written]] for t, written in state.written_turns()]
    out = {**replay_summary(state), "id": match.id, "seats": match.seats, "ply": match.ply,
           "record": state.record(), "status": state.game.status(state), "turn": state.turn, "step": state.step,
           "turns": turns, "targets": moves, "labels": labels, "svg": state.svg(),
           "resigned": state.resigned, "thinking": match.ai_to_move() is not None, "updated": match.updated}
    if pictures:
        out["pictures"] = pictures
    return out


# the rules of changes --------------------------------------------------------
def seats_of(match: Match, token: str) -> list[int]:
    """The seats ``token`` holds; 403 for none."""
    seats = match.seats_of(token)
    if not seats:
        raise Refused(403, "no seat of this match holds that token")
    return seats


def check_ply(match: Match, ply: int) -> None:
    if ply != match.ply:
        raise Refused(409, f"ply {ply} is stale: the match is at ply {match.ply} (reload it)")


def check_turn(state: State, seats: list[int]) -> None:
    mover = state.to_move  # None once the game is over
    if mover is not None and mover not in seats:
        raise Refused(403, f"not your turn: player {mover + 1} is to move")


def undo_back(match: Match, state: State, seats: list[int]) -> None:
    """Undo: a resignation, else one move in hot-seat, else back to the requester's previous turn."""
    if not match.against_ai() and len(seats) < 2:
        raise Refused(403, "no undo in a game between two people online")
    take_back(state, seats, kept="the AI's opening moves stay")


def position(match: Match, ply: int) -> State:
    """The position after the first ``ply`` moves of ``match``."""
    if not 0 <= ply <= match.ply:
        raise Refused(400, f"ply {ply} is out of range: 0 to {match.ply}")
    if ply == match.ply:
        return match.state
    state = match.state.game.new_state()
    for action in match.state.history[:ply]:
        state.apply(action)
    return state


def new_state(game: str, options: dict[str, Any]) -> State:
    try:
        return hexarena.load(game, **options).new_state()
    except ValueError as e:
        raise Refused(400, str(e)) from None


def from_record(record: dict[str, Any] | str) -> State:
    try:
        return hexarena.from_record(record)
    except (ValueError, RecursionError) as e:
        raise Refused(400, f"record: {e}") from None


# the app ------------------------------------------------------------------------
class Server:
    """The app's parts: the store, the live hub and the AI."""

    def __init__(self, db_url: str, ai_workers: int = 2, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.store = Store(db_url, self.limits.open_matches, self.limits.open_hours)
        self.sockets = Sockets(self.limits.websockets)
        self.hub = Hub()
        self.thinker = Thinker(self.store, self.changed, ai_workers)
        self._objects: dict[tuple[str, int], dict[str, Any]] = {}

    async def call(self, work: Any, *args: Any) -> Any:
        """Run store ``work``: on SQLite inline on the event loop (a local file,
        about a millisecond, one writer at a time anyway: thread hops cost more
        than they save); on PostgreSQL in a thread (network round trips, row locks)."""
        if self.store.postgres:
            return await run_in_threadpool(work, *args)
        return work(*args)

    def changed(self, match_id: str) -> None:
        """After a committed change: tell the watchers, let an AI to move think."""
        self.hub.publish(match_id)
        self.thinker.kick(match_id)

    def create(self, state: State, specs: list[str], client: str = "") -> dict[str, Any]:
        if len(specs) != 2:
            raise Refused(400, f"seats: a match has 2 seats, got {len(specs)}")
        kinds = [seat_kind(s) for s in specs]
        mine = [i for i, k in enumerate(kinds) if k == "me"]
        token = new_token()
        match = self.store.create(state, ["human" if k == "me" else k for k in kinds], mine, token, client)
        self.changed(match.id)
        return {"id": match.id, "seats": mine, "token": token}

    def object(self, match: Match) -> dict[str, Any]:
        """The match object, kept per (match, version): watchers and readers share it."""
        key = (match.id, match.version)
        obj = self._objects.get(key)
        if obj is None:
            obj = self._objects[key] = match_object(match)
            if len(self._objects) > 500:
                self._objects.pop(next(iter(self._objects)), None)
        return obj

    def move(self, match_id: str, body: MovePost) -> dict[str, Any]:
        def play(match: Match, state: State) -> None:
            seats = seats_of(match, body.token)
            check_ply(match, body.ply)
            check_turn(state, seats)
            state.play(body.move)

        return self._change(match_id, play)

    def undo(self, match_id: str, body: UndoPost) -> dict[str, Any]:
        def back(match: Match, state: State) -> None:
            seats = seats_of(match, body.token)
            check_ply(match, body.ply)
            undo_back(match, state, seats)

        return self._change(match_id, back)

    def resign(self, match_id: str, body: ResignPost) -> dict[str, Any]:
        def resign(match: Match, state: State) -> None:
            seats = seats_of(match, body.token)
            state.resign(state.to_move if state.to_move in seats else seats[0])

        return self._change(match_id, resign)

    def _change(self, match_id: str, apply: Any) -> dict[str, Any]:
        match = self.store.change(match_id, apply)
        self.changed(match_id)
        return self.object(match)

    def hint(self, match_id: str, token: str) -> dict[str, Any]:
        match = self.store.get(match_id)
        seats = seats_of(match, token)
        if match.state.is_over():
            raise Refused(400, "no hint: the game is over")
        check_turn(match.state, seats)
        move, rate = ai_hint(match.state.copy(), level=HINT_LEVEL)
        return {"move": move, "rate": rate, "proof": proof_text(match.state)}


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def reply(value: Any) -> Response:
    """A JSON answer, serialized once (no response model: the objects are built here)."""
    return Response(dumps(value), media_type="application/json")


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def validation_message(exc: RequestValidationError) -> str:
    """One line for a request FastAPI could not read (malformed JSON, a missing or mistyped field)."""
    first = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    if first.get("type") == "json_invalid":
        return "malformed JSON"
    message = first.get("msg", "malformed request")
    return f"{where}: {message}" if where else message


class App(FastAPI):
    """FastAPI with the security headers outermost, on every response (a 500 too)."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeaders(super().build_middleware_stack())


def create_app(db_url: str, ai_workers: int = 2, reports_dir: str | Path = REPORTS,
               limits: Limits | None = None) -> FastAPI:
    """The web app on the database ``db_url`` (an SQLAlchemy URL), showing the analysis reports in
    ``reports_dir``, with ``limits`` at every door (the defaults if None)."""
    server = Server(db_url, ai_workers, limits)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        server.hub.bind(asyncio.get_running_loop())
        listener = asyncio.create_task(listen(server.hub, server.store.listen_conninfo())) \
            if server.store.postgres else None
        await run_in_threadpool(server.thinker.resume)
        try:
            yield
        finally:
            if listener is not None:
                listener.cancel()
                with suppress(asyncio.CancelledError):
                    await listener
            server.thinker.shutdown()
            server.store.close()

    app = App(title="hexarena", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.server = server
    add_limits(app, server.limits)
    add_errors(app)
    add_routes(app, server)
    add_reports(app, Path(reports_dir))
    add_static(app)
    return app


def app_from_env() -> FastAPI:
    """The app on the database named by $HEXARENA_DB, reports from $HEXARENA_REPORTS, limits from
    $HEXARENA_LIMITS (for ``uvicorn --workers``)."""
    limits = Limits.from_json(os.environ[LIMITS_ENV]) if os.environ.get(LIMITS_ENV) else None
    return create_app(os.environ[DB_ENV], reports_dir=os.environ.get(REPORTS_ENV, REPORTS), limits=limits)


def add_limits(app: FastAPI, limits: Limits) -> None:
    """The middlewares that refuse before a route runs, outermost last: the client's address from a trusted
    proxy, then the rate per address (429), then the body's size (413)."""
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


def add_routes(app: FastAPI, server: Server) -> None:
    store = server.store

    @app.get("/api/games")
    def games() -> Response:
        return reply([game_info(name, rules=True) for name in hexarena.GAMES])

    @app.post("/api/matches")
    async def create(body: NewMatch, request: Request) -> Response:
        client = client_address(request.scope)
        return reply(await server.call(lambda: server.create(new_state(body.game, body.options), body.seats,
                                                             client)))

    @app.post("/api/matches/import")
    async def import_(body: Import, request: Request) -> Response:
        client = client_address(request.scope)
        return reply(await server.call(lambda: server.create(from_record(body.record), body.seats, client)))

    @app.get("/api/matches")
    async def listing(which: str = Query("", alias="list")) -> Response:
        if which not in ("open", "recent"):
            raise Refused(400, "list must be 'open' or 'recent'")
        return reply(await server.call(store.listing, which))

    @app.post("/api/matches/{match_id}/join")
    async def join(match_id: str) -> Response:
        token = new_token()
        seat = await server.call(store.join, match_id, token)
        server.changed(match_id)
        return reply({"seat": seat, "token": token})

    @app.get("/api/matches/{match_id}")
    async def get(match_id: str) -> Response:
        return reply(await server.call(lambda: server.object(store.get(match_id))))

    @app.post("/api/matches/{match_id}/moves")
    async def move(match_id: str, body: MovePost) -> Response:
        return reply(await server.call(server.move, match_id, body))

    @app.post("/api/matches/{match_id}/undo")
    async def undo(match_id: str, body: UndoPost) -> Response:
        return reply(await server.call(server.undo, match_id, body))

    @app.post("/api/matches/{match_id}/resign")
    async def resign(match_id: str, body: ResignPost) -> Response:
        return reply(await server.call(server.resign, match_id, body))

    @app.get("/api/matches/{match_id}/hint")
    def hint(match_id: str, token: str = "") -> Response:
        return reply(server.hint(match_id, token))

    @app.get("/api/matches/{match_id}/position")
    def at(match_id: str, ply: int) -> Response:
        state = position(store.get(match_id), ply)
        return reply({"ply": ply, "svg": state.svg(), "status": state.game.status(state)})

    @app.get("/api/matches/{match_id}/record.json")
    def record_json(match_id: str) -> Response:
        match = store.get(match_id)
        return download(dumps(match.state.record()) + "\n", "application/json", match, "json")

    @app.get("/api/matches/{match_id}/record.txt")
    def record_txt(match_id: str) -> Response:
        match = store.get(match_id)
        return download(match.state.record_text() + "\n", "text/plain; charset=utf-8", match, "txt")

    @app.websocket("/api/matches/{match_id}/live")
    async def live(ws: WebSocket, match_id: str) -> None:
        await ws.accept()
        address = client_address(ws.scope)
        if not server.sockets.open(address):
            await ws.send_text(dumps({"error": f"too many live connections from your address (at most "
                                               f"{server.sockets.most})"}))
            await ws.close(code=4429)
            return
        queue = server.hub.watch(match_id)
        try:
            await push_changes(ws, server, match_id, queue)
        except WebSocketDisconnect:
            pass
        finally:
            server.hub.unwatch(match_id, queue)
            server.sockets.close(address)


def download(body: str, media_type: str, match: Match, ext: str) -> Response:
    name = f"hexarena-{match.state.game.name}-{match.id}.{ext}"
    return Response(body, media_type=media_type, headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def push_changes(ws: WebSocket, server: Server, match_id: str, queue: asyncio.Queue[None]) -> None:
    """Send the match object now and after every change, until the client leaves."""
    closed = asyncio.ensure_future(drain(ws))
    sent = None
    try:
        while True:
            try:
                obj = await server.call(lambda: server.object(server.store.get(match_id)))
            except Refused as e:
                await ws.send_text(dumps({"error": e.message}))
                await ws.close(code=4404)
                return
            text = dumps(obj)
            if text != sent:
                await ws.send_text(text)
                sent = text
            woken = asyncio.ensure_future(queue.get())
            done, _ = await asyncio.wait({woken, closed}, return_when=asyncio.FIRST_COMPLETED)
            if closed in done:
                woken.cancel()
                return
    finally:
        closed.cancel()


async def drain(ws: WebSocket) -> None:
    """Read (and ignore) what the client sends, until it disconnects."""
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return


def add_reports(app: FastAPI, root: Path) -> None:
    """The analysis reports: listed (JSON and HTML) and shown."""

    def found(name: str) -> Path:
        path = reports.report_dir(root, name)
        if path is None:
            raise Refused(404, f"no report {shown(name)}")
        return path

    @app.get("/api/reports")
    def report_list() -> Response:
        return reply(reports.listing(root))

    @app.get("/api/reports/{name}")
    def report_json(name: str) -> FileResponse:
        return FileResponse(found(name) / "report.json", media_type="application/json")

    @app.get("/reports", include_in_schema=False)
    def report_index() -> HTMLResponse:
        return HTMLResponse(reports.index_page(root))

    @app.get("/reports/{name}", include_in_schema=False)
    def report_page(name: str) -> FileResponse:
        page = found(name) / "report.html"
        return FileResponse(page, media_type="text/html",
                            headers={"Content-Security-Policy": reports.page_policy(page)})


def add_static(app: FastAPI) -> None:
    """The browser client: / is its page, /static/ the rest."""
    STATIC.mkdir(exist_ok=True)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
