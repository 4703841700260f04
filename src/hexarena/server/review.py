"""Reviews of finished matches with the AI (docs/server.md, "Review"): the first ask starts one in the background,
on the AI's scheduler and worker pool (fair with the AI seats' searches), every later ask reads its progress,
and once done it is kept in the ``reviews`` table for the match's moves and result.  No web framework here: the
route is in :mod:`.routes.matches`.
"""

from __future__ import annotations

import threading
from collections.abc import Generator
from typing import Any

from sqlalchemy import delete, insert, select

from hexarena.games.base import State
from hexarena.record_writer import at

from .schema import reviews
from .fair import check_help
from .scoring import digest
from .errors import Refused
from .store import Store
from .searchers import Pool, Review
from .thinker import SLICE_SECONDS, Scheduler, current_lane

REVIEW_LEVEL = 5       # the AI level that searches each position
REVIEW_SECONDS = 0.5   # the most a position is searched
KEY = "review:"        # the scheduler's key of a match's review (a match id never holds a colon)


class Reviews:
    """The reviews of ``store``'s matches, searched on ``pool`` in turns that ``scheduler`` gives."""

    def __init__(self, store: Store, scheduler: Scheduler, pool: Pool, seconds: float = REVIEW_SECONDS) -> None:
        self.store, self.scheduler, self.pool, self.seconds = store, scheduler, pool, seconds
        self._lock = threading.Lock()
        self._running: dict[tuple[str, str], int] = {}  # (match, digest) -> positions searched so far

    def get(self, match_id: str) -> dict[str, Any]:
        """``{"status": "done", "progress": 1, "plies": [...]}`` once reviewed, else ``{"status": "running",
        "progress": p, "plies": []}`` (started now if it was not); 409 while the game goes on (403 where
        :mod:`.fair` closes it)."""
        match = self.store.matches.get(match_id)
        check_help(match, "reviews")
        if not match.state.is_over():
            raise Refused(409, "a review is for a finished game: finish or resign it first")
        key = (match_id, digest(match.state))
        with self.store.db.engine.connect() as conn:
            row = conn.execute(select(reviews).where(reviews.c.match_id == match_id)).first()
        if row is not None and row.digest == key[1]:
            return {"status": "done", "progress": 1.0, "plies": row.plies}
        total = max(1, match.ply)
        with self._lock:
            if key not in self._running:
                self._running[key] = 0
                state = match.state.copy()
                self.scheduler.kick(KEY + match_id, lambda: self._review(key, state))
            done = self._running[key]
        return {"status": "running", "progress": round(min(done, total) / total, 3), "plies": []}

    def _review(self, key: tuple[str, str], state: State) -> Generator[None, None, None]:
        """The review job: searched in slices on the pool, its progress counted, kept when done."""
        try:
            steps = self.pool.run(current_lane(), Review(state, REVIEW_LEVEL, self.seconds, SLICE_SECONDS))
            while True:
                try:
                    searched = next(steps)
                except StopIteration as done:
                    self._keep(key, done.value[0])
                    return
                if searched is not None:
                    with self._lock:
                        self._running[key] = searched
                yield
        finally:
            with self._lock:
                self._running.pop(key, None)

    def _keep(self, key: tuple[str, str], plies: list[dict[str, Any]]) -> None:
        match_id, made = key
        with self.store.db.write() as conn:
            conn.execute(delete(reviews).where(reviews.c.match_id == match_id))
            conn.execute(insert(reviews).values(match_id=match_id, digest=made, plies=plies,
                                                created=at(self.store.db.clock())))
