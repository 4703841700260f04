"""Live updates: which matches changed, told to the WebSockets that watch them.

In one process an asyncio hub wakes every watcher of a match; with
PostgreSQL a listener per process turns other processes' NOTIFYs (sent by
:class:`~hexarena.server.store.Store` in the same transaction as the change)
into the same wake-ups.
"""

from __future__ import annotations

import asyncio
import logging

import psycopg

from .store import NOTIFY_CHANNEL

log = logging.getLogger("hexarena.server")


class Hub:
    """Per match, the queues of its watchers; :meth:`publish` is safe from any thread."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._watchers: dict[str, set[asyncio.Queue[None]]] = {}

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def watch(self, match_id: str) -> asyncio.Queue[None]:
        queue: asyncio.Queue[None] = asyncio.Queue(maxsize=1)
        self._watchers.setdefault(match_id, set()).add(queue)
        return queue

    def unwatch(self, match_id: str, queue: asyncio.Queue[None]) -> None:
        queues = self._watchers.get(match_id, set())
        queues.discard(queue)
        if not queues:
            self._watchers.pop(match_id, None)

    def publish(self, match_id: str) -> None:
        """Wake ``match_id``'s watchers (from any thread)."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.wake, match_id)

    def wake(self, match_id: str) -> None:
        """Wake ``match_id``'s watchers (on the event loop); a pending wake-up covers later ones."""
        for queue in self._watchers.get(match_id, ()):
            if queue.empty():
                queue.put_nowait(None)


async def listen(hub: Hub, conninfo: str) -> None:
    """LISTEN for changes made by every process; reconnect after a lost connection."""
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
                await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                async for note in conn.notifies():
                    hub.wake(note.payload)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a lost connection: try again shortly
            log.warning("hexarena: live updates across processes interrupted (%s); reconnecting", e)
            await asyncio.sleep(1)
