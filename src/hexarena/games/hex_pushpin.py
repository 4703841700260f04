"""Hex Pushpin (Bill Taylor, from a concept of Nick Bentley): push the pin
into the middle of your stones.

A turn is ``pass`` or an own stone on an empty cell.  A stone next to the
pin pushes it straight away, a distance of the mover's choice, over and onto
empty cells, to a non-edge cell (``e4 2``: stone on e4, pin pushed 2); a
stone elsewhere pushes nothing (``k6``, the source's ``k6 -``).  Two passes
in a row end the game: more own stones on the pin's neighbours wins.

>>> import hexarena
>>> s = hexarena.load("hex-pushpin").new_state()
>>> for m in ("e4 2", "l5 2", "j1 2"): _ = s.play(m)
>>> print(s)
abcdefghijklm
   . . . o     1
  . . . . .    2
 . . . . . .   3
. . o # . . .  4
 . . . . . x   5
  . . . . .    6
   . . . .     7
abcdefghijklm
second to move; pin on g4; stones around it: first 1, second 0
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from ..board import hexhex, rays
from ..kernels import hot, inline, kernel_set, njit, note
from ..render import ascii as ascii_render
from ..render import svg as svg_render
from .base import DRAW, HEADER, PLY, TO_MOVE, TURN, WINNER, AmbiguousMove, Game, IllegalMove
from .options import int_between
from .position import Head, PositionTextError, flag_field, write_cells, zobrist
from .pushing import MAX_SIZE, empty_run

# state layout after the shared header
PIN = HEADER  # the pin's cell
PASSES = HEADER + 1  # passes in a row just played
BOARD = HEADER + 2  # ncells entries: 0 empty, 1 / 2 the first / second player's stone, PIN_MARK the pin
PIN_MARK = 3
# a move: 'pass' or a cell; then ' 2' (how far the pin goes) or '-' / ' -' (no push); one '!'/'?' annotation
# of one or two marks after the cell or at the end
_MOVE = re.compile(r"(?P<cell>pass|[a-z]+[0-9]+)(?P<n1>[!?]{1,2})?(?P<tail> *-| +[1-9][0-9]{0,2})?(?P<n2>[!?]{1,2})?")


class Tables(NamedTuple):
    """What the kernels read besides the position (``game.tables``)."""

    rays: np.ndarray  # int32[n, 6, L]: the cells straight from each cell (hexarena.board.rays)
    nbr: np.ndarray  # int32[n, 6]: neighbour per direction, -1 off the board
    edge: np.ndarray  # bool[n]: rim cells
    ncells: int
    width: int  # actions per cell: L + 1 (a placement, then pushes of 1..L cells)
# Action c * (L + 1) + k: a stone on c pushing the pin k cells (k = 0: no push); n * (L + 1): pass.


@hot
def pin_side(nbr, pin, c):
    """The direction from ``c`` to the pin when they are neighbours, else -1."""
    for d in range(6):
        if nbr[c, d] == pin:
            return d
    return -1


@hot
def legal(s, t, out):
    rays_, nbr, edge, n, width = t.rays, t.nbr, t.edge, t.ncells, t.width
    if s[WINNER] >= 0:
        return 0
    board = s[BOARD:BOARD + n]
    pin = s[PIN]
    k = 0
    for c in range(n):
        if board[c] != 0:
            continue
        d = pin_side(nbr, pin, c)
        if d < 0:
            out[k] = c * width
            k += 1
            continue
        for j in range(empty_run(board, rays_, pin, d)):
            if not edge[rays_[pin, d, j]]:
                out[k] = c * width + j + 1
                k += 1
    out[k] = n * width
    return k + 1


@hot
def is_legal(s, t, a):
    """True if action ``a`` (in range, the game not over) is legal here,
    without listing the legal moves."""
    width, n = t.width, t.ncells
    if a == n * width:
        return True
    c, dist = a // width, a % width
    if s[BOARD + c] != 0:
        return False
    pin = s[PIN]
    d = pin_side(t.nbr, pin, c)
    if dist == 0:
        return d < 0
    return d >= 0 and dist <= empty_run(s[BOARD:BOARD + n], t.rays, pin, d) and not t.edge[t.rays[pin, d, dist - 1]]


@hot
def pin_scores(s, nbr, n):
    """Each player's stones on the pin's neighbours: (first, second)."""
    first, second = 0, 0
    for d in range(6):
        m = nbr[s[PIN], d]
        if m >= 0:
            first += s[BOARD + m] == 1
            second += s[BOARD + m] == 2
    return first, second


@hot
def _move(s, t, c, dist):
    """A stone on ``c`` pushing the pin ``dist`` cells (0: no push), or a
    pass when ``c`` is -1; then the turn passes, and two passes in a row
    end the game."""
    s[PLY] += 1
    if c < 0:
        s[PASSES] += 1
    else:
        s[BOARD + c] = 1 + s[TO_MOVE]
        s[PASSES] = 0
        if dist > 0:
            pin = s[PIN]
            land = t.rays[pin, pin_side(t.nbr, pin, c), dist - 1]
            s[BOARD + pin] = 0
            s[BOARD + land] = PIN_MARK
            s[PIN] = land
    s[TURN] += 1
    s[TO_MOVE] = 1 - s[TO_MOVE]
    if s[PASSES] >= 2:
        first, second = pin_scores(s, t.nbr, t.ncells)
        s[WINNER] = 0 if first > second else 1 if second > first else DRAW
        s[TO_MOVE] = -1


@hot
def apply(s, t, a):
    if a == t.ncells * t.width:
        _move(s, t, -1, 0)
    else:
        _move(s, t, a // t.width, a % t.width)


@njit
def playout(s, t):
    """Uniformly random placements, pushes and passes to the end (in place)."""
    recorded_playout(s, t, np.empty(0, dtype=np.int32), np.empty(0, dtype=np.int32))


@njit
def recorded_playout(s, t, actions, movers):
    """``playout``, noting each move for MCTS (:func:`hexarena.kernels.note`)."""
    n = t.ncells
    return _random_moves(s, t, actions, movers, np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int32),
                         np.empty(6, dtype=np.int64))


@inline
def _landings(s, t, pin, d):
    """How many pushes the stone on the pin's neighbour opposite slot ``d``
    has: the empty non-edge cells straight from the pin in direction ``d``
    before the first occupied one (edge cells end every line)."""
    rays_, k = t.rays, 0
    while k < rays_.shape[2]:
        m = rays_[pin, d, k]
        if m < 0 or s[BOARD + m] != 0 or t.edge[m]:
            break
        k += 1
    return k


@inline
def _take(empties, where, count, c):
    """Remove cell ``c`` from ``empties[:count]`` (``where[c]`` its index); the new count."""
    i, last = where[c], empties[count - 1]
    empties[i], where[last] = last, i
    return count - 1


@inline
def _put(empties, where, count, c):
    """Append cell ``c`` to ``empties[:count]``; the new count."""
    empties[count], where[c] = c, count
    return count + 1


@hot
def _random_moves(s, t, actions, movers, empties, where, pushes):
    """The random playout's loop: each move uniform over the legal moves
    without listing them.  ``empties`` lists the empty cells (``where`` their
    indices), kept as stones fall and the pin moves: a cell drawn from it is
    a placement, drawn again while it is next to the pin; ``pushes[d]``
    counts the pushes from the pin's neighbour in slot ``d``."""
    nbr, n, width = t.nbr, t.ncells, t.width
    count = 0
    for c in range(n):
        if s[BOARD + c] == 0:
            count = _put(empties, where, count, c)
    written = 0
    while s[WINNER] < 0:
        pin = s[PIN]
        beside, total = 0, 0  # the pin's empty neighbours; their pushes
        for d in range(6):
            c = nbr[pin, d]
            pushes[d] = 0
            if c >= 0 and s[BOARD + c] == 0:
                beside += 1
                pushes[d] = _landings(s, t, pin, d + 3 if d < 3 else d - 3)
                total += pushes[d]
        r = int(np.random.random() * (count - beside + total + 1))
        c, dist = -1, 0
        if r < count - beside:
            c = empties[int(np.random.random() * count)]
            while pin_side(nbr, pin, c) >= 0:
                c = empties[int(np.random.random() * count)]
        elif r < count - beside + total:
            r -= count - beside
            d = 0
            while r >= pushes[d]:
                r -= pushes[d]
                d += 1
            c, dist = nbr[pin, d], r + 1
        written = note(actions, movers, written, n * width if c < 0 else c * width + dist, s[TO_MOVE])
        _move(s, t, c, dist)
        if c >= 0:
            count = _take(empties, where, count, c)
            if s[PIN] != pin:
                count = _take(empties, where, count, s[PIN])
                count = _put(empties, where, count, pin)
    return written


@njit
def identity(s, t, out, zcell, zfield):
    """What identifies the position (:mod:`hexarena.games.position`): the player to move, the winner, the
    passes in a row; per cell its content (1, 2 a player's stone, ``PIN_MARK``)."""
    out[0] = 3
    out[1], out[2], out[3] = s[TO_MOVE], s[WINNER], s[PASSES]
    k = write_cells(s, BOARD, t.ncells, out, 4)
    return k, zobrist(out, k, zcell, zfield)


@njit
def planes(s, t, player, out, cols):
    """The observation planes (``Game.planes``): own stones, the opponent's,
    the pin, empty cells, and all ones when the last move was a pass (another
    pass ends the game)."""
    for c in range(t.ncells):
        v, j = s[BOARD + c], cols[c]
        out[0, j], out[1, j], out[2, j], out[3, j] = v == 1 + player, v == 2 - player, v == PIN_MARK, v == 0
        out[4, j] = s[PASSES] > 0


KERNELS = kernel_set(legal, apply, playout, recorded_playout=recorded_playout, is_legal=is_legal, identity=identity,
                     planes=planes)


def keeps_lines(p: np.ndarray, rays: np.ndarray) -> bool:
    """Whether ``p`` maps every straight line (``rays[c, d]``) onto one."""
    for c in range(rays.shape[0]):
        lines = {tuple(int(m) for m in rays[int(p[c]), d] if m >= 0) for d in range(6)}
        for d in range(6):
            if tuple(int(p[m]) for m in rays[c, d] if m >= 0) not in lines:
                return False
    return True


class HexPushpin(Game):
    """Hex Pushpin on the hexhex board of base size (default 4), doubled-width names."""

    name = "hex-pushpin"
    BENCH_SETUPS = (("base 4 (37 cells)", {"size": 4}), ("base 6 (91 cells)", {"size": 6}))
    PLAYERS = ("first", "second")
    OPTIONS = {"size": int_between(4, 3, MAX_SIZE, "base of the hexhex board (the pin starts on its centre)")}
    WORDS = ("pass",)
    POSITION_FIELDS = ("passes",)
    MCTS = {"rave_bias": 0.1}  # AMAF values fade by ~10 visits: where the pin is matters (docs/ai.md)
    SOLVABLE = True  # every move but a pass adds a stone; two passes in a row end the game
    kernels = KERNELS
    tables: Tables

    def setup(self) -> None:
        self.topology = hexhex(self.options["size"], naming="doubled")
        self.rays = rays(self.topology)
        n, reach = self.topology.ncells, self.rays.shape[2]
        self.width = reach + 1
        self.tables = Tables(self.rays, self.topology.nbr, self.topology.edge, n, self.width)
        self.num_actions = n * self.width + 1
        self.state_size = BOARD + n
        self.centre = n // 2

    def initial_array(self) -> np.ndarray:
        s = super().initial_array()
        s[PIN] = self.centre
        s[BOARD + self.centre] = PIN_MARK
        return s

    # position text --------------------------------------------------------
    def write_position(self, s: np.ndarray) -> tuple[str, dict[str, str]]:
        """The rows as the source draws them (``o`` first, ``x`` second, ``#`` the pin) and ``passes=N``."""
        rows = self.positions.board.write(self.stones(s), "ox#")
        return rows, ({"passes": str(int(s[PASSES]))} if s[PASSES] else {})

    def read_position(self, head: Head) -> np.ndarray:
        """The array of a position text; checked: one pin, off the edge; a turn, a ply and a mover per move
        (each is a stone or a pass); passes=2 exactly when over, won by more stones round the pin."""
        board = self.positions.board.read(head.board, "ox#")
        pins = np.flatnonzero(board == PIN_MARK)
        if len(pins) != 1 or self.topology.edge[pins[0]]:
            raise PositionTextError(f"{len(pins)} pins (#) on the board: there is one, off the edge")
        s = head.header(self.initial_array())
        s[BOARD: BOARD + self.topology.ncells], s[PIN] = board, pins[0]
        s[PASSES] = flag_field(head, "passes", ("0", "1", "2"))
        moves = np.count_nonzero(board) - 1 + s[PASSES]
        if (head.turn, head.step) != (head.ply + 1, 0) or head.ply < moves or \
                (not head.over() and head.to_move != head.ply % 2):
            raise PositionTextError(f"every move is a turn: turn {head.ply + 1}, step 0 and player "
                                    f"{head.ply % 2 + 1} to move at ply {head.ply} (at least {moves})")
        if head.over() != (s[PASSES] == 2):
            raise PositionTextError("the game is over exactly after two passes in a row (passes=2)")
        first, second = pin_scores(s, self.topology.nbr, self.topology.ncells)
        if head.over() and head.winner != (0 if first > second else 1 if second > first else DRAW):
            raise PositionTextError(f"stones round the pin: first {first}, second {second}; the result says otherwise")
        return s

    # facts ----------------------------------------------------------------
    def pin(self, s: np.ndarray) -> int:
        return int(s[PIN])

    def stones(self, s: np.ndarray) -> np.ndarray:
        return s[BOARD:BOARD + self.topology.ncells]

    def scores(self, s: np.ndarray) -> list[float]:
        """Own stones on the pin's neighbours, per player."""
        return [float(v) for v in pin_scores(s, self.topology.nbr, self.topology.ncells)]

    # notation -------------------------------------------------------------
    def action_name(self, s: np.ndarray, action: int) -> str:
        if action == self.num_actions - 1:
            return "pass"
        c, dist = divmod(action, self.width)
        return self.topology.name(c) + (f" {dist}" if dist else "")

    def normalize(self, text: str) -> str:
        """``pass``, ``k6``, ``k6 -`` (no push) or ``e4 2`` (pushing the pin
        2), in any case, spaces between the words and around them ignored;
        annotations (``e6!-``, ``e4 2?``) dropped."""
        m = _MOVE.fullmatch(text.strip(" ").lower())
        cell = m["cell"] if m else ""
        if not m or (m["n1"] and m["n2"]) or (cell != "pass" and self.topology.find(cell) is None) \
                or (cell == "pass" and m["tail"]):
            raise self.malformed(text, f"'pass', a cell ({self.topology.names[0]}, or {self.topology.names[0]} - "
                                       f"with no push), or a cell next to the pin and how far the pin goes (e4 2)")
        tail = (m["tail"] or "").strip(" ")
        return f"{cell} {tail}" if tail else cell

    def parse_move(self, s: np.ndarray, text: str, legal: Sequence[int]) -> int:
        """As :meth:`normalize` says; a bare cell next to the pin names its
        push when the pin can go only one way, else AmbiguousMove."""
        key = self.normalize(text)
        names = {self.action_name(s, a): a for a in legal}
        cell, _, tail = key.partition(" ")
        if key in names or (tail == "-" and cell in names):
            return names[cell if tail == "-" else key]
        pushes = [name for name in names if name.startswith(cell + " ")]
        if not tail and len(pushes) == 1:
            return names[pushes[0]]
        if not tail and pushes:
            raise AmbiguousMove(f"{key!r} pushes the pin; say how far: {', '.join(pushes)}")
        raise IllegalMove(self.why_illegal(s, key))

    def why_illegal(self, s: np.ndarray, text: str) -> str:
        cell, _, tail = text.partition(" ")
        if cell == "pass":
            return "'pass' is not possible now"
        c = self.topology.index(cell)
        if c == s[PIN]:
            return f"{cell!r} holds the pin"
        if s[BOARD + c]:
            return f"{cell!r} is occupied"
        options = [self.action_name(s, a) for a in self._legal(s) if a // self.width == c]
        if not options:
            return f"{cell!r} is next to the pin, but the pin cannot be pushed from it to an empty non-edge cell"
        if options == [cell]:
            return f"{cell!r} is not next to the pin, so it pushes nothing: write {cell!r}"
        return f"{text!r}: {cell} pushes the pin; choose a distance: {', '.join(options)}"

    def move_target(self, s: np.ndarray, action: int) -> int | None:
        """The cell of a placement or push (a push's distance is picked by name); None for ``pass``."""
        return None if action == self.num_actions - 1 else action // self.width

    def _legal(self, s: np.ndarray) -> list[int]:
        out = np.empty(self.num_actions, dtype=np.int32)
        return [int(a) for a in out[:legal(s, self.tables, out)]]

    # observations -----------------------------------------------------------
    PLANES = ("own", "opponent", "pin", "empty", "pass pending")

    # rendering ----------------------------------------------------------------
    def ascii(self, state) -> str:
        """The source's diagram: column letters, ``o`` / ``x`` the first /
        second player's stones, ``#`` the pin, row numbers on the right."""
        board = self.stones(state.array)
        char = {0: ".", 1: "o", 2: "x", PIN_MARK: "#"}
        return ascii_render.lettered(self.topology, lambda c: char[int(board[c])]) + "\n" + self.status(state)

    def rules_status(self, state) -> str:
        """Who is to move or who won, where the pin is and the stones around it."""
        s = state.array
        sc = [int(v) for v in self.scores(s)]
        where = f"pin on {self.topology.name(self.pin(s))}; stones around it: first {sc[0]}, second {sc[1]}"
        if state.is_over():
            w = state.winner()
            return f"{'a draw' if w is None else self.PLAYERS[w] + ' wins'} ({where})"
        passed = "; the last move was a pass" if s[PASSES] else ""
        return f"{self.PLAYERS[state.to_move]} to move; {where}{passed}"

    def position_fields(self) -> tuple[int, int, tuple[int, ...]]:
        return BOARD, self.topology.ncells, (TO_MOVE, WINNER, PASSES)

    def keeps_rules(self, perm: np.ndarray) -> bool:
        """Whether ``perm`` keeps the straight lines the pin moves on, and the pin's start."""
        return keeps_lines(perm, self.rays) and perm[self.centre] == self.centre

    def rules_end_reason(self, s: np.ndarray) -> str:
        """Two passes end every game: ``pin-neighbours`` (more own stones
        round the pin) or ``tie`` (as many)."""
        return "tie" if s[WINNER] == DRAW else "pin-neighbours"

    def svg(self, state, hints: bool = False, **kw: Any) -> str:
        """The board; ``hints=True`` dots the legal cells and draws an arrow
        from the pin to each landing a push may reach."""
        s = state.array
        board = self.stones(s)
        marks, arrows = [], []
        if hints:
            for a in state.legal_actions()[:-1]:
                c, dist = divmod(a, self.width)
                marks.append(c)
                if dist:
                    arrows.append((self.pin(s), int(self.rays[self.pin(s), self._side(s, c), dist - 1])))
        won = state.is_over() and state.resigned is None and state.timed_out is None
        ring = [m for m in self.topology.neighbours(self.pin(s)) if 1 <= board[m] <= 2] if won else []
        last = svg_render.last_cell(state.history, lambda a: a // self.width if a < self.num_actions - 1 else None)
        legend = [(1, "player 1 (first)"), (2, "player 2 (second)"), ("pin", "the pin"), ("last", "last stone")]
        return svg_render.board(self.topology, lambda c: int(board[c]) if board[c] != PIN_MARK else 0,
                                highlight=ring, marks=marks, pieces={self.pin(s): "pin"}, paths=arrows,
                                last=last, legend=legend, title=self.status(state), **kw)

    def _side(self, s: np.ndarray, c: int) -> int:
        return int(pin_side(self.topology.nbr, self.pin(s), c))
