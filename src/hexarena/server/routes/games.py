"""GET /api/games: every game with its options, rules, the time controls' bounds and the AI's levels."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

import hexarena
from hexarena.ai.mcts import LEVELS
from hexarena.info import game_info
from hexarena.time_control import bounds

from ..http import reply
from ..models import GameInfo

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("", response_model=list[GameInfo])
def games() -> Response:
    clocks, levels = bounds(), {"min": min(LEVELS), "max": max(LEVELS)}
    return reply([{**game_info(name, rules=True), "time_control": clocks, "ai_levels": levels}
                  for name in hexarena.GAMES])
