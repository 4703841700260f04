"""/api/championships: each game's standing championship, joined and left (docs/server.md, "Tournaments and
championships")."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from ..deps import AccountDep, ServerDep, SignedIn
from ..http import reply
from ..models import Championship

router = APIRouter(prefix="/api/championships", tags=["tournaments"])


@router.get("", response_model=list[Championship])
async def listing(server: ServerDep, account: AccountDep) -> Response:
    """Every game's championship: its sign-ups, cycle, status and divisions."""
    return reply(await server.call(server.tournaments.championships.listing, account))


@router.get("/{game}", response_model=Championship)
async def championship(game: str, server: ServerDep, account: AccountDep) -> Response:
    """One game's championship, with the players signed up and when its next cycle may start."""
    return reply(await server.call(server.tournaments.championships.shown, game, account))


@router.post("/{game}/join", response_model=Championship)
async def join(game: str, server: ServerDep, account: SignedIn) -> Response:
    """Sign up for ``game``'s championship: in every cycle from the next until you leave."""
    await server.call(server.tournaments.championships.join, account, game)
    return reply(await server.call(server.tournaments.championships.shown, game, account))


@router.post("/{game}/leave", response_model=Championship)
async def leave(game: str, server: ServerDep, account: SignedIn) -> Response:
    await server.call(server.tournaments.championships.leave, account, game)
    return reply(await server.call(server.tournaments.championships.shown, game, account))
