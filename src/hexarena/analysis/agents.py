"""Agent specifications for self-play: ``random``, ``mcts:LEVEL`` or
``mcts:VARIANT[:sims=N|:seconds=S][:key=value ...]``.

>>> parse_agent("mcts:3").simulations
100
>>> spec = parse_agent("mcts:uct:sims=200:c=0.5")
>>> spec.variant, spec.simulations, spec.reproducible
('uct:c=0.5', 200, True)
>>> parse_agent("mcts:enhanced:seconds=0.1").reproducible
False
>>> parse_agent("minimax")
Traceback (most recent call last):
...
ValueError: bad agent 'minimax': agents are random, mcts:LEVEL (LEVEL 1..10), or mcts:VARIANT[:sims=N|:seconds=S][:key=value...] with VARIANT one of uct, rave, grave, solver, enhanced, decisive (also VARIANT-nopolicy)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ai import Agent, RandomAgent
from ..ai.mcts import LEVELS, NO_POLICY, VARIANTS, MCTSAgent, config_of

USAGE = ("agents are random, mcts:LEVEL (LEVEL 1..10), or mcts:VARIANT[:sims=N|:seconds=S][:key=value...] "
         f"with VARIANT one of {', '.join(VARIANTS)} (also VARIANT{NO_POLICY})")
DEFAULT_SIMULATIONS = LEVELS[5]  # mcts:VARIANT without a budget


@dataclass(frozen=True)
class AgentSpec:
    """A parsed agent specification; ``make(seed)`` builds a fresh agent."""

    text: str
    kind: str  # "random" or "mcts"
    variant: str = "enhanced"
    simulations: int | None = None
    seconds: float | None = None

    @property
    def searches(self) -> bool:
        """True when the agent reports a search value for its moves."""
        return self.kind == "mcts"

    @property
    def reproducible(self) -> bool:
        """False for a time budget: the moves then depend on the machine's speed."""
        return self.seconds is None

    def make(self, seed: int) -> Agent:
        if self.kind == "random":
            return RandomAgent(seed)
        return MCTSAgent(seed=seed, variant=self.variant, simulations=self.simulations, seconds=self.seconds)


def parse_agent(text: str) -> AgentSpec:
    """The AgentSpec of ``text``; ValueError (one line naming what is allowed) if malformed."""
    try:
        return _parse(text.strip())
    except ValueError as e:
        detail = f" ({e})" if str(e) else ""
        raise ValueError(f"bad agent {text!r}{detail}: {USAGE}") from None


def parse_agents(text: str) -> tuple[AgentSpec, AgentSpec]:
    """``A,B`` (or one spec for both sides) as two AgentSpecs."""
    parts = text.split(",")
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2:
        raise ValueError(f"--agents {text!r}: give two agents A,B (or one for both sides); {USAGE}")
    return parse_agent(parts[0]), parse_agent(parts[1])


def _parse(text: str) -> AgentSpec:
    if text == "random":
        return AgentSpec(text, "random")
    kind, _, rest = text.partition(":")
    if kind != "mcts" or not rest:
        raise ValueError("")
    if rest.isdigit():
        level = int(rest)
        if level not in LEVELS:
            raise ValueError(f"level {level} is not 1..10")
        return AgentSpec(text, "mcts", "enhanced", simulations=LEVELS[level])
    variant, *settings = rest.split(":")
    simulations: int | None = None
    seconds: float | None = None
    kept = []
    for setting in settings:
        key, _, value = setting.partition("=")
        if key == "sims":
            simulations = _positive(value, int, "sims")
        elif key == "seconds":
            seconds = _positive(value, float, "seconds")
        else:
            kept.append(setting)
    if simulations is not None and seconds is not None:
        raise ValueError("give sims or seconds, not both")
    variant = ":".join([variant, *kept])
    config_of(variant)  # checks the variant's name and settings
    if seconds is None and simulations is None:
        simulations = DEFAULT_SIMULATIONS
    return AgentSpec(text, "mcts", variant, simulations, seconds)


def _positive(value: str, kind: type, key: str) -> int | float:
    try:
        number = kind(value)
    except ValueError:
        number = 0
    if not number > 0 or number == float("inf"):
        raise ValueError(f"{key} must be a positive {kind.__name__}, got {value!r}")
    return number
