"""One self-play game as a task and its result: what a worker runs.

A task names everything the game depends on (game, options, agents, their
seeds and seats), so any process, local or on a Ray cluster, plays the same
moves for the same task.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict, cast

import hexarena
from ..ai import parse_agent
from ..search.solutions import forget_searches
from .drama import clarity_of
from .provenance import provenance

# the result's fields that vary between runs of the same task: timing, and the code that played it
VARYING = ("seconds", "cpu_seconds", "provenance")


class GameResult(TypedDict):
    """One self-play game as :func:`play_task` gives it (a line of a run's ``games.jsonl``)."""

    set: int  # the option set's index
    index: int  # the game's index in its set
    a_seat: int  # agent A's seat
    seeds: list[int]  # agent A's and B's
    moves: list[str]
    legal: list[int]  # the legal move count before each move
    movers: list[int]  # the seat to move before each move
    values: list[float | None]  # the mover's search value (None for an agent that does not search)
    # per move, the spread of the win rates of the moves its search rated, [variance, narrowness]
    # (drama.clarity_of; None without a search); absent in older runs
    clarity: NotRequired[list[list[float] | None]]
    winner: int | None  # the winning seat, None for a draw
    scores: list[float] | None  # the game's final scores, where it has them
    reason: NotRequired[str | None]  # the rule that ended the game (Game.end_reason); absent in older runs
    forced: NotRequired[list[str]]  # the moves the task imposed before the agents played (--from, --first-moves)
    seconds: float
    cpu_seconds: NotRequired[float]  # absent in runs written before it was kept
    provenance: NotRequired[dict[str, Any]]  # the code that played it (provenance.provenance); absent in older runs


def without_timing(result: GameResult) -> dict[str, Any]:
    """``result`` without its timing and provenance: what the same task always gives."""
    return {k: v for k, v in result.items() if k not in VARYING}


@dataclass(frozen=True)
class GameTask:
    """Game ``index`` of option set ``set_index``; agent A takes seat ``index % 2``."""

    set_index: int
    index: int
    game: str
    options: dict[str, Any]
    agents: tuple[str, str]  # agent specs A, B
    seeds: tuple[int, int]  # seeds of A, B
    forced: tuple[str, ...] = ()  # moves played first, as given, before the agents take over

    @property
    def a_seat(self) -> int:
        return self.index % 2


def game_seeds(seed: int, options: dict[str, Any], index: int) -> tuple[int, int]:
    """Agent A's and B's seeds for game ``index`` of the option set ``options``:
    a hash of (seed, options, index), so no worker count or finishing order changes them."""
    key = json.dumps([seed, options, index], sort_keys=True)
    digest = hashlib.sha256(key.encode()).digest()
    return int.from_bytes(digest[:4], "little"), int.from_bytes(digest[4:8], "little")


def play_task(task: GameTask) -> GameResult:
    """Play the task's game (its forced moves first); its moves, the legal move count
    and mover before each move, the mover's search value and the clarity of its choice
    where its agent has them (not for forced moves), the winner (a seat), the rule that
    ended the game (``Game.end_reason``) and the code that played it."""
    started, cpu = time.perf_counter(), time.process_time()
    forget_searches()  # proofs searched in earlier games of this process would change this game's moves
    specs = [parse_agent(a) for a in task.agents]
    a_seat = task.a_seat
    by_seat = (0, 1) if a_seat == 0 else (1, 0)  # seat -> agent (0 = A, 1 = B)
    seated = [specs[by_seat[seat]].make_player(task.seeds[by_seat[seat]]) for seat in (0, 1)]
    state = hexarena.load(task.game, **task.options).new_state()
    moves: list[str] = []
    legal: list[int] = []
    movers: list[int] = []
    values: list[float | None] = []
    clarity: list[list[float] | None] = []
    for text in task.forced:  # each step of a forced move recorded as the agents' moves are, without a value
        for action in state.parse_steps(text):
            legal.append(len(state.legal_actions()))
            movers.append(cast(int, state.to_move))
            moves.append(state.move_name(action))
            values.append(None)
            clarity.append(None)
            state.apply(action)
    while (mover := state.to_move) is not None:  # None once the game is over
        legal.append(len(state.legal_actions()))
        movers.append(mover)
        agent, searcher = seated[mover]
        if searcher is not None:
            move, value = searcher.hint(state)
            values.append(round(float(value), 6))
            rates = searcher.root_rates(state)
            clarity.append(None if rates is None else clarity_of(rates))
        else:
            move = agent.choose(state)
            values.append(None)
            clarity.append(None)
        state.play(move)
        moves.append(move)
    result: GameResult = {
        "set": task.set_index, "index": task.index, "a_seat": a_seat, "seeds": list(task.seeds), "moves": moves,
        "legal": legal, "movers": movers, "values": values, "clarity": clarity, "winner": state.winner(),
        "reason": state.game.end_reason(state), "scores": _scores(state),
        "seconds": round(time.perf_counter() - started, 4), "cpu_seconds": round(time.process_time() - cpu, 4),
        "provenance": provenance()}
    if task.forced:
        result["forced"] = list(task.forced)
    return result


def _scores(state) -> list[float] | None:
    scores = state.scores()
    return None if scores is None else [float(x) for x in scores]
