"""Waits that fail the test, naming what did not come, rather than hang the suite: the next message of a
starlette TestClient WebSocket (its ``receive_text()`` blocks for ever), threads, a subprocess's next line."""

from __future__ import annotations

import json
import select
import threading
import time
from collections.abc import Callable
from typing import IO, Any

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


def joined(threads: list[threading.Thread], seconds: float = WAIT) -> None:
    """Wait for every thread of ``threads`` (daemons, so a stuck one cannot keep the run alive): fails, naming
    how many still run, after ``seconds`` in all."""
    deadline = time.monotonic() + seconds
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    stuck = sum(t.is_alive() for t in threads)
    assert not stuck, f"{stuck} of {len(threads)} threads still running after {seconds:g} s"


def read_line(stream: IO[str], seconds: float = WAIT) -> str:
    """The next line a subprocess writes to its pipe ``stream`` (text mode): fails after ``seconds`` without one."""
    if not select.select([stream], [], [], seconds)[0]:
        pytest.fail(f"no line from the subprocess within {seconds:g} s")
    return stream.readline()


def until(what: Callable[[], Any], message: str, seconds: float = 60.0) -> Any:
    """``what()`` once it is truthy, polled; fails with ``message`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not (found := what()):
        assert time.monotonic() < deadline, message
        time.sleep(0.05)
    return found
