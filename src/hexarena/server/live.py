"""Live updates: which matches changed, told to the WebSockets that watch them.

In one process a hub wakes every watcher of a topic (a match's id, an account's topic) on the event loop the
watcher waits in; with PostgreSQL a listener per process turns other processes' NOTIFYs (sent by
:func:`~hexarena.server.store.notify.notify` in the same transaction as the change) into the same wake-ups.
Each change is read and serialised once for all the watchers of its topic (:meth:`Hub.snapshot`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, field

import psycopg

from .store.notify import NOTIFY_CHANNEL

log = logging.getLogger("hexarena.server")


class Watch:
    """One watcher of ``topic``: its wake-ups, delivered on the event loop it was made in (an asyncio queue is
    not thread-safe, and a wake-up from another loop's thread would not wake this one)."""

    def __init__(self, topic: str) -> None:
        self.topic = topic
        self.loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[None] = asyncio.Queue(maxsize=1)

    def wake(self) -> None:
        """Mark a change (on :attr:`loop`); a pending wake-up covers later ones."""
        if self._queue.empty():
            self._queue.put_nowait(None)

    def woken(self) -> bool:
        """Whether a change is pending (on :attr:`loop`)."""
        return not self._queue.empty()

    async def changed(self) -> None:
        """Wait for the next change, and take it."""
        await self._queue.get()

    def clear(self) -> None:
        """Take a pending change, if any (its news is about to be read)."""
        if not self._queue.empty():
            self._queue.get_nowait()


@dataclass
class Topic:
    """A watched topic: its watchers, the changes published so far and, per event loop, the latest snapshot
    (the count of changes when its read began, the read)."""

    watches: set[Watch] = field(default_factory=set)
    changes: int = 0
    snapshots: dict[asyncio.AbstractEventLoop, tuple[int, asyncio.Task[str]]] = field(default_factory=dict)


class Hub:
    """Per topic, its watchers; :meth:`publish` is safe from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._topics: dict[str, Topic] = {}

    def watch(self, topic: str) -> Watch:
        """A new watcher of ``topic``, woken on the running event loop."""
        watch = Watch(topic)
        with self._lock:
            self._topics.setdefault(topic, Topic()).watches.add(watch)
        return watch

    def unwatch(self, watch: Watch) -> None:
        with self._lock:
            known = self._topics.get(watch.topic)
            if known is not None:
                known.watches.discard(watch)
                if not known.watches:
                    del self._topics[watch.topic]

    def publish(self, topic: str) -> None:
        """Tell ``topic``'s watchers that it changed (from any thread, after the change is committed)."""
        with self._lock:
            known = self._topics.get(topic)
            if known is None:
                return
            known.changes += 1
            watches = list(known.watches)
        for watch in watches:
            wake(watch)

    def publish_all(self) -> None:
        """Tell every watcher that its topic may have changed (changes may have gone unheard)."""
        with self._lock:
            topics = list(self._topics)
        for topic in topics:
            self.publish(topic)

    async def snapshot(self, watch: Watch, read: Callable[[], Awaitable[str]], fresh: bool = False) -> str:
        """What ``read`` gives for ``watch``'s topic after its latest change: read once per change and event
        loop, however many watch it, by a read begun after the change was published.  ``fresh``: read anew
        (a watcher's first read: what changed before it came may never have been published)."""
        with self._lock:
            known = self._topics.get(watch.topic)
            changes = known.changes if known is not None else 0
            taken = known.snapshots.get(watch.loop) if known is not None else None
            if fresh or taken is None or taken[0] != changes:
                taken = (changes, asyncio.ensure_future(read()))
                if known is not None:
                    known.snapshots[watch.loop] = taken
        return await asyncio.shield(taken[1])  # a watcher that leaves does not cancel the others' read


def wake(watch: Watch) -> None:
    """Wake ``watch`` through its own event loop (a closed loop: its watcher is gone)."""
    with suppress(RuntimeError):
        watch.loop.call_soon_threadsafe(watch.wake)


async def listen(hub: Hub, conninfo: str) -> None:
    """LISTEN for changes made by every process; reconnect after a lost connection, and then wake every watcher
    (what changed meanwhile was not heard)."""
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
                await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                hub.publish_all()
                async for note in conn.notifies():
                    hub.publish(note.payload)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a lost connection: try again shortly
            log.warning("hexarena: live updates across processes interrupted (%s); reconnecting", e)
            await asyncio.sleep(1)
