"""The game protocol: a :class:`Game` (rules + options + tables) and a
:class:`State` facade over one flat ``int32`` array.

Every game keeps its whole position in one array whose first ``HEADER``
entries are shared by all games, so agents and tools read them without
knowing the game:

==========  ===================================================
``TO_MOVE``  player to move (0 or 1), -1 when the game is over
``WINNER``   -1 none yet, 0 or 1, ``DRAW``
``TURN``     turn number, from 1
``STEP``     steps already taken in this turn
``PLY``      atomic moves applied since the start
==========  ===================================================

A game supplies numba kernels over ``(s, tables)``: ``legal(s, t, out) ->
count``, ``apply(s, t, action)`` (the action is known legal) and
``playout(s, t)`` (random play to the end, in place).  The ``State`` class
adds notation, validation, undo, records and rendering in Python.

Optional kernel, for games where uniformly random playouts mean little:
``policy(s, t, moves, n) -> i`` picks the index ``i`` of the move to play
among the legal ``moves[:n]`` in position ``s`` (it may use numba's
``np.random``).  The MCTS agent (:mod:`hexarena.ai.mcts`) then plays its
playouts step by step through it instead of calling ``playout``.
``recorded_playout(s, t, actions, movers) -> count`` is ``playout`` that
also writes each move and its mover into the two int32 arrays while they
have room (RAVE needs the moves; without it MCTS plays step by step).
``pattern_playout(s, t, actions, movers) -> count``, the same with the
game's local replies (Projective Hex's bridge saves), is what MCTS plays
with ``Config.patterns`` (on in ``enhanced``).  ``policy_playout(s, t,
actions, movers) -> count`` is ``recorded_playout`` playing the game's
``policy`` (MCTS then stays in one compiled loop per playout).
``search_moves(s, t, out) ->
count`` writes the moves the MCTS tree expands, a subset of the legal ones
(Lhexus: the growth stones first, since a new group ends the turn); it
returns ``-count`` when it left legal moves out, and the search then never
proves that node lost or drawn.

``is_legal(s, t, action) -> bool`` (optional) answers whether ``action``
(known to be ``0 <= action < num_actions``, the game not over) is legal
without building the legal list; :meth:`State.apply` and :meth:`State.play`
use it where a game has it.

``planes(s, t, player, out, cols)`` writes :meth:`Game.planes` (plane ``k`` on cell ``c`` into ``out[k, cols[c]]``,
zeros before: only nonzero values need writing; ``s`` unchanged); :mod:`hexarena.vector` writes its grids with it.
"""

from __future__ import annotations

import copy as _copy
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from functools import cached_property
from types import SimpleNamespace
from typing import Any, ClassVar

import numpy as np

from ..board import Topology
from ..kernels import DRAW, HEADER, PLY, STEP, TO_MOVE, TURN, WINNER
from ..kernels import direct
from ..kernels import seed as seed_numba
from ..record_writer import at, make_record, now, to_text
from .errors import AmbiguousMove, IllegalMove, MalformedMove, NothingToUndo, quoted
from .legal import LegalActions
from .options import Option, shown

__all__ = ["DRAW", "HEADER", "PLY", "STEP", "TO_MOVE", "TURN", "WINNER", "IllegalMove", "MalformedMove",
           "AmbiguousMove", "NothingToUndo", "Option", "Game", "State", "quoted", "RESIGN"]

MAX_MOVE_TEXT = 64  # longer move texts are refused before any game reads them
RESIGN = -1  # what undo() returns when it takes back a resignation (or a loss on time)
TIME = "time"  # the end reason of a loss on time (State.lose_on_time)


class Game(ABC):
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

    Defaults a game may override: ``OPTIONS`` (none), ``PLAYERS``,
    :meth:`initial_array` (the header of a fresh game: player 0 to move,
    turn 1), the notation (:meth:`parse_move`, :meth:`parse_steps`,
    :meth:`write_moves`, :meth:`normalize`, :meth:`why_illegal`),
    :meth:`scores` (none) and :meth:`record_extra` (nothing); what the
    front ends and the lab ask of the game: :meth:`opening_words` (none),
    :meth:`word_label` and :meth:`rules_end_reason` (``"win"`` or
    ``"draw"``); for the exact solvers, ``SOLVABLE`` (no), ``CAN_DRAW``,
    ``THREAT_FIELD`` and :meth:`dead_cell_rings` (none).  ``MCTS``
    holds the settings of :class:`hexarena.ai.mcts.Config` that the default
    ``enhanced`` search uses for this game, where they differ from the
    generic ones (measured: docs/ai.md).
    """

    name: ClassVar[str]
    kernels: ClassVar[SimpleNamespace]
    OPTIONS: ClassVar[dict[str, Option]] = {}
    PLAYERS: ClassVar[tuple[str, str]] = ("first", "second")
    PLANES: ClassVar[tuple[str, ...]]  # names of the planes that ``planes`` returns
    MCTS: ClassVar[dict[str, Any]] = {}
    # hexarena solve searches the game exactly: no position repeats (a position's value does not depend on the
    # path to it) and hexarena.ai.positions has its keys and symmetries
    SOLVABLE: ClassVar[bool] = False
    CAN_DRAW: ClassVar[bool] = True  # whether a game may end in a draw (the proof-number solver then asks twice)
    COSTLY_SCORES: ClassVar[bool] = False  # exact scores may take long: the web app scores the end in a worker
    # the state entry that is nonzero once a stone only ever helps its owner's win, so the solvers may block
    # threats and skip dead cells (dead_cell_rings); -1 for never
    THREAT_FIELD: ClassVar[int] = -1
    # what `hexarena bench` measures the game on: (label, options)
    BENCH_SETUPS: ClassVar[tuple[tuple[str, dict[str, Any]], ...]] = (("default", {}),)
    SLOW_TO_COMPILE: ClassVar[bool] = False  # minutes of numba compiling: `hexarena warmup` starts it first
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
        unknown = sorted(set(options) - set(cls.OPTIONS))
        if unknown:
            allowed = ", ".join(cls.OPTIONS) or "none"
            raise ValueError(f"unknown option {quoted(unknown[0])} for {cls.name}; options: {allowed}")
        out = {}
        for key, opt in cls.OPTIONS.items():
            value = options.get(key, opt.default)
            try:
                if isinstance(value, str) and opt.parse is not str:
                    value = opt.parse(value)
                ok = opt.check(value)
            except (TypeError, ValueError):
                ok = False
            if not ok:
                raise ValueError(f"bad value {shown(value)} for option {key!r} of {cls.name}; "
                                 f"allowed: {opt.allowed}")
            out[key] = value
        return out

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
        """``legal``, ``apply`` and ``is_legal`` (None when the game has none)
        as :class:`State` calls them: compiled for its argument types and
        called directly (:func:`hexarena.kernels.direct`)."""
        s, t = self.initial_array(), self.tables
        is_legal, planes = getattr(self.kernels, "is_legal", None), getattr(self.kernels, "planes", None)
        return SimpleNamespace(legal=direct(self.kernels.legal, s, t, np.empty(self.num_actions, dtype=np.int32)),
                               apply=direct(self.kernels.apply, s, t, 0),
                               is_legal=None if is_legal is None else direct(is_legal, s, t, 0),
                               planes=None if planes is None else direct(planes, s, t, 0, self.blank_planes(),
                                                                         np.arange(1, dtype=np.int64)))

    def __getstate__(self) -> dict:
        """Pickled without :attr:`calls` (compiled entry points are not
        picklable; they are made again on first use)."""
        return {k: v for k, v in self.__dict__.items() if k != "calls"}

    # notation ---------------------------------------------------------
    @abstractmethod
    def action_name(self, s: np.ndarray, action: int) -> str:
        """The notation of the legal ``action`` in position ``s``."""

    def parse_move(self, s: np.ndarray, text: str, legal: Sequence[int]) -> int:
        """The action that ``text`` names in position ``s``.

        The default matches ``text`` against the legal moves' names; games
        whose notation has more forms override it.  Raises
        :class:`MalformedMove` (from :meth:`normalize`) or :class:`IllegalMove`.
        """
        key = self.normalize(text)
        is_legal = self.calls.is_legal
        action = self.action_of(s, key) if is_legal is not None else None
        if action is not None:
            if is_legal(s, self.tables, action):
                return action
            raise IllegalMove(self.why_illegal(s, key))
        names = {self.action_name(s, a): a for a in legal}
        if key in names:
            return names[key]
        raise IllegalMove(self.why_illegal(s, key))

    def parse_steps(self, s: np.ndarray, text: str, legal: Sequence[int]) -> list[int]:
        """The atomic actions that ``text`` names from ``s``, in order: one by default (:meth:`parse_move`);
        a game whose notation writes several steps as one move (Push and Pull's ``o5 -2 2``) overrides it.
        Raises IllegalMove."""
        return [self.parse_move(s, text, legal)]

    def write_moves(self, positions: Sequence[np.ndarray], actions: Sequence[int]) -> list[tuple[int, str]]:
        """How records write the atomic ``actions``, each played from the
        matching entry of ``positions`` (which ends with the current one):
        ``(index of the written move's last step, text)`` per written move.
        One per step by default; Push and Pull writes a placement with its
        marker moves as one (``o5 -2 2``)."""
        return [(i, self.action_name(s, a)) for i, (s, a) in enumerate(zip(positions, actions, strict=False))]

    def move_target(self, s: np.ndarray, action: int) -> int | None:
        """The cell that a click on the board plays the legal ``action`` by
        (the web client's click-to-move; several actions may share a cell,
        then the player picks one by name), None for a move with no cell
        (``end``, ``pass``, ``swap``, ...).  By default an action below
        ``ncells`` is that cell's placement."""
        return action if action < self.topology.ncells else None

    def move_picture(self, s: np.ndarray, action: int) -> str | None:
        """A small SVG of the legal ``action`` that the web client's chooser
        shows beside the move's name where one cell plays several moves
        (Palago's three orientations of a tile), or None (the default)."""
        return None

    MOVE_SEPARATOR: ClassVar[str] = ","  # what joins a turn's moves in text records (Palago's moves hold commas)

    WORDS: ClassVar[tuple[str, ...]] = ()  # move words besides cell names: "pass", "end", "swap", ...

    def normalize(self, text: str) -> str:
        """The canonical form of move ``text``: by default one word, a cell
        name or one of ``WORDS``, in any case, spaces around it ignored.
        Raises :class:`MalformedMove` for text of no move of this game's
        notation (docs/notation.md)."""
        key = text.strip(" ").lower()
        if key not in self.WORDS and (self.topology is None or self.topology.find(key) is None):
            raise self.malformed(text)
        return key

    def malformed(self, text: str, forms: str = "") -> MalformedMove:
        """The error for ``text`` that is no move of this game: it says what
        a move is (``forms``; by default a cell or one of ``WORDS``)."""
        names = self.topology.names if self.topology is not None else ()
        cells = [f"a cell (like {names[0]} or {names[len(names) // 2]})"] if names else []
        forms = forms or " or ".join(cells + [repr(w) for w in self.WORDS])
        return MalformedMove(f"{quoted(text)} is not a move of {self.name}: a move is {forms}")

    def action_of(self, s: np.ndarray, key: str) -> int | None:
        """The action id that the normalized move text ``key`` names in
        ``s`` when the notation names actions directly (a game with an
        ``is_legal`` kernel may say, so that :meth:`parse_move` checks that
        one action instead of naming every legal move); None to search the
        legal moves' names (the default)."""
        return None

    def why_illegal(self, s: np.ndarray, text: str) -> str:
        """Why the well-formed move ``text`` (normalized) is not legal in ``s``."""
        return f"{quoted(text)} is not a legal move here"

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
        fields (:mod:`hexarena.ai.positions` hashes them)."""
        raise ValueError(f"no position keys for {self.name!r}: only solvable games have them")

    def keeps_rules(self, perm: np.ndarray) -> bool:
        """Whether the board automorphism ``perm`` (a cell permutation) keeps a
        ``SOLVABLE`` game's rules and start, so that the positions it maps onto
        each other have one value (:func:`hexarena.ai.positions.symmetries`)."""
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
        if self._resigned is not None:
            self._s, self._resigned = self._resigned[1], None
            return RESIGN
        if not self._stack:
            raise NothingToUndo("nothing to undo: no move has been played")
        self._s = self._stack.pop()
        self._turns.pop()
        self._times.pop()
        action = self._actions.pop()
        if self.meta.get("used"):  # a record's seconds used per written move: none for a move taken back
            del self.meta["used"][len(self.written_moves()):]
        return action

    def copy(self) -> State:
        other = State(self.game, self._s.copy())
        other._stack = [a.copy() for a in self._stack]
        other._actions = list(self._actions)
        other._turns = list(self._turns)
        other._times = list(self._times)
        other.meta = _copy.deepcopy(self.meta)
        if self._resigned is not None:
            other._resigned = (self._resigned[0], self._resigned[1].copy(), self._resigned[2])
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
        s = self._s.copy()
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

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other.game.name == self.game.name and \
            other.game.options == self.game.options and np.array_equal(self._s, other._s)

    __hash__ = None  # type: ignore[assignment]
