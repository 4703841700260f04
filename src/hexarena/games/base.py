"""The game protocol: a :class:`Game` (rules + options + tables) and a
:class:`State` facade over one flat ``int32`` array.

Every game keeps its whole position in one array whose first ``HEADER``
entries are shared by all games (:mod:`hexarena.header`: the player to
move, the winner, the turn, its step, the ply), so agents and tools read
them without knowing the game.

A game supplies numba kernels over ``(s, tables)``: ``legal(s, t, out) ->
count``, ``apply(s, t, action)`` (the action is known legal) and
``playout(s, t)`` (random play to the end, in place).  The ``State`` class
adds notation, validation, undo, records and rendering in Python.

The optional kernels (``policy``, ``recorded_playout``, ``pattern_playout``,
``policy_playout``, ``search_moves``, ``is_legal``, ``identity``, ``planes``) are
described where a game's set is made: :func:`hexarena.kernels.kernel_set`.
"""

from __future__ import annotations

import copy as _copy
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from functools import cached_property
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..board import Topology
from ..header import DRAW, HEADER, PLY, STEP, TO_MOVE, TURN, WINNER
from ..record_writer import at, make_record, now, to_text
from .errors import AmbiguousMove, IllegalMove, MalformedMove, NothingToUndo, quoted
from .legal import LegalActions
from .notation import Notation
from .options import Option, shown, validated

if TYPE_CHECKING:  # numba: loaded on use, not by `import hexarena`
    from .position import Head, Positions

__all__ = ["DRAW", "HEADER", "PLY", "STEP", "TO_MOVE", "TURN", "WINNER", "IllegalMove", "MalformedMove",
           "AmbiguousMove", "NothingToUndo", "Option", "Game", "State", "quoted", "RESIGN"]

MAX_MOVE_TEXT = 64  # longer move texts are refused before any game reads them
RESIGN = -1  # what undo() returns when it takes back a resignation (or a loss on time)
TIME = "time"  # the end reason of a loss on time (State.lose_on_time)


class Game(Notation, ABC):
    """A game with fixed options: its tables and kernels (the contract every
    game module fulfils; docs/design.md, "Adding a game", is the checklist).

    A concrete subclass must set the class attributes ``name`` (as
    ``hexarena.load`` knows it), ``kernels``
    (``hexarena.kernels.kernel_set(legal, apply, playout, ...)``) and
    ``PLANES``, and define the hooks :meth:`setup`, :meth:`action_name`,
    :meth:`rules_status`, :meth:`ascii`, :meth:`svg` and :meth:`planes`; a class
    missing any of them fails when it is defined (``TypeError`` naming
    them).  An intermediate class shared by several games says
    ``class PushGame(Game, abstract=True)``.  :meth:`setup` must set
    ``topology``, ``tables``, ``num_actions`` and ``state_size``
    (checked when a game is loaded).

    Every other hook and attribute has a default a game may override (the
    notation, scores, the front ends' and the lab's hooks, the solvers',
    the research interfaces', position texts, ``MCTS`` settings), declared
    here so generic code reads them as attributes: docs/design.md, "The game
    contract" and "Adding a game".
    """

    name: ClassVar[str]
    kernels: ClassVar[SimpleNamespace]
    OPTIONS: ClassVar[dict[str, Option]] = {}
    PLAYERS: ClassVar[tuple[str, str]] = ("first", "second")
    PLANES: ClassVar[tuple[str, ...]]  # names of the planes that ``planes`` returns
    MCTS: ClassVar[dict[str, Any]] = {}
    # hexarena solve searches the game exactly: no position repeats (a position's value does not depend on the
    # path to it) and hexarena.search.positions has its keys and symmetries
    SOLVABLE: ClassVar[bool] = False
    CAN_DRAW: ClassVar[bool] = True  # whether a game may end in a draw (the proof-number solver then asks twice)
    COSTLY_SCORES: ClassVar[bool] = False  # exact scores may take long: the web app scores the end in a worker
    # end reasons (rules_end_reason) that settle a game by something other than its goal, for the lab's "how
    # games end": "tie-break" (a secondary rule decided, or left, a tie) or "exhaustion" (the board or pool ran out)
    END_KINDS: ClassVar[dict[str, str]] = {}
    # the lab draws the position after a move where it lists moves: the move's text alone says little (Palago's
    # tile positions relative to the first tile)
    DRAW_MOVES: ClassVar[bool] = False
    # the state entry that is nonzero once a stone only ever helps its owner's win, so the solvers may block
    # threats and skip dead cells (dead_cell_rings); -1 for never
    THREAT_FIELD: ClassVar[int] = -1
    # what `hexarena bench` measures the game on: (label, options)
    BENCH_SETUPS: ClassVar[tuple[tuple[str, dict[str, Any]], ...]] = (("default", {}),)
    SLOW_TO_COMPILE: ClassVar[bool] = False  # minutes of numba compiling: `hexarena warmup` starts it first
    CELL_CODES: ClassVar[int] = 8  # what a cell may hold, as the ``identity`` kernel codes it, is below this
    POSITION_FIELDS: ClassVar[tuple[str, ...]] = ()  # the NAME=VALUE fields of the game's position text
    # the observation the research interfaces give by default (hexarena.observe.default_form): "grid", or "graph"
    # for a board a grid fits badly (an open plane of tiles)
    OBSERVATION_FORM: ClassVar[str] = "grid"
    # an upper bound on one game's atomic moves where 4 * num_actions is none (hexarena.interop.max_game_length);
    # None: that bound holds
    max_game_length: int | None = None
    # actions per cell: action a < ncells * width is cell a // width's (a placement, then pushes: Hex Pushpin), so
    # a board symmetry maps it to the image cell's (hexarena.search.positions.action_maps); the others stay
    width: int = 1
    topology: Topology
    tables: tuple  # a NamedTuple that the kernels read; each game declares its own (``tables: Tables``)
    num_actions: int
    state_size: int

    REQUIRED_ATTRIBUTES: ClassVar[tuple[str, ...]] = ("name", "kernels", "PLANES")
    REQUIRED_KERNELS: ClassVar[tuple[str, ...]] = ("legal", "apply", "playout", "playouts")
    SET_BY_SETUP: ClassVar[tuple[str, ...]] = ("topology", "tables", "num_actions", "state_size")

    def __init_subclass__(cls, abstract: bool = False, **kw: Any) -> None:
        """Check a concrete game's contract when its class is defined."""
        super().__init_subclass__(**kw)
        if abstract:
            return
        missing = [a for a in cls.REQUIRED_ATTRIBUTES if not hasattr(cls, a)]
        missing += [h for h in dir(cls) if getattr(getattr(cls, h, None), "__isabstractmethod__", False)]
        if missing:
            raise TypeError(f"game class {cls.__name__} lacks {', '.join(missing)} (see hexarena.games.base.Game)")
        kernels = [k for k in cls.REQUIRED_KERNELS if not callable(getattr(cls.kernels, k, None))]
        if getattr(cls.kernels, "planes", None) is None and cls.planes is Game.planes:
            kernels.append("planes (or a planes method)")
        if kernels:
            raise TypeError(f"game class {cls.__name__}: kernels lack {', '.join(kernels)} "
                            f"(build them with hexarena.kernels.kernel_set)")

    def __init__(self, /, **options: Any) -> None:
        self.options = self.validate_options(options)
        self.setup()
        unset = [a for a in self.SET_BY_SETUP if not hasattr(self, a)]
        if unset:
            raise TypeError(f"{type(self).__name__}.setup() did not set {', '.join(unset)}")

    @classmethod
    def validate_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Options with defaults filled in; ValueError naming what is wrong."""
        return validated(cls.name, cls.OPTIONS, options)

    @abstractmethod
    def setup(self) -> None:
        """Build ``topology``, ``tables`` (a NamedTuple the kernels read by
        name), ``num_actions`` and ``state_size`` from ``self.options``."""

    def initial_array(self) -> np.ndarray:
        """The position before the first move: a zero array of
        ``state_size`` with player 0 to move in turn 1, no winner.  Games
        with more to set call this and fill in their part."""
        s = np.zeros(self.state_size, dtype=np.int32)
        s[TO_MOVE], s[WINNER], s[TURN] = 0, -1, 1
        return s

    def new_state(self) -> State:
        return State(self, self.initial_array())

    @cached_property
    def calls(self) -> SimpleNamespace:
        """``legal``, ``apply``, ``is_legal`` and ``planes`` (the last two None when the game has none)
        as :class:`State` calls them: compiled for its argument types and
        called directly (:func:`hexarena.kernels.direct`)."""
        from ..kernels import direct  # numba, loaded by the game's module already (not by `import hexarena`)

        s, t = self.initial_array(), self.tables
        is_legal, planes = getattr(self.kernels, "is_legal", None), getattr(self.kernels, "planes", None)
        with self.compiling_rules():
            return SimpleNamespace(legal=direct(self.kernels.legal, s, t, np.empty(self.num_actions, dtype=np.int32)),
                                   apply=direct(self.kernels.apply, s, t, 0),
                                   is_legal=None if is_legal is None else direct(is_legal, s, t, 0),
                                   planes=None if planes is None else direct(planes, s, t, 0, self.blank_planes(),
                                                                             np.arange(1, dtype=np.int64)))

    def compiling_rules(self) -> AbstractContextManager[None]:
        """Around a first call of the rules kernels: when numba compiles them (not
        when it loads them from its cache), one line on stderr says so, once per
        process and game (:mod:`hexarena.compiling`)."""
        from ..compiling import announcing

        how_long = "about a minute" if self.SLOW_TO_COMPILE else "a few seconds"
        return announcing(f"{self.name}: rules", f"hexarena: compiling {self.name}'s rules once (numba), {how_long}; "
                                                 "`hexarena warmup` does it ahead")

    @cached_property
    def positions(self) -> Positions:
        """The game's position keys and identities (:mod:`hexarena.games.position`: numba, loaded on use)."""
        from .position import Positions
        return Positions(self)

    def __getstate__(self) -> dict:
        """Pickled without :attr:`calls` and :attr:`positions` (compiled entry
        points are not picklable; they are made again on first use)."""
        return {k: v for k, v in self.__dict__.items() if k not in ("calls", "positions")}

    def __eq__(self, other: object) -> bool:
        """Games are equal when they are the same game with the same options."""
        return isinstance(other, Game) and (other.name, other.options) == (self.name, self.options)

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.options.items()))))

    def from_position_text(self, text: str) -> State:
        """The position that ``text`` (as :meth:`State.position_text` writes it) describes, with no history:
        it starts there.  :class:`~hexarena.games.position.PositionTextError` (a ValueError) naming what is
        wrong and what is allowed (docs/notation.md, "Position text")."""
        from .position import read_state
        return read_state(self, text, State)

    # rendering and scoring ---------------------------------------------
    def scores(self, s: np.ndarray) -> list[float] | None:
        """Each player's score where the game scores (None otherwise)."""
        return None

    def live_scores(self, state: State) -> list[float] | None:
        """The scores summaries and records show: :meth:`State.scores` (a game may say None while it goes on)."""
        return state.scores()

    def status(self, state: State, **kw: Any) -> str:
        """Who is to move and what they must do now, or who won and how: :meth:`rules_status`, or who resigned
        or lost on time."""
        p = state.resigned if state.timed_out is None else state.timed_out
        if p is None:
            return self.rules_status(state, **kw)
        lost = "resigns" if state.timed_out is None else "lost on time"
        return f"player {p + 1} ({self.PLAYERS[p]}) {lost}: player {2 - p} ({self.PLAYERS[1 - p]}) wins"

    @abstractmethod
    def rules_status(self, state: State) -> str:
        """:meth:`status` of a game no one resigned: who is to move and what
        they must do now, or who won by the rules and how."""

    def end_reason(self, state: State) -> str | None:
        """Which rule ended the game, as a short stable key (the game's
        :meth:`rules_end_reason`: ``"loop"``, ``"ring"``, ``"stalemate"``,
        ...), ``"resignation"`` after :meth:`State.resign`, ``"time"`` after
        :meth:`State.lose_on_time`; None while the game goes on."""
        if not state.is_over():
            return None
        if state.timed_out is not None:
            return TIME
        if state.resigned is not None:
            return "resignation"
        return self.rules_end_reason(state.array)

    def rules_end_reason(self, s: np.ndarray) -> str:
        """:meth:`end_reason` of the position ``s``, over by the rules:
        ``"win"`` or ``"draw"`` unless the game has several ways to end and
        says which (each game's keys: docs/analysis.md)."""
        return "draw" if s[WINNER] == DRAW else "win"

    def opening_words(self) -> tuple[str, ...]:
        """The moves of the opening protocol with this game's options (a
        swap, a colour choice, an auction's end), whose first one self-play
        reports count (:mod:`hexarena.analysis.openings`); none by default."""
        return ()

    def word_label(self, word: str) -> str:
        """The button label of the move ``word`` that has no cell (the web
        client's word buttons): ``"End turn"`` for ``end``, one of ``WORDS``
        capitalised, any other move as written."""
        if word == "end":
            return "End turn"
        return word.capitalize() if word in self.WORDS else word

    def position_fields(self) -> tuple[int, int, tuple[int, ...]]:
        """A ``SOLVABLE`` game's entries that identify a position: ``(offset,
        cells, fields)``, the cells' values from ``offset`` and the header
        fields (:mod:`hexarena.search.positions` hashes them)."""
        raise ValueError(f"no position keys for {self.name!r}: only solvable games have them")

    def keeps_rules(self, perm: np.ndarray) -> bool:
        """Whether the board automorphism ``perm`` (a cell permutation) keeps a
        ``SOLVABLE`` game's rules and start, so that the positions it maps onto
        each other have one value (:func:`hexarena.search.positions.symmetries`)."""
        raise ValueError(f"no symmetries for {self.name!r}: only solvable games have them")

    def dead_cell_rings(self) -> np.ndarray:
        """``int32[ncells, 6]`` for the solvers' dead-cell test (each cell's
        neighbours in cyclic order, -1 padded; a row of -1 for a cell never
        dead), or no rows (the default): the game has no dead cells."""
        return np.full((0, 6), -1, dtype=np.int32)

    @abstractmethod
    def ascii(self, state: State) -> str:
        """The board as text with coordinates, ending with :meth:`status`."""

    @abstractmethod
    def svg(self, state: State, hints: bool = False, **kw: Any) -> str:
        """The board as SVG (``hints`` marks the legal moves), titled with :meth:`status`."""

    def record_extra(self, s: np.ndarray) -> dict[str, Any]:
        """Game-specific facts a record keeps (e.g. who took which colour)."""
        return {}

    def rgb(self, state: State, player: int = 0, radius: float = 12.0) -> np.ndarray | None:
        """The game's own picture of ``state`` as ``uint8[H, W, 3]`` (a cell's circumradius ``radius`` pixels),
        or None (the default): :func:`hexarena.render.raster.rgb` colours the cells from their planes."""
        return None

    # position text (docs/notation.md, "Position text") ---------------------
    def write_position(self, s: np.ndarray) -> tuple[str, dict[str, str]]:
        """The board word and the ``NAME=VALUE`` fields (of ``POSITION_FIELDS``) of ``s``'s position text;
        ValueError for a game that has none (the default)."""
        raise ValueError(f"no position text for {self.name!r}: the game has no write_position")

    def read_position(self, head: Head) -> np.ndarray:
        """The array of the position text read into ``head`` (PositionTextError naming what is wrong);
        ValueError for a game that has none (the default)."""
        raise ValueError(f"no position text for {self.name!r}: the game has no read_position")

    # observations ---------------------------------------------------------
    def planes(self, s: np.ndarray, player: int) -> np.ndarray:
        """``float32[len(PLANES), ncells]``: the position seen by ``player`` (mover-relative: "own" planes are
        ``player``'s), one per cell; the ``planes`` kernel, or a game's own method (filling :meth:`blank_planes`)."""
        out = self.blank_planes()
        self.write_planes(s, player, out, np.arange(self.topology.ncells, dtype=np.int64))
        return out

    def write_planes(self, s: np.ndarray, player: int, out: np.ndarray, cols: np.ndarray) -> None:
        """:meth:`planes` into ``out[:, cols]``, which holds zeros (``out``: C-contiguous ``float32[len(PLANES),
        M]``; ``cols``: ``int64[ncells]``), straight from the kernel where the game has one."""
        if self.calls.planes is None:
            out[:, cols] = self.planes(s, player)
        else:  # compiled for a writable int32 array, which it never writes to
            self.calls.planes(np.require(s, np.int32, ("C", "W")), self.tables, int(player), out, cols)

    def blank_planes(self) -> np.ndarray:
        """Zeros of the shape :meth:`planes` returns."""
        return np.zeros((len(self.PLANES), self.topology.ncells), dtype=np.float32)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"hexarena.load({self.name!r}{', ' if opts else ''}{opts})"


class State:
    """A position with its move history, in the spirit of python-chess's Board.

    Every method that takes a move either applies it whole or raises
    :class:`IllegalMove` and leaves the state as it was.
    """

    __slots__ = ("game", "_s", "_stack", "_actions", "_turns", "_times", "_resigned", "meta", "_final_scores")

    def __init__(self, game: Game, array: np.ndarray) -> None:
        self.game = game
        self._s = np.ascontiguousarray(array, dtype=np.int32)  # the layout its kernels are called with (Game.calls)
        self._stack: list[np.ndarray] = []
        self._actions: list[int] = []
        self._turns: list[int] = []
        self._times: list[str | float] = []  # a record's text, or time.time() of a move played here
        self._final_scores: tuple[np.ndarray, list[float] | None] | None = None  # (position, its scores) once over
        self._resigned: tuple[int, np.ndarray, bool] | None = None  # who resigned or lost on time (True), the
        # position before
        self.meta: dict[str, Any] = {"started": now()}  # players, start time, clock, ratings, seconds used: what
        # records keep (hexarena.record_writer)

    # header ------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        p = int(self._s[TO_MOVE])
        return None if p < 0 else p

    @property
    def turn(self) -> int:
        return int(self._s[TURN])

    @property
    def step(self) -> int:
        return int(self._s[STEP])

    @property
    def ply(self) -> int:
        return int(self._s[PLY])

    def is_over(self) -> bool:
        return int(self._s[WINNER]) >= 0

    def winner(self) -> int | None:
        w = int(self._s[WINNER])
        return w if w in (0, 1) else None

    def returns(self) -> list[float]:
        """+1/-1 per player at the end (0 for a draw), as OpenSpiel has it."""
        w = self.winner()
        if w is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if w == 0 else [-1.0, 1.0]

    def scores(self) -> list[float] | None:  # kept once over: asking again costs nothing
        if not self.is_over() or self._final_scores is None or not np.array_equal(self._final_scores[0], self._s):
            self._final_scores = (self._s.copy(), self.game.scores(self._s))
        return None if self._final_scores[1] is None else list(self._final_scores[1])

    @property
    def array(self) -> np.ndarray:
        """The raw position (read-only view) for kernels and agents."""
        view = self._s.view()
        view.flags.writeable = False
        return view

    # moves -------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        if self.is_over():
            return []
        out = np.empty(self.game.num_actions, dtype=np.int32)
        n = self.game.calls.legal(self._s, self.game.tables, out)
        return out[:n].tolist()

    def legal_moves(self) -> list[str]:
        return [self.game.action_name(self._s, a) for a in self.legal_actions()]

    def move_name(self, action: int) -> str:
        """The notation of a legal ``action`` in this position."""
        self._check_action(action)
        return self.game.action_name(self._s, action)

    def parse_steps(self, move: str) -> list[int]:
        """The action ids of the atomic steps that ``move`` names here, in
        order (one for most moves; Push and Pull's ``o5 -2 2`` names three).

        Move text is ASCII of at most ``MAX_MOVE_TEXT`` characters in the
        game's notation (docs/notation.md).  Raises :class:`MalformedMove`,
        :class:`AmbiguousMove` or :class:`IllegalMove`; the state is unchanged.
        """
        if not isinstance(move, str):
            raise MalformedMove(f"a move is a string, got {type(move).__name__}")
        if len(move) > MAX_MOVE_TEXT:
            raise MalformedMove(f"{quoted(move)} is not a move: moves are at most {MAX_MOVE_TEXT} characters")
        if not move.isascii() or not move.isprintable():
            bad = next(ch for ch in move if not ch.isascii() or not ch.isprintable())
            raise MalformedMove(f"{quoted(move)} is not a move: {bad!r} (U+{ord(bad):04X}) is not a printable "
                                f"ASCII character")
        if self.is_over():
            raise IllegalMove(f"{quoted(move)}: the game is over")
        return self.game.parse_steps(self._s, move, LegalActions(self))

    def parse(self, move: str) -> int:
        """The action id of ``move`` here (of its last step, for a move of
        several steps, as :meth:`play` returns); raises as :meth:`parse_steps`."""
        return self.parse_steps(move)[-1]

    def play(self, move: str) -> int:
        """Parse and apply ``move``; returns its action id.  A move that a
        game's notation writes as several atomic steps (Push and Pull's
        ``o5 -2 2``) applies all of them or none; the last id is returned."""
        actions = self.parse_steps(move)
        for action in actions:
            self._push(action)
        return actions[-1]

    def apply(self, action: int) -> None:
        """Apply the legal action id ``action`` (IllegalMove otherwise)."""
        self._check_action(action)
        self._push(action)

    def _check_action(self, action: int) -> None:
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise MalformedMove(f"an action id is an integer, got {shown(action)}")
        if not 0 <= action < self.game.num_actions:
            raise MalformedMove(f"action {shown(action)} is out of range: "
                                f"action ids are 0 to {self.game.num_actions - 1}")
        if self.is_over():
            raise IllegalMove(f"action {action}: the game is over")
        if not self.is_legal(int(action)):
            raise IllegalMove(f"action {action} is not legal here")

    def is_legal(self, action: int) -> bool:
        """Is the action id ``action`` (in range, the game not over) legal
        here?  Through the game's ``is_legal`` kernel where it has one."""
        is_legal = self.game.calls.is_legal
        if is_legal is None:
            return action in self.legal_actions()
        return bool(is_legal(self._s, self.game.tables, action))

    def _push(self, action: int) -> None:
        self._stack.append(self._s.copy())
        self._actions.append(int(action))
        self._turns.append(int(self._s[TURN]))
        self._times.append(time.time())  # written out when read (``times``): formatting costs more than a move
        self.game.calls.apply(self._s, self.game.tables, int(action))

    def resign(self, player: int | None = None, on_time: bool = False) -> None:
        """``player`` (by default the player to move) resigns, or with ``on_time``
        loses on time: the game ends, won by the other player.  Records keep it
        (``result.resigned``, or ``result.reason`` "time"); :meth:`undo` takes it
        back.  IllegalMove once the game is over."""
        what = "lose on time" if on_time else "resign"
        if self.is_over():
            raise IllegalMove(f"{what}: the game is over")
        player = self.to_move if player is None else player
        if isinstance(player, bool) or player not in (0, 1):
            raise ValueError(f"{what}: a player is 0 or 1, got {shown(player)}")
        self._resigned = (int(player), self._s.copy(), bool(on_time))
        self._s[WINNER], self._s[TO_MOVE] = 1 - player, -1

    def lose_on_time(self, player: int | None = None) -> None:
        """``player`` (by default the player to move) loses on time: :meth:`resign` with ``on_time``."""
        self.resign(player, on_time=True)

    @property
    def resigned(self) -> int | None:
        """The player who resigned, or None (also after a loss on time: :attr:`timed_out`)."""
        return None if self._resigned is None or self._resigned[2] else self._resigned[0]

    @property
    def timed_out(self) -> int | None:
        """The player who lost on time, or None."""
        return self._resigned[0] if self._resigned is not None and self._resigned[2] else None

    def undo(self) -> int:
        """Take back the last move; returns its action id (``RESIGN`` when it
        takes back a resignation or a loss on time).  Raises :class:`NothingToUndo` at the
        start of the game."""
        if self._resigned is not None:  # kept positions are snapshots that copies share: never written (copy())
            self._s, self._resigned = self._resigned[1].copy(), None
            return RESIGN
        if not self._stack:
            raise NothingToUndo("nothing to undo: no move has been played")
        self._s = self._stack.pop().copy()
        self._turns.pop()
        self._times.pop()
        action = self._actions.pop()
        if self.meta.get("used"):  # a record's seconds used per written move: none for a move taken back
            del self.meta["used"][len(self.written_moves()):]
        return action

    def copy(self, history: bool = True) -> State:
        """A state at this position with this one's history, times and meta, or (``history=False``) without
        them, starting here (meta: the start time only).  Copies share the positions kept for undo: snapshots
        never written (:meth:`undo` makes one live by copying it), so a copy costs a reference per move."""
        other = State.__new__(State)  # not __init__: formatting a start time costs more than the rest
        other.game, other._s, other._resigned, other._final_scores = self.game, self._s.copy(), self._resigned, None
        if not history:
            other._stack, other._actions, other._turns, other._times = [], [], [], []
            other.meta = {"started": self.meta.get("started")}
            return other
        other._stack, other._actions, other._turns = list(self._stack), list(self._actions), list(self._turns)
        other._times, other.meta = list(self._times), _copy.deepcopy(self.meta)
        return other

    __copy__ = copy

    def __deepcopy__(self, memo: dict) -> State:
        return self.copy()

    @property
    def times(self) -> list[str]:
        """When each atomic move was played (UTC, ISO 8601), as records keep it."""
        return [t if isinstance(t, str) else at(t) for t in self._times]

    def set_times(self, times: Sequence[str | float]) -> None:
        """Give the moves played the times they were recorded at (a record's
        or a match store's): one per atomic move of :attr:`history`, ISO 8601
        text or a ``time.time()``.  ValueError for another count."""
        if len(times) != len(self._actions):
            raise ValueError(f"{len(times)} move times for {len(self._actions)} moves")
        self._times = list(times)

    @property
    def history(self) -> list[int]:
        """Action ids applied from the start."""
        return list(self._actions)

    def moves(self) -> list[str]:
        """The moves played so far, in notation."""
        return [self.game.action_name(s, a) for s, a in zip(self._stack, self._actions, strict=True)]

    def written_moves(self) -> list[tuple[int, str]]:
        """The moves as records write them: ``(index of the move's last step, text)``
        (see :meth:`Game.write_moves`); a resignation is not a move, so they
        are written as they stood before it."""
        current = self._s if self._resigned is None else self._resigned[1]
        return self.game.write_moves(self._stack + [current], self._actions)

    def written_turns(self) -> list[tuple[int, list[tuple[str, int]]]]:
        """The moves as records write them, grouped by turn, each with the ply
        after it (after its last step): ``[(turn, [(move, ply), ...]), ...]``."""
        out: list[tuple[int, list[tuple[str, int]]]] = []
        for i, m in self.written_moves():
            t = self._turns[i]
            if out and out[-1][0] == t:
                out[-1][1].append((m, i + 1))
            else:
                out.append((t, [(m, i + 1)]))
        return out

    def movers(self) -> list[int]:
        """The player who made each move played so far, in order."""
        return [int(s[TO_MOVE]) for s in self._stack]

    def turns(self) -> list[tuple[int, list[str]]]:
        """The moves as records write them, grouped by turn: ``[(turn, [move, ...]), ...]``."""
        return [(t, [m for m, _ in moves]) for t, moves in self.written_turns()]

    def playout(self, seed: int | None = None) -> int | None:
        """Random play to the end from a copy; the winner (None for a draw)."""
        from ..kernels import seed as seed_numba

        s = self._s.copy()
        with self.game.compiling_rules():
            if seed is not None:
                seed_numba(seed)
            self.game.kernels.playout(s, self.game.tables)
        w = int(s[WINNER])
        return w if w in (0, 1) else None

    # output -------------------------------------------------------------
    def __str__(self) -> str:
        return self.game.ascii(self)

    def __repr__(self) -> str:
        return f"<{self.game.name} state: turn {self.turn}, {len(self._actions)} moves>"

    def svg(self, **kw: Any) -> str:
        return self.game.svg(self, **kw)

    def _repr_svg_(self) -> str:
        return self.svg()

    def record(self, players: Sequence[str] | None = None) -> dict[str, Any]:
        """The JSON-able game record (see :mod:`hexarena.records`)."""
        return make_record(self, players)

    def record_text(self) -> str:
        """The one-line text record: ``[game k=v] 1. m 2. m,m *``."""
        return to_text(self)

    # identity -----------------------------------------------------------
    def _rules(self) -> tuple[np.ndarray, tuple[int, bool] | None]:
        """The position as the rules left it (before a resignation or a loss on time), and (who resigned or
        lost on time, whether on time) or None."""
        r = self._resigned
        return (self._s, None) if r is None else (r[1], (r[0], r[2]))

    def key(self) -> int:
        """The position's 64-bit Zobrist key: the same for equal positions (``==``; transpositions
        included), the same on every machine and in every process (:mod:`hexarena.games.position`)."""
        return self.game.positions.key(*self._rules())

    def position_text(self) -> str:
        """The position as one line, FEN-like (docs/notation.md, "Position text");
        :meth:`Game.from_position_text` reads it back."""
        from .position import write_text
        return write_text(self.game, *self._rules())

    def __eq__(self, other: object) -> bool:
        """The same position of the same game and options: what the rules read to go on (the board, the
        player to move, the turn's step state, how the game ended), not how it was reached."""
        if not isinstance(other, State) or other.game != self.game:
            return False
        (mine, ending), (theirs, other_ending) = self._rules(), other._rules()
        identity = self.game.positions.identity
        return ending == other_ending and np.array_equal(identity(mine), identity(theirs))

    def __hash__(self) -> int:
        """:meth:`key`.  A State is mutable: hash snapshots (positions seen), not a state that moves on."""
        return self.key()
