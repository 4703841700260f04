"""/api/matches: create, import, list, join, read, move, undo, resign, hint, replay positions, records and the
live feed of a match."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect
from fastapi.responses import Response

from ..changes import from_record, new_state, position
from ..accounts import Account
from ..core import Server
from ..deps import AccountDep, ClientDep, ServerDep
from ..http import download, dumps, reply
from ..live import Hub, Watch
from ..models import Hint, Joined, MatchCreated, MatchListed, MatchObject, Position, Preview, Review
from ..scoring import record_of
from ..errors import Refused
from ..store.matches import Match
from ..store.seats import new_token
from ..view import shown_fields
from .bodies import Import, MovePost, NewMatch, PreviewPost, ResignPost, TurnPost, UndoPost

router = APIRouter(prefix="/api/matches", tags=["matches"])


@router.post("", response_model=MatchCreated)
async def create(body: NewMatch, server: ServerDep, client: ClientDep, account: AccountDep) -> Response:
    return reply(await server.call(lambda: server.create(new_state(body.game, body.options), body.seats, client,
                                                         account)))


@router.post("/import", response_model=MatchCreated)
async def import_(body: Import, server: ServerDep, client: ClientDep, account: AccountDep) -> Response:
    return reply(await server.call(lambda: server.create(from_record(body.record), body.seats, client, account),
                                   heavy=True))


@router.get("", response_model=list[MatchListed])
async def listing(server: ServerDep, which: str = Query("", alias="list")) -> Response:
    if which not in ("open", "recent"):
        raise Refused(400, "list must be 'open' or 'recent'")
    return reply(await server.call(server.store.lookups.listing, which))


@router.post("/{match_id}/join", response_model=Joined)
async def join(match_id: str, server: ServerDep, account: AccountDep) -> Response:
    token = new_token()
    seat = await server.call(server.store.joins.join, match_id, token, account.id if account else None)
    server.changed(match_id)
    return reply({"seat": seat, "token": token})


@router.get("/{match_id}", response_model=MatchObject)
async def get(match_id: str, server: ServerDep) -> Response:
    return reply(await server.call(match_object, server, match_id, heavy=server.heavy(match_id)))


def match_object(server: Server, match_id: str) -> dict[str, Any]:
    """The match object of ``match_id`` as stored now."""
    return server.object(server.store.matches.get(match_id))


@router.post("/{match_id}/moves", response_model=MatchObject)
async def move(match_id: str, body: MovePost, server: ServerDep, account: AccountDep) -> Response:
    return reply(await server.call(server.move, match_id, body.move, body.token, body.ply, account,
                                   heavy=server.heavy(match_id)))


@router.post("/{match_id}/turn", response_model=MatchObject)
async def turn(match_id: str, body: TurnPost, server: ServerDep, account: AccountDep) -> Response:
    """Every step of one turn, applied all together or not at all."""
    return reply(await server.call(server.turn, match_id, body.moves, body.token, body.ply, account,
                                   heavy=server.heavy(match_id)))


@router.post("/{match_id}/undo", response_model=MatchObject)
async def undo(match_id: str, body: UndoPost, server: ServerDep, account: AccountDep) -> Response:
    return reply(await server.call(server.undo, match_id, body.token, body.ply, account,
                                   heavy=server.heavy(match_id)))


@router.post("/{match_id}/resign", response_model=MatchObject)
async def resign(match_id: str, body: ResignPost, server: ServerDep, account: AccountDep) -> Response:
    return reply(await server.call(server.resign, match_id, body.token, account, heavy=server.heavy(match_id)))


@router.get("/{match_id}/hint", response_model=Hint)
def hint(match_id: str, server: ServerDep, account: AccountDep, client: ClientDep, token: str = "",
         ply: int | None = None, move: Annotated[list[str] | None, Query()] = None) -> Response:
    """The AI's suggestion; in a finished match at any ``ply`` and after the line of ``move``s from there."""
    return reply(server.hint(match_id, token, account, ply, move, client))


@router.post("/{match_id}/preview", response_model=Preview)
async def preview(match_id: str, body: PreviewPost, server: ServerDep) -> Response:
    """The board after the match's first ``ply`` moves and then ``moves``; nothing is changed."""
    return reply(await server.call(server.preview, match_id, body.ply, body.moves, heavy=server.heavy(match_id)))


@router.get("/{match_id}/analysis", response_model=Review)
async def analysis(match_id: str, server: ServerDep) -> Response:
    """A finished match reviewed with the AI, every ply: started by the first ask, then its progress."""
    return reply(await server.call(server.reviews.get, match_id, heavy=server.heavy(match_id)))


@router.get("/{match_id}/position", response_model=Position)
def at(match_id: str, ply: int, server: ServerDep) -> Response:
    match = server.store.matches.get(match_id)
    state = position(match, ply)
    shown = shown_fields(state, server.final_of(match) if state is match.state else None)
    return reply({"ply": ply, "svg": shown["svg"], "status": shown["status"]})


def file_name(match: Match, ext: str) -> str:
    return f"hexarena-{match.state.game.name}-{match.id}.{ext}"


@router.get("/{match_id}/record.json")
def record_json(match_id: str, server: ServerDep) -> Response:
    match = server.store.matches.get(match_id)
    return download(dumps(record_of(match.state, server.final_of(match))) + "\n", "application/json",
                    file_name(match, "json"))


@router.get("/{match_id}/record.txt")
def record_txt(match_id: str, server: ServerDep) -> Response:
    match = server.store.matches.get(match_id)
    return download(match.state.record_text() + "\n", "text/plain; charset=utf-8", file_name(match, "txt"))


@router.websocket("/{match_id}/live")
async def live(ws: WebSocket, match_id: str, server: ServerDep, client: ClientDep, account: AccountDep,
               token: str = "") -> None:
    """The match object now and after every change.  Refused (4429) beyond the live connections of one address,
    and a spectator beyond the watchers of one match; its players (by session, or their seat's ``token``) always
    get in."""
    await ws.accept()
    if not server.sockets.open(client):
        return await refuse(ws, 4429, f"too many live connections from your address (at most {server.sockets.most})")
    counted = server.watchers.open(match_id)
    try:
        if not counted and not await seated(server, match_id, token, account):
            return await refuse(ws, 4429, f"too many watchers of this match (at most {server.watchers.most}); "
                                          f"its players always get in")
        watch = server.hub.watch(match_id)
        try:
            await push(ws, server.hub, watch, lambda: server.call(match_object, server, match_id,
                                                                  heavy=server.heavy(match_id)))
        except WebSocketDisconnect:
            pass
        finally:
            server.hub.unwatch(watch)
    finally:
        if counted:
            server.watchers.close(match_id)
        server.sockets.close(client)


async def seated(server: Server, match_id: str, token: str, account: Account | None) -> bool:
    """Whether ``token`` or the signed-in ``account`` holds a seat of ``match_id`` (an unknown match: no; neither
    given: no, unread)."""
    if not token and account is None:
        return False
    try:
        match = await server.call(server.store.matches.get, match_id)
    except Refused:
        return False
    return bool(match.seats_of(token, account.id if account else None))


async def refuse(ws: WebSocket, code: int, message: str) -> None:
    """Refuse an accepted socket: ``{"error": message}``, then close it with ``code``."""
    await ws.send_text(dumps({"error": message}))
    await ws.close(code=code)


async def push(ws: WebSocket, hub: Hub, watch: Watch, read: Callable[[], Awaitable[Any]], settle: float = 0.0
               ) -> None:
    """Send what ``read`` gives now and whenever ``watch``'s topic changes, until the client leaves; a change is
    read and serialised once for all its watchers (:meth:`Hub.snapshot`), and sent only if it shows something
    new.  A refusal is sent and closes the socket (4404).  With ``settle``, a wake-up waits that long first, so
    the changes meanwhile are read once."""
    closed = asyncio.ensure_future(drain(ws))
    sent, fresh = None, True
    try:
        while True:
            try:
                text = await hub.snapshot(watch, lambda: serialised(read), fresh)
            except Refused as e:
                return await refuse(ws, 4404, e.message)
            fresh = False
            if text != sent:
                await ws.send_text(text)
                sent = text
            woken = asyncio.ensure_future(watch.changed())
            done, _ = await asyncio.wait({woken, closed}, return_when=asyncio.FIRST_COMPLETED)
            if closed in done:
                woken.cancel()
                return
            if settle:
                await asyncio.sleep(settle)
                watch.clear()
    finally:
        closed.cancel()


async def serialised(read: Callable[[], Awaitable[Any]]) -> str:
    return dumps(await read())


async def drain(ws: WebSocket) -> None:
    """Read (and ignore) what the client sends, until it disconnects."""
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
