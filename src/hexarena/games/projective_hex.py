"""Projective Hex (Bill Taylor and Dan Hoey): Hex on the projective plane.

Players fill cells in turn; whoever makes a *global loop* of own cells (a
cycle crossing the glued seams an odd number of times) wins.  Detection is
incremental union-find with a parity bit per link: joining two cells of one
group by a link whose seam parity disagrees with their parities closes an
odd cycle.

>>> import hexarena
>>> s = hexarena.load("projective-hex", opening="none").new_state()
>>> for m in "B C F G N J #".split(): _ = s.play(m)
>>> print(s)
    z y x w
   z . X O w            A B C
  v . . X O r          D E F G
 q . . O . . m        H I J K L
q . X . X . . m      M N O # P Q
 l . . . . . h        R S T U V
  O . . . . d          W X Y Z
   O O X a a
player 2 (white) to move
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..board import Topology, projective
from ..kernels import kernel_set, njit, note, shuffle_prefix
from ..render import ascii as ascii_render
from ..render import svg as svg_render
from .base import HEADER, PLY, STEP, TO_MOVE, TURN, WINNER, Game, quoted
from .options import choice, int_between
from .position import Head, PositionTextError, flag_field, write_cells, zobrist

# state layout after the shared header
COLOR0 = HEADER  # colour of player 0: BLACK, WHITE, or 0 before cut-and-choose is settled
LOOP = HEADER + 1  # colour that has a global loop, 0 if none
PLACED = HEADER + 2  # stones on the board
BOARD = HEADER + 4  # ncells entries: 0 empty, BLACK, WHITE; then parent, then parity

BLACK, WHITE = 1, 2
OPENINGS = ("none", "swap", "cut-and-choose")
MAX_SIZE = 16  # 768 cells, set up in ~0.05 s
HASH_ALIAS = "hash"  # the size-3 cell '#' on input, since '#' starts a shell comment
NONE, SWAP, CUT = range(3)



class Tables(NamedTuple):
    """What the kernels read besides the position (``game.tables``)."""

    nbr: np.ndarray  # int32[n, 6]: neighbour per slot, -1 for none (glued links included)
    seam: np.ndarray  # int8[n, 6]: 1 where the link crosses a glued seam
    bridges: np.ndarray  # int32[n, k, 3]: the triples (a, y, b) around each cell x: a and b are
    # neighbours of x, not of each other, and share the neighbour y; (-1, -1, -1) pads the rows
    ncells: int
    opening: int  # NONE, SWAP or CUT


@njit
def legal(s, t, out):
    n = t.ncells
    if s[WINNER] >= 0:
        return 0
    if t.opening == CUT and s[COLOR0] == 0 and s[PLACED] == 3:
        out[0] = n + 1
        out[1] = n + 2
        return 2
    k = 0
    for c in range(n):
        if s[BOARD + c] == 0:
            out[k] = c
            k += 1
    if t.opening == SWAP and s[PLY] == 1:
        out[k] = n
        k += 1
    return k


@njit
def is_legal(s, t, a):
    """Is ``a`` (in range, the game not over) legal?  As :func:`legal` lists them."""
    n = t.ncells
    if t.opening == CUT and s[COLOR0] == 0 and s[PLACED] == 3:
        return a == n + 1 or a == n + 2
    if a < n:
        return s[BOARD + a] == 0
    return a == n and t.opening == SWAP and s[PLY] == 1


@njit
def _colour_to_place(s):
    if s[COLOR0] == 0:  # cut-and-choose: black, white, black
        return BLACK if s[PLACED] != 1 else WHITE
    return s[COLOR0] if s[TO_MOVE] == 0 else 3 - s[COLOR0]


@njit
def _place(s, nbr, seam, n, c, colour):
    """Put a stone and merge it with its neighbours; True if it closes a loop.

    ``s[P + x]`` is x's union-find parent, ``s[Q + x]`` the parity of the
    path from x to its parent (the number of seams crossed, mod 2).
    """
    P, Q = BOARD + n, BOARD + 2 * n
    s[BOARD + c] = colour
    s[P + c] = c
    s[Q + c] = 0
    rc, pc = c, 0  # the new stone's root and its parity relative to it
    loop = False
    for d in range(6):
        m = nbr[c, d]
        if m < 0 or s[BOARD + m] != colour:
            continue
        rm, pm = m, 0
        while s[P + rm] != rm:
            pm ^= s[Q + rm]
            rm = s[P + rm]
        x, px = m, pm  # compress m's path onto its root
        while s[P + x] != rm:
            nxt, pnext = s[P + x], px ^ s[Q + x]
            s[P + x], s[Q + x] = rm, px
            x, px = nxt, pnext
        link = pc ^ pm ^ seam[c, d]  # parity of the cycle this link would close
        if rc == rm:
            loop = loop or link == 1
        else:
            s[P + rc], s[Q + rc] = rm, link
            rc, pc = rm, pc ^ link
    return loop


@njit
def _finish(s):
    """End the game if a loop exists and the colours are known."""
    if s[LOOP] != 0 and s[COLOR0] != 0:
        s[WINNER] = 0 if s[COLOR0] == s[LOOP] else 1
        s[TO_MOVE] = -1


@njit
def apply(s, t, a):
    n = t.ncells
    s[PLY] += 1
    if a < n:
        colour = _colour_to_place(s)
        if _place(s, t.nbr, t.seam, n, a, colour):
            s[LOOP] = colour
        s[PLACED] += 1
        if s[COLOR0] == 0 and s[PLACED] < 3:
            s[STEP] += 1  # the cutter's three opening stones are one turn
        else:
            s[TO_MOVE] = 1 - s[TO_MOVE]
            s[TURN] += 1
            s[STEP] = 0
    elif a == n:  # swap: the second player takes black; the first, now white, moves
        s[COLOR0] = WHITE
        s[TO_MOVE] = 0
        s[TURN] += 1
    else:  # the chooser (player 1) picks a colour; White moves next
        chosen = BLACK if a == n + 1 else WHITE
        s[COLOR0] = 3 - chosen
        s[TO_MOVE] = 0 if s[COLOR0] == WHITE else 1
        s[TURN] += 1
        s[STEP] = 0
    _finish(s)


@njit
def playout(s, t):
    """Uniformly random legal moves to the end (in place)."""
    none = np.empty(0, dtype=np.int32)
    _fill(s, t, none, none, False)


@njit
def recorded_playout(s, t, actions, movers):
    """``playout`` that also writes each move and its mover into ``actions`` and
    ``movers`` while they have room; returns the number written (for MCTS's AMAF)."""
    return _fill(s, t, actions, movers, False)


@njit
def pattern_playout(s, t, actions, movers):
    """``recorded_playout`` that saves bridges: when the opponent's stone lands on
    one of the two cells joining two of the mover's stones and the other is
    empty, the mover takes the other (one such cell at random); else random."""
    return _fill(s, t, actions, movers, True)


@njit
def _bridge_reply(s, bridges, last, colour):
    """An empty cell that restores a ``colour`` bridge broken by the stone on ``last``, or -1."""
    reply, found = -1, 0
    for j in range(bridges.shape[1]):
        a, y, b = bridges[last, j, 0], bridges[last, j, 1], bridges[last, j, 2]
        if a < 0:
            break
        if s[BOARD + y] == 0 and s[BOARD + a] == colour and s[BOARD + b] == colour:
            found += 1
            if np.random.randint(0, found) == 0:
                reply = y
    return reply


@njit
def _fill(s, t, actions, movers, save_bridges):
    """Play to the end (the opening steps at random, then a random order of the
    empty cells, with bridge replies first when ``save_bridges``); records as
    ``recorded_playout`` does."""
    nbr, seam, n = t.nbr, t.seam, t.ncells
    empties = np.empty(n, dtype=np.int32)
    where = np.empty(n if save_bridges else 0, dtype=np.int32)  # a cell's index in empties
    k = 0
    for c in range(n):
        if s[BOARD + c] == 0:
            empties[k] = c
            k += 1
    shuffle_prefix(empties, k)
    written = 0
    while s[WINNER] < 0 and (s[COLOR0] == 0 or (t.opening == SWAP and s[PLY] == 1)):
        if s[COLOR0] == 0 and s[PLACED] == 3:  # the chooser picks a colour
            a = n + 1 + np.random.randint(0, 2)
        elif s[COLOR0] != 0 and np.random.randint(0, k + 1) == 0:  # swap among k + 1 moves
            a = n
        else:
            k -= 1
            a = empties[k]
        written = note(actions, movers, written, a, s[TO_MOVE])
        apply(s, t, a)
    if save_bridges:
        for i in range(k):
            where[empties[i]] = i
    # plain alternation from here: place without the facade's bookkeeping
    colour = _colour_to_place(s)
    placed, mover = 0, s[TO_MOVE]
    while s[WINNER] < 0 and s[LOOP] == 0 and k > 0:
        if save_bridges and placed > 0:
            reply = _bridge_reply(s, t.bridges, empties[k], colour)
            if reply >= 0:  # move it to the end of the list, to be played now
                i, other = where[reply], empties[k - 1]
                empties[i], where[other] = other, i
                empties[k - 1], where[reply] = reply, k - 1
        k -= 1
        written = note(actions, movers, written, empties[k], (mover + placed) % 2)
        placed += 1
        if _place(s, nbr, seam, n, empties[k], colour):
            s[LOOP] = colour
        else:
            colour = 3 - colour
    s[PLY] += placed
    s[TURN] += placed
    s[PLACED] += placed
    s[TO_MOVE] = (s[TO_MOVE] + placed) % 2
    _finish(s)
    return written


def _bridges(topology) -> np.ndarray:
    """The ``bridges`` table (see the layout above) of a board."""
    near = [{int(m) for m in topology.nbr[c] if m >= 0} for c in range(topology.ncells)]
    rows = [[(a, y, b) for a in sorted(near[x]) for b in sorted(near[x]) if a < b and b not in near[a]
             for y in sorted(near[x] & near[a] & near[b])] for x in range(topology.ncells)]
    table = np.full((topology.ncells, max(map(len, rows)), 3), -1, dtype=np.int32)
    for x, row in enumerate(rows):
        table[x, :len(row)] = row
    return table


@njit
def identity(s, t, out, zcell, zfield):
    """What identifies the position (:mod:`hexarena.games.position`): the player to move, the winner,
    player 0's colour, the colour with a global loop, whether a swap is open; per stone its colour."""
    out[0] = 5
    out[1], out[2], out[3], out[4] = s[TO_MOVE], s[WINNER], s[COLOR0], s[LOOP]
    out[5] = t.opening == SWAP and s[PLY] == 1
    k = write_cells(s, BOARD, t.ncells, out, 6)
    return k, zobrist(out, k, zcell, zfield)


@njit
def lay(s, t, colours):
    """Place the stones ``colours`` (per cell, 0 for none) in cell order; the bits (1 black, 2 white) of the
    colours that closed a global loop."""
    loops = 0
    for c in range(t.ncells):
        if colours[c]:
            if _place(s, t.nbr, t.seam, t.ncells, c, colours[c]):
                loops |= colours[c]
            s[PLACED] += 1
    return loops


@njit
def planes(s, t, player, out, cols):
    """The observation planes (``Game.planes``): own stones, the opponent's,
    empty cells, and (all ones until the cut-and-choose colours are settled)
    whether colours are still open; before the choice "own" is black."""
    c0 = s[COLOR0]
    own = BLACK if c0 == 0 else (c0 if player == 0 else 3 - c0)
    for c in range(t.ncells):
        stone, j = s[BOARD + c], cols[c]
        out[0, j], out[1, j], out[2, j], out[3, j] = stone == own, stone == 3 - own, stone == 0, c0 == 0


KERNELS = kernel_set(legal, apply, playout, recorded_playout=recorded_playout, pattern_playout=pattern_playout,
                     is_legal=is_legal, identity=identity, planes=planes)


def keeps_seam_parity(p: np.ndarray, nbr: np.ndarray, seam: np.ndarray) -> bool:
    """Whether ``p`` keeps the seam parity of every cycle: some f(c) in {0, 1}
    has seam(p c, p m) = seam(c, m) ^ f(c) ^ f(m) on every link."""
    n = nbr.shape[0]
    link = {}
    for c in range(n):
        for d in range(6):
            if nbr[c, d] >= 0:
                link[(c, int(nbr[c, d]))] = int(seam[c, d])
    f = np.full(n, -1)
    f[0] = 0
    todo = [0]
    while todo:
        c = todo.pop()
        for d in range(6):
            m = int(nbr[c, d])
            if m < 0:
                continue
            want = link[(int(p[c]), int(p[m]))] ^ int(seam[c, d]) ^ f[c]
            if f[m] < 0:
                f[m] = want
                todo.append(m)
            elif f[m] != want:
                return False
    return True


class ProjectiveHex(Game):
    """Projective Hex on the n/n+1 projective-plane board."""

    name = "projective-hex"
    BENCH_SETUPS = (("n=6 (108 cells, PBeM size 7)", {"size": 6, "opening": "none"}),
                    ("n=7 (147 cells)", {"size": 7, "opening": "none"}))
    PLAYERS = ("first", "second")
    OPTIONS = {
        "size": int_between(3, 2, MAX_SIZE, "n: rows n..2n..n+1, 3n^2 cells (PBeM size = n+1)"),
        "opening": choice("cut-and-choose", OPENINGS, "equalisation protocol"),
    }
    WORDS = ("swap", "black", "white")
    POSITION_FIELDS = ("first",)
    kernels = KERNELS
    tables: Tables
    SOLVABLE = True  # it only fills cells
    CAN_DRAW = False  # a full board holds a loop
    THREAT_FIELD = COLOR0  # once colours are settled a stone only helps its own colour's loop

    def setup(self) -> None:
        n = self.options["size"]
        self.topology = projective(n)
        ncells = self.topology.ncells
        self.tables = Tables(self.topology.nbr, self.topology.seam, _bridges(self.topology), ncells,
                             OPENINGS.index(self.options["opening"]))
        self.num_actions = ncells + 3
        self.state_size = BOARD + 3 * ncells
        self._special = {ncells: "swap", ncells + 1: "black", ncells + 2: "white"}

    def initial_array(self) -> np.ndarray:
        s = super().initial_array()
        s[COLOR0] = 0 if self.options["opening"] == "cut-and-choose" else BLACK
        return s

    # position text --------------------------------------------------------
    def write_position(self, s: np.ndarray) -> tuple[str, dict[str, str]]:
        """The rows (``X`` black, ``O`` white) and ``first=black|white`` (player 1's colour) once it differs
        from the start's: chosen in cut-and-choose, white after a swap."""
        rows = self.positions.board.write(self.stones(s), "XO")
        chosen = s[COLOR0] != self.initial_array()[COLOR0]
        return rows, ({"first": ("black", "white")[int(s[COLOR0]) - 1]} if chosen else {})

    def read_position(self, head: Head) -> np.ndarray:
        """The array of a position text: its stones laid (the loops found as they close); checked: as many
        black stones as white or one more, the header the stones and the opening give (every move here is
        a stone, a swap or a colour choice), a loop exactly when the game is over."""
        s = self.initial_array()
        colours = self.positions.board.read(head.board, "XO")  # BLACK, WHITE
        first = head.fields.get("first")
        if first is not None:
            s[COLOR0] = flag_field(head, "first", ("none", "black", "white"))
        black, white = int((colours == BLACK).sum()), int((colours == WHITE).sum())
        if black - white not in (0, 1):
            raise PositionTextError(f"{black} black and {white} white stones: black places first, so black has as "
                                    f"many stones as white or one more")
        self._check_header(head, s, black + white)
        loops = int(lay(s, self.tables, colours))
        if loops == BLACK | WHITE:
            raise PositionTextError("both colours have a global loop: the first one ends the game")
        s[LOOP] = loops
        if head.over() != bool(loops and s[COLOR0]) or (head.winner >= 0 and head.winner != (s[COLOR0] != loops)):
            raise PositionTextError("a game is over exactly when a colour has a global loop once colours are known, "
                                    "won by that colour's player")
        return head.header(s)

    def _check_header(self, head: Head, s: np.ndarray, placed: int) -> None:
        """The header the moves give: ``placed`` stones, a swap (player 1 white) or a colour choice."""
        opening, colour0 = self.options["opening"], int(s[COLOR0])
        choices = int(colour0 != self.initial_array()[COLOR0])
        if (opening == "swap" and colour0 == WHITE and placed < 1) or (opening == "cut-and-choose" and (
                (colour0 and placed < 3) or (not colour0 and placed > 3))) or (opening == "none" and choices):
            given = f"first={head.fields['first']}" if "first" in head.fields else "no first=COLOUR"
            raise PositionTextError(f"{placed} stones and {given}: no position of opening {opening!r} (first= is "
                                    f"player 1's colour: chosen after cut-and-choose's 3 stones, white after a swap)")
        if opening == "cut-and-choose" and not colour0:  # the cutter's three stones, then the chooser
            turn, step, mover = (1, placed, 0) if placed < 3 else (2, 0, 1)
        elif opening == "cut-and-choose":
            turn, step, mover = placed, 0, (int(colour0 == BLACK) + placed - 3) % 2
        else:
            turn, step, mover = 1 + placed + choices, 0, (placed + choices) % 2
        want = (-1 if head.over() else mover, turn, step, placed + choices)
        if (head.to_move, head.turn, head.step, head.ply) != want:
            who = "a result" if head.over() else f"player {mover + 1} to move"
            raise PositionTextError(f"with {placed} stones{', colours chosen' if choices else ''} and opening "
                                    f"{opening!r}: {who}, turn {turn}, step {step}, ply {want[3]}")

    # notation -----------------------------------------------------------
    def action_name(self, s: np.ndarray, action: int) -> str:
        return self._special.get(action) or self.topology.name(action)

    def action_of(self, s: np.ndarray, key: str) -> int | None:
        special = {v: k for k, v in self._special.items()}
        if key in special:
            return special[key]
        c = self.topology.find(key)
        return c if c is not None and self.topology.name(c) == key else None

    def normalize(self, text: str) -> str:
        """Size 3: a letter ``A``..``Z``, ``#`` (or ``hash``), in any case;
        other sizes: Havannah-style names; and ``swap``, ``black``, ``white``."""
        if self.options["size"] != 3:
            return super().normalize(text)
        key = text.strip(" ")
        if key.lower() in self.WORDS:
            return key.lower()
        key = "#" if key.lower() == HASH_ALIAS else key.upper()
        if self.topology.find(key) is None:
            raise self.malformed(text, f"a cell A..Z or # (also written {HASH_ALIAS!r}), or "
                                       + " or ".join(map(repr, self.WORDS)))
        return key

    def why_illegal(self, s: np.ndarray, text: str) -> str:
        cell = self.topology.find(text)
        if cell is not None:
            if s[BOARD + cell]:
                return f"{quoted(text)} is occupied"
            if self.options["opening"] == "cut-and-choose" and s[COLOR0] == 0 and s[PLACED] == 3:
                return f"{quoted(text)}: the second player must first choose 'black' or 'white'"
        if text in self.WORDS:
            return f"{quoted(text)} is not allowed now (opening {self.options['opening']!r})"
        return f"{quoted(text)} is not a legal move here"

    # facts ----------------------------------------------------------------
    def colour(self, s: np.ndarray, player: int) -> str | None:
        """'black' or 'white' for ``player``, None while cut-and-choose is open."""
        c0 = int(s[COLOR0])
        if c0 == 0:
            return None
        return ("black", "white")[(c0 if player == 0 else 3 - c0) - 1]

    def record_extra(self, s: np.ndarray) -> dict[str, Any]:
        return {"colours": [self.colour(s, 0), self.colour(s, 1)]}

    PLANES = ("own", "opponent", "empty", "colour unchosen")

    def stones(self, s: np.ndarray) -> np.ndarray:
        n = self.topology.ncells
        return s[BOARD: BOARD + n]

    def loop_cells(self, s: np.ndarray) -> list[int]:
        """A shortest global loop of the winning colour (empty if none).

        Breadth-first search in the double cover: from (c, sheet 0) to
        (c, sheet 1) through own cells, a seam link switching sheets.
        """
        colour = int(s[LOOP])
        if not colour:
            return []
        topo, board = self.topology, self.stones(s)
        best: list[int] = []
        for start in np.flatnonzero(board == colour):
            path = _odd_cycle_from(topo, board, int(start), colour)
            if path and (not best or len(path) < len(best)):
                best = path
        return best

    # rendering -----------------------------------------------------------
    def ascii(self, state) -> str:
        """X black, O white; around the rim the ghost cells (the cells beyond
        each glued edge) repeat their cell's stone, or when empty show its
        name in lower case (on other sizes than 3, its row letter)."""
        board = self.stones(state.array)
        stone = {0: ".", BLACK: "X", WHITE: "O"}
        ghost = lambda c: stone[int(board[c])] if board[c] else self.topology.name(c)[0].lower()  # noqa: E731
        text = ascii_render.grid(self.topology, lambda c: stone[int(board[c])], ghost, right=self._legend())
        return text + "\n" + self.status(state)

    def _legend(self):
        """Row labels: the source's letter diagram on n=3, else each row's cell range."""
        if self.options["size"] == 3:
            rows = ascii_render.grid(self.topology, self.topology.name).split("\n")
            return lambda r: "      " + rows[r]
        return lambda r: "      " + ascii_render.row_range(self.topology, r)

    def rules_status(self, state) -> str:
        """Who is to move (with colours once chosen), the opening's stage, or who won."""
        s = state.array
        colours = [self.colour(s, p) for p in (0, 1)]
        who = lambda p: f"player {p + 1}" + (f" ({colours[p]})" if colours[p] else "")  # noqa: E731
        if state.is_over():
            return f"{who(state.winner())} wins with a global loop"
        if colours[0] is None:
            if s[PLACED] == 3:
                return "player 2 chooses: black or white"
            return f"player 1 places the opening stones ({('black', 'white', 'black')[int(s[PLACED])]} next)"
        return f"{who(state.to_move)} to move"

    def position_fields(self) -> tuple[int, int, tuple[int, ...]]:
        return BOARD, self.topology.ncells, (TO_MOVE, WINNER, COLOR0)

    def keeps_rules(self, perm: np.ndarray) -> bool:
        """Whether ``perm`` keeps the seam parity of every cycle (a global loop stays one)."""
        return keeps_seam_parity(perm, self.topology.nbr, self.topology.seam)

    def rules_end_reason(self, s: np.ndarray) -> str:
        return "loop"

    def opening_words(self) -> tuple[str, ...]:
        """``swap``, or the colour choice of cut-and-choose."""
        return {"none": (), "swap": ("swap",), "cut-and-choose": ("black", "white")}[self.options["opening"]]

    def dead_cell_rings(self) -> np.ndarray:
        return neighbour_rings(self.topology)

    def svg(self, state, hints: bool = False, **kw: Any) -> str:
        """The board and its ghost cells; the winning loop ringed, the last
        stone marked, a legend of who plays which colour."""
        s = state.array
        board = self.stones(s)
        n = self.topology.ncells
        loop = self.loop_cells(s) if state.is_over() else []
        marks = [a for a in state.legal_actions() if a < n] if hints else []
        last = svg_render.last_cell(state.history, lambda a: a if a < n else None)
        return svg_render.board(self.topology, lambda c: int(board[c]), highlight=loop, marks=marks,
                                last=last, legend=self.svg_legend(s), title=self.status(state), **kw)

    def svg_legend(self, s: np.ndarray) -> list[tuple[svg_render.Swatch, str]]:
        """Which colour is whose (open while cut-and-choose is), and the last-move ring."""
        colours = [self.colour(s, p) for p in (0, 1)]
        if colours[0] is None:
            return [(BLACK, "black"), (WHITE, "white: player 2 will choose one"), ("last", "last stone")]
        items = sorted((BLACK if colours[p] == "black" else WHITE, f"{colours[p]}: player {p + 1}") for p in (0, 1))
        return [*items, ("last", "last stone")]


def _odd_cycle_from(topo, board, start: int, colour: int) -> list[int]:
    """Shortest path from (start, 0) to (start, 1) in the double cover."""
    prev: dict[tuple[int, int], tuple[int, int] | None] = {(start, 0): None}
    frontier = [(start, 0)]
    while frontier:
        nxt = []
        for c, sheet in frontier:
            for d in range(6):
                m = int(topo.nbr[c, d])
                if m < 0 or board[m] != colour:
                    continue
                node = (m, sheet ^ int(topo.seam[c, d]))
                if node in prev:
                    continue
                prev[node] = (c, sheet)
                if node == (start, 1):
                    path: list[int] = []
                    at: tuple[int, int] | None = node
                    while at is not None:
                        path.append(at[0])
                        at = prev[at]
                    return path[:-1]
                nxt.append(node)
        frontier = nxt
    return []



def neighbour_rings(topo: Topology) -> np.ndarray:
    """int32[ncells, 6]: each cell's neighbours in cyclic order (each next to
    the one before it), -1 padded, for the solvers' dead-cell test; a cell
    whose neighbours do not make such a ring, or whose triangles with two of
    them cross the seams an odd number of times (so that going round the
    ring would not be the same as going through the cell), gets a row of -1."""
    nbr, seam = topo.nbr, topo.seam
    n = nbr.shape[0]
    parities: dict[tuple[int, int], set[int]] = {}  # a link's seam parity (two links of one pair may differ)
    for c in range(n):
        for d in range(6):
            if nbr[c, d] >= 0:
                parities.setdefault((c, int(nbr[c, d])), set()).add(int(seam[c, d]))
    rings = np.full((n, 6), -1, dtype=np.int32)
    for c in range(n):
        ring = _ring(c, [int(m) for m in nbr[c] if m >= 0], parities)
        if ring:
            rings[c, :len(ring)] = ring
    return rings


def _ring(c: int, near: list[int], parities: dict[tuple[int, int], set[int]]) -> list[int]:
    """``near`` (c's neighbours) in cyclic order if they make a ring of single
    links each closing an even triangle with c, else []."""
    if len(set(near)) != len(near) or any(len(parities[(c, m)]) != 1 for m in near):
        return []
    links = {m: [x for x in near if (m, x) in parities] for m in near}
    if any(len(v) != 2 or any(len(parities[(m, x)]) != 1 for x in v) for m, v in links.items()):
        return []
    ring = [near[0]]
    while len(ring) < len(near):
        nxt = [x for x in links[ring[-1]] if x not in ring]
        if not nxt:
            return []
        ring.append(nxt[0])
    if ring[0] not in links[ring[-1]]:
        return []
    parity = {pair: min(p) for pair, p in parities.items()}  # single links: one parity each
    odd = [parity[(c, a)] ^ parity[(a, b)] ^ parity[(b, c)] for a, b in zip(ring, ring[1:] + ring[:1], strict=True)]
    return ring if not any(odd) else []
