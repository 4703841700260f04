"""Final scoring of games whose exact scores are costly, in a process that can be stopped.

A game says its exact scores may take long with ``Game.COSTLY_SCORES``
(Lhexus: a maximum packing).  The server never computes them in a request or
on the event loop: while such a match goes on its scores are not shown, and
once it is over a :class:`Scorer` computes its final fields (scores, status,
end reason, board) in a worker process with a time budget and a memory cap;
meanwhile the match says "scoring the final position".  The result is
stored per match and ply (the store's ``finals`` table), so it is computed
once.

``python -m hexarena.server.scoring [MEMORY_MB]`` is that worker: one JSON
job a line on stdin (``{"game", "options", "moves", "resigned"}``), one JSON
result a line on stdout (:func:`final_fields`, or ``{"error"}``).
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import logging
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import IO, Any

from hexarena.games.base import Game, State

log = logging.getLogger("hexarena.server")

PENDING = "scoring the final position"
SCORING_SECONDS = 60.0  # the default time budget of one final scoring
SCORING_MEMORY_MB = 2048  # the worker process's address space cap


def costly(game: Game | type[Game]) -> bool:
    """True when ``game``'s exact scores may take long (``Game.COSTLY_SCORES``)."""
    return bool(getattr(game, "COSTLY_SCORES", False))


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
WORKER_NICE = 10  # how much nicer the scoring process is than the server
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies


def worker_command(memory_mb: int) -> tuple[list[str], dict[str, str]]:
    """The command and environment of a worker process importing this hexarena."""
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join([src, *filter(None, [env.get("PYTHONPATH")])])
    return [sys.executable, "-m", "hexarena.server.scoring", str(memory_mb)], env


class Scorer:
    """Computes final fields of finished costly games in a worker process, one
    job at a time, each within ``seconds`` (else the process is stopped and the
    result says so); ``done(key, state, fields)`` receives each result."""

    def __init__(self, done: Callable[[str, State, dict[str, Any]], None], seconds: float = SCORING_SECONDS,
                 memory_mb: int = SCORING_MEMORY_MB) -> None:
        self.done, self.seconds, self.memory_mb = done, seconds, memory_mb
        self._jobs: queue.Queue[tuple[str, State] | None] = queue.Queue()
        self._pending: set[str] = set()
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[str] | None = None
        self._thread = threading.Thread(target=self._work, name="hexarena-scoring", daemon=True)
        self._thread.start()

    def request(self, key: str, state: State) -> bool:
        """Score ``state`` under ``key`` unless it is queued already; True when newly queued."""
        with self._lock:
            if key in self._pending:
                return False
            self._pending.add(key)
        self._jobs.put((key, state))
        return True

    def pending(self, key: str) -> bool:
        with self._lock:
            return key in self._pending

    def shutdown(self) -> None:
        self._jobs.put(None)
        self._stop()

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            key, state = job
            try:
                fields = self._score(state)
            except Exception as e:  # keep the thread alive: the match shows why
                log.exception("hexarena: scoring failed")
                fields = unscored(state, f"the scoring failed: {e}")
            try:
                self.done(key, state, fields)
            except Exception:
                log.exception("hexarena: storing a final scoring failed")
            with self._lock:
                self._pending.discard(key)

    def _score(self, state: State) -> dict[str, Any]:
        """The final fields of ``state`` from the worker process, or why there are none."""
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(job_of(state)) + "\n")
        proc.stdin.flush()
        line = _read_line(proc.stdout, time.monotonic() + self.seconds)
        if line is None:
            self._stop()
            return unscored(state, f"the exact scoring took over {self.seconds:g} s and was stopped")
        if not line:
            self._stop()
            return unscored(state, "the scoring process ended (out of memory?)")
        fields = json.loads(line)
        if "error" in fields:
            return unscored(state, str(fields["error"]))
        return fields

    def _start(self) -> subprocess.Popen[str]:
        if self._proc is None or self._proc.poll() is not None:
            command, env = worker_command(self.memory_mb)
            self._proc = subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          text=True, bufsize=1)
        return self._proc

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()


def _read_line(stream: IO[str], deadline: float) -> str | None:
    """A line from ``stream`` ("" at its end), or None if none came by ``deadline``."""
    left = deadline - time.monotonic()
    while left > 0:
        ready, _, _ = select.select([stream], [], [], left)
        if ready:
            return stream.readline()
        left = deadline - time.monotonic()
    return None


def die_with_parent() -> None:
    """Ask Linux to kill this process when the server that started it dies (even by SIGKILL), so a
    scoring never outlives its server; elsewhere, the closed stdin ends it after the job in hand."""
    with suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL) == 0 and os.getppid() == 1:
            os._exit(1)  # the parent died before the request took hold


def serve_jobs(memory_mb: int) -> None:
    """The worker's loop: a job a line in, a result a line out."""
    die_with_parent()
    import resource

    import hexarena

    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    os.nice(WORKER_NICE)  # the requests first
    for line in sys.stdin:
        try:
            job = json.loads(line)
            state = hexarena.load(job["game"], **job["options"]).new_state()
            for move in job["moves"]:
                state.play(move)
            if job["resigned"] is not None:
                state.resign(job["resigned"])
            if job.get("timed_out") is not None:
                state.lose_on_time(job["timed_out"])
            result = final_fields(state)
        except MemoryError:
            result = {"error": f"the exact scoring needed over {memory_mb} MB"}
        except Exception as e:
            result = {"error": f"the scoring failed: {e}"}
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve_jobs(int(sys.argv[1]) if len(sys.argv) > 1 else SCORING_MEMORY_MB)
