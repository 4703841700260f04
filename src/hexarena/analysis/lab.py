"""``hexarena analyze``: self-play of option sets, resumable, then the report."""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import hexarena

from ..ai.agents import USAGE, AgentSpec, parse_agent
from ..games.base import quoted
from . import first_moves as forcing
from . import ladder as ladders
from . import report as reports
from .backends import default_workers, run_tasks
from .balance import BalanceReport, LabSettings, RunInfo, SetMetrics
from .page import cli_value
from .provenance import games_provenance, provenance
from .selfplay import GameResult, GameTask, game_seeds
from .store import RunStore

REPORTS = Path("data/reports")
DEFAULT_AGENTS = "mcts:6"
DEFAULT_SEED = 1


def parse_agents(text: str) -> tuple[AgentSpec, AgentSpec]:
    """``--agents A,B`` (or one spec for both sides) as two agent specs (:mod:`hexarena.ai.agents`).

    >>> [a.text for a in parse_agents("random, mcts:2")]
    ['random', 'mcts:2']
    """
    parts = [part.strip() for part in text.split(",")]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2:
        raise ValueError(f"--agents {quoted(text)}: give two agents A,B (or one for both sides); {USAGE}")
    return parse_agent(parts[0]), parse_agent(parts[1])


def _plain(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples become lists)."""
    return json.loads(json.dumps(value))


def parse_compare(text: str) -> tuple[str, list[str]]:
    """``KEY=V1,V2,...`` (or ``KEY=V1|V2|...`` when values hold commas) as (KEY, values)."""
    key, eq, values = text.partition("=")
    parts = values.split("|") if "|" in values else values.split(",")
    if not eq or not key or any(not p.strip() for p in parts):
        raise ValueError(f"--compare {text!r} is not KEY=V1,V2,... (or KEY=V1|V2|... when values hold commas)")
    return key.strip(), [p.strip() for p in parts]


def option_sets(game: str, options: dict[str, str], compare: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
    """Each option set (the base ``options`` with one value of every ``--compare`` key) and its label."""
    axes = [parse_compare(c) for c in compare]
    keys = [k for k, _ in axes]
    if len(set(keys)) != len(keys):
        raise ValueError(f"--compare names a key twice: {', '.join(keys)}")
    sets = []
    for values in itertools.product(*[v for _, v in axes]):
        chosen = {**options, **dict(zip(keys, values, strict=True))}
        full = _plain(hexarena.load(game, **chosen).options)
        shown = keys if keys else list(full)
        sets.append((" ".join(f"{k}={cli_value(full[k])}" for k in shown), full))
    labels = [label for label, _ in sets]
    if len(set(labels)) != len(labels):
        raise ValueError(f"--compare gives the same option set twice: {', '.join(labels)}")
    return sets


def default_out(game: str, options: dict[str, str], compare: Sequence[str], agents: Sequence[str],
                seed: int, extra: Sequence[str] = ()) -> Path:
    """data/reports/<a name made of the game, its options, the compared keys, ``extra`` words
    (forced openings, a ladder), non-default agents and seed>."""
    parts = [game, *[f"{k}-{v}" for k, v in sorted(options.items())]]
    if compare:
        parts += ["compare", *[parse_compare(c)[0] for c in compare]]
    parts += extra
    if list(agents) != [DEFAULT_AGENTS] * 2:
        parts += ["vs".join(agents)]
    if seed != DEFAULT_SEED:
        parts.append(f"seed-{seed}")
    return REPORTS / re.sub(r"[^a-z0-9.]+", "-", "-".join(parts).lower()).strip("-")


def settings_of(game: str, sets: Sequence[tuple[str, dict[str, Any]]], agents: Sequence[AgentSpec],
                seed: int) -> LabSettings:
    """What a run's games depend on (its directory refuses other settings)."""
    return LabSettings(hexarena.load(game).name, [label for label, _ in sets], [options for _, options in sets],
                       [a.text for a in agents], seed)


def tasks_of(settings: LabSettings, games: int, skip: set[tuple[int, int]]) -> list[GameTask]:
    """The games still to play (not in ``skip``), interleaving the option sets."""
    return [GameTask(k, i, settings.game, options, ladders.set_agents(settings, k),
                     game_seeds(settings.seed, options, i), forcing.forced_moves(settings, k, i))
            for i in range(games) for k, options in enumerate(settings.sets) if (k, i) not in skip]


def analyze(game: str, options: dict[str, str], compare: Sequence[str], games: int,
            agents: tuple[AgentSpec, AgentSpec], seed: int, out: Path, backend: str = "local",
            workers: int | None = None, address: str | None = None, command: str = "",
            progress: Callable[[int, int], Callable[[], None]] | None = None, start: Sequence[str] = (),
            first_moves: str | None = None, ladder: Sequence[AgentSpec] = ()) -> BalanceReport:
    """Play what is missing of the run in ``out`` and write its report; the report.

    ``progress(total, done)`` returns a callback called after each finished game. Every game
    starts after the moves ``start``; ``first_moves`` (``all`` or moves) forces the next one
    (:mod:`.first_moves`); a ``ladder`` of agents plays every option set at each (:mod:`.ladder`)."""
    if games < 1:
        raise ValueError(f"--games must be at least 1, got {games}")
    sets = option_sets(game, options, compare)
    sets = ladders.ladder_sets(sets, ladder) if ladder else sets
    settings = replace(settings_of(game, sets, agents, seed), **forcing.settings_part(game, sets, start, first_moves),
                       **ladders.settings_part(ladder))
    forcing.check_games(settings, games)
    store = RunStore(out, settings.as_json())
    todo = tasks_of(settings, games, set(store.finished()))
    total = games * len(sets)
    tick = progress(total, total - len(todo)) if progress else (lambda: None)
    started = time.perf_counter()
    for result in run_tasks(todo, backend, workers, address):
        store.append(result)
        tick()
    seconds = round(time.perf_counter() - started, 2)
    finished = store.finished()
    results = [[finished[(k, i)] for i in range(games)] for k in range(len(sets))]
    per_set = [_set_metrics(settings, k, results[k]) for k in range(len(sets))]
    run = _run_info([r for rs in results for r in rs], len(todo), seconds, backend, workers, command)
    report = reports.build(settings, games, _reproducible(settings), per_set, run)
    reports.write(report, out)
    return report


def _set_metrics(settings: LabSettings, k: int, results: list[GameResult]) -> SetMetrics:
    """Option set ``k``'s metrics, its forced first moves' with them."""
    agents = ladders.set_agents(settings, k)
    searching = parse_agent(agents[0]).searches, parse_agent(agents[1]).searches
    metrics = reports.set_metrics(settings.game, settings.sets[k], results, searching, agents)
    return replace(metrics, forced_first_moves=forcing.set_part(settings, k, results))


def _reproducible(settings: LabSettings) -> bool:
    """Whether every option set's agents play the same games again from the same seed."""
    return all(parse_agent(a).reproducible for k in range(len(settings.sets)) for a in ladders.set_agents(settings, k))


def _run_info(used: list[GameResult], played: int, seconds: float, backend: str, workers: int | None,
              command: str) -> RunInfo:
    """How the run went: ``used`` the games its report counts."""
    return RunInfo(played, seconds, backend, workers or (default_workers() if backend == "local" else None), command,
                   round(sum(r["seconds"] for r in used), 2), round(sum(r.get("cpu_seconds", 0.0) for r in used), 2),
                   provenance(), games_provenance(used))
