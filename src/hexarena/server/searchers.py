"""The AI's searches off the web process (docs/server.md "Fair AI time and costly scoring"): a pool of worker
processes, one per lane of the :class:`~.thinker.Scheduler`, each within an address-space cap, nicer than the
requests and dying with its server; or, with ``--pool ray``, Ray actors, so AI capacity grows by adding machines.

The scheduler still chooses which slice runs next: a job runs a :class:`Task` through :meth:`Pool.run`, which
starts it on its lane's worker and asks for one slice at a time.  A worker keeps what its tasks hold between
slices (a search's tree, an AI turn's agent for its next step), so a job sticks to its lane while it lives; a
worker that died (killed, out of memory) is started again and the task starts again on it.
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import threading
import time
from collections import deque
from collections.abc import Generator
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Protocol

from hexarena import load
from hexarena.ai import AgentSpec, Searcher, parse_agent
from hexarena.ai.review import reviewing
from hexarena.games.base import State

from .limits import POOLS
from .scoring import bound_process, die_with_parent, kill_actor

log = logging.getLogger("hexarena.server")

WORKER_MB = 2048       # a worker's address space cap (its trees are bounded by --ai-trees-mb; numba maps a lot)
STEP_SECONDS = 600.0   # the most a slice may take (a cold numba compile included) before its worker is stopped
POLL_SECONDS = 0.5     # how often a lane waiting for its worker checks the worker is alive
RESTARTS = 3           # the most times a task starts again on a new worker before it fails
WARM_SECONDS, WARM_NODES = 0.01, 4096  # a warm-up search per game (Pool.warm): its kernels loaded, little else
Reply = tuple[str, Any, float]  # ("yield" | "return", value, seconds searched in the slice)


class WorkerLost(Exception):
    """A worker died (or hung) in the middle of a request; it is started again."""


class Task(Protocol):
    """Work for a worker: ``begin(worker)`` gives a generator that yields after each slice and returns a
    picklable result."""

    def begin(self, worker: Worker) -> Generator[Any, None, Any]: ...


@dataclass(frozen=True)
class TurnSearch:
    """A step of an AI turn: the turn's agent (made by its first step, kept in the worker under ``turn``) searches
    ``state`` for at most ``seconds`` (None: its level's budget) and ``until`` seconds from when it starts; returns
    the move."""

    turn: str
    spec: str
    max_nodes: int
    state: State
    seconds: float | None
    until: float | None
    slice_seconds: float

    def begin(self, worker: Worker) -> Generator[None, None, str]:
        agent = worker.agent(self.turn, parse_agent(self.spec))
        agent.limit(self.max_nodes, None if self.until is None else time.perf_counter() + self.until)
        move, _rate = yield from agent.hinting(self.state, self.slice_seconds, self.seconds)
        return move


@dataclass(frozen=True)
class Hint:
    """The AI's suggestion in ``state`` at ``level``: (move, estimated win rate)."""

    state: State
    level: int
    max_nodes: int
    slice_seconds: float

    def begin(self, worker: Worker) -> Generator[None, None, tuple[str, float]]:
        agent = parse_agent(f"ai:{self.level}").make_searcher(seed=None)
        agent.limit(self.max_nodes)
        move, rate = yield from agent.hinting(self.state, self.slice_seconds)
        return str(move), float(rate)  # plain Python values for the reply's JSON


@dataclass(frozen=True)
class Review:
    """A finished game reviewed (:func:`~hexarena.ai.review.reviewing`): yields the positions searched so far
    (or None), returns the plies as shown."""

    state: State
    level: int
    seconds: float
    slice_seconds: float

    def begin(self, worker: Worker) -> Generator[int | None, None, list[dict[str, Any]]]:
        plies = yield from reviewing(self.state, self.level, seconds=self.seconds, slice_seconds=self.slice_seconds)
        return [p.shown() for p in plies]


class Worker:
    """What runs in a worker process (or Ray actor): its tasks in progress and the AI turns' agents."""

    def __init__(self) -> None:
        self.tasks: dict[int, Generator[Any, None, Any]] = {}
        self.agents: dict[str, Searcher] = {}
        self.made = 0  # agents made: a turn's steps share one

    def agent(self, turn: str, spec: AgentSpec) -> Searcher:
        """The agent of AI turn ``turn`` (its earlier steps' agent, with the tree they grew, else a new one)."""
        if turn not in self.agents:
            self.agents[turn] = spec.make_searcher(seed=None)
            self.made += 1
        return self.agents[turn]

    def call(self, request: tuple[Any, ...]) -> Any:
        """One request: ("start", id, task), ("step", id) -> :data:`Reply`, ("drop", id) (a task given up),
        ("forget", turn) or ("made",)."""
        kind = request[0]
        if kind == "start":
            self.tasks[request[1]] = request[2].begin(self)
            return None
        if kind == "step":
            return self._step(request[1])
        if kind == "forget":
            self.agents.pop(request[1], None)
            return None
        if kind == "drop":
            task = self.tasks.pop(request[1], None)
            if task is not None:
                task.close()
            return None
        if kind == "made":
            return self.made
        raise ValueError(f"unknown request {kind!r}: start, step, drop, forget or made")

    def _step(self, task: int) -> Reply:
        begin = time.perf_counter()
        try:
            value = next(self.tasks[task])
        except StopIteration as done:
            del self.tasks[task]
            return "return", done.value, time.perf_counter() - begin
        except BaseException:
            self.tasks.pop(task, None)
            raise
        return "yield", value, time.perf_counter() - begin


def serve_requests(conn: Connection, memory_mb: int) -> None:
    """A local worker process's loop: a request in, ("ok", reply) or ("error", text) out."""
    die_with_parent()
    bound_process(memory_mb)
    worker = Worker()
    while True:
        try:
            request = conn.recv()
        except EOFError:
            return
        try:
            conn.send(("ok", worker.call(request)))
        except MemoryError:
            conn.send(("error", f"the search needed over {memory_mb} MB"))
        except Exception as e:
            conn.send(("error", f"{type(e).__name__}: {e}"))


class Lane(Protocol):
    def call(self, request: tuple[Any, ...]) -> Any: ...

    def stop(self) -> None: ...

    def pid(self) -> int | None: ...


class RayWorker(Worker):
    """A :class:`Worker` as a Ray actor, nicer than the requests (no address-space cap: Ray maps its object
    store into every worker; its trees stay within their bound and Ray's memory monitor watches the node)."""

    def __init__(self) -> None:
        bound_process(None)
        super().__init__()


class LocalLane:
    """A lane's worker process (started at its first request, and again after it died), by ``starter``'s thread,
    which lives as long as the pool: Linux kills a worker when the thread that started it ends
    (:func:`~.scoring.die_with_parent`), so never by a request's or a lane's thread."""

    def __init__(self, memory_mb: int, starter: ThreadPoolExecutor) -> None:
        self.memory_mb, self.starter = memory_mb, starter
        self._proc: Any = None
        self._conn: Connection | None = None

    def call(self, request: tuple[Any, ...]) -> Any:
        """``request``'s answer from the worker; WorkerLost if it died or took over :data:`STEP_SECONDS`."""
        proc, conn = self._start()  # held here: a shutdown may stop the lane meanwhile
        try:
            conn.send(request)
            deadline = time.monotonic() + STEP_SECONDS
            while not conn.poll(POLL_SECONDS):
                if not proc.is_alive() or time.monotonic() > deadline:
                    raise WorkerLost(f"the AI worker {proc.pid} ended or hung")
            status, reply = conn.recv()
        except (EOFError, OSError) as e:
            self.stop()
            raise WorkerLost(f"the AI worker ended: {e}") from None
        except WorkerLost:
            self.stop()
            raise
        if status == "error":
            raise RuntimeError(reply)
        return reply

    def pid(self) -> int | None:
        return None if self._proc is None else int(self._proc.pid)

    def stop(self) -> None:
        proc, self._proc, self._conn = self._proc, None, None
        if proc is not None:
            proc.kill()
            proc.join(5)

    def _start(self) -> tuple[Any, Connection]:
        proc, conn = self._proc, self._conn
        if proc is None or not proc.is_alive() or conn is None:
            self.stop()
            proc, conn = self._proc, self._conn = self.starter.submit(self._spawn).result()
        return proc, conn

    def _spawn(self) -> tuple[Any, Connection]:
        spawn = multiprocessing.get_context("spawn")
        parent, child = spawn.Pipe()
        proc = spawn.Process(target=serve_requests, args=(child, self.memory_mb), name="hexarena-ai-worker",
                             daemon=True)
        proc.start()
        child.close()
        return proc, parent


class RayLane:
    """A lane's worker as a Ray actor (made at the first request, and again after it died)."""

    def __init__(self) -> None:
        self._actor: Any = None

    def call(self, request: tuple[Any, ...]) -> Any:
        import ray
        from ray.exceptions import GetTimeoutError, RayActorError

        if self._actor is None:
            self._actor = ray.remote(num_cpus=1)(RayWorker).remote()
        try:
            return ray.get(self._actor.call.remote(request), timeout=STEP_SECONDS)
        except (RayActorError, GetTimeoutError) as e:
            self.stop()
            raise WorkerLost(f"the AI actor ended or hung: {e}") from None

    def pid(self) -> int | None:
        return None

    def stop(self) -> None:
        actor, self._actor = self._actor, None
        kill_actor(actor)


class Pool:
    """The AI's workers, one per scheduler lane: local processes (``kind`` "local") or Ray actors ("ray", on
    the cluster at ``ray_address``, else a local Ray started here)."""

    def __init__(self, lanes: int, kind: str = "local", ray_address: str | None = None,
                 memory_mb: int = WORKER_MB) -> None:
        if kind not in POOLS:
            raise ValueError(f"pool {kind!r}: one of {', '.join(POOLS)}")
        if kind == "ray":
            import ray

            ray.init(address=ray_address, num_cpus=None if ray_address else lanes, ignore_reinit_error=True,
                     include_dashboard=False)
        self.kind = kind
        self._starter = ThreadPoolExecutor(1, thread_name_prefix="hexarena-ai-start")
        self.lanes: list[Lane] = [RayLane() if kind == "ray" else LocalLane(memory_mb, self._starter)
                                  for _ in range(lanes)]
        self._ids = itertools.count()
        self._locks = [threading.Lock() for _ in range(lanes)]
        self._dropped: list[deque[int]] = [deque() for _ in range(lanes)]  # per lane, the tasks given up
        self._closed = False

    def call(self, lane: int, request: tuple[Any, ...]) -> Any:
        """``request``'s answer from ``lane``'s worker, after the tasks given up there are dropped (a generator
        closed in any thread, even one holding this lane's lock, only notes its task)."""
        with self._locks[lane]:
            dropped = self._dropped[lane]
            while dropped:
                with suppress(WorkerLost):  # a worker lost meanwhile holds nothing
                    self.lanes[lane].call(("drop", dropped.popleft()))
            return self.lanes[lane].call(request)

    def run(self, lane: int, task: Task) -> Generator[Any, None, tuple[Any, float]]:
        """Run ``task`` on ``lane``'s worker, a slice per step (yielding what the task yields); returns its
        result and the seconds it searched.  If the worker dies, the task starts again on a new one (at most
        :data:`RESTARTS` times, then WorkerLost)."""
        restarts = 0
        while True:
            task_id, spent = next(self._ids), 0.0
            try:
                self.call(lane, ("start", task_id, task))
                while True:
                    kind, value, seconds = self.call(lane, ("step", task_id))
                    spent += seconds
                    if kind == "return":
                        return value, spent
                    try:
                        yield value
                    except GeneratorExit:  # given up (a hint nobody waits for, or collected): dropped by the
                        self._dropped[lane].append(task_id)  # worker at the lane's next request, never from here
                        raise
            except WorkerLost as lost:
                restarts += 1
                if restarts > RESTARTS:
                    raise
                log.warning("hexarena: %s; its search starts again", lost)

    def forget(self, lane: int, turn: str) -> None:
        """Drop AI turn ``turn``'s agent from ``lane``'s worker (a worker lost meanwhile has none)."""
        with suppress(WorkerLost):
            self.call(lane, ("forget", turn))

    def warm(self, games: tuple[str, ...]) -> None:
        """Start every lane's worker now and load ``games``' search kernels into it, in the background (a thread
        per lane, a short search per game between the lane's slices), so the first AI move of each game waits
        for no loading (seconds per game) once a server has been up a moment."""
        for lane in range(len(self.lanes)):
            threading.Thread(target=self._warm, args=(lane, games), name=f"hexarena-ai-warm-{lane}",
                             daemon=True).start()

    def _warm(self, lane: int, games: tuple[str, ...]) -> None:
        for name in games:
            if self._closed:
                return
            turn = f"warm:{name}"
            try:
                for _ in self.run(lane, TurnSearch(turn, "ai:1", WARM_NODES, load(name).new_state(), WARM_SECONDS,
                                                   None, WARM_SECONDS)):
                    pass
                self.forget(lane, turn)
            except Exception:  # a later search of the game loads it (and says why it fails)
                log.exception("hexarena: warming the AI worker for %s failed", name)

    def shutdown(self) -> None:
        self._closed = True
        for lane in self.lanes:
            lane.stop()
        self._starter.shutdown()
        if self.kind == "ray":
            import ray

            ray.shutdown()
