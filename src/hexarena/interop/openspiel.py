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
game's :func:`hexarena.observe.default_form`.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from .. import GAMES, game_class
from ..extras import needs
from ..games.base import TO_MOVE, WINNER, Game, State
from ..observe import FORMS, default_form, observation_shape, observe_array

with needs("interop", __name__):
    import pyspiel
from . import max_game_length

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
        return HexarenaState(self, self.game.initial_array())

    def make_py_observer(self, iig_obs_type=None, params=None):
        """Our tensors for the default (observation) type; the action
        history for perfect-recall (information state) requests."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return Observer(self.game, params)
        from open_spiel.python.observation import IIGObserverForPublicInfoGame

        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Shared:
    """The hexarena Game inside a state's attributes: pyspiel's ``clone()``
    deep-copies every attribute of a Python state, and the game's tables
    are the same for all its states."""

    __slots__ = ("game",)

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self


class HexarenaState(pyspiel.State):
    """A position: the game's flat array, changed by the game's kernels."""

    def __init__(self, game: HexarenaGame, array: np.ndarray) -> None:
        super().__init__(game)
        self._rules = _Shared(game.game)
        self._array = array
        self._legal: list[int] | None = None

    @property
    def _game(self) -> Game:
        return self._rules.game

    @property
    def array(self) -> np.ndarray:
        """The raw position (read-only view), as :attr:`hexarena.State.array`."""
        view = self._array.view()
        view.flags.writeable = False
        return view

    def facade(self) -> State:
        """A hexarena State over a copy of this position (no move history)."""
        return State(self._game, self._array.copy())

    def current_player(self) -> int:
        if self._array[WINNER] >= 0:
            return pyspiel.PlayerId.TERMINAL
        return int(self._array[TO_MOVE])

    def _legal_actions(self, player: int) -> list[int]:
        if self._legal is None:
            if self._array[WINNER] >= 0:
                self._legal = []
            else:
                out = np.empty(self._game.num_actions, dtype=np.int32)
                n = self._game.kernels.legal(self._array, self._game.tables, out)
                self._legal = sorted(int(a) for a in out[:n])
        return list(self._legal)

    def _apply_action(self, action: int) -> None:
        if action not in self._legal_actions(self.current_player()):
            raise ValueError(f"action {action} is not legal here; legal: {self._legal}")
        self._game.kernels.apply(self._array, self._game.tables, int(action))
        self._legal = None

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return self._game.action_name(self._array, action)
        except Exception:  # a name that depends on a position where it is not legal
            return f"action {action}"

    def is_terminal(self) -> bool:
        return bool(self._array[WINNER] >= 0)

    def returns(self) -> list[float]:
        return self.facade().returns()

    def __str__(self) -> str:
        return str(self.facade())


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


def register() -> list[str]:
    """Register every hexarena game with pyspiel (once); their names.

    pyspiel gets a class per game (a registered closure crashes the
    interpreter at exit in open-spiel 2.0.2)."""
    known = set(pyspiel.registered_names())
    for name in GAMES:
        if spiel_name(name) not in known:
            _GAME_TYPES[name] = _game_type(name)
            cls = type(f"HexarenaGame_{name.replace('-', '_')}", (HexarenaGame,), {"NAME": name})
            globals()[cls.__name__] = cls  # importable by name: pickling finds it
            pyspiel.register_game(_GAME_TYPES[name], cls)
    return [spiel_name(name) for name in GAMES]


_GAME_TYPES: dict[str, pyspiel.GameType] = {}
register()
