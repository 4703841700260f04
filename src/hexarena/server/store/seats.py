"""A match's seats and their tokens: who may sit ("me", "open", an AI "ai:LEVEL"), the names seats show, and the
seat tokens, stored only as hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from hexarena.ai import AgentSpec, parse_agent
from hexarena.games.options import shown

from ..errors import Refused

AI_SEAT = "ai:"  # an AI seat is "ai:LEVEL", as the web client reads it
DELETED = "(deleted)"  # the name a deleted account's seats show (no account can be named so)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_kind(spec: Any) -> str:
    """A seat of POST /api/matches checked: "me", "open" or an AI "ai:LEVEL"
    (the agent spec of MCTS at a level, :mod:`hexarena.ai.agents`)."""
    if spec in ("me", "open") or seat_agent(spec) is not None:
        return spec
    raise Refused(400, f"seat {shown(spec)} is not 'me', 'open' or 'ai:LEVEL' (LEVEL 1..10)")


def token_seats(tokens: list[str | None], token: Any) -> list[int]:
    """The seats whose stored token hash (``tokens``, per seat) is ``token``'s (none for no or a wrong token)."""
    if not isinstance(token, str) or not token:
        return []
    digest = token_hash(token)
    return [i for i, h in enumerate(tokens) if h is not None and hmac.compare_digest(h, digest)]


def seat_name(kind: str, name: str | None) -> str | None:
    """A seat's name as shown: its account's ``name``, "ai-N" for the AI at level N, or None for a guest or an
    open seat."""
    if name is not None:
        return name
    return f"ai-{kind[len(AI_SEAT):]}" if seat_agent(kind) is not None else None


def seat_agent(kind: Any) -> AgentSpec | None:
    """The agent of seat ``kind`` ("ai:7": MCTS at level 7), None for a person or anything else."""
    if not (isinstance(kind, str) and kind.startswith(AI_SEAT)):
        return None
    try:
        return parse_agent(kind)
    except ValueError:
        return None
