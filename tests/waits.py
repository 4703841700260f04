"""Waits that fail the test, naming what did not come, rather than hang the suite: the next message of a
starlette TestClient WebSocket (its ``receive_text()`` blocks for ever)."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from starlette.testclient import WebSocketTestSession
from starlette.types import Message

WAIT = 30.0  # seconds: far more than any message takes, even on a loaded machine


def receive(ws: WebSocketTestSession, seconds: float = WAIT) -> Message:
    """The socket's next ASGI message, waited for in the socket's own event loop (so the wait is cancelled
    there: nothing is left blocked); fails after ``seconds``."""

    async def next_message() -> Message:
        with anyio.fail_after(seconds):
            message: Message = await ws._send_rx.receive()
            return message

    try:
        return ws.portal.call(next_message)
    except TimeoutError:
        pytest.fail(f"no WebSocket message within {seconds:g} s")


def receive_text(ws: WebSocketTestSession, seconds: float = WAIT) -> str:
    """``ws.receive_text()`` within ``seconds`` (a close raises WebSocketDisconnect, as there)."""
    message = receive(ws, seconds)
    ws._raise_on_close(message)
    text: str = message["text"]
    return text


def receive_json(ws: WebSocketTestSession, seconds: float = WAIT) -> Any:
    """``ws.receive_json()`` within ``seconds``."""
    return json.loads(receive_text(ws, seconds))
