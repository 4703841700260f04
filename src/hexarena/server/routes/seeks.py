"""/api/seeks: post a seek or a challenge, list them, accept one (a match starts), withdraw or decline one."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from ..deps import ClientDep, ServerDep, SignedIn
from ..http import reply
from ..models import Accepted, Empty, ListedSeek, Seek
from .bodies import NewSeek

router = APIRouter(prefix="/api/seeks", tags=["seeks"])


@router.post("", response_model=Seek)
async def post(body: NewSeek, server: ServerDep, account: SignedIn, client: ClientDep) -> Response:
    return reply(await server.call(server.seeks.post, account, body.game, body.options, body.clock, body.rated,
                                   body.colour, body.to, client))


@router.get("", response_model=list[ListedSeek])
async def listing(server: ServerDep, account: SignedIn, game: str | None = None, rating: str | None = None
                  ) -> Response:
    """The seeks (docs/server.md "Seeks and challenges"); ``?game=NAME`` only that game's, ``?rating=MIN-MAX`` only
    others' seeks by players rated in the range."""
    return reply(await server.call(server.seeks.listing, account, game, rating))


@router.post("/{seek_id}/accept", response_model=Accepted)
async def accept(seek_id: str, server: ServerDep, account: SignedIn, client: ClientDep) -> Response:
    return reply({"match": await server.call(server.seeks.accept, account, seek_id, client)})


@router.delete("/{seek_id}", response_model=Empty)
async def withdraw(seek_id: str, server: ServerDep, account: SignedIn) -> Response:
    await server.call(server.seeks.withdraw, account, seek_id)
    return reply({})
