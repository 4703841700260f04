"""The AI seats: their moves searched off the request path, in threads.

The numba search releases the GIL, so a thread pool searches while the
event loop and the request threads keep answering.  A move found is stored
through the same transaction as a person's (checked against the ply it was
searched at), so a move made meanwhile (an undo, a resignation) simply
discards it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from hexarena.ai import compile_notice

from .store import Refused, Store

log = logging.getLogger("hexarena.server")


class Thinker:
    """Plays the AI seats of matches; :meth:`kick` after any change."""

    def __init__(self, store: Store, changed: Callable[[str], None], workers: int = 2) -> None:
        self.store, self.changed = store, changed
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hexarena-ai")
        self._lock = threading.Lock()
        self._wanted: set[str] = set()   # matches to look at
        self._running: set[str] = set()  # matches a worker is playing

    def kick(self, match_id: str) -> None:
        """Play ``match_id``'s AI moves if an AI is to move (now or after the running search)."""
        with self._lock:
            self._wanted.add(match_id)
            if match_id in self._running:
                return
            self._running.add(match_id)
        self.pool.submit(self._run, match_id)

    def resume(self) -> None:
        """Kick every unfinished match with an AI seat (after a restart)."""
        for match_id in self.store.unfinished_ai_matches():
            self.kick(match_id)

    def shutdown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    def _run(self, match_id: str) -> None:
        while True:
            with self._lock:
                if match_id not in self._wanted:
                    self._running.discard(match_id)
                    return
                self._wanted.discard(match_id)
            try:
                with self.store.claim(match_id) as mine:
                    if mine:
                        self._play(match_id)
            except Exception:  # keep the worker alive; the next change kicks the match again
                log.exception("hexarena: the AI of match %s failed", match_id)

    def _play(self, match_id: str) -> None:
        """Play the AI's steps while an AI is to move, each committed and announced."""
        while self._step(match_id):
            self.changed(match_id)

    def _step(self, match_id: str) -> bool:
        """Search and commit one step of the AI to move; False when no AI is
        to move or the match changed while it searched."""
        match = self.store.get(match_id)
        ai = match.ai_to_move()
        if ai is None:
            return False
        seat, ply = match.state.to_move, match.ply
        notice = compile_notice(match.state.game)
        if notice:  # on the server's console
            log.warning("hexarena: %s", notice)
        move = ai.make(seed=None).choose(match.state.copy())

        def play(now, state) -> None:
            if now.ply != ply or state.to_move != seat or state.resigned is not None:
                raise Refused(409, "the match changed while the AI searched")
            state.play(move)

        try:
            self.store.change(match_id, play)
        except Refused:
            return False
        return True
