"""Position identity shared by every game: what makes two positions the same
(:meth:`State.__eq__ <hexarena.games.base.State.__eq__>`), their Zobrist key
(:meth:`State.key <hexarena.games.base.State.key>`) and their one-line text
(:meth:`State.position_text <hexarena.games.base.State.position_text>`,
:meth:`Game.from_position_text <hexarena.games.base.Game.from_position_text>`).

A game's ``identity(s, t, out, zcell, zfield) -> (count, key)`` kernel (in
``Game.kernels``) writes what identifies the position ``s`` into the int32
array ``out``: ``out[0]`` the number ``F`` of fields, ``out[1:F + 1]`` the
fields (the player to move, the winner, the turn's step state: whatever the
rules read to go on), then ``(cell, code)`` pairs in ascending cell order for
the occupied cells, a code being a small number (below ``Game.CELL_CODES``)
for what the cell holds; it returns the count written and their
:func:`zobrist` key (one call gives both).  Union-find parents, caches and
counters the rules never read stay out, so the same stones placed in another
order identify the same position.  A game without the kernel is identified
by its whole array but ``PLY``.

The key XORs a Zobrist number per (cell, code) pair and one per (field,
value), all made by SplitMix64 from :data:`SEED`: keys are the same on
every machine and in every process.  (The solvers' keys, the same for
positions a symmetry of the board maps onto each other, are
:mod:`hexarena.search.positions`'s.)

The text is ``BOARD MOVER TURN STEP PLY [NAME=VALUE ...]`` (docs/notation.md,
"Position text"): the game writes ``BOARD`` and its fields
(``Game.write_position``) and rebuilds an array from them
(``Game.read_position``); this module reads and writes the rest.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from ..kernels import DRAW, PLY, STEP, TO_MOVE, TURN, WINNER, direct, njit

if TYPE_CHECKING:
    from ..board import Topology
    from .base import Game, State

__all__ = ["SEED", "PositionTextError", "Head", "Positions", "Board", "zobrist", "write_cells", "array_identity",
           "write_row", "read_row", "write_text", "read_text", "read_state", "cell_named", "flag_field", "player_field"]

SEED = 0x6865786172656E61  # "hexarena": every Zobrist number derives from it
GOLDEN = 0x9E3779B97F4A7C15  # SplitMix64's increment
MASK = (1 << 64) - 1
MAX_COUNTER = 10**6  # turn, step and ply are at most this in a position text
RESULTS = {"1-0": 0, "0-1": 1, "1/2-1/2": DRAW}  # a finished game's MOVER field -> WINNER
ENDINGS = ("resigned", "time")  # the fields of a game ended by resignation or on time (the player who lost)


class PositionTextError(ValueError):
    """A position text that is not one of this game's: the message says what is wrong and what is allowed."""


# --- Zobrist numbers ---------------------------------------------------------------------------

def splitmix(values: np.ndarray) -> np.ndarray:
    """SplitMix64's output function of each uint64 (wrapping arithmetic)."""
    z = values.astype(np.uint64)
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def numbers(stream: int, count: int) -> np.ndarray:
    """``count`` Zobrist numbers of stream ``stream`` (cells' are 0, fields' 1, endings' 2)."""
    start = (SEED + (stream << 40) * GOLDEN) & MASK
    with np.errstate(over="ignore"):
        seeds = np.uint64(start) + np.arange(1, count + 1, dtype=np.uint64) * np.uint64(GOLDEN)
    return splitmix(seeds)


MAX_FIELDS = 16  # identity fields a game may have
FIELD_NUMBERS = numbers(1, MAX_FIELDS)
ENDING_NUMBERS = numbers(2, 4)  # (resigned, lost on time) x (player 0, player 1)


@njit
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit
def zobrist(ident, count, zcell, zfield):
    """The Zobrist key of the identity ``ident[:count]`` (the layout above): per field ``j`` with value ``v``
    the SplitMix64 of ``zfield[j] + v * GOLDEN``, per pair ``zcell[cell, code]``, XORed."""
    h = np.uint64(0)
    nfields = ident[0]
    for j in range(nfields):
        v = np.uint64(np.int64(ident[1 + j]) & 0xFFFFFFFF)
        h ^= _mix(zfield[j] + v * np.uint64(GOLDEN))
    for i in range(1 + nfields, count, 2):
        h ^= zcell[ident[i], ident[i + 1]]
    return h


@njit
def write_cells(s, board, ncells, out, k, when=-1, turn=0):
    """Write ``(cell, content)`` for every occupied cell of the board at ``s[board:]`` into ``out`` from ``k``;
    with ``when`` (the offset of the turn each stone was placed), a stone placed on ``turn`` has its content
    plus 2.  The count written so far."""
    for c in range(ncells):
        if s[board + c]:
            out[k], out[k + 1] = c, s[board + c] + (2 if when >= 0 and s[when + c] == turn else 0)
            k += 2
    return k


@njit
def array_identity(s, t, out, zcell, zfield):
    """The identity of a game with no ``identity`` kernel: its whole array but ``PLY``, as fields."""
    out[0] = s.shape[0]
    for i in range(s.shape[0]):
        out[1 + i] = 0 if i == PLY else s[i]
    return 1 + s.shape[0], zobrist(out, 1 + s.shape[0], zcell, zfield)


class Positions:
    """A game's identity kernel compiled for its arrays and its Zobrist numbers (``game.positions``).  Each
    call writes into a buffer of its own: the kernels release the GIL, and threads share a game."""

    def __init__(self, game: Game) -> None:
        self.topology = game.topology
        s = game.initial_array()
        kernel = getattr(game.kernels, "identity", None)
        self.generic = kernel is None
        self.size = 2 + s.shape[0] if self.generic else 1 + MAX_FIELDS + 2 * game.topology.ncells
        self.tables = game.tables
        cells = 1 if self.generic else game.topology.ncells
        self.zcell = numbers(0, cells * game.CELL_CODES).reshape(cells, game.CELL_CODES)
        self.zfield = FIELD_NUMBERS if not self.generic else numbers(1, s.shape[0])
        self.identify = direct(array_identity if kernel is None else kernel, s, game.tables,
                               np.empty(self.size, dtype=np.int32), self.zcell, self.zfield)

    @cached_property
    def board(self) -> Board:
        """The board's rows as position texts write them."""
        return Board(self.topology)

    def identity(self, s: np.ndarray) -> np.ndarray:
        """What identifies the position ``s`` (a new array; see the module's docstring)."""
        out = np.empty(self.size, dtype=np.int32)
        return out[: self.identify(s, self.tables, out, self.zcell, self.zfield)[0]]

    def key(self, s: np.ndarray, ending: tuple[int, bool] | None = None) -> int:
        """The 64-bit Zobrist key of ``s`` (and of how the game ended, for a resignation or a loss on time)."""
        out = np.empty(self.size, dtype=np.int32)
        h = int(self.identify(s, self.tables, out, self.zcell, self.zfield)[1])
        return h if ending is None else h ^ int(ENDING_NUMBERS[2 * ending[1] + ending[0]])


# --- rows of cells, run-length for the empty ones ----------------------------------------------

_EMPTIES = re.compile(r" +")  # empty cells, as a row is laid out before it is written
_RUNS = re.compile(r"[0-9]+")


def write_row(cells: str) -> str:
    """One row, its cells' characters with ``" "`` for an empty cell, each run of empty cells as its length.

    >>> write_row("  X o")
    '2X1o'
    """
    return _EMPTIES.sub(lambda m: str(len(m[0])), cells)


def read_row(text: str, alphabet: str, where: str, longest: int) -> str:
    """One row written as :func:`write_row` does, laid out again (``" "`` for an empty cell); PositionTextError
    for a character not in ``alphabet``, a run of 0 or with leading zeros, or more than ``longest`` cells.
    ``where`` names the row in messages."""
    bad = re.search(f"[^0-9{re.escape(alphabet)}]", text)
    if bad:
        raise PositionTextError(f"{where}: {bad[0]!r} is not a cell: a cell is one of {', '.join(alphabet)}, and "
                                f"empty cells are written as their number")
    runs = _RUNS.findall(text)
    if any(run.startswith("0") for run in runs):
        raise PositionTextError(f"{where}: no run of empty cells starts with 0 (a run is 1, 2, ...)")
    if sum(int(run) for run in runs) + len(text) > longest + sum(map(len, runs)):
        raise PositionTextError(f"{where} has more than the {longest} cells of the row")
    return _RUNS.sub(lambda m: " " * int(m[0]), text)


class Board:
    """A board's cells row by row from the top, each row from the left (by the cells' ``xy``), as position
    texts write them: :meth:`write` and :meth:`read` a board of cell codes."""

    def __init__(self, topology: Topology) -> None:
        rows: dict[int, list[tuple[int, int]]] = {}
        for c, (x, y) in enumerate(topology.xy.tolist()):
            rows.setdefault(y, []).append((x, c))
        self.rows = [[c for _, c in sorted(rows[y])] for y in sorted(rows)]
        self.order = np.array([c for row in self.rows for c in row], dtype=np.int64)

    def write(self, codes: np.ndarray, alphabet: str) -> str:
        """The board whose cell ``c`` holds ``alphabet[codes[c] - 1]`` (empty for 0), rows joined by ``/``."""
        laid = np.frombuffer((" " + alphabet).encode(), dtype=np.uint8)[codes[self.order]].tobytes().decode()
        rows, at = [], 0
        for row in self.rows:
            rows.append(write_row(laid[at: at + len(row)]))
            at += len(row)
        return "/".join(rows)

    def read(self, text: str, alphabet: str) -> np.ndarray:
        """The cell codes (0 empty, ``i`` for ``alphabet[i - 1]``) of a board written as :meth:`write` does,
        with exactly this board's rows; PositionTextError naming the row that does not fit."""
        texts = text.split("/")
        if len(texts) != len(self.rows):
            raise PositionTextError(f"the board has {len(texts)} row{'s' * (len(texts) != 1)} separated by '/'; "
                                    f"this board has {len(self.rows)}")
        laid = []
        for i, (row_text, row) in enumerate(zip(texts, self.rows, strict=True), 1):
            cells = read_row(row_text, alphabet, f"row {i} {row_text!r}", len(row))
            if len(cells) != len(row):
                raise PositionTextError(f"row {i} {row_text!r} has {len(cells)} cells; row {i} of this board has "
                                        f"{len(row)}")
            laid.append(cells)
        lookup = np.zeros(256, dtype=np.int32)
        lookup[np.frombuffer(alphabet.encode(), dtype=np.uint8)] = np.arange(1, len(alphabet) + 1)
        codes = np.zeros(len(self.order), dtype=np.int32)
        codes[self.order] = lookup[np.frombuffer("".join(laid).encode(), dtype=np.uint8)]
        return codes


# --- the whole text --------------------------------------------------------------------------------

@dataclass
class Head:
    """A position text read but for its board: the board's text, the header as the array has it, the game's
    fields and how a game ended off the rules (``(player, on_time)`` for a resignation or a loss on time)."""

    board: str
    to_move: int  # TO_MOVE: 0, 1, or -1 when over
    winner: int  # WINNER: -1 while going on, 0, 1 or DRAW
    turn: int
    step: int
    ply: int
    fields: dict[str, str] = field(default_factory=dict)
    ending: tuple[int, bool] | None = None

    def over(self) -> bool:
        return self.winner >= 0

    def header(self, s: np.ndarray) -> np.ndarray:
        """``s`` with this header's TO_MOVE, WINNER, TURN, STEP and PLY."""
        s[TO_MOVE], s[WINNER], s[TURN], s[STEP], s[PLY] = self.to_move, self.winner, self.turn, self.step, self.ply
        return s


def write_text(game: Game, s: np.ndarray, ending: tuple[int, bool] | None = None) -> str:
    """The position text of ``s`` (and of its ending off the rules: ``(player, on_time)``)."""
    board, fields = game.write_position(s)
    w = int(s[WINNER])
    mover = str(int(s[TO_MOVE]) + 1) if w < 0 else {v: k for k, v in RESULTS.items()}[w]
    words = [board, mover, str(int(s[TURN])), str(int(s[STEP])), str(int(s[PLY]))]
    words += [f"{k}={v}" for k, v in fields.items()]
    if ending is not None:
        words.append(f"{ENDINGS[ending[1]]}={ending[0] + 1}")
    return " ".join(words)


def _counter(word: str, name: str, low: int) -> int:
    if not re.fullmatch(r"[0-9]{1,7}", word) or not low <= int(word) <= MAX_COUNTER:
        raise PositionTextError(f"{word!r} is no {name}: the {name} is an integer from {low} to {MAX_COUNTER}")
    return int(word)


def read_text(game: Game, text: str) -> Head:
    """The parts of a position text of ``game``; PositionTextError naming what is wrong.  The fields are
    checked against ``game.POSITION_FIELDS`` (names only: the game reads their values)."""
    if not isinstance(text, str):
        raise PositionTextError(f"a position text is a string, got {type(text).__name__}")
    if len(text) > 200_000 or not text.isascii() or not text.isprintable():
        raise PositionTextError("a position text is one line of printable ASCII, at most 200000 characters")
    words = text.split()
    if len(words) < 5:
        raise PositionTextError(f"{text[:60]!r} is no position text of {game.name}: it is BOARD MOVER TURN STEP PLY "
                                f"[NAME=VALUE ...] (docs/notation.md)")
    board, mover = words[0], words[1]
    if mover not in ("1", "2") and mover not in RESULTS:
        raise PositionTextError(f"{mover!r} is no mover: it is 1 or 2 (the player to move), or the result of a "
                                f"finished game: 1-0, 0-1 or 1/2-1/2")
    head = Head(board, int(mover) - 1 if mover in ("1", "2") else -1, RESULTS.get(mover, -1),
                _counter(words[2], "turn", 1), _counter(words[3], "step", 0), _counter(words[4], "ply", 0))
    allowed = (*game.POSITION_FIELDS, *ENDINGS)
    for word in words[5:]:
        name, eq, value = word.partition("=")
        if not eq or name not in allowed:
            raise PositionTextError(f"{word!r} is no field of {game.name}'s position text: fields are NAME=VALUE "
                                    f"with NAME one of {', '.join(allowed)}")
        if name in head.fields:
            raise PositionTextError(f"field {name!r} is given twice")
        head.fields[name] = value
    endings = [name for name in ENDINGS if name in head.fields]
    if len(endings) > 1:
        raise PositionTextError("a game ends by resignation or on time, not both")
    if endings and head.over():
        raise PositionTextError(f"{endings[0]}=: a game ended by resignation or on time has the mover of its last "
                                f"position (1 or 2), not a result")
    if endings:
        head.ending = (player_field(head.fields.pop(endings[0]), endings[0]), endings[0] == "time")
    return head


def read_state(game: Game, text: str, state_class: type[State]) -> State:
    """:meth:`Game.from_position_text <hexarena.games.base.Game.from_position_text>` (``state_class`` is
    :class:`~hexarena.games.base.State`, which imports this module)."""
    head = read_text(game, text)
    state = state_class(game, game.read_position(head))
    if head.ending is not None:
        state.resign(*head.ending)
    return state


def player_field(value: str, name: str) -> int:
    """A player field's value, ``1`` or ``2``, as a player index."""
    if value not in ("1", "2"):
        raise PositionTextError(f"{name}={value!r}: {name} is a player, 1 or 2")
    return int(value) - 1


def flag_field(head: Head, name: str, values: Sequence[str]) -> int:
    """The index in ``values`` of field ``name`` (absent: 0, the first value, which is never written)."""
    value = head.fields.get(name, values[0])
    if value not in values[1:] and name in head.fields:
        raise PositionTextError(f"{name}={value!r}: {name} is one of {', '.join(values[1:])} (absent: {values[0]})")
    return values.index(value)


def cell_named(topology: Topology, name: str, what: str) -> int:
    """The cell called ``name`` (exactly as the board names it); PositionTextError naming ``what`` it is."""
    c = topology.find(name)
    if c is None:
        raise PositionTextError(f"{what}={name!r}: {what} is a cell of this board, named like {topology.names[0]}")
    return c
