"""Final scoring of games whose exact scores are costly, in processes that can be stopped.

A game says its exact scores may take long with ``Game.COSTLY_SCORES``
(Lhexus: a maximum packing).  The server never computes them in a request or
on the event loop: while such a match goes on its scores are not shown, and
once it is over a :class:`Scorer` computes its final fields (scores, status,
end reason, board) in a worker process with a time budget and a memory cap;
meanwhile the match says "scoring the final position".  The result is
stored per match and ply (the store's ``finals`` table), so it is computed
once; a scoring stopped with its server is no result, and the next start
resumes it.  The jobs wait in a :class:`FairQueue` (per owner, round robin,
small boards first) for a pool of worker processes, one lane of which
scores small boards only.

``python -m hexarena.server.scoring [MEMORY_MB]`` is that worker: one JSON
job a line on stdin (``{"game", "options", "moves", "resigned"}``), one JSON
result a line on stdout (:func:`final_fields`, or ``{"error"}``).
"""

from __future__ import annotations

import ctypes
import hashlib
import heapq
import itertools
import json
import logging
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Protocol, TypeGuard

import hexarena
from hexarena.games.base import Game, State

log = logging.getLogger("hexarena.server")

PENDING = "scoring the final position"
SCORING_SECONDS = 60.0  # the default time budget of one final scoring
SCORING_MEMORY_MB = 2048  # the worker process's address space cap
SMALL_CELLS = 91  # a board of at most this many cells (Lhexus base 6) is small: quick to score, a lane of its own
WARM_JOB = {"warm": True}  # a worker's job that loads the costly games' kernels (:func:`warm_up`)
SHUTDOWN_SECONDS = 10.0  # how long a stopping Scorer waits for each lane to put down its job
# a scoring process ended by one of these was stopped (the server's whole group stopping), not failed
STOP_SIGNALS = frozenset({signal.SIGTERM, signal.SIGINT, signal.SIGHUP})


# what a server before issue 42 stored for a scoring stopped with it (or ended otherwise): not a result
GUESSED_FAILURE = "the scoring process ended (out of memory?)"


def costly(game: Game | type[Game]) -> bool:
    """True when ``game``'s exact scores may take long (``Game.COSTLY_SCORES``)."""
    return game.COSTLY_SCORES


def needs_scoring(state: State) -> bool:
    """True when ``state`` is over and its game's exact scores are costly: its final fields come from a Scorer."""
    return costly(state.game) and state.is_over()


def digest(state: State) -> str:
    """What identifies ``state``'s position among a match's: its moves and resignation."""
    ended = [state.resigned] if state.timed_out is None else [state.resigned, state.timed_out]
    text = json.dumps([state.moves(), *ended])
    return hashlib.sha256(text.encode()).hexdigest()


def job_of(state: State) -> dict[str, Any]:
    """The worker's job for ``state``."""
    options = {k: list(v) if isinstance(v, tuple) else v for k, v in state.game.options.items()}
    return {"game": state.game.name, "options": options, "moves": state.moves(), "resigned": state.resigned,
            "timed_out": state.timed_out}


def final_fields(state: State) -> dict[str, Any]:
    """The exact final fields of a finished ``state``: scores, status, end reason and board."""
    return {"scores": state.scores(), "status": state.game.status(state), "reason": state.game.end_reason(state),
            "svg": state.svg()}


def over_text(state: State) -> str:
    """Who won (or a draw), without the costly scores."""
    if state.resigned is not None or state.timed_out is not None:
        return state.game.status(state)
    winner = state.winner()
    players = state.game.PLAYERS
    return "the game is over: a draw" if winner is None else \
        f"the game is over: player {winner + 1} ({players[winner]}) wins"


def pending_status(state: State) -> str:
    """The status line of a finished ``state`` whose final scoring is under way."""
    return f"{over_text(state)}; {PENDING}"


def summary_status(state: State) -> str:
    """The status line the store keeps: never a costly one."""
    return pending_status(state) if needs_scoring(state) else state.game.status(state)


def cheap_svg(state: State) -> str:
    """The board of a finished ``state`` without its costly drawing: the position before its last move."""
    before = state.copy()
    before.undo()
    return before.svg()


def is_result(final: dict[str, Any] | None) -> TypeGuard[dict[str, Any]]:
    """Whether stored final fields are a result: not the guess an older server stored for a scoring stopped with
    it (:data:`GUESSED_FAILURE`), which is scored again."""
    return final is not None and final.get("error") != GUESSED_FAILURE


def unscored(state: State, why: str) -> dict[str, Any]:
    """The final fields of a finished ``state`` that could not be scored (``why``)."""
    return {"scores": None, "status": f"{over_text(state)}; the final position was not scored ({why})",
            "reason": None, "svg": cheap_svg(state), "error": why}


class Unscored(State):
    """A copy of a state that does not compute its scores (None): for a record of a costly game."""

    __slots__ = ()

    def scores(self) -> list[float] | None:
        return None


def unscored_copy(state: State) -> State:
    copy = state.copy()
    copy.__class__ = Unscored
    return copy


def record_of(state: State, final: dict[str, Any] | None) -> dict[str, Any]:
    """``state``'s JSON record; for a costly game without the exact scores computed
    here (the ``final`` fields' scores when known, else no ``result.scores``)."""
    if not costly(state.game):
        return state.record()
    record = unscored_copy(state).record()
    scores = final.get("scores") if final else None
    if scores is None:
        record["result"].pop("scores", None)
    else:
        record["result"]["scores"] = scores
    return record


# the worker process ------------------------------------------------------------
WORKER_NICE = 5  # how much nicer a worker process (a scoring's, the AI's) is than the server: the requests
# first (3 to 1), yet beside other work (nice 0) a quarter of a core, not 10's tenth (a hint's first search,
# loading its game's kernels, then took over 30 s)
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies


def worker_command(memory_mb: int) -> tuple[list[str], dict[str, str]]:
    """The command and environment of a worker process importing this hexarena."""
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join([src, *filter(None, [env.get("PYTHONPATH")])])
    return [sys.executable, "-m", "hexarena.server.scoring", str(memory_mb)], env


class Stopped(Exception):
    """The scoring in hand was stopped (the server stopping, or a stop signal): not a result."""


class Worker(Protocol):
    """What scores a job (:func:`job_of`): a process of this machine (:class:`ProcessWorker`), or another backend."""

    def score(self, job: dict[str, Any], seconds: float) -> dict[str, Any]:
        """The final fields of ``job``, or ``{"error": why}``, within ``seconds``; :class:`Stopped` if stopped."""

    def warm(self) -> None:
        """Get ready to score at once (start, load the costly games' kernels), ahead of a job."""

    def stop(self) -> None:
        """Stop the job in hand (its :meth:`score` raises :class:`Stopped`) and every later one."""


class ProcessWorker:
    """A scoring process of this hexarena (:func:`serve_jobs`), started when a job comes and again after a job
    that ended it; it ignores the terminal's signals (a session of its own) and dies with the server."""

    def __init__(self, memory_mb: int = SCORING_MEMORY_MB) -> None:
        self.memory_mb = memory_mb
        self._proc: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()
        self._stopped = False

    @property
    def pid(self) -> int | None:
        """The process's id while it runs (None before the first job)."""
        proc = self._proc
        return None if proc is None else proc.pid

    def score(self, job: dict[str, Any], seconds: float) -> dict[str, Any]:
        proc = self.start()
        assert proc.stdin is not None and proc.stdout is not None
        with suppress(BrokenPipeError):  # it ended already: its end says why
            proc.stdin.write(json.dumps(job) + "\n")
            proc.stdin.flush()
        line = _read_line(proc.stdout, time.monotonic() + seconds)
        if line is None:
            _end(proc)
            return {"error": f"the exact scoring took over {seconds:g} s and was stopped"}
        return json.loads(line) if line else {"error": self._ended(proc)}

    def warm(self) -> None:
        self.score(WARM_JOB, SCORING_SECONDS)

    def start(self) -> subprocess.Popen[str]:
        """The running process, started if need be; :class:`Stopped` once stopped."""
        with self._lock:
            if self._stopped:
                raise Stopped("the scorer was stopped")
            if self._proc is None or self._proc.poll() is not None:
                command, env = worker_command(self.memory_mb)
                self._proc = subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                              text=True, bufsize=1, start_new_session=True)
            return self._proc

    def _ended(self, proc: subprocess.Popen[str]) -> str:
        """Why ``proc`` ended without an answer: its exit status or signal; :class:`Stopped` when it was stopped."""
        status = proc.wait()
        if self._stopped or -status in STOP_SIGNALS:
            raise Stopped(f"the scoring process was stopped (exit status {status})")
        if status < 0:
            return f"the scoring process was killed by {signal.Signals(-status).name}"
        return f"the scoring process exited with status {status}"

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            proc, self._proc = self._proc, None
        if proc is not None:
            _end(proc)


def _end(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def job_cost(state: State) -> int:
    """A cheap estimate of what scoring ``state`` costs: its board's cells."""
    return state.game.topology.ncells


@dataclass(order=True)
class Job:
    """A final scoring asked for: ``state`` under ``key``, for ``owner`` (who finished the match); ordered by
    cost, then by when it was asked for."""

    cost: int
    seq: int
    key: str = field(compare=False)
    state: State = field(compare=False)
    owner: str = field(compare=False)

    @property
    def small(self) -> bool:
        return self.cost <= SMALL_CELLS


class FairQueue:
    """The jobs waiting, taken fairly between owners: first the owner with the fewest jobs running, then the one
    whose last job started longest ago (a newcomer first: round robin), and of its jobs the smallest board first,
    then the oldest.  An owner with nothing waiting or running is forgotten.  Not thread-safe: :class:`Scorer`
    holds its lock."""

    def __init__(self) -> None:
        self._waiting: dict[str, list[Job]] = {}  # per owner, a heap
        self._running: dict[str, int] = {}
        self._started: dict[str, int] = {}  # per owner, when its last job started (-1: none yet)
        self._ticks = itertools.count()

    def put(self, job: Job) -> None:
        heapq.heappush(self._waiting.setdefault(job.owner, []), job)
        self._started.setdefault(job.owner, -1)

    def take(self, small_only: bool = False) -> Job | None:
        """The next job to start (only a small board's for ``small_only``), or None."""
        heads = {owner: jobs[0] for owner, jobs in self._waiting.items() if jobs[0].small or not small_only}
        if not heads:
            return None
        owner = min(heads, key=lambda o: (self._running.get(o, 0), self._started[o], heads[o]))
        jobs = self._waiting[owner]
        job = heapq.heappop(jobs)
        if not jobs:
            del self._waiting[owner]
        self._running[owner] = self._running.get(owner, 0) + 1
        self._started[owner] = next(self._ticks)
        return job

    def finish(self, job: Job) -> None:
        """``job`` (taken) has ended."""
        self._running[job.owner] -= 1
        if not self._running[job.owner]:
            del self._running[job.owner]
            if job.owner not in self._waiting:
                del self._started[job.owner]


class Scorer:
    """Computes the final fields of finished costly games in worker processes: ``workers`` lanes for any board
    and one more for small boards only (at most ``SMALL_CELLS`` cells), each taking the next job of a
    :class:`FairQueue`, each job within ``seconds`` (else its process is stopped and the result says so).
    ``done(key, state, fields)`` receives each result, never one of a scoring stopped by :meth:`shutdown`."""

    def __init__(self, done: Callable[[str, State, dict[str, Any]], None], seconds: float = SCORING_SECONDS,
                 memory_mb: int = SCORING_MEMORY_MB, workers: int = 1,
                 backend: Callable[[int], Worker] = ProcessWorker) -> None:
        self.done, self.seconds = done, seconds
        self._queue = FairQueue()
        self._pending: set[str] = set()
        self._changed = threading.Condition()
        self._closed = False
        self._lanes, self._busy = workers, 0  # the lanes for any board, and how many have a job
        self._warmed = False  # whether the small boards' lane has warmed its worker
        self._seq = itertools.count()
        self.workers = [backend(memory_mb) for _ in range(workers + 1)]  # the last: small boards only
        self._threads = [threading.Thread(target=self._lane, args=(worker, i == workers), daemon=True,
                                          name=f"hexarena-scoring-{i}") for i, worker in enumerate(self.workers)]
        for thread in self._threads:
            thread.start()

    def request(self, key: str, state: State, owner: str = "") -> bool:
        """Score ``state`` under ``key`` for ``owner`` (who finished it) unless it is queued already; True when
        newly queued."""
        with self._changed:
            if key in self._pending or self._closed:
                return False
            self._pending.add(key)
            self._queue.put(Job(job_cost(state), next(self._seq), key, state, owner))
            self._changed.notify_all()
        return True

    def pending(self, key: str) -> bool:
        with self._changed:
            return key in self._pending

    def shutdown(self) -> None:
        """Stop: the scorings in hand are dropped, not results (a restarted server resumes them), like those
        waiting."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        for worker in self.workers:
            worker.stop()
        for thread in self._threads:
            thread.join(SHUTDOWN_SECONDS)

    def _lane(self, worker: Worker, small_only: bool) -> None:
        while (job := self._next(worker, small_only)) is not None:
            fields = self._score(worker, job.state)
            try:
                if fields is not None:
                    self.done(job.key, job.state, fields)
            except Exception:
                log.exception("hexarena: storing a final scoring failed")
            with self._changed:
                self._busy -= not small_only
                self._queue.finish(job)
                self._pending.discard(job.key)
                self._changed.notify_all()

    def _next(self, worker: Worker, small_only: bool) -> Job | None:
        """The next job for a lane, once there is one; None once closed.  The small boards' lane takes none
        while a lane for any board is free, and warms its worker when they first are all busy: its process
        starts only under load, ready before a small board comes."""
        with self._changed:
            while not self._closed:
                job = None if small_only and self._busy < self._lanes else self._queue.take(small_only)
                if job is not None:
                    self._busy += not small_only
                    self._changed.notify_all()  # another lane may take what is left
                    return job
                if small_only and self._busy == self._lanes and not self._warmed:
                    self._warmed = True
                    self._changed.release()
                    try:
                        self._warm(worker)
                    finally:
                        self._changed.acquire()
                    continue
                self._changed.wait()
        return None

    def _warm(self, worker: Worker) -> None:
        try:
            worker.warm()
        except Stopped:
            pass
        except Exception:  # a job will say why
            log.exception("hexarena: warming a scoring process failed")

    def _score(self, worker: Worker, state: State) -> dict[str, Any] | None:
        """The final fields of ``state`` from ``worker``, or why there are none; None when it was stopped."""
        try:
            answer = worker.score(job_of(state), self.seconds)
        except Stopped as e:
            if not self._closed:
                log.warning("hexarena: %s; a read of the match or the next start asks again", e)
            return None
        except Exception as e:  # keep the lane alive: the match shows why
            log.exception("hexarena: scoring failed")
            answer = {"error": f"the scoring failed: {e}"}
        return unscored(state, str(answer["error"])) if "error" in answer else answer


def _read_line(stream: IO[str], deadline: float) -> str | None:
    """A line from ``stream`` ("" at its end), or None if none came by ``deadline``."""
    left = deadline - time.monotonic()
    while left > 0:
        ready, _, _ = select.select([stream], [], [], left)
        if ready:
            return stream.readline()
        left = deadline - time.monotonic()
    return None


def bound_process(memory_mb: int | None) -> None:
    """Make this worker process :data:`WORKER_NICE` nicer and cap its address space at ``memory_mb`` (Linux;
    None: no cap)."""
    with suppress(AttributeError, OSError):
        os.nice(WORKER_NICE)
    if memory_mb is not None:
        with suppress(ImportError, ValueError, OSError):
            import resource

            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def die_with_parent() -> None:
    """Ask Linux to kill this process when the server that started it dies (even by SIGKILL), so a
    scoring never outlives its server; elsewhere, the closed stdin ends it after the job in hand."""
    with suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0 and os.getppid() == 1:
            os._exit(1)  # the parent died before the request took hold


def warm_up() -> dict[str, Any]:
    """Load every costly game's kernels (numba's cache: a second or two), so the next job waits for none; the
    answer to a warm job (empty)."""
    for name in hexarena.GAMES:
        if costly(hexarena.game_class(name)):
            final_fields(hexarena.load(name).new_state())
    return {}


def state_of(job: dict[str, Any]) -> State:
    """The finished state a job (:func:`job_of`) describes, replayed through the library."""
    state = hexarena.load(job["game"], **job["options"]).new_state()
    for move in job["moves"]:
        state.play(move)
    if job["resigned"] is not None:
        state.resign(job["resigned"])
    if job.get("timed_out") is not None:
        state.lose_on_time(job["timed_out"])
    return state


def serve_jobs(memory_mb: int) -> None:
    """The worker's loop: a job a line in, a result a line out."""
    die_with_parent()
    bound_process(memory_mb)  # the requests first
    for line in sys.stdin:
        sys.stdout.write(json.dumps(answer(json.loads(line), memory_mb)) + "\n")
        sys.stdout.flush()


def answer(job: dict[str, Any], memory_mb: int) -> dict[str, Any]:
    """A worker's answer to ``job``: the final fields, ``{}`` for a warm job, or ``{"error": why}``."""
    try:
        return warm_up() if job.get("warm") else final_fields(state_of(job))
    except MemoryError:
        return {"error": f"the exact scoring needed over {memory_mb} MB"}
    except Exception as e:
        return {"error": f"the scoring failed: {e}"}


class RayScoring:
    """A scoring lane's worker as a Ray actor (``hexarena serve --pool ray``: the cluster ``ray.init`` joined),
    made at its first job and again after one it did not survive; a job over its time is stopped by killing the
    actor, as a process's."""

    def __init__(self, memory_mb: int = SCORING_MEMORY_MB) -> None:
        self.memory_mb = memory_mb
        self._actor: Any = None
        self._lock = threading.Lock()
        self._stopped = False

    def score(self, job: dict[str, Any], seconds: float) -> dict[str, Any]:
        import ray
        from ray.exceptions import GetTimeoutError, RayActorError

        actor = self._start()
        try:
            result: dict[str, Any] = ray.get(actor.answer.remote(job, self.memory_mb), timeout=seconds)
            return result
        except GetTimeoutError:
            self._kill()
            return {"error": f"the exact scoring took over {seconds:g} s and was stopped"}
        except RayActorError as e:
            self._kill()
            if self._stopped:
                raise Stopped("the scorer was stopped") from None
            return {"error": f"the scoring actor ended: {e}"}

    def warm(self) -> None:
        self.score(WARM_JOB, SCORING_SECONDS)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
        self._kill()

    def _start(self) -> Any:
        import ray

        with self._lock:
            if self._stopped:
                raise Stopped("the scorer was stopped")
            if self._actor is None:
                self._actor = ray.remote(num_cpus=0)(ScoringActor).remote()  # light, and bounded in time
            return self._actor

    def _kill(self) -> None:
        with self._lock:
            actor, self._actor = self._actor, None
        kill_actor(actor)


def kill_actor(actor: Any) -> None:
    """Kill a Ray actor (None: nothing), whatever state it is in."""
    if actor is not None:
        import ray

        with suppress(Exception):
            ray.kill(actor)


class ScoringActor:
    """What a :class:`RayScoring` actor runs: :func:`answer`."""

    def answer(self, job: dict[str, Any], memory_mb: int) -> dict[str, Any]:
        return answer(job, memory_mb)


if __name__ == "__main__":
    serve_jobs(int(sys.argv[1]) if len(sys.argv) > 1 else SCORING_MEMORY_MB)
