"""The line said on stderr before numba compiles a part of hexarena for the
first time (a game's rules, the AI's search), so that a first call that
takes a minute does not look like a hang.

Code that may compile runs inside ``announcing(key, text)``; when numba
really compiles there (its on-disk cache empty or stale: numba's
``numba:compile`` event, which loading from the cache does not send),
``text`` goes to stderr, once per process and ``key``.  Loading from the
cache says nothing.  ``HEXARENA_COMPILE_NOTICE=0`` silences it (the test
suite does).  It imports nothing from hexarena.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from numba.core import event

_said: set[str] = set()
_pending: ContextVar[tuple[str, str] | None] = ContextVar("hexarena_compile_notice", default=None)
_lock = threading.Lock()


class _Listener(event.Listener):
    """Says the pending notice at the start of a compile (in the thread that compiles)."""

    def on_start(self, ev: event.Event) -> None:
        pending = _pending.get()
        if pending is None:
            return
        key, text = pending
        with _lock:
            if key in _said:
                return
            _said.add(key)
        if os.environ.get("HEXARENA_COMPILE_NOTICE", "1") != "0":
            print(text, file=sys.stderr, flush=True)

    def on_end(self, ev: event.Event) -> None:
        pass


event.register("numba:compile", _Listener())


@contextmanager
def announcing(key: str, text: str) -> Iterator[None]:
    """Say ``text`` on stderr if numba compiles inside this block and ``key`` was not said in this process."""
    if key in _said:
        yield
        return
    token = _pending.set((key, text))
    try:
        yield
    finally:
        _pending.reset(token)


def mark_said(key: str) -> None:
    """Count ``key`` as said (a front end said it in its own words)."""
    with _lock:
        _said.add(key)
