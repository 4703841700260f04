"""The lab's typed objects: a run's settings (:class:`LabSettings`) and its
report (:class:`BalanceReport`: each option set's metrics, the headline
ones typed: outcomes with their 95% intervals, lengths, decisiveness).
Each has ``as_json()``, exactly what ``run.json`` and ``report.json`` hold;
the report's sections written by other modules (the verdict, the ladder,
endings, both players' views) read that JSON form, as a report read back
from disk has it.

>>> Proportion(3, 0.75, (0.3006, 0.9544)).as_json()
{'count': 3, 'rate': 0.75, 'ci95': [0.3006, 0.9544]}
>>> Spread.of([]).as_json(), Spread.of([2, 4]).median
({'n': 0}, 3.0)
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

RUN_FORMAT = "hexarena-run/1"
REPORT_FORMAT = "hexarena-report/1"
Json = dict[str, Any]


@dataclass(frozen=True)
class LabSettings:
    """What a run's games depend on (its directory refuses other settings): the game, each option set's label
    and options, agents A and B (``rung`` on a ladder), the seed; the ``--from`` moves, per option set the
    forced first-move classes (``--first-moves``) and the ``--ladder``'s rungs, where given."""

    game: str
    labels: list[str]
    sets: list[Json]
    agents: list[str]
    seed: int
    start: list[str] = field(default_factory=list)
    first_moves: list[list[list[str]]] | None = None
    ladder: list[str] | None = None

    def as_json(self) -> Json:
        """``run.json``'s object."""
        extra = {"start": self.start, "first_moves": self.first_moves, "ladder": self.ladder}
        return {"format": RUN_FORMAT, "game": self.game, "labels": self.labels, "sets": self.sets,
                "agents": self.agents, "seed": self.seed, **{k: v for k, v in extra.items() if v}}


@dataclass(frozen=True)
class Proportion:
    """``count`` of ``n`` games as a rate (None without games) with its 95% Wilson interval."""

    count: int
    rate: float | None
    ci95: tuple[float, float]

    def as_json(self) -> Json:
        return {"count": self.count, "rate": self.rate, "ci95": list(self.ci95)}


@dataclass(frozen=True)
class Score:
    """The first player's score: ``points`` (wins plus half the draws), its rate and 95% Wilson interval."""

    points: float
    rate: float | None
    ci95: tuple[float, float]

    def as_json(self) -> Json:
        return {"points": self.points, "rate": self.rate, "ci95": list(self.ci95)}


@dataclass(frozen=True)
class Outcomes:
    """Wins per seat (first player, second) and per agent (A, B), draws, and the first player's score."""

    games: int
    seat_wins: tuple[Proportion, Proportion]
    draws: Proportion
    first_player_score: Score
    agent_wins: tuple[Proportion, Proportion]

    def as_json(self) -> Json:
        return {"games": self.games, "seat_wins": [p.as_json() for p in self.seat_wins],
                "draws": self.draws.as_json(), "first_player_score": self.first_player_score.as_json(),
                "agent_wins": [p.as_json() for p in self.agent_wins]}


@dataclass(frozen=True)
class Spread:
    """Count, mean, standard deviation, quartiles and extremes of some values (only ``n`` when there are none)."""

    n: int
    mean: float = 0.0
    sd: float = 0.0
    min: float = 0
    q1: float = 0.0
    median: float = 0.0
    q3: float = 0.0
    max: float = 0

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        if not values:
            return cls(0)
        q = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else [values[0]] * 3
        return cls(len(values), round(statistics.fmean(values), 3), round(statistics.pstdev(values), 3),
                   min(values), q[0], q[1], q[2], max(values))

    def as_json(self) -> Json:
        if not self.n:
            return {"n": 0}
        return {"n": self.n, "mean": self.mean, "sd": self.sd, "min": self.min, "q1": self.q1,
                "median": self.median, "q3": self.q3, "max": self.max}


@dataclass(frozen=True)
class Histogram:
    """Counts of integer values in bins of ``width`` from ``start``."""

    start: int
    width: int
    counts: list[int]

    def as_json(self) -> Json:
        return {"start": self.start, "width": self.width, "counts": self.counts}


@dataclass(frozen=True)
class Lengths:
    """Game length in plies (single moves) and in turns (a player's run of moves)."""

    plies: Spread
    plies_histogram: Histogram
    turns: Spread
    turns_histogram: Histogram

    def spread(self, unit: str) -> Spread:
        """The lengths' spread in ``unit``: plies or turns."""
        return self.plies if unit == "plies" else self.turns

    def histogram(self, unit: str) -> Histogram:
        """The lengths' histogram in ``unit``: plies or turns."""
        return self.plies_histogram if unit == "plies" else self.turns_histogram

    def as_json(self) -> Json:
        return {"plies": self.plies.as_json(), "plies_histogram": self.plies_histogram.as_json(),
                "turns": self.turns.as_json(), "turns_histogram": self.turns_histogram.as_json()}


@dataclass(frozen=True)
class Decisiveness:
    """How early the eventual winner's own search value stays above ``threshold`` to the end: over the
    ``games`` won by a searching agent, the ply and the share of the game where it does (``never``: games
    where it does not), the shares by tenth and the winner's mean value by tenth of the game; not
    ``available`` (for ``reason``) when no agent searches."""

    available: bool
    reason: str = ""
    threshold: float = 0.0
    games: int = 0
    never: int = 0
    ply: Spread = Spread(0)
    fraction: Spread = Spread(0)
    fraction_by_decile: list[int] = field(default_factory=list)
    winner_value_by_decile: list[float | None] = field(default_factory=list)

    def as_json(self) -> Json:
        if not self.available:
            return {"available": False, "reason": self.reason}
        return {"available": True, "threshold": self.threshold, "games": self.games, "never": self.never,
                "ply": self.ply.as_json(), "fraction": self.fraction.as_json(),
                "fraction_by_decile": self.fraction_by_decile, "winner_value_by_decile": self.winner_value_by_decile}


@dataclass(frozen=True)
class SetMetrics:
    """Every metric of one option set's games; the forced first moves' classes where ``--first-moves`` forced
    them.  The parts not typed here are JSON objects of the modules that make them (:mod:`.endings`,
    :mod:`.drama`, :mod:`.openings`, :mod:`.metrics`, :mod:`.first_moves`)."""

    outcomes: Outcomes
    end_reasons: list[Json]
    end_kinds: list[Json]
    views: Json
    lengths: Lengths
    branching: Json
    decisiveness: Decisiveness
    openings: Json
    first_moves: list[Json]
    diversity: Json
    representative: Json | None
    forced_first_moves: Json | None = None

    def as_json(self) -> Json:
        forced = {} if self.forced_first_moves is None else {"forced_first_moves": self.forced_first_moves}
        return {"outcomes": self.outcomes.as_json(), "end_reasons": self.end_reasons, "end_kinds": self.end_kinds,
                "views": self.views, "lengths": self.lengths.as_json(), "branching": self.branching,
                "decisiveness": self.decisiveness.as_json(), "openings": self.openings,
                "first_moves": self.first_moves, "diversity": self.diversity, "representative": self.representative,
                **forced}


@dataclass(frozen=True)
class SetReport:
    """One option set: its label, its options and its games' metrics."""

    label: str
    options: Json
    metrics: SetMetrics

    def as_json(self) -> Json:
        return {"label": self.label, "options": self.options, "metrics": self.metrics.as_json()}


@dataclass(frozen=True)
class RunInfo:
    """How a run went: the games it played and in how long, where, the command, the games' own time and the
    provenance of the code that made the report and of the code that played its games."""

    played: int
    seconds: float
    backend: str
    workers: int | None
    command: str
    game_seconds: float
    game_cpu_seconds: float
    provenance: Json
    games_provenance: list[Json]

    def as_json(self) -> Json:
        return {"played": self.played, "seconds": self.seconds, "backend": self.backend, "workers": self.workers,
                "command": self.command, "game_seconds": self.game_seconds,
                "game_cpu_seconds": self.game_cpu_seconds, "provenance": self.provenance,
                "games_provenance": self.games_provenance}


@dataclass(frozen=True)
class BalanceReport:
    """A run's report: its settings, each option set's metrics, the verdict (:mod:`.verdict`), how the run
    went, and the ladder's figures (:mod:`.ladder`) when it had one."""

    title: str
    game: str
    agents: list[str]
    seed: int
    games: int
    reproducible: bool
    sets: list[SetReport]
    verdict: Json
    run: RunInfo
    ladder: Json | None = None

    def as_json(self) -> Json:
        """``report.json``'s object."""
        ladder = {} if self.ladder is None else {"ladder": self.ladder}
        return {"format": REPORT_FORMAT, "title": self.title, "game": self.game, "agents": self.agents,
                "seed": self.seed, "games": self.games, "reproducible": self.reproducible,
                "sets": [s.as_json() for s in self.sets], "verdict": self.verdict, "run": self.run.as_json(),
                **ladder}
