"""The line said before numba compiles a part of hexarena for the first
time (a game's rules, the AI's search), so that a first call that takes a
minute does not look like a hang.

Code that may compile runs inside ``announcing(key, text)``; when numba
really compiles there (its on-disk cache empty or stale: numba's
``numba:compile`` event, which loading from the cache does not send),
``text`` is said, once per process and ``key``: on stderr, or through the
``say`` of a front end that words it its own way (the terminal, whose
block around the search keeps its words over the library's inner ones for
the same key).  Loading from the cache says nothing.
``HEXARENA_COMPILE_NOTICE=0`` silences the stderr line (the test suite
does).  :func:`compiles` counts numba's compiles in this process (what
``hexarena warmup`` reports).  It imports nothing from hexarena.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from numba.core import event

Say = Callable[[str], None]

_said: set[str] = set()
_pending: ContextVar[tuple[str, str, Say | None] | None] = ContextVar("hexarena_compile_notice", default=None)
_lock = threading.Lock()
_compiles = 0


class _Listener(event.Listener):
    """Counts numba's compiles and says the pending notice at the start of one (in the thread that compiles)."""

    def on_start(self, ev: event.Event) -> None:
        global _compiles
        with _lock:
            _compiles += 1
        pending = _pending.get()
        if pending is None:
            return
        key, text, say = pending
        with _lock:
            if key in _said:
                return
            _said.add(key)
        if say is not None:
            say(text)
        elif os.environ.get("HEXARENA_COMPILE_NOTICE", "1") != "0":
            print(text, file=sys.stderr, flush=True)

    def on_end(self, ev: event.Event) -> None:
        pass


event.register("numba:compile", _Listener())


@contextmanager
def announcing(key: str, text: str, say: Say | None = None) -> Iterator[None]:
    """Say ``text`` (through ``say``, else on stderr) if numba compiles inside this block and ``key`` was not
    said in this process; inside an outer block for the same ``key``, the outer block's words are said."""
    pending = _pending.get()
    if key in _said or (pending is not None and pending[0] == key):
        yield
        return
    token = _pending.set((key, text, say))
    try:
        yield
    finally:
        _pending.reset(token)


def compiles() -> int:
    """How many functions numba has compiled in this process (hexarena's and numba's own; none loaded from
    its cache are counted)."""
    return _compiles
