"""/api/users: a player's profile."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from .. import lists
from ..core import Server
from ..deps import ServerDep
from ..http import reply

router = APIRouter(prefix="/api/users", tags=["users"])


def profile(server: Server, name: str) -> dict[str, Any]:
    """Player ``name``'s name, when they joined, ratings, and matches (ongoing and finished, newest first)."""
    found = server.accounts.profile(name)
    matches = lists.summaries(server.store, found["id"], over=None, limit=lists.PROFILE)
    return {"name": found["name"], "joined": found["joined"], "ratings": {}, "matches": matches}


@router.get("/{name}")
async def user(name: str, server: ServerDep) -> Response:
    return reply(await server.call(profile, server, name))
