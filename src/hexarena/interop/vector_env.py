"""Batched environments over :class:`hexarena.vector.VectorGame`: a
Gymnasium ``VectorEnv`` for self-play and a PettingZoo-style parallel
interface, both stepping N games of one game per call inside numba.

:class:`SelfPlayVectorEnv` (Gymnasium 1.x ``VectorEnv``), one learner playing
both sides:

- observation ``float32[N, C, H, W]``: each game seen by its player to move
  (the grid form of :func:`hexarena.observe.observation`);
- action ``MultiDiscrete([num_actions] * N)``: one atomic move per game (a
  multi-step turn keeps the same player to move for several steps;
  ``info["to_move"]`` says who);
- reward ``float32[N]``: for the player who made the step, +1 when it won
  the game, -1 when it lost, 0 for a draw and while the game goes on
  (``info["rewards"]``: ``float32[N, 2]`` per player);
- ``terminated`` when the step ended the game; never ``truncated``;
- ``info["action_mask"]``: ``bool[N, num_actions]``, the legal actions of the
  positions returned (also :meth:`SelfPlayVectorEnv.action_masks`);
- autoreset: ``AutoresetMode.SAME_STEP`` by default (``metadata
  ["autoreset_mode"]``): a game that ends is reset inside the same step, the
  observation returned is its new start, and ``info["final_obs"]`` (an object
  array, set where ``info["_final_obs"]``) holds its final position seen by
  the player who made the last move; ``info["final_info"]["winner"]`` its
  winner (2 for a draw).  ``AutoresetMode.DISABLED`` leaves an ended game over
  until ``reset(options={"reset_mask": mask})``; stepping it raises.

:class:`BatchedParallelEnv` follows PettingZoo's parallel API with every
value batched over the N games: agents ``player_0`` and ``player_1``;
``observations[agent] = {"observation": float32[N, C, H, W] seen by that
agent, "action_mask": int8[N, num_actions]}`` (zeros where the agent is not
to move); ``step({"player_0": int[N], "player_1": int[N]})`` plays in each
game the action of its player to move (the other entry is ignored);
``rewards[agent]``: ``float32[N]`` (+1 / -1 / 0 when a game ends);
``terminations[agent]``: ``bool[N]``; games reset in the same step, as
above, with ``infos[agent]["final_obs"]`` seen by that agent.

>>> from hexarena.interop.vector_env import SelfPlayVectorEnv
>>> env = SelfPlayVectorEnv("projective-hex", num_envs=4, size=2, opening="none")
>>> obs, info = env.reset(seed=0)
>>> obs.shape, info["action_mask"].shape
((4, 5, 4, 4), (4, 15))
>>> obs, rewards, terminated, truncated, info = env.step(env.random_actions())
>>> rewards.tolist(), info["to_move"].tolist()
([0.0, 0.0, 0.0, 0.0], [1, 1, 1, 1])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..extras import needs
from ..games.base import Game
from ..vector import VectorGame
from . import AGENTS

with needs("interop", __name__):
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space

MODES = (AutoresetMode.SAME_STEP, AutoresetMode.DISABLED)


def _games(game: str | Game, num_envs: int, autoreset_mode: AutoresetMode, options: dict[str, Any]) -> VectorGame:
    if autoreset_mode not in MODES:
        raise ValueError(f"autoreset_mode {autoreset_mode!r} is not supported; supported: "
                         f"{', '.join(str(m) for m in MODES)}")
    return VectorGame(game, num_envs, autoreset=autoreset_mode == AutoresetMode.SAME_STEP, **options)


def _reset(games: VectorGame, seed: int | None, options: dict | None) -> None:
    """Seed the games' random streams (``seed``) and reset them all, or those of ``options["reset_mask"]``."""
    unknown = sorted(set(options or {}) - {"reset_mask"})
    if unknown:
        raise ValueError(f"unknown reset option {unknown[0]!r}; options: 'reset_mask'")
    if seed is not None:
        games.seed(seed)
    games.reset((options or {}).get("reset_mask"))


def _final(values: np.ndarray, ended: np.ndarray) -> np.ndarray:
    """Gymnasium's ``final_obs`` layout: an object array with each ended game's value, None elsewhere."""
    out = np.full(len(ended), None, dtype=object)
    for k, i in enumerate(np.flatnonzero(ended)):
        out[i] = values[k]
    return out


class SelfPlayVectorEnv(VectorEnv):
    """N games of ``game`` (a name with its ``options``, or a loaded Game) as
    a Gymnasium vector environment for self-play (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: str | Game = "projective-hex", num_envs: int = 8,
                 autoreset_mode: AutoresetMode = AutoresetMode.SAME_STEP, **options: Any) -> None:
        self.games = _games(game, num_envs, autoreset_mode, options)
        self.metadata = {**self.metadata, "autoreset_mode": autoreset_mode}
        self.num_envs = self.games.num_envs
        self.single_observation_space = spaces.Box(0.0, 1.0, self.games.observation_shape, np.float32)
        self.single_action_space = spaces.Discrete(self.games.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """Every game from the start (or those of ``options["reset_mask"]``); ``seed`` seeds :meth:`random_actions`
        and the action space."""
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
        _reset(self.games, seed, options)
        return self.games.observe(), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        result = self.games.step(actions)
        info = self._info()
        info["rewards"] = result.rewards
        ended = result.terminated
        if self.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP and ended.any():
            finals = self.games.observe_positions(self.games.final_states[ended], result.movers[ended])
            info.update(final_obs=_final(finals, ended), _final_obs=ended.copy(),
                        final_info={"winner": np.where(ended, result.winners, -1), "_winner": ended.copy()},
                        _final_info=ended.copy())
        rewards = result.rewards[np.arange(self.num_envs), result.movers]
        return self.games.observe(), rewards, ended, np.zeros(self.num_envs, dtype=np.bool_), info

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.games.legal_mask(), "to_move": self.games.to_move}

    def action_masks(self) -> np.ndarray:
        """``bool[N, num_actions]``: the legal actions now (the masking convention of sb3-contrib's MaskablePPO)."""
        return self.games.legal_mask()

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action per game, from the streams ``reset(seed=...)`` seeded."""
        return self.games.random_actions()


class BatchedParallelEnv:
    """N games of ``game`` with PettingZoo's parallel API, every value batched
    (see the module docstring).  Not a ``pettingzoo.ParallelEnv``: tools that
    expect one game per environment do not apply."""

    metadata: dict[str, Any] = {"name": "hexarena_batched_v0", "is_parallelizable": True,
                                "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, game: str | Game = "projective-hex", num_envs: int = 8,
                 autoreset_mode: AutoresetMode = AutoresetMode.SAME_STEP, **options: Any) -> None:
        self.games = _games(game, num_envs, autoreset_mode, options)
        self.metadata = {**self.metadata, "autoreset_mode": autoreset_mode}
        self.num_envs = self.games.num_envs
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        n, a = self.num_envs, self.games.num_actions
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (n, *self.games.observation_shape), np.float32),
            "action_mask": spaces.Box(0, 1, (n, a), np.int8)})
        self._action_space = spaces.MultiDiscrete(np.full(n, a))

    def observation_space(self, agent: str) -> spaces.Space:
        self._agent(agent)
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        self._agent(agent)
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        _reset(self.games, seed, options)
        return self._observations(), {agent: {} for agent in AGENTS}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Play, in each game, the action its player to move has in ``actions``."""
        if not isinstance(actions, dict) or set(actions) != set(AGENTS):
            got = sorted(actions) if isinstance(actions, dict) else type(actions).__name__
            raise ValueError(f"actions are a dict of {', '.join(AGENTS)} to one action per game each, got {got}")
        by_agent = [np.asarray(actions[agent]) for agent in AGENTS]
        for agent, acts in zip(AGENTS, by_agent, strict=True):
            if acts.shape != (self.num_envs,):
                raise ValueError(f"{agent}: one action per game: {self.num_envs}, got shape {acts.shape}")
        result = self.games.step(np.where(self.games.to_move == 1, by_agent[1], by_agent[0]))
        ended = result.terminated
        rewards = {agent: result.rewards[:, p] for p, agent in enumerate(AGENTS)}
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        if self.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP and ended.any():
            for p, agent in enumerate(AGENTS):
                finals = self.games.observe_positions(self.games.final_states[ended], p)
                infos[agent].update(final_obs=_final(finals, ended), _final_obs=ended.copy())
        terminations = {agent: ended.copy() for agent in AGENTS}
        truncations = {agent: np.zeros(self.num_envs, dtype=np.bool_) for agent in AGENTS}
        return self._observations(), rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        mask, to_move = self.games.legal_mask().astype(np.int8), self.games.to_move
        return {agent: {"observation": self.games.observe(p), "action_mask": mask * (to_move == p)[:, None]}
                for p, agent in enumerate(AGENTS)}

    def _agent(self, agent: str) -> None:
        if agent not in AGENTS:
            raise ValueError(f"unknown agent {agent!r}; agents: {', '.join(AGENTS)}")

    def close(self) -> None:
        pass
