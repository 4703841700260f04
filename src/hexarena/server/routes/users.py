"""/api/users: a player's profile."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from .. import lists, rating
from ..core import Server
from ..deps import ServerDep
from ..http import reply
from ..models import Profile

router = APIRouter(prefix="/api/users", tags=["users"])


def profile(server: Server, name: str) -> dict[str, Any]:
    """Player ``name``'s name, when they joined, ratings (with their history, and the record against each AI
    level), how they lost their recent rated games (``conduct``: :func:`~..rating.conduct`), matches (ongoing and
    finished, newest first) and events (newest first)."""
    found = server.accounts.profile(name)
    matches = lists.summaries(server.store, found["id"], over=None, limit=lists.PROFILE)
    with server.store.db.engine.connect() as conn:
        ratings = {"ratings": rating.account_ratings(conn, found["id"]), "history": rating.history(conn, found["id"]),
                   "against_ai": rating.against_ai(conn, found["id"]), "conduct": rating.conduct(conn, found["id"])}
    return {"name": found["name"], "joined": found["joined"], "ai_level": found["ai_level"], **ratings,
            "matches": matches, "events": server.tournaments.reads.of_account(found["id"])}


@router.get("/{name}", response_model=Profile)
async def user(name: str, server: ServerDep) -> Response:
    return reply(await server.call(profile, server, name))
