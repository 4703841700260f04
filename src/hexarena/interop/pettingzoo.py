"""Every hexarena game as a PettingZoo AEC environment.

>>> from hexarena.interop.pettingzoo import env
>>> e = env("projective-hex", size=2, opening="none", render_mode="ansi")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())
('player_0', (5, 4, 4), 12)
>>> e.step(0)
>>> e.agent_selection
'player_1'

Agents are ``player_0`` and ``player_1`` (the game's players 0 and 1).  An
observation is ``{"observation": float32 planes seen by that agent (see
hexarena.observe), "action_mask": int8[num_actions]}``; the mask is all
zeros for the agent not to move.  One step is one atomic move: in a
multi-step turn (Lisbon's stones, an opening's three stones) the same agent
is selected for consecutive steps.  The reward comes at the end: +1 to the
winner, -1 to the loser, 0 each for a draw; an episode is never truncated.

``render_mode`` is ``"human"`` (as Gymnasium defines it, "rendered in the
current display or terminal" during ``reset`` and ``step``: having no window
of its own, the environment prints the ASCII board to stdout after each of
them, and ``render()`` prints it again and returns None), ``"ansi"`` (the
ASCII board as a string) or ``"rgb_array"`` (:func:`hexarena.render.raster.rgb`).

The games are deterministic; ``reset(seed=...)`` seeds the environment's
generator, which plays the optional ``random_opening`` (that many uniformly
random moves, none ending the game, before the agents take over).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import load
from ..extras import needs
from ..games.base import Game, IllegalMove, State
from ..observe import FORMS, default_form, edges, observation, observation_shape
from ..render.raster import rgb
from . import AGENTS

with needs("interop", __name__):
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers


def env(game: str = "projective-hex", render_mode: str | None = None, illegal_reward: float | None = None,
        **kwargs: Any) -> AECEnv:
    """The environment of ``game`` with PettingZoo's usual wrappers.

    ``kwargs`` are :class:`raw_env`'s keywords and the game's options.  An
    illegal action raises IllegalMove, unless ``illegal_reward`` is given:
    then it ends the game with that reward to the offender (PettingZoo's
    TerminateIllegalWrapper).
    """
    out: AECEnv = raw_env(game, render_mode=render_mode, **kwargs)
    if illegal_reward is not None:
        out = wrappers.TerminateIllegalWrapper(out, illegal_reward=illegal_reward)
    out = wrappers.AssertOutOfBoundsWrapper(out)
    return wrappers.OrderEnforcingWrapper(out)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped environment)
    """The AEC environment of one hexarena game (see the module docstring).

    ``game`` is a name of ``hexarena.GAMES`` (with the game's ``options``)
    or a loaded Game; ``obs_form`` is ``"grid"`` or ``"graph"`` (then the
    observation is the node features and ``self.edges`` the static edges),
    by default the game's :func:`hexarena.observe.default_form`.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi", "rgb_array"], "name": "hexarena_v0",
                                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game: str | Game = "projective-hex", render_mode: str | None = None,
                 obs_form: str | None = None, random_opening: int = 0, **options: Any) -> None:
        super().__init__()
        self.game = load(game, **options) if isinstance(game, str) else game
        obs_form = default_form(self.game) if obs_form is None else obs_form
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; allowed: None, "
                             f"{', '.join(self.metadata['render_modes'])}")
        if obs_form not in FORMS:
            raise ValueError(f"unknown obs_form {obs_form!r}; forms: {', '.join(FORMS)}")
        if isinstance(random_opening, bool) or not isinstance(random_opening, int) or random_opening < 0:
            raise ValueError(f"random_opening must be an integer >= 0, got {random_opening!r}")
        self.metadata = dict(self.metadata, name=f"hexarena_{self.game.name.replace('-', '_')}_v0")
        self.render_mode = render_mode
        self.obs_form = obs_form
        self.random_opening = random_opening
        self.edges = edges(self.game.topology) if obs_form == "graph" else None
        self.possible_agents = list(AGENTS)
        n = self.game.num_actions
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, observation_shape(self.game, obs_form), np.float32),
            "action_mask": spaces.Box(0, 1, (n,), np.int8),
        }) for a in AGENTS}
        self.state: State = self.game.new_state()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or not hasattr(self, "_np_random"):
            self._np_random, _ = gymnasium.utils.seeding.np_random(seed)
        self.state = self.game.new_state()
        self._play_random_opening()
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict] = {a: {} for a in AGENTS}
        mover = self.state.to_move
        assert mover is not None, "the random opening never ends the game"
        self.agent_selection = AGENTS[mover]
        if self.render_mode == "human":
            self.render()

    def _play_random_opening(self) -> None:
        for _ in range(self.random_opening):
            choices = [a for a in self.state.legal_actions() if not self._ends_game(a)]
            if not choices:
                return
            self.state.apply(int(self._np_random.choice(choices)))

    def _ends_game(self, action: int) -> bool:
        after = State(self.game, self.state.array.copy())
        after.apply(action)
        return after.is_over()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = AGENTS.index(agent)
        obs = observation(self.state, player, self.obs_form)
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if agent == self.agent_selection and not self.state.is_over():
            mask[self.state.legal_actions()] = 1
        return {"observation": obs[0] if self.obs_form == "graph" else obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or int(action) not in self.state.legal_actions():
            raise IllegalMove(f"{agent}: action {action!r} is not legal here; legal: {self.state.legal_actions()}")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(int(action))
        self.rewards = {a: 0.0 for a in self.agents}
        mover = self.state.to_move  # None once the game is over
        if mover is None:
            self.rewards = dict(zip(AGENTS, self.state.returns(), strict=True))
            self.terminations = {a: True for a in self.agents}
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        else:
            self.agent_selection = AGENTS[mover]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; choose 'human', 'ansi' or 'rgb_array'")
            return None
        if self.render_mode == "human":
            print(self.state, end="\n\n", flush=True)
            return None
        if self.render_mode == "ansi":
            return str(self.state)
        return rgb(self.state)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return self.metadata["name"]
