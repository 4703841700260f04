"""/api/leaderboard: a game's top players and its AI ladder."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

import hexarena

from .. import rating
from ..core import Server
from ..deps import ServerDep
from ..http import reply
from ..errors import Refused
from ..models import Leader, Rung

router = APIRouter(prefix="/api/leaderboard", tags=["ratings"])


def read(server: Server, board: Any, game: str) -> list[dict[str, Any]]:
    """``board`` (:func:`.rating.leaderboard` or :func:`.rating.ladder`) of ``game``; 404 for an unknown game."""
    if game not in hexarena.GAMES:
        raise Refused(404, f"no game {game[:64]!r}; games: {', '.join(hexarena.GAMES)}")
    with server.store.db.engine.connect() as conn:
        return board(conn, game)


@router.get("/{game}", response_model=list[Leader])
async def leaderboard(game: str, server: ServerDep) -> Response:
    """The game's top 50 established players (rating deviation at most 110), best first."""
    return reply(await server.call(read, server, rating.leaderboard, game))


@router.get("/{game}/ai", response_model=list[Rung])
async def ladder(game: str, server: ServerDep) -> Response:
    """The AI levels' ratings in the game, level 1 first."""
    return reply(await server.call(read, server, rating.ladder, game))
