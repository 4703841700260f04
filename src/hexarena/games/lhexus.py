"""Lhexus (MindSports): grow groups into lines, triangles and rings of six.

A hexhex board of base N (default 10).  The first player places a White
stone; the second player answers ``accept`` (he is White) or ``decline`` (he
is Black), and Black moves next.  A turn grows any of the mover's groups as
they stood at the turn's start by one stone each (a stone touching several
of them grows them all), then may place one stone apart from all his stones
(a new group, ending the turn), or ``end``.  A turn with no stone is a pass;
two successive passes end the game.  The score is the maximum number of
pairwise disjoint configurations of six (line, compact triangle, ring) among
a player's stones; higher score wins, then fewer stones, else a draw.

This module is the game's facade: the options, notation, facts, scores,
status and drawing.  The rules kernels are in
:mod:`hexarena.games.lhexus_rules`, the position text in
:mod:`hexarena.games.lhexus_position`.

>>> import hexarena
>>> s = hexarena.load("lhexus", size=3).new_state()
>>> for m in "c3 decline b2 c4 end b3".split(): _ = s.play(m)
>>> print(s)
a      . . .        a1 .. a3
b     . X x .       b1 .. b4
c    . . O O .      c1 .. c5
d   1 . . . .       d2 .. d5
e    2 . . .        e3 .. e5
      3 4 5
player 2 (black) to move: turn 5, a new group; or 'end'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..board import hexhex
from ..kernels import kernel_set, njit
from . import lhexus_position
from .base import DRAW, TURN, WINNER, Game, quoted
from .options import int_between
from .lhexus_scoring import best_packing, configurations, greedy_packing, owned_by_colour
from .lhexus_draw import board_svg
from .lhexus_memo import Recent
from .lhexus_rules import (BLACK, BOARD, COLOUR0, GROWTH, NEW_GROUP, OCCUPIED, OFF, REGROWS, STONES, TCOUNT, WHITE,
                           Tables, apply, classify, identity, is_legal, legal, mover_colour, recorded_playout,
                           search_moves, playout)
from .lisbon import Lisbon
from .position import Head

MIN_SIZE, MAX_SIZE = 3, 16


@njit
def planes(s, t, player, out, cols):
    """The observation planes (``Game.planes``): own stones, the opponent's,
    empty cells, this turn's stones, the cells where a growth stone and a new
    group are legal now, and (all ones) whether colours are still unchosen;
    before the choice "own" is White for the first player."""
    c0 = s[COLOUR0]
    own = (WHITE if player == 0 else BLACK) if c0 == 0 else (c0 if player == 0 else 3 - c0)
    growing = s[WINNER] < 0 and s[TURN] > 2
    colour = mover_colour(s)
    for c in range(t.ncells):
        stone, j = s[BOARD + c], cols[c]
        out[0, j], out[1, j], out[2, j] = stone == own, stone == 3 - own, stone == 0
        out[3, j] = stone > 0 and s[t.when + c] == s[TURN]
        kind = classify(s, t, c, colour) if growing else OCCUPIED
        out[4, j], out[5, j], out[6, j] = kind == GROWTH, kind == NEW_GROUP, c0 == 0


KERNELS = kernel_set(legal, apply, playout, recorded_playout=recorded_playout, search_moves=search_moves,
                     is_legal=is_legal, identity=identity, planes=planes)


class Lhexus(Game):
    """Lhexus on the hexhex board of base N (default 10)."""

    name = "lhexus"
    BENCH_SETUPS = (("base 10 (271 cells)", {"size": 10}), ("base 8 (169 cells)", {"size": 8}))
    SLOW_TO_COMPILE = True
    PLAYERS = ("first", "second")
    OPTIONS = {"size": int_between(10, MIN_SIZE, MAX_SIZE, "N: cells a side (3N(N-1)+1 cells)")}
    COSTLY_SCORES = True  # a maximum packing of configurations
    END_KINDS = {"stones-tiebreak": "tie-break", "tie": "tie-break"}  # as many configurations: fewer stones win
    PLANES = ("own", "opponent", "empty", "placed this turn", "growth legal now", "new group legal now",
              "colours unchosen")
    WORDS = ("end", "accept", "decline")
    CELL_CODES = 5  # identity: a colour, plus 2 for a stone of this turn
    POSITION_FIELDS = ("first", "passes")
    kernels = KERNELS
    tables: Tables
    PACKINGS_KEPT = 32  # boards whose exact packings a game keeps

    def setup(self) -> None:
        self._packings = Recent(self.PACKINGS_KEPT)  # board bytes -> (Black's, White's packing)
        self.topology = hexhex(self.options["size"])
        n = self.topology.ncells
        links = np.where(self.topology.nbr < 0, n, self.topology.nbr).astype(np.int32)
        par = BOARD + n + 1
        self.tables = Tables(links, configurations(self.topology)[0], n, *(par + i * n for i in range(6)))
        self.num_actions = n + 3
        self.state_size = par + 6 * n
        self.max_game_length = 3 * n + 1  # ≤ n stones, an 'end' per turn with stones, a pass between them

    def initial_array(self) -> np.ndarray:
        s = super().initial_array()
        s[BOARD + self.topology.ncells] = OFF
        return s

    def write_position(self, s: np.ndarray) -> tuple[str, dict[str, str]]:
        """The rows (``X`` ``O``, lower case for this turn's stones), ``first=`` player 1's colour and
        ``passes=`` (:mod:`hexarena.games.lhexus_position`)."""
        return lhexus_position.write(self, s)

    def read_position(self, head: Head) -> np.ndarray:
        return lhexus_position.read(self, head)

    # notation -----------------------------------------------------------
    def action_name(self, s: np.ndarray, action: int) -> str:
        return self.WORDS[action - self.topology.ncells] if action >= self.topology.ncells else \
            self.topology.name(action)

    def move_target(self, s: np.ndarray, action: int) -> int | None:
        return action if action < self.topology.ncells else None

    def why_illegal(self, s: np.ndarray, text: str) -> str:
        turn = int(s[TURN])
        if text in ("accept", "decline"):
            return f"{quoted(text)}: only the second player's answer to the opening stone"
        if turn == 2:
            return f"{quoted(text)}: the second player must first 'accept' or 'decline' the White stone"
        if text == "end":
            return "'end': the first player places the opening White stone first"
        cell = self.topology.index(text)
        kind = int(classify(s.copy(), self.tables, cell, int(mover_colour(s))))
        if kind == OCCUPIED:
            return f"{quoted(text)} is occupied"
        if kind == REGROWS:
            return self._regrows(s, cell)
        return (f"{quoted(text)} touches only this turn's stones: a growth stone must touch one of your groups as "
                f"they stood at the start of the turn, and it touches your stones: a new group must stand apart")

    def _regrows(self, s: np.ndarray, cell: int) -> str:
        """Why ``cell`` would grow a group again: which group, with which stone."""
        name, colour = self.topology.name(cell), int(mover_colour(s))
        roots = self.roots(s)
        when = self.placed_turn(s)
        for m in self.topology.neighbours(cell):
            if s[BOARD + m] == colour and when[m] != s[TURN] and self.grown(s, roots[m]):
                by = [c for c in self.turn_stones(s) if roots[m] in
                      {roots[x] for x in self.topology.neighbours(c) if s[BOARD + x] == colour}]
                return (f"{name!r} would grow the group of {self.topology.name(m)!r} again: it grew with "
                        f"{self.topology.name(by[0])!r} this turn")
        return f"{name!r} would grow a group again"

    # facts ----------------------------------------------------------------
    def stones(self, s: np.ndarray) -> np.ndarray:
        """Colour per cell: 0 empty, 1 black, 2 white."""
        return s[BOARD: BOARD + self.topology.ncells]

    def placed_turn(self, s: np.ndarray) -> np.ndarray:
        """The turn each stone was placed in (0 for empty cells)."""
        when = self.tables.when
        return np.where(self.stones(s) > 0, s[when: when + self.topology.ncells], 0)

    def turn_stones(self, s: np.ndarray) -> list[int]:
        """This turn's stones, in the order placed."""
        tlist = self.tables.tlist
        return [int(c) for c in s[tlist: tlist + s[TCOUNT]]]

    def roots(self, s: np.ndarray) -> np.ndarray:
        """Per cell, the start-of-turn group (its root) of the stone there."""
        n, par = self.topology.ncells, self.tables.par
        return np.where(self.stones(s) > 0, s[par: par + n], np.arange(n))

    def grown(self, s: np.ndarray, root: int) -> bool:
        return bool(s[self.tables.grown + root] == s[TURN])

    def colour(self, s: np.ndarray, player: int) -> str | None:
        """'black' or 'white' for ``player``, None until the second player chooses."""
        c0 = int(s[COLOUR0])
        if c0 == 0:
            return None
        return ("black", "white")[(c0 if player == 0 else 3 - c0) - 1]

    def record_extra(self, s: np.ndarray) -> dict[str, Any]:
        return {"colours": [self.colour(s, 0), self.colour(s, 1)]}

    def packings(self, s: np.ndarray, nodes: int = -1) -> tuple[list[int], list[int]] | None:
        """One maximum packing (configuration ids) of Black's and of White's
        stones, or None when either search needs more than ``nodes`` nodes
        (no limit if negative).  The last :data:`PACKINGS_KEPT` boards'
        packings are kept, so asking again costs nothing."""
        board = self.stones(s)
        key = board.tobytes()
        kept: tuple[list[int], list[int]] | None = self._packings.recall(key)
        if kept is not None:
            return kept
        out = np.empty(self.topology.ncells // 6 + 1, dtype=np.int32)
        found = []
        for colour in (BLACK, WHITE):
            count = best_packing(board == colour, self.tables.configs, out, nodes)
            if count < 0:
                return None
            found.append([int(k) for k in out[:count]])
        self._packings.keep(key, (found[0], found[1]))
        return found[0], found[1]

    def forget_packings(self) -> None:  # (benchmarks time the search)
        self._packings.clear()

    def exact_scores(self, s: np.ndarray, nodes: int = -1) -> tuple[int, int] | None:
        """(Black's score, White's score), or None when the search needs more
        than ``nodes`` nodes: a caller bounds its time this way."""
        found = self.packings(s, nodes)
        return None if found is None else (len(found[0]), len(found[1]))

    def colour_scores(self, s: np.ndarray) -> tuple[int, int]:
        """(Black's score, White's score), exact however long it takes."""
        found = self.exact_scores(s)
        assert found is not None  # no node limit
        return found

    def greedy_scores(self, s: np.ndarray) -> tuple[int, int]:
        """(Black's, White's) first-fit packings: lower bounds of the scores, in microseconds."""
        n = self.topology.ncells
        black, white = owned_by_colour(self.stones(s).copy(), self.tables.configs, BLACK, WHITE)
        return int(greedy_packing(black, self.tables.configs, n)), int(greedy_packing(white, self.tables.configs, n))

    def scores(self, s: np.ndarray) -> list[float]:
        """Each player's score (Black's for the first player until the choice)."""
        b, w = self.colour_scores(s)
        return [float(b), float(w)] if self.colour(s, 0) in (None, "black") else [float(w), float(b)]

    def live_scores(self, state) -> list[float] | None:
        """The exact scores once the game is over; None while it goes on (the status shows a greedy count)."""
        return state.scores() if state.is_over() else None

    def configurations(self, s: np.ndarray, colour: int) -> list[list[int]]:
        """One maximum packing of ``colour``'s configurations, as cell lists."""
        found = self.packings(s)
        assert found is not None  # no node limit
        return [sorted(int(c) for c in self.tables.configs[i]) for i in found[colour - 1]]

    def growth_cells(self, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """bool per cell: where a growth stone, and where a new group, is legal now."""
        n = self.topology.ncells
        grow, new = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
        if s[WINNER] < 0 and s[TURN] > 2:
            s, colour = s.copy(), mover_colour(s)  # a writable array, as the kernel is compiled for
            for c in range(n):
                kind = classify(s, self.tables, c, colour)
                grow[c], new[c] = kind == GROWTH, kind == NEW_GROUP
        return grow, new

    # rendering -----------------------------------------------------------
    def who(self, s: np.ndarray, player: int) -> str:
        colour = self.colour(s, player)
        return f"player {player + 1}" + (f" ({colour})" if colour else "")

    def rules_status(self, state) -> str:
        """Whose turn and what it may do (which groups may still grow), or the
        result with scores and stones."""
        s = state.array
        if state.is_over():
            return self.result_text(s, state.winner())
        if s[TURN] == 1:
            return "player 1 places a White stone; player 2 then accepts it (plays White) or declines (plays Black)"
        if s[TURN] == 2:
            return "player 2: 'accept' the White stone (and play White) or 'decline' it (and play Black)"
        colour, roots = int(mover_colour(s)), self.roots(s)
        when = self.placed_turn(s)
        free = sorted({int(roots[c]) for c in np.flatnonzero(self.stones(s) == colour)
                       if when[c] != s[TURN] and not self.grown(s, roots[c])})
        names = ", ".join(self.topology.name(c) for c in free[:8]) + (", ..." if len(free) > 8 else "")
        grow = f"growth (groups that may still grow: {names}); or a new group" if free else "a new group"
        return f"{self.who(s, state.to_move)} to move: turn {state.turn}, {grow}; or 'end'" + \
            ("" if state.step else " (a pass)") + self.greedy_note(s)

    def greedy_note(self, s: np.ndarray) -> str:
        """The live count of a game in progress, labelled as one: each colour's
        first-fit packing, a lower bound of its score (empty while both are 0)."""
        b, w = self.greedy_scores(s)
        if b == w == 0:
            return ""
        return f"; Black at least {b}, White at least {w} configurations (greedy count; exact at the end)"

    def rules_end_reason(self, s: np.ndarray) -> str:
        """``configurations`` (more of them), ``stones-tiebreak`` (as many,
        fewer stones) or ``tie`` (a draw)."""
        if s[WINNER] == DRAW:
            return "tie"
        b, w = self.colour_scores(s)
        return "configurations" if b != w else "stones-tiebreak"

    def opening_words(self) -> tuple[str, ...]:
        """The second player's answer to the opening White stone."""
        return ("accept", "decline")

    def result_text(self, s: np.ndarray, winner: int | None) -> str:
        b, w = self.colour_scores(s)
        nb, nw = int(s[STONES]), int(s[STONES + 1])
        facts = f"Black {b} configuration{'s' * (b != 1)} with {nb} stones, White {w} with {nw}"
        if winner is None:
            return f"a draw: {facts}"
        how = "more configurations" if b != w else "fewer stones"
        return f"{self.who(s, winner)} wins on {how}: {facts}"

    def ascii(self, state) -> str:
        """Lisbon's drawing (its stones and turns are laid out as ours): row
        letters at the left, each row's cells at the right, the numbers of the
        cells' names at the foot; X black, O white, lower case for the stones
        of the turn in progress."""
        return Lisbon.ascii(self, state)  # type: ignore[arg-type]

    def svg(self, state, hints: bool = False, **kw: Any) -> str:
        """The board; this turn's stones (or the last move) ringed; at the end
        each player's counted configurations outlined."""
        return board_svg(self, state, hints, **kw)
