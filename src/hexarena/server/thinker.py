"""The AI seats: their moves searched off the request path, fairly across matches.

Each match whose AI is to move is a *job*: a generator that searches in
slices (:meth:`~hexarena.ai.mcts.MCTSAgent.hinting`), yielding after each
slice of at most about ``slice_seconds``.  A few worker threads (the numba
search releases the GIL) run one slice at a time of the job that has had
the least searching time so far (a match's virtual time, as a fair
scheduler counts it), so no match waits behind another's long search: a
new match starts at the smallest virtual time of those waiting and goes
next, and a match playing itself (AI against AI) gets its share like any
other.  A turn's searching time is bounded per level
(:data:`~hexarena.ai.mcts.LEVEL_SECONDS`), whatever the board size, and on a
real-time clock its wall time too (:func:`~.clocks.ai_seconds` from the turn's
start, waiting between slices included), so the AI keeps within its clock.

A move found is stored through the same transaction as a person's (checked
against the ply it was searched at), so a move made meanwhile (an undo, a
resignation) simply discards it.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable, Generator
from contextlib import suppress
from dataclasses import dataclass, field

from hexarena.ai import Agent, AgentSpec, compile_notice
from hexarena.ai.mcts import LEVEL_SECONDS, MCTSAgent
from hexarena.games.base import State

from . import clocks
from .store import Match, Refused, Store

log = logging.getLogger("hexarena.server")

SLICE_SECONDS = 0.25  # the most a job searches before the next job's turn (a chunk of numba work may add 0.05 s)
# a search's tree on the server (75 MB): with several searches in turn, memory stays bounded
TREE_NODES = 1 << 21
AI_NICE = 10  # how much nicer the AI threads are than the requests'
LAST_STEP_SECONDS = 0.05  # a step's search once its turn's time is spent (a turn of many steps still ends)
CLOCK_STEP_SECONDS = 0.01  # a step's wall time once its turn's share of a real-time clock is spent (the same reason)
Steps = Generator[None, None, None]


def lower_priority() -> None:
    """Raise the calling thread's nice value by :data:`AI_NICE` (Linux threads have their own): the AI
    searches with what the requests leave of the processors, so they answer at once."""
    with suppress(AttributeError, OSError):  # not Linux: the same priority
        me = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, me, min(19, os.getpriority(os.PRIO_PROCESS, me) + AI_NICE))


@dataclass(order=True)
class Job:
    """A match's work in slices, ordered by virtual time (then by arrival)."""

    vtime: float
    seq: int
    key: str = field(compare=False)
    steps: Steps = field(compare=False)


class Scheduler:
    """Runs jobs (generators that yield after each slice of work) on ``workers``
    threads, one slice at a time, the job with the least virtual time first;
    one job per key at a time (:meth:`kick` while it runs starts it again after)."""

    def __init__(self, workers: int = 2) -> None:
        self._cv = threading.Condition()
        self._ready: list[Job] = []          # a heap by virtual time
        self._active: dict[str, Job] = {}    # per key, its job (ready or running)
        self._again: dict[str, Callable[[], Steps]] = {}  # keys kicked while their job runs
        self._used: dict[str, float] = {}    # per key, the virtual time its last job reached
        self._clock = 0.0                    # the virtual time of the last job started
        self._seq = itertools.count()
        self._stopped = False
        self._threads = [threading.Thread(target=self._work, name=f"hexarena-ai-{i}", daemon=True)
                         for i in range(workers)]
        for thread in self._threads:
            thread.start()

    def kick(self, key: str, start: Callable[[], Steps]) -> None:
        """Run ``start()``'s job for ``key``, or once more after the one running."""
        with self._cv:
            if key in self._active:
                self._again[key] = start
                return
            self._queue(key, start(), max(self._used.pop(key, 0.0), self._clock))

    def busy(self) -> int:
        """Jobs ready or running."""
        with self._cv:
            return len(self._active)

    def shutdown(self) -> None:
        """Stop after the slices running (the jobs left are dropped)."""
        with self._cv:
            self._stopped = True
            self._cv.notify_all()

    def _queue(self, key: str, steps: Steps, vtime: float) -> None:
        job = Job(vtime, next(self._seq), key, steps)
        self._active[key] = job
        heapq.heappush(self._ready, job)
        self._cv.notify()

    def _work(self) -> None:
        lower_priority()
        while True:
            with self._cv:
                while not self._ready and not self._stopped:
                    self._cv.wait()
                if self._stopped:
                    return
                job = heapq.heappop(self._ready)
                self._clock = max(self._clock, job.vtime)
            begin = time.perf_counter()
            done = self._slice(job)
            with self._cv:
                job.vtime += time.perf_counter() - begin
                if not done:
                    heapq.heappush(self._ready, job)
                    self._cv.notify()
                    continue
                del self._active[job.key]
                self._used = {k: v for k, v in self._used.items() if v > self._clock}
                self._used[job.key] = job.vtime
                again = self._again.pop(job.key, None)
                if again is not None:
                    self._queue(job.key, again(), max(self._used.pop(job.key), self._clock))

    @staticmethod
    def _slice(job: Job) -> bool:
        """Run one slice of ``job``; True when it is done (or failed: logged, the next kick tries again)."""
        try:
            next(job.steps)
        except StopIteration:
            return True
        except Exception:
            log.exception("hexarena: the AI of match %s failed", job.key)
            return True
        return False


@dataclass
class AITurn:
    """An AI's turn in a match: one agent plays all its steps (so they share its tree and its budget:
    :meth:`~hexarena.ai.mcts.MCTSAgent.step_budget`), and the seconds they searched."""

    key: tuple[int, int | None]  # (turn, seat)
    agent: Agent
    seconds: float = 0.0


class Thinker:
    """Plays the AI seats of matches; :meth:`kick` after any change."""

    def __init__(self, store: Store, changed: Callable[[str], None], workers: int = 2,
                 slice_seconds: float = SLICE_SECONDS, turn_seconds: dict[int, float] | None = None) -> None:
        self.store, self.changed = store, changed
        self.slice_seconds = slice_seconds
        self.turn_seconds = LEVEL_SECONDS if turn_seconds is None else turn_seconds
        self.scheduler = Scheduler(workers)
        self._lock = threading.Lock()
        self._turns: dict[str, AITurn] = {}  # per match: the AI turn it is playing

    def kick(self, match_id: str) -> None:
        """Play ``match_id``'s AI moves if an AI is to move (now or after the running search)."""
        self.scheduler.kick(match_id, lambda: self._play(match_id))

    def resume(self) -> None:
        """Kick every unfinished match with an AI seat (after a restart)."""
        for match_id in self.store.unfinished_ai_matches():
            self.kick(match_id)

    def shutdown(self) -> None:
        self.scheduler.shutdown()

    def _play(self, match_id: str) -> Steps:
        """Play the AI's steps while an AI is to move, each committed and announced (a slice ends after each)."""
        with self.store.claim(match_id) as mine:
            if not mine:
                return
            while (yield from self._step(match_id)):
                self.changed(match_id)
                yield

    def _step(self, match_id: str) -> Generator[None, None, bool]:
        """Search (in slices) and commit one step of the AI to move; False when
        no AI is to move or the match changed while it searched."""
        match = self.store.get(match_id)
        ai = match.ai_to_move()
        if ai is None:
            with self._lock:
                self._turns.pop(match_id, None)
            return False
        seat, ply = match.state.to_move, match.ply
        notice = compile_notice(match.state.game)
        if notice:  # on the server's console
            log.warning("hexarena: %s", notice)
        turn = self._turn(match_id, (match.state.turn, seat), ai)
        move, spent = yield from self._search(turn.agent, match, self._time_left(turn, ai), self._until(match))
        turn.seconds += spent

        def play(now: Match, state: State) -> None:
            if now.ply != ply or state.to_move != seat or state.resigned is not None:
                raise Refused(409, "the match changed while the AI searched")
            state.play(move)

        try:
            self.store.change(match_id, play)
        except Refused:
            return False
        return True

    def _time_left(self, turn: AITurn, ai: AgentSpec) -> float | None:
        """The searching time this step may take: what its level's turn bound leaves (None: unbounded)."""
        bound = self.turn_seconds.get(ai.level) if ai.level is not None else None
        return None if bound is None else max(LAST_STEP_SECONDS, bound - turn.seconds)

    def _until(self, match: Match) -> float | None:
        """The :func:`time.perf_counter` moment a step of the AI to move in ``match`` ends its search by: its
        turn's start plus its clock's share (:func:`~.clocks.ai_seconds`), at least :data:`CLOCK_STEP_SECONDS`
        from now; None without a real-time clock."""
        timing, seat = match.timing, match.state.to_move
        if timing.remaining is None or timing.turn_started is None or seat is None:
            return None
        budget = clocks.ai_seconds(match.control, timing.remaining[seat])
        if budget is None:
            return None
        left = clocks.seconds(timing.turn_started) + budget - self.store.clock()
        return time.perf_counter() + max(CLOCK_STEP_SECONDS, left)

    def _turn(self, match_id: str, key: tuple[int, int | None], ai: AgentSpec) -> AITurn:
        """The AI turn ``key`` (turn, seat) of ``match_id``: the one its earlier steps played, else a new one."""
        with self._lock:
            kept = self._turns.get(match_id)
            if kept is None or kept.key != key:
                kept = self._turns[match_id] = AITurn(key, ai.make(seed=None))
            return kept

    def _search(self, agent: Agent, match: Match, seconds: float | None,
                until: float | None = None) -> Generator[None, None, tuple[str, float]]:
        """``agent``'s move in ``match`` (searched in slices, for at most ``seconds`` and until the moment
        ``until``) and the seconds it searched."""
        if isinstance(agent, MCTSAgent):
            agent.max_nodes, agent.until = TREE_NODES, until
        hinting = getattr(agent, "hinting", None)
        if hinting is None:  # an agent that does not search in slices: one slice
            begin = time.perf_counter()
            return agent.choose(match.state.copy()), time.perf_counter() - begin
        steps, spent = hinting(match.state.copy(), self.slice_seconds, seconds), 0.0
        while True:
            begin = time.perf_counter()
            try:
                next(steps)
            except StopIteration as done:
                return done.value[0], spent + time.perf_counter() - begin
            spent += time.perf_counter() - begin
            yield
