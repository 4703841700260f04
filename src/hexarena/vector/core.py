""":class:`VectorGame`: N games of one game held as one ``int32[N, S]``
array and stepped together inside numba (see :mod:`hexarena.vector`)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .. import load
from ..games.base import PLY, TO_MOVE, WINNER, Game, IllegalMove, State
from ..observe import observation_shape
from .loops import loops
from .observe import flat, grid_arrays, observe_positions
from .rng import seeded_streams


class StepResult(NamedTuple):
    """What :meth:`VectorGame.step` reports per environment."""

    movers: np.ndarray  # int32[N]: the player who made the step
    winners: np.ndarray  # int32[N]: the winner of a game that ended with this step (DRAW for a draw), else -1
    terminated: np.ndarray  # bool[N]: the game ended with this step
    rewards: np.ndarray  # float32[N, 2]: per player, +1 win, -1 loss, 0 for a draw or a game going on


class VectorGame:
    """``n`` games of ``game`` (a name of ``hexarena.GAMES`` with its
    ``options``, or a loaded Game), each from the start.

    One :meth:`step` applies one atomic action in every game, as
    ``State.apply`` does (a multi-step turn keeps its player to move for
    several steps: read :attr:`to_move`).  With ``autoreset`` (the default) a
    game that ends is started afresh inside that same step, its final
    position kept in :attr:`final_states` (Gymnasium's same-step autoreset);
    without it an ended game stays over until :meth:`reset`.  ``seed`` seeds
    :meth:`random_actions` and :meth:`self_play` (the games themselves are
    deterministic).
    """

    def __init__(self, game: str | Game, n: int, seed: int | None = None, autoreset: bool = True,
                 **options: Any) -> None:
        if options and not isinstance(game, str):
            raise ValueError("options go with a game's name; a loaded Game has its own")
        self.game = load(game, **options) if isinstance(game, str) else game
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n (the number of games) must be an integer >= 1, got {n!r}")
        self.num_envs, self.autoreset = int(n), bool(autoreset)
        self.num_actions = self.game.num_actions
        self.observation_shape: tuple[int, int, int] = observation_shape(self.game)  # type: ignore[assignment]
        self._loops = loops(self.game.kernels)
        self._initial = self.game.initial_array()
        self._states = np.tile(self._initial, (self.num_envs, 1))
        self._finals = self._states.copy()
        self._buf = np.empty(self.num_actions, dtype=np.int32)
        self._points, self._mask = grid_arrays(self.game.topology)
        self.seed(seed)

    # positions ----------------------------------------------------------
    @property
    def states(self) -> np.ndarray:
        """``int32[N, S]``: every position (read-only view; a row is a game's ``State.array``)."""
        view = self._states.view()
        view.flags.writeable = False
        return view

    @property
    def final_states(self) -> np.ndarray:
        """``int32[N, S]`` (read-only view): row ``i`` is the final position of
        env ``i``'s last game that ended with an autoreset (valid where the last
        step's ``terminated`` is set)."""
        view = self._finals.view()
        view.flags.writeable = False
        return view

    @property
    def to_move(self) -> np.ndarray:
        """``int32[N]``: the player to move in each game (-1 for a game over)."""
        return self._states[:, TO_MOVE].copy()

    def state(self, i: int) -> State:
        """Env ``i``'s position as a :class:`hexarena.State` (a copy, without history)."""
        return State(self.game, self._states[self._env(i)].copy())

    def seed(self, seed: int | None) -> None:
        """Restart the random streams of :meth:`random_actions` and :meth:`self_play` from ``seed``."""
        self._streams = seeded_streams(self.num_envs, seed)

    def reset(self, mask: np.ndarray | None = None) -> None:
        """Start every game afresh, or those where ``mask`` (``bool[N]``) is set."""
        if mask is None:
            self._states[:] = self._initial
            return
        mask = np.asarray(mask)
        if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
            raise ValueError(f"a reset mask is bool[{self.num_envs}], got {mask.dtype}{list(mask.shape)}")
        self._states[mask] = self._initial

    # moves --------------------------------------------------------------
    def legal_mask(self) -> np.ndarray:
        """``bool[N, num_actions]``: the legal actions of every game (none in a game over)."""
        masks = np.empty((self.num_envs, self.num_actions), dtype=np.bool_)
        self._loops.legal_masks(self._states, self.game.tables, masks, self._buf)
        return masks

    def random_actions(self) -> np.ndarray:
        """``int64[N]``: a uniformly random legal action per game (-1 in a game
        over), from each env's seeded stream."""
        out = np.empty(self.num_envs, dtype=np.int64)
        self._loops.random_actions(self._states, self.game.tables, self._streams, out, self._buf)
        return out

    def step(self, actions: Any) -> StepResult:
        """Apply ``actions[i]`` in game ``i``, for every ``i``.  A wrong count,
        a non-integer, an action out of range or not legal (or a game over,
        without autoreset) raises ValueError / IllegalMove naming the first
        such env and its action; then no game has changed."""
        actions = self._checked(actions)
        movers = np.empty(self.num_envs, dtype=np.int32)
        winners = np.empty(self.num_envs, dtype=np.int32)
        self._loops.step(self._states, self.game.tables, actions, self._initial, self.autoreset, movers, winners,
                         self._finals)
        rewards = np.zeros((self.num_envs, 2), dtype=np.float32)
        won = (winners == 0) | (winners == 1)
        rewards[won, winners[won]] = 1.0
        rewards[won, 1 - winners[won]] = -1.0
        return StepResult(movers, winners, winners >= 0, rewards)

    def _checked(self, actions: Any) -> np.ndarray:
        arr = np.asarray(actions)
        if arr.shape != (self.num_envs,):
            raise ValueError(f"step takes one action per env: {self.num_envs} actions, got shape {arr.shape}")
        if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"actions are integer action ids, got dtype {arr.dtype}")
        out = np.ascontiguousarray(arr, dtype=np.int64)
        bad = np.flatnonzero((out < 0) | (out >= self.num_actions))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"env {i}: action {int(out[i])} is out of range: action ids are 0 to "
                             f"{self.num_actions - 1}; no env was stepped")
        i = int(self._loops.first_refused(self._states, self.game.tables, out, self._buf))
        if i >= 0:
            s = self._states[i]
            if s[WINNER] >= 0:
                raise IllegalMove(f"env {i}: action {int(out[i])}: the game is over (reset it); no env was stepped")
            raise IllegalMove(f"env {i}: action {int(out[i])} is not legal there (player {int(s[TO_MOVE])} to "
                              f"move, ply {int(s[PLY])}); no env was stepped")
        return out

    # observations -------------------------------------------------------
    def observe(self, players: Any = None, out: np.ndarray | None = None) -> np.ndarray:
        """``float32[N, C, H, W]``: every game as ``hexarena.observe.observation(state,
        player)`` gives it (grid form), seen by ``players`` (an int for all, one
        per game, or by default each game's player to move; player 0 in a game
        over).  ``out``: an array of that shape and dtype to write into."""
        return self.observe_positions(self._states, players, out)

    def observe_positions(self, positions: np.ndarray, players: Any = None,
                          out: np.ndarray | None = None) -> np.ndarray:
        """:meth:`observe` of other positions of this game (``int32[k, S]``,
        rows as :attr:`states` holds them, such as ``final_states[terminated]``:
        the compiled planes trust their contents): :func:`hexarena.vector.observe.observe_positions`."""
        return observe_positions(self.game, positions, players, out)

    # self-play ----------------------------------------------------------
    def self_play(self, plies: int, out: np.ndarray | None = None) -> dict[str, int]:
        """``plies`` rounds of uniformly random moves in every game, all inside
        numba (a benchmark's and a data generator's loop): a game that ends
        starts afresh, and when ``out`` (as :meth:`observe`'s) is given each
        new position is observed into it by its player to move, overwriting
        the last round's.  Returns the tally: ``{"wins_0", "wins_1", "draws",
        "positions"}``."""
        if np.any(self._states[:, WINNER] >= 0):
            raise ValueError(f"env {int(np.argmax(self._states[:, WINNER] >= 0))}: the game is over; reset it "
                             f"before self-play")
        flat_out = np.empty((0, 1, 1), dtype=np.float32) if out is None else \
            flat(out, (self.num_envs, *self.observation_shape))
        tally = np.zeros(4, dtype=np.int64)
        self._loops.self_play(self._states, self.game.tables, self._initial, self._streams, int(plies), flat_out,
                              self._points, self._mask, self._buf, self._finals, tally)
        return dict(zip(("wins_0", "wins_1", "draws", "positions"), map(int, tally), strict=True))

    def _env(self, i: int) -> int:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.num_envs:
            raise IndexError(f"env {i!r} is not one of 0 to {self.num_envs - 1}")
        return int(i)

    def __repr__(self) -> str:
        return f"VectorGame({self.game!r}, n={self.num_envs})"
