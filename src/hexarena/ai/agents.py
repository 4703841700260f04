"""The agent registry and the one agent spec grammar of every front end.

``KINDS`` maps a kind's name to its factory; ``agent(kind, seed, **options)``
builds one.  A spec is text, ``KIND[:ARGUMENT]``, as the command line, the
terminal (``--vs``), the lab (``--agents``) and the server's AI seats name
agents:

- ``random``: uniformly random legal moves;
- ``mcts:LEVEL``: MCTS at strength level 1..10 (``LEVELS`` simulations a move);
- ``mcts:VARIANT[:sims=N|:seconds=S][:solutions=off][:key=value...]``: a
  search variant of docs/ai.md with its budget (500 simulations by default)
  and settings; ``solutions=off``: search solved positions too, instead of
  playing the shipped solutions (:mod:`hexarena.search.solutions`);
- ``ai:LEVEL``: ``mcts:LEVEL`` as players name it (``ai`` alone: level 5).

>>> parse_agent("mcts:3").level, parse_agent("ai").level
(3, 5)
>>> spec = parse_agent("mcts:uct:sims=200:c=0.5")
>>> spec.options, spec.reproducible, spec.searches
({'variant': 'uct:c=0.5', 'simulations': 200}, True, True)
>>> parse_agent("mcts:enhanced:seconds=0.1").reproducible
False
>>> parse_agent("mcts:enhanced:sims=1000:solutions=off").options["solutions"]
False
>>> parse_agent("minimax")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: bad agent 'minimax' (unknown agent kind 'minimax'): agents are random, mcts:LEVEL (LEVEL 1..10), ...
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..games.base import State, quoted
from .mcts import LEVELS, NO_POLICY, VARIANTS, MCTSAgent, config_of


class Agent(Protocol):
    """What every front end asks of an agent (the terminal, the lab, OpenSpiel's bots): its name and its move
    in a position (the state unchanged)."""

    name: str

    def choose(self, state: State) -> str: ...


class Searcher(Agent, Protocol):
    """An agent of a kind that searches (``Kind.searches``), as the server drives it (:mod:`hexarena.server.searchers`).

    ``hint`` gives its move and the win rate it sees for the player to move; ``hinting`` is the same search in
    slices, for a scheduler that interleaves searches: a generator that yields after each slice of about
    ``slice_seconds`` of searching (what it has found so far kept between slices) and returns the move and the
    rate, searching at most ``max_seconds`` on top of its budget.  ``limit`` bounds every later search (its
    tree's nodes, the :func:`time.perf_counter` moment it ends by).  It keeps its tree between the steps of a
    turn and the moves of a game (tree reuse), which ``root_visits`` and ``root_rates`` read without
    searching."""

    def hint(self, state: State) -> tuple[str, float]: ...

    def hinting(self, state: State, slice_seconds: float | None = None,
                max_seconds: float | None = None) -> Generator[None, None, tuple[str, float]]: ...

    def limit(self, max_nodes: int, until: float | None = None) -> None: ...

    def root_visits(self, state: State) -> int: ...

    def root_rates(self, state: State) -> list[float] | None: ...


class RandomAgent:
    """Uniformly random legal moves, reproducible with ``seed``."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self._rng = random.Random(seed)

    def choose(self, state: State) -> str:
        moves = state.legal_moves()
        if not moves:
            raise ValueError("the game is over: no move to choose")
        return self._rng.choice(moves)


@dataclass(frozen=True)
class Kind:
    """A kind of agent: its factory ``factory(seed=..., **options)``, the options
    it takes, its spec forms described (the usage line names them all), and
    the parser of a spec's ARGUMENT into those options."""

    factory: Callable[..., Agent]
    options: tuple[str, ...]
    forms: str
    parse: Callable[[str | None], dict[str, Any]]  # None: the spec has no ":ARGUMENT"
    searcher: Callable[..., Searcher] | None = None  # the factory as a Searcher's, for a kind whose agents search

    @property
    def searches(self) -> bool:
        """Its agents search: ``hint(state)`` gives a move and its value (:class:`Searcher`)."""
        return self.searcher is not None


def searching_kind(factory: Callable[..., Searcher], options: tuple[str, ...], forms: str,
                   parse: Callable[[str | None], dict[str, Any]]) -> Kind:
    """A kind whose agents are :class:`Searcher` s made by ``factory``."""
    return Kind(factory, options, forms, parse, searcher=factory)


LEVEL_WORDS = {str(n): n for n in LEVELS}
DEFAULT_LEVEL = 5  # ``ai`` alone
DEFAULT_SIMULATIONS = LEVELS[DEFAULT_LEVEL]  # mcts:VARIANT without a budget
MCTS_OPTIONS = ("level", "seconds", "simulations", "variant", "solutions")


def _no_argument(argument: str | None) -> dict[str, Any]:
    if argument is not None:
        raise ValueError(f"random takes no argument, got {quoted(argument)}")
    return {}


def _level(argument: str | None) -> dict[str, Any]:
    """``LEVEL`` (1..10, written plainly) as the options of MCTS at that level; no LEVEL is level 5."""
    if argument is None:
        return {"level": DEFAULT_LEVEL}
    if argument not in LEVEL_WORDS:
        raise ValueError("level must be an integer 1..10")
    return {"level": LEVEL_WORDS[argument]}


def _mcts(argument: str | None) -> dict[str, Any]:
    """``LEVEL`` or ``VARIANT[:sims=N|:seconds=S][:solutions=on|off][:key=value...]`` as MCTSAgent options."""
    if not argument:
        raise ValueError("mcts needs a LEVEL or a VARIANT")
    if argument.isdigit():
        return _level(argument)
    variant, *settings = argument.split(":")
    budget: dict[str, Any] = {}
    shipped: dict[str, Any] = {}
    kept = []
    for setting in settings:
        key, _, value = setting.partition("=")
        if key == "solutions":
            if value not in ("on", "off"):
                raise ValueError(f"solutions must be on or off, got {quoted(value)}")
            shipped["solutions"] = value == "on"
        elif key == "sims":
            budget["simulations"] = _positive(value, int, "sims")
        elif key == "seconds":
            budget["seconds"] = _positive(value, float, "seconds")
        else:
            kept.append(setting)
    if len(budget) > 1:
        raise ValueError("give sims or seconds, not both")
    variant = ":".join([variant, *kept])
    config_of(variant)  # checks the variant's name and settings
    return {"variant": variant, **(budget or {"simulations": DEFAULT_SIMULATIONS}), **shipped}


def _positive(value: str, kind: type, key: str) -> int | float:
    try:
        number = kind(value)
    except ValueError:
        number = 0
    if not number > 0 or number == float("inf"):
        raise ValueError(f"{key} must be a positive {kind.__name__}, got {quoted(value)}")
    return number


KINDS: dict[str, Kind] = {
    "random": Kind(RandomAgent, (), "random", _no_argument),
    "mcts": searching_kind(MCTSAgent, MCTS_OPTIONS,
                           "mcts:LEVEL (LEVEL 1..10), mcts:VARIANT[:sims=N|:seconds=S][:solutions=off][:key=value...] "
                           f"with VARIANT one of {', '.join(VARIANTS)} (also VARIANT{NO_POLICY})", _mcts),
    "ai": searching_kind(MCTSAgent, MCTS_OPTIONS, "ai[:LEVEL] (mcts:LEVEL; ai alone: ai:5)", _level),
}
FORMS = [kind.forms for kind in KINDS.values()]
USAGE = f"agents are {', '.join(FORMS[:-1])}, or {FORMS[-1]}"


def agent(kind: str, seed: int | None = None, **options: Any) -> Agent:
    """An agent of ``kind`` (a name of ``KINDS``); ValueError naming the choices.

    ``agent("mcts", level=1..10, seed=..., seconds=..., simulations=...,
    variant=..., solutions=True)`` is an :class:`~hexarena.ai.mcts.MCTSAgent`.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown agent kind {kind!r}; kinds: {', '.join(KINDS)}")
    known = KINDS[kind].options
    unknown = sorted(set(options) - set(known))
    if unknown and not known:
        raise ValueError(f"the {kind} agent takes no options, got {', '.join(options)}")
    if unknown:
        raise ValueError(f"unknown option {unknown[0]!r} for the {kind} agent; options: {', '.join(known)}")
    return KINDS[kind].factory(seed=seed, **options)


@dataclass(frozen=True)
class AgentSpec:
    """A parsed agent spec; ``make(seed)`` builds a fresh agent."""

    text: str
    kind: str  # a name of KINDS
    options: dict[str, Any] = field(default_factory=dict)  # the kind's factory options

    @property
    def level(self) -> int | None:
        """The strength level 1..10 of MCTS at a level, else None."""
        return self.options.get("level")

    @property
    def searches(self) -> bool:
        """True when the agent reports a search value for its moves (``hint``)."""
        return KINDS[self.kind].searches

    @property
    def reproducible(self) -> bool:
        """False for a time budget: the moves then depend on the machine's speed."""
        return "seconds" not in self.options

    def make(self, seed: int | None) -> Agent:
        return agent(self.kind, seed, **self.options)

    def make_searcher(self, seed: int | None) -> Searcher:
        """:meth:`make` for a kind whose agents search (the server's AI seats and hints); ValueError naming
        those kinds for another."""
        searcher = KINDS[self.kind].searcher
        if searcher is None:
            kinds = ", ".join(name for name, kind in KINDS.items() if kind.searches)
            raise ValueError(f"agent {quoted(self.text)} does not search: the agents that search are {kinds}")
        return searcher(seed=seed, **self.options)

    def make_player(self, seed: int | None) -> tuple[Agent, Searcher | None]:
        """A fresh agent, and the same agent as a :class:`Searcher` where its kind searches (its moves then come
        with a value: ``hint``), else None."""
        if self.searches:
            searcher = self.make_searcher(seed)
            return searcher, searcher
        return self.make(seed), None


def parse_agent(text: str) -> AgentSpec:
    """The AgentSpec of ``text``; ValueError (one line naming what is allowed) if malformed."""
    name, colon, argument = text.partition(":")
    try:
        if name not in KINDS:
            raise ValueError(f"unknown agent kind {quoted(name)}")
        return AgentSpec(text, name, KINDS[name].parse(argument if colon else None))
    except ValueError as e:
        raise ValueError(f"bad agent {quoted(text)} ({e}): {USAGE}") from None
