"""Every hexarena game as a pyspiel game, for OpenSpiel's Python algorithms.

Importing this module registers each game of ``hexarena.GAMES`` as
``python_hexarena_<name>`` (``-`` becomes ``_``), with the game's options
as typed OpenSpiel parameters (a tuple option such as ``size=(9, 8)`` is
the string ``"9x8"``; ``"9,8"`` is accepted too, in a parameter dict, but
the game string ``lisbon(size=9x8)`` needs the ``x`` because OpenSpiel
splits game strings at commas):

>>> import pyspiel
>>> import hexarena.interop.openspiel
>>> game = pyspiel.load_game("python_hexarena_projective_hex(size=2,opening=none)")
>>> state = game.new_initial_state()
>>> state.apply_action(0)
>>> state.current_player(), state.action_to_string(1, 1)
(1, 'a2')
>>> game.observation_tensor_shape()       # (planes + mask, rows, axial columns)
[5, 4, 4]

Games are sequential, deterministic, perfect-information and zero-sum with
terminal rewards +1/-1 (0 each for a draw).  One OpenSpiel action is one
atomic move: in a multi-step turn the same player moves several times in a
row.  Observations are :func:`hexarena.observe.observation` from the
observing player's point of view; the observer parameter ``form`` picks
``"grid"`` or ``"graph"`` (node features only; the edges are
:func:`hexarena.observe.edges` of the game's topology), by default the
game's :func:`hexarena.observe.default_form`.  A state takes back its last
action with ``undo_action`` (:class:`HexarenaState`), and
:class:`HexarenaBot` plays any hexarena agent as a ``pyspiel.Bot``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .. import GAMES, game_class
from ..extras import needs
from ..games.base import TO_MOVE, WINNER, Game, State
from ..kernels import direct, sort_prefix
from ..observe import FORMS, default_form, observation_shape, observe_array

with needs("interop", __name__):
    import pyspiel
from . import max_game_length

if TYPE_CHECKING:
    from ..ai import Agent

PREFIX = "python_hexarena_"
_UNSET = ""  # parameter value of an option that has no default: the game's own choice


def spiel_name(name: str) -> str:
    """The pyspiel short name of the hexarena game ``name``.

    >>> spiel_name("projective-hex")
    'python_hexarena_projective_hex'
    """
    return PREFIX + name.replace("-", "_")


def parameter_value(default: Any) -> int | float | str | bool:
    """An option's default as an OpenSpiel parameter value."""
    if isinstance(default, (bool, int, float, str)):
        return default
    if isinstance(default, (tuple, list)):
        return "x".join(str(v) for v in default)
    return _UNSET


def parameter_specification(cls: type[Game]) -> dict[str, Any]:
    """The pyspiel parameter specification of a game class's options."""
    return {key: parameter_value(opt.default) for key, opt in cls.OPTIONS.items()}


def options_from_params(cls: type[Game], params: dict[str, Any]) -> dict[str, Any]:
    """hexarena options from pyspiel parameters (the inverse of the above);
    ValueError naming a malformed tuple option."""
    options: dict[str, Any] = {}
    for key, opt in cls.OPTIONS.items():
        if key not in params or params[key] == _UNSET:
            continue
        value = params[key]
        if isinstance(opt.default, tuple) and isinstance(value, str):
            kind = type(opt.default[0])
            try:
                value = tuple(kind(part.strip()) for part in re.split("[,x]", value))
            except ValueError:
                raise ValueError(f"bad value {value!r} for option {key!r} of {cls.name}; "
                                 f"allowed: {opt.allowed} (written like {parameter_value(opt.default)!r})") from None
        options[key] = value
    return options


def load_game(name: str, **options: Any) -> pyspiel.Game:
    """The pyspiel game of hexarena's ``name`` with ``options`` (values as
    hexarena takes them, or as text); ValueError naming a bad option.

    >>> load_game("projective-hex", size="2", opening="swap")
    python_hexarena_projective_hex(opening=swap,size=2)
    """
    cls = game_class(name)
    values = cls.validate_options(options)
    params = {key: parameter_value(value) for key, value in values.items() if key in options}
    return pyspiel.load_game(spiel_name(cls.name), params)


class HexarenaGame(pyspiel.Game):
    """A hexarena game seen by OpenSpiel; ``self.game`` is the hexarena Game.
    :func:`register` makes one subclass per game, naming it in ``NAME``."""

    NAME: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = self._load(params or {})
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_game_length(game),
        )
        super().__init__(_GAME_TYPES[self.NAME], info, params or {})
        self._game = game

    def _load(self, params: dict[str, Any]) -> Game:
        cls = game_class(self.NAME)
        return cls(**options_from_params(cls, params))

    @property
    def game(self) -> Game:
        """The hexarena Game (rebuilt from the parameters after unpickling,
        which restores the pyspiel object without calling ``__init__``)."""
        if getattr(self, "_game", None) is None:
            self._game = self._load(self.get_parameters())
        return self._game

    def new_initial_state(self) -> HexarenaState:
        if getattr(self, "_start", None) is None:  # one start node for all: nodes never change
            self._start = Node(self.game, self.game.initial_array())
        return HexarenaState(self, self._start)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """Our tensors for the default (observation) type; the action
        history for perfect-recall (information state) requests."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return Observer(self.game, params)
        from open_spiel.python.observation import IIGObserverForPublicInfoGame

        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class Node:
    """One position of a state's line of play: the position's array (never
    written once made: an action writes a copy), the action that led here
    and the node before it.  Clones share their nodes, undo steps back to
    ``previous``, and the legal actions are worked out once per node."""

    __slots__ = ("game", "array", "player", "previous", "action", "depth", "_legal")

    def __init__(self, game: Game, array: np.ndarray, previous: Node | None = None, action: int = -1) -> None:
        self.game, self.array, self.previous, self.action = game, array, previous, action
        self.player: int = pyspiel.PlayerId.TERMINAL if array[WINNER] >= 0 else int(array[TO_MOVE])
        self.depth: int = 0 if previous is None else previous.depth + 1
        self._legal: list[int] | None = None

    def legal(self) -> list[int]:
        """The legal actions, ascending (shared: callers copy before changing it)."""
        if self._legal is None:
            if self.player < 0:
                self._legal = []
            else:
                out = np.empty(self.game.num_actions, dtype=np.int32)
                n = self.game.calls.legal(self.array, self.game.tables, out)
                _sort_prefix()(out, n)
                self._legal = out[:n].tolist()
        return self._legal

    def is_legal(self, action: int) -> bool:
        if self._legal is None and self.player >= 0 and self.game.calls.is_legal is not None:
            return 0 <= action < self.game.num_actions and bool(
                self.game.calls.is_legal(self.array, self.game.tables, action))
        legal = self.legal()
        i = bisect_left(legal, action)
        return i < len(legal) and legal[i] == action

    def child(self, action: int) -> Node:
        """The node after the legal ``action``."""
        after = self.array.copy()
        self.game.calls.apply(after, self.game.tables, action)
        return Node(self.game, after, self, action)

    def line(self) -> list[Node]:
        """The nodes after the first, in the order played."""
        nodes, node = [], self
        while node.previous is not None:
            nodes.append(node)
            node = node.previous
        return nodes[::-1]

    def root(self) -> Node:
        """The first node of the line."""
        node = self
        while node.previous is not None:
            node = node.previous
        return node

    def __deepcopy__(self, memo: dict) -> Node:
        return self  # nothing in a node changes but its memo of the legal actions

    def __reduce__(self) -> tuple:
        return _replayed, (self.game, self.root().array, [node.action for node in self.line()])


@cache
def _sort_prefix() -> Callable[[np.ndarray, int], None]:
    """:func:`hexarena.kernels.sort_prefix` for an action buffer, called directly."""
    return direct(sort_prefix, np.empty(1, dtype=np.int32), 0)


def _replayed(game: Game, start: np.ndarray, actions: list[int]) -> Node:
    """The node at the end of ``actions`` played from ``start`` (unpickling)."""
    node = Node(game, start)
    for action in actions:
        node = node.child(action)
    return node


class PlayerAction(NamedTuple):
    """One entry of :meth:`HexarenaState.full_history` (as pyspiel's PlayerAction)."""

    player: int
    action: int


class HexarenaState(pyspiel.State):
    """A position and its line of play (:class:`Node` nodes), changed by
    the game's kernels.

    The Python methods that OpenSpiel's Python algorithms call most are
    answered here, not through pyspiel's C++ (which converts every legal
    list between Python and C++ twice): ``legal_actions``,
    ``legal_actions_mask``, ``current_player``, ``is_terminal``.
    ``undo_action(player, action)`` takes back the last action; the line of
    play, not pyspiel's C++ copy of it, answers ``history``, ``history_str``,
    ``full_history``, ``move_number`` and ``is_initial_state``, so they stay
    right after an undo (pyspiel's C++ ``UndoAction`` does not reach Python
    games, so C++ code cannot undo them, and its C++ history of a state that
    was undone keeps the actions taken back).
    """

    def __init__(self, game: HexarenaGame, array: np.ndarray | Node) -> None:
        super().__init__(game)
        self._pos = array if isinstance(array, Node) else Node(game.game, np.array(array, dtype=np.int32))

    @property
    def _game(self) -> Game:
        return self._pos.game

    @property
    def array(self) -> np.ndarray:
        """The raw position (read-only view), as :attr:`hexarena.State.array`."""
        view = self._pos.array.view()
        view.flags.writeable = False
        return view

    def facade(self, with_history: bool = False) -> State:
        """A hexarena State over a copy of this position: without move
        history, or ``with_history``, replayed from this state's start."""
        if not with_history:
            return State(self._game, self._pos.array.copy())
        out = State(self._game, self._pos.root().array.copy())
        for node in self._pos.line():
            out.apply(node.action)
        return out

    def current_player(self) -> int:
        return self._pos.player

    def is_terminal(self) -> bool:
        return self._pos.player < 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        pos = self._pos
        if player is None or player == pos.player:
            return list(pos.legal())
        if player < 0 and pos.player >= 0:
            raise ValueError(f"legal actions of pseudo-player {player}: players are 0 and 1")
        return []

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        mask = [0] * self._game.num_actions
        for action in self.legal_actions(player):
            mask[action] = 1
        return mask

    def _legal_actions(self, player: int) -> list[int]:
        return self._pos.legal()  # pyspiel copies it into C++

    def _apply_action(self, action: int) -> None:
        pos = self._pos
        if pos.player < 0:
            raise ValueError(f"action {action}: the game is over")
        if not pos.is_legal(action):
            raise ValueError(f"action {action} is not legal here; legal: {pos.legal()}")
        self._pos = pos.child(action)

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action, which was ``action`` by ``player``
        (ValueError naming the last action otherwise)."""
        pos = self._pos
        if pos.previous is None:
            raise ValueError(f"undo_action({player}, {action}): no action has been applied")
        if (player, action) != (pos.previous.player, pos.action):
            raise ValueError(f"undo_action({player}, {action}): the last action was {pos.action} "
                             f"by player {pos.previous.player}")
        self._pos = pos.previous

    def history(self) -> list[int]:
        return [node.action for node in self._pos.line()]

    def history_str(self) -> str:
        return ", ".join(str(a) for a in self.history())

    def full_history(self) -> list[PlayerAction]:
        return [PlayerAction(node.previous.player, node.action) for node in self._pos.line()]  # type: ignore[union-attr]

    def move_number(self) -> int:
        return self._pos.depth

    def is_initial_state(self) -> bool:
        return self._pos.previous is None

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return self._game.action_name(self._pos.array, action)
        except Exception:  # a name that depends on a position where it is not legal
            return f"action {action}"

    def returns(self) -> list[float]:
        winner = int(self._pos.array[WINNER])
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0] if winner == 1 else [0.0, 0.0]

    def __str__(self) -> str:
        return str(self.facade())


class HexarenaBot(pyspiel.Bot):
    """A hexarena agent as a ``pyspiel.Bot``, for OpenSpiel's
    ``evaluate_bots`` and arenas, on the pyspiel games registered here.

    ``agent`` is an agent (an object with ``choose(state) -> move``, as
    :mod:`hexarena.ai` makes) or an agent spec (``"random"``, ``"ai:3"``,
    ``"mcts:uct:sims=200"``: :func:`hexarena.ai.parse_agent`) made with
    ``seed``.  The bot follows the game in a hexarena State with its move
    history (``restart_at``, ``inform_action``, and ``step`` catches up with
    the history of the state it is given), so an agent that keeps its
    search between moves (MCTS) keeps it here too.  It gives no policy.
    """

    def __init__(self, agent: Agent | str, seed: int | None = None) -> None:
        super().__init__()
        if isinstance(agent, str):
            from ..ai import parse_agent  # the AI's modules load only for a bot

            agent = parse_agent(agent).make(seed)
        elif seed is not None:
            raise ValueError("seed is for an agent spec; an agent object has its own")
        if not callable(getattr(agent, "choose", None)):
            raise TypeError(f"an agent has a choose(state) method, got {type(agent).__name__}")
        self.agent: Agent = agent
        self._state: State | None = None

    def restart(self) -> None:
        self._state = None

    def restart_at(self, state: pyspiel.State) -> None:
        self._state = _hexarena_state(state).facade(with_history=True)

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        self._follow(state).apply(action)

    def step(self, state: pyspiel.State) -> int:
        ours = self._follow(state)
        move = self.agent.choose(ours)
        steps = ours.parse_steps(move)
        if len(steps) != 1:
            raise ValueError(f"{self.agent.name} chose {move!r}, {len(steps)} steps: a bot's step is one action")
        return steps[0]

    def provides_policy(self) -> bool:
        return False

    def _follow(self, state: pyspiel.State) -> State:
        """Our State brought to ``state`` (replayed anew when it is not on our line)."""
        history, ours = state.history(), self._state
        known = [] if ours is None else ours.history
        if ours is None or ours.game is not _hexarena_state(state)._game or known != history[:len(known)]:
            ours, known = _hexarena_state(state).facade(with_history=True), history
        for action in history[len(known):]:
            ours.apply(action)
        self._state = ours
        return ours


def _hexarena_state(state: pyspiel.State) -> HexarenaState:
    if not isinstance(state, HexarenaState):
        raise ValueError(f"HexarenaBot plays the hexarena games ({PREFIX}*), not {state.get_game()}")
    return state


class Observer:
    """OpenSpiel's PyObserver over :func:`hexarena.observe.observation`."""

    def __init__(self, game: Game, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.form = params.pop("form", default_form(game))
        if params:
            raise ValueError(f"unknown observer parameters {sorted(params)}; allowed: form")
        if self.form not in FORMS:
            raise ValueError(f"unknown observation form {self.form!r}; forms: {', '.join(FORMS)}")
        shape = observation_shape(game, self.form)
        self.tensor = np.zeros(int(np.prod(shape)), dtype=np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: HexarenaState, player: int) -> None:
        obs = observe_array(state._game, state.array, player, self.form)
        self.dict["observation"][...] = obs[0] if self.form == "graph" else obs

    def string_from(self, state: HexarenaState, player: int) -> str:
        return str(state)


def _game_type(name: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=spiel_name(name),
        long_name=f"hexarena {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(game_class(name)),
    )


def register(names: Sequence[str] = GAMES) -> list[str]:
    """Register the hexarena games ``names`` with pyspiel (each once; importing this module registers every game
    of ``GAMES``, and a game from outside the package, :func:`hexarena.register` ed, is registered by calling this
    with its name); their pyspiel names.

    pyspiel gets a class per game (a registered closure crashes the
    interpreter at exit in open-spiel 2.0.2)."""
    known = set(pyspiel.registered_names())
    for name in names:
        if spiel_name(name) not in known:
            _GAME_TYPES[name] = _game_type(name)
            cls = type(f"HexarenaGame_{name.replace('-', '_')}", (HexarenaGame,), {"NAME": name})
            globals()[cls.__name__] = cls  # importable by name: pickling finds it
            pyspiel.register_game(_GAME_TYPES[name], cls)
    return [spiel_name(name) for name in names]


_GAME_TYPES: dict[str, pyspiel.GameType] = {}
register()
