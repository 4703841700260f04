"""POST /api/matches/{id}/chat: a player's line in the match's chat (docs/server.md, "Chat"); everyone reads
it in the match object."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from ..deps import AccountDep, ServerDep
from ..http import reply
from ..models import ChatPosted
from .bodies import ChatPost

router = APIRouter(prefix="/api/matches", tags=["matches"])


@router.post("/{match_id}/chat", response_model=ChatPosted)
async def post(match_id: str, body: ChatPost, server: ServerDep, account: AccountDep) -> Response:
    return reply(await server.call(server.post_chat, match_id, body.text, body.token, account,
                                   heavy=server.heavy(match_id)))
