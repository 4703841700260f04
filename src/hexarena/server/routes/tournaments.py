"""/api/tournaments: events made, listed, read, joined, left, an AI invited, started, exported, watched live
(docs/server.md, "Tournaments and championships")."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import Response

from ..deps import ClientDep, ServerDep, SignedIn
from ..http import reply
from ..models import EventObject, EventSummary
from ..tournaments.rows import event_topic
from .bodies import Invite, NewTournament
from .matches import push, refuse

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])

SETTLE = 1.0  # seconds an event's live socket waits after a change, so the changes meanwhile are read once

@router.post("", response_model=EventObject)
async def create(body: NewTournament, server: ServerDep, account: SignedIn) -> Response:
    """A new upcoming event by the signed-in account (not entered by making it)."""
    return reply(await server.call(server.tournaments.create, account, body.model_dump()))


@router.get("", response_model=list[EventSummary])
async def listing(server: ServerDep, status: str | None = None, game: str | None = None) -> Response:
    """The events, newest first; ``?status=upcoming|running|finished``, ``?game=NAME``: only those."""
    return reply(await server.call(server.tournaments.reads.listing, status, game))


@router.get("/{event_id}", response_model=EventObject)
async def event(event_id: str, server: ServerDep) -> Response:
    return reply(await server.call(server.tournaments.reads.event, event_id))


@router.get("/{event_id}/export.json", response_model=EventObject)
async def export(event_id: str, server: ServerDep) -> Response:
    """The event object of a running or finished event, as a download for archives (409 before the start)."""
    found = await server.call(server.tournaments.export, event_id)
    answer = reply(found)
    answer.headers["content-disposition"] = f'attachment; filename="hexarena-event-{event_id}.json"'
    return answer


@router.post("/{event_id}/join", response_model=EventObject)
async def join(event_id: str, server: ServerDep, account: SignedIn) -> Response:
    return reply(await server.call(server.tournaments.join, account, event_id))


@router.post("/{event_id}/withdraw", response_model=EventObject)
async def withdraw(event_id: str, server: ServerDep, account: SignedIn) -> Response:
    return reply(await server.call(server.tournaments.withdraw, account, event_id))


@router.post("/{event_id}/invite", response_model=EventObject)
async def invite(event_id: str, body: Invite, server: ServerDep, account: SignedIn) -> Response:
    return reply(await server.call(server.tournaments.invite, account, event_id, body.name))


@router.post("/{event_id}/start", response_model=EventObject)
async def start(event_id: str, server: ServerDep, account: SignedIn) -> Response:
    return reply(await server.call(server.tournaments.start, account, event_id))


@router.websocket("/{event_id}/live")
async def live(ws: WebSocket, event_id: str, server: ServerDep, client: ClientDep) -> None:
    """The event object now and after every change of the event or of one of its games (a move: its ``ply``),
    read at most once every :data:`SETTLE` seconds (an event of 100 games moving at once is read once for them)."""
    await ws.accept()
    if not server.sockets.open(client):
        return await refuse(ws, 4429, f"too many live connections from your address (at most {server.sockets.most})")
    watch = server.hub.watch(event_topic(event_id))
    try:
        await push(ws, server.hub, watch, lambda: server.call(server.tournaments.reads.event, event_id),
                   settle=SETTLE)
    except WebSocketDisconnect:
        pass
    finally:
        server.hub.unwatch(watch)
        server.sockets.close(client)
