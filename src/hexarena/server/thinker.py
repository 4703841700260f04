"""The AI seats: their moves searched off the request path and off the web process, fairly across owners.

Each match whose AI is to move is a *job*: a generator that searches in
slices on the worker pool (:mod:`.searchers`), yielding after each slice of
at most about ``slice_seconds``.  The scheduler has a lane (a thread and its
worker) per AI worker; each lane runs one slice at a time of the owner (the
account seated against the AI, else the creating client address) that has
had the least searching time so far, then of that owner's job that has had
the least (virtual times, as a fair scheduler counts them), so no owner
waits behind another's many long searches: an owner that was idle starts at
the smallest active owner's virtual time and goes next.  At most
``AICaps.searches`` jobs hold a search slot (and a tree of at most their
share of ``AICaps.trees_mb``) at once, an owner at most
``AICaps.owner_searches``; the rest wait, holding nothing.  A turn's
searching time is bounded per level
(:data:`~hexarena.ai.mcts.LEVEL_SECONDS`), whatever the board size, and on a
real-time clock its wall time too (:func:`~.clocks.ai_seconds` from the turn's
start, waiting between slices included), so the AI keeps within its clock.

A move found is stored through the same transaction as a person's (checked
against the ply it was searched at), so a move made meanwhile (an undo, a
resignation) simply discards it.
"""

from __future__ import annotations

import itertools
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Generator
from contextlib import suppress
from dataclasses import dataclass, field

from hexarena.ai import AgentSpec
from hexarena.ai.mcts import LEVEL_SECONDS
from hexarena.games.base import State

from . import clocks
from .limits import AICaps, MiB
from .scoring import WORKER_NICE
from .searchers import Hint, Pool, TurnSearch
from .errors import Refused
from .store import Store
from .store.claims import claim
from .store.matches import Match

log = logging.getLogger("hexarena.server")

SLICE_SECONDS = 0.25  # the most a job searches before the next job's turn (a chunk of numba work may add 0.05 s)
NODE_BYTES = 36  # a tree node's size (:class:`~hexarena.ai.mcts.MCTSAgent`)
LAST_STEP_SECONDS = 0.05  # a step's search once its turn's time is spent (a turn of many steps still ends)
SHUTDOWN_SECONDS = 5.0  # the most shutdown waits for a lane's slice in progress
HINT_WAIT_SECONDS = 30.0  # the most a hint request waits for the AI's answer (503 after)
CLOCK_STEP_SECONDS = 0.01  # a step's wall time once its turn's share of a real-time clock is spent (the same reason)
Steps = Generator[None, None, None]


def lower_priority() -> None:
    """Raise the calling thread's nice value by :data:`~.scoring.WORKER_NICE` (Linux threads have their own): the AI
    searches with what the requests leave of the processors, so they answer at once."""
    with suppress(AttributeError, OSError):  # not Linux: the same priority
        me = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, me, min(19, os.getpriority(os.PRIO_PROCESS, me) + WORKER_NICE))


@dataclass(eq=False)
class Job:
    """A match's work in slices: its owner, the virtual time it has had within its owner's share, whether it
    holds a search slot (else it waits, holding no tree), and the lane (worker) its first slice ran on, which
    keeps what it holds between slices (None before)."""

    key: str
    owner: str
    steps: Steps
    seq: int
    vtime: float = 0.0
    admitted: bool = False
    lane: int | None = None
    running: bool = False
    cancelled: bool = False


@dataclass
class Owner:
    """An owner's share: its virtual time and its jobs (waiting or admitted)."""

    vtime: float
    jobs: list[Job] = field(default_factory=list)

    def admitted(self) -> int:
        return sum(job.admitted for job in self.jobs)


_lane = threading.local()


def current_lane() -> int:
    """The lane (scheduler worker thread) the calling job runs on; 0 outside a scheduler's thread."""
    return getattr(_lane, "index", 0)


class Scheduler:
    """Runs jobs (generators that yield after each slice of work) on ``workers`` threads (*lanes*), one slice at
    a time, sharing time fairly between owners first (an account or a client address), then between an owner's
    jobs (hierarchical fair queuing: the owner with the least virtual time goes, then its job with the least).
    At most ``searches`` jobs are admitted at once, an owner at most ``per_owner`` of them (the rest wait,
    holding nothing); an admitted job runs its first slice on the first lane free, then keeps that lane until
    it ends.  One job per key at a time (:meth:`kick`
    while it runs starts it again after)."""

    def __init__(self, workers: int = 2, searches: int = AICaps.searches, per_owner: int = AICaps.owner_searches
                 ) -> None:
        self.lanes, self.searches, self.per_owner = workers, searches, per_owner
        self._cv = threading.Condition()
        self._owners: dict[str, Owner] = {}  # per owner with jobs, its share
        self._active: dict[str, Job] = {}    # per key, its job (waiting, admitted or running)
        self._again: dict[str, tuple[str, Callable[[], Steps]]] = {}  # keys kicked while their job runs
        self._used: dict[str, float] = {}    # per idle owner, the virtual time it reached
        self._clock = 0.0                    # the virtual time of the last owner that ran
        self._seq = itertools.count()
        self._stopped = False
        self._threads = [threading.Thread(target=self._work, args=(i,), name=f"hexarena-ai-{i}", daemon=True)
                         for i in range(workers)]
        for thread in self._threads:
            thread.start()

    def kick(self, key: str, start: Callable[[], Steps], owner: str | None = None) -> None:
        """Run ``start()``'s job for ``key`` in ``owner``'s share (default: its own), or once more after the one
        running."""
        with self._cv:
            if key in self._active:
                self._again[key] = (owner or key, start)
                return
            self._queue(key, owner or key, start())

    def cancel(self, key: str) -> None:
        """Drop ``key``'s job (and a kick of it meanwhile): at once if it waits, after its slice if it runs;
        its generator is closed, so what it holds in a worker goes too."""
        with self._cv:
            self._again.pop(key, None)
            job = self._active.get(key)
            if job is None:
                return
            job.cancelled = True
            if job.running:
                return
            self._end(job)
        job.steps.close()

    def busy(self) -> int:
        """Jobs waiting, ready or running."""
        with self._cv:
            return len(self._active)

    def admitted(self) -> list[str]:
        """The keys of the jobs holding a search slot."""
        with self._cv:
            return [key for key, job in self._active.items() if job.admitted]

    def shutdown(self) -> None:
        """Stop after the slices running (waiting for them a few seconds; the jobs left are dropped)."""
        with self._cv:
            self._stopped = True
            self._cv.notify_all()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(SHUTDOWN_SECONDS)

    def _queue(self, key: str, owner: str, steps: Steps) -> None:
        share = self._owners.get(owner)
        if share is None:  # idle until now: from the smallest active owner's virtual time (no credit banked)
            floor = min((o.vtime for o in self._owners.values()), default=self._clock)
            share = self._owners[owner] = Owner(max(self._used.pop(owner, 0.0), floor))
        start = min((job.vtime for job in share.jobs), default=0.0)
        job = Job(key, owner, steps, next(self._seq), start)
        share.jobs.append(job)
        self._active[key] = job
        self._admit()

    def _admit(self) -> None:
        """Give free search slots to waiting jobs, owners with the fewest admitted first, then the least virtual
        time."""
        taken = sum(job.admitted for job in self._active.values())
        while taken < self.searches:
            waiting = [(share.admitted(), share.vtime, job.seq, job) for share in self._owners.values()
                       if share.admitted() < self.per_owner for job in share.jobs if not job.admitted]
            if not waiting:
                break
            min(waiting, key=lambda w: w[:3])[3].admitted = True
            taken += 1
        self._cv.notify_all()

    def _next(self, lane: int) -> Job | None:
        """The job ``lane`` runs next, of its own and the admitted jobs that have not run yet (so a lane busy
        with a long slice, a game's kernels loading, say, holds up only its own jobs): its owner has the least
        virtual time, then the job."""
        ready = [(self._owners[job.owner].vtime, job.vtime, job.seq, job) for job in self._active.values()
                 if job.admitted and job.lane in (lane, None) and not job.running]
        return min(ready, key=lambda r: r[:3])[3] if ready else None

    def _work(self, lane: int) -> None:
        lower_priority()
        _lane.index = lane
        while True:
            with self._cv:
                job = self._next(lane)
                while job is None and not self._stopped:
                    self._cv.wait()
                    job = self._next(lane)
                if job is None or self._stopped:
                    return
                job.running, job.lane = True, lane
                self._clock = max(self._clock, self._owners[job.owner].vtime)
            begin = time.perf_counter()
            done = self._slice(job)
            with self._cv:
                spent = time.perf_counter() - begin
                job.vtime += spent
                self._owners[job.owner].vtime += spent
                job.running = False
                if done or job.cancelled:
                    self._end(job)
                self._cv.notify_all()
            if job.cancelled:
                job.steps.close()

    def _end(self, job: Job) -> None:
        """Drop a finished job (its owner's share too once it has none), start it again if kicked meanwhile."""
        del self._active[job.key]
        share = self._owners[job.owner]
        share.jobs.remove(job)
        if not share.jobs:
            del self._owners[job.owner]
            self._used = {k: v for k, v in self._used.items() if v > self._clock}
            self._used[job.owner] = share.vtime
        again = self._again.pop(job.key, None)
        if again is not None:
            owner, start = again
            self._queue(job.key, owner, start())
        else:
            self._admit()

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


def tree_nodes(caps: AICaps) -> int:
    """The most nodes a search's tree holds on the server: its share of ``caps.trees_mb`` (8 MB by default)."""
    return caps.trees_mb * MiB // caps.searches // NODE_BYTES


@dataclass
class AITurn:
    """An AI's turn in a match: one agent plays all its steps (so they share its tree and its budget:
    :meth:`~hexarena.ai.mcts.MCTSAgent.step_budget`), kept by the worker of ``lane`` under ``name``, and the
    seconds they searched."""

    key: tuple[int, int | None]  # (turn, seat)
    name: str  # the worker's name of its agent: "MATCH:TURN:SEAT"
    lane: int
    seconds: float = 0.0


class Thinker:
    """Plays the AI seats of matches, and the hints; :meth:`kick` after any change.  The searches run on
    ``pool`` (default: ``workers`` local processes), one lane of the scheduler per worker."""

    def __init__(self, store: Store, changed: Callable[[str], None], workers: int = 2,
                 slice_seconds: float = SLICE_SECONDS, turn_seconds: dict[int, float] | None = None,
                 caps: AICaps | None = None, pool: Pool | None = None) -> None:
        self.store, self.changed = store, changed
        self.slice_seconds = slice_seconds
        self.turn_seconds = LEVEL_SECONDS if turn_seconds is None else turn_seconds
        caps = caps or AICaps()
        self.tree_nodes = tree_nodes(caps)
        self.pool = pool or Pool(workers)
        self.scheduler = Scheduler(len(self.pool.lanes), caps.searches, caps.owner_searches)
        self._lock = threading.Lock()
        self._turns: dict[str, AITurn] = {}  # per match: the AI turn it is playing
        self._owners: dict[str, str] = {}  # per unfinished match against the AI: whose share its searches take
        self._hints = itertools.count()

    def kick(self, match_id: str) -> None:
        """Play ``match_id``'s AI moves if an AI is to move (now or after the running search), in its owner's
        share (:meth:`~.store.Store.owner`); nothing for a match between people."""
        known = self.store.matches.cached(match_id)
        if known is not None and not known.against_ai():
            return
        self.scheduler.kick(match_id, lambda: self._play(match_id), self._owner(match_id, known))

    def hint(self, state: State, level: int, owner: str) -> tuple[str, float]:
        """The AI's suggestion in ``state`` at ``level`` (move, estimated win rate), searched on the pool in
        ``owner``'s share; 503 if none came within :data:`HINT_WAIT_SECONDS`."""
        answer: queue.Queue[tuple[str, float] | str] = queue.Queue(1)

        def job() -> Steps:
            try:
                found, _ = yield from self.pool.run(current_lane(), Hint(state, level, self.tree_nodes,
                                                                         self.slice_seconds))
                answer.put(found)
            except Exception as e:  # the request says why
                answer.put(str(e))

        key = f"hint:{next(self._hints)}"
        self.scheduler.kick(key, job, owner)
        try:
            found = answer.get(timeout=HINT_WAIT_SECONDS)
        except queue.Empty:
            self.scheduler.cancel(key)  # nobody waits for it any more
            raise Refused(503, f"no hint: the AI is busy, no answer within {HINT_WAIT_SECONDS:g} s; "
                               "ask again later") from None
        if isinstance(found, str):
            raise Refused(503, f"no hint: the search failed ({found})")
        return found

    def resume(self) -> None:
        """Kick every unfinished match with an AI seat (after a restart)."""
        for match_id in self.store.lookups.unfinished_ai_matches():
            self.kick(match_id)

    def shutdown(self) -> None:
        self.scheduler.shutdown()
        self.pool.shutdown()

    def _owner(self, match_id: str, known: Match | None) -> str:
        with self._lock:
            owner = self._owners.get(match_id)
        if owner is None:
            owner = self.store.lookups.owner(known or self.store.matches.get(match_id))
            with self._lock:
                self._owners[match_id] = owner
        return owner

    def _play(self, match_id: str) -> Steps:
        """Play the steps of the AI turn to move, each committed and announced (a slice ends after each); the
        next AI turn (AI against AI) is a job of its own, so it waits for a search slot like any other."""
        with claim(self.store.db, match_id) as mine:
            if not mine:
                return
            while (yield from self._step(match_id)):
                self.changed(match_id)
                if not self._same_turn(match_id):
                    return
                yield

    def _same_turn(self, match_id: str) -> bool:
        """After a step: True while its AI turn goes on; else the turn is forgotten (its agent too) and, if an
        AI is to move again, the match kicked (run once more after this job)."""
        match = self.store.matches.get(match_id)
        with self._lock:
            turn = self._turns.get(match_id)
        to_move = match.ai_to_move() is not None
        if to_move and turn is not None and turn.key == (match.state.turn, match.state.to_move):
            return True
        self._end_turn(match_id)
        if to_move:
            self.kick(match_id)
        return False

    def _step(self, match_id: str) -> Generator[None, None, bool]:
        """Search (in slices) and commit one step of the AI to move; False when
        no AI is to move or the match changed while it searched."""
        match = self.store.matches.get(match_id)
        ai = match.ai_to_move()
        if ai is None:
            self._end_turn(match_id)
            if match.state.is_over():
                with self._lock:
                    self._owners.pop(match_id, None)
            return False
        seat, ply = match.state.to_move, match.ply
        assert seat is not None  # an AI is to move
        turn = self._turn(match_id, (match.state.turn, seat))
        until = self._until(match)
        task = TurnSearch(turn.name, match.seats[seat], self.tree_nodes, match.state.copy(),
                          self._time_left(turn, ai), None if until is None else until - time.perf_counter(),
                          self.slice_seconds)
        move, spent = yield from self.pool.run(turn.lane, task)
        turn.seconds += spent

        def play(now: Match, state: State) -> None:
            if now.ply != ply or state.to_move != seat or state.resigned is not None:
                raise Refused(409, "the match changed while the AI searched")
            state.play(move)

        try:
            self.store.writes.change(match_id, play)
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
        left = clocks.seconds(timing.turn_started) + budget - self.store.db.clock()
        return time.perf_counter() + max(CLOCK_STEP_SECONDS, left)

    def _turn(self, match_id: str, key: tuple[int, int]) -> AITurn:
        """The AI turn ``key`` (turn, seat) of ``match_id``: the one its earlier steps played, else a new one
        (on this job's lane, the earlier turn's agent dropped)."""
        with self._lock:
            kept = self._turns.get(match_id)
        if kept is not None and kept.key == key:
            return kept
        self._end_turn(match_id)
        turn = AITurn(key, f"{match_id}:{key[0]}:{key[1]}", current_lane())
        with self._lock:
            self._turns[match_id] = turn
        return turn

    def _end_turn(self, match_id: str) -> None:
        """Forget ``match_id``'s AI turn, and its agent in its worker."""
        with self._lock:
            turn = self._turns.pop(match_id, None)
        if turn is not None:
            self.pool.forget(turn.lane, turn.name)
