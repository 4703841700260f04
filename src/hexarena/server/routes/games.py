"""GET /api/games: every game with its options and rules."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

import hexarena
from hexarena.info import game_info

from ..http import reply
from ..models import GameInfo

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("", response_model=list[GameInfo])
def games() -> Response:
    return reply([game_info(name, rules=True) for name in hexarena.GAMES])
