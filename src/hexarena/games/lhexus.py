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

The kernels keep a union-find over the stones of earlier turns only: this
turn's stones wait in a list (``WHEN == TURN``) and join their groups when
the turn ends, so a root is a start-of-turn group all turn long, and
``GROWN[root] == TURN`` says it has grown this turn.

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

from typing import Any, NamedTuple

import numpy as np

from ..board import hexhex
from ..kernels import hot, inline, kernel_set, njit, note
from .base import DRAW, HEADER, PLY, STEP, TO_MOVE, TURN, WINNER, Game, quoted
from .options import int_between
from .lhexus_scoring import best_packing, configurations, greedy_packing, owned_by_colour, pack
from .lhexus_draw import board_svg
from .lhexus_memo import Recent
from .lisbon import Lisbon

# state layout after the shared header
COLOUR0 = HEADER  # player 0's colour: 0 until the second player chooses, then BLACK or WHITE
PASSES = HEADER + 1  # successive passes
TCOUNT = HEADER + 2  # stones placed this turn
STONES = HEADER + 3  # stones on the board: STONES + colour - 1 for BLACK, WHITE
GROUPS = HEADER + 5  # groups on the board as the last turn ended: GROUPS + colour - 1
BOARD = HEADER + 7  # n + 1 colours (the last, OFF, stands for "off the board"), then the Tables' offsets

BLACK, WHITE, OFF = 1, 2, 3
# a cell for the mover, as classify() says
GROWTH, NEW_GROUP, REGROWS, ONLY_NEW, OCCUPIED = 1, 2, -1, -2, -3
MIN_SIZE, MAX_SIZE = 3, 16


class Tables(NamedTuple):
    """What the kernels read besides the position (``game.tables``)."""

    links: np.ndarray  # int32[n, 6]: the neighbour in each direction, or n (the OFF entry) off the board
    configs: np.ndarray  # int32[K, 6]: the cells of every configuration (lhexus_scoring.configurations)
    ncells: int
    par: int  # offsets in the position, n entries each after the colours: the root of the stone's group
    # (its own cell for a stone of this turn)
    when: int  # the turn a stone was placed
    grown: int  # per root: the turn its group last grew
    size: int  # per root: its group's stones
    tlist: int  # this turn's stones, in the order placed
    nxt: int  # the next stone of the stone's group (a cycle through each group's stones)


@njit
def mover_colour(s):
    """The colour the player to move places: White on turn 1, then his own."""
    if s[TURN] == 1:
        return WHITE
    return s[COLOUR0] if s[TO_MOVE] == 0 else 3 - s[COLOUR0]


@inline
def classify(s, t, c, colour):
    """What a stone of ``colour`` on c would be: GROWTH, NEW_GROUP, REGROWS
    (it touches a start-of-turn group that grew this turn), ONLY_NEW (it
    touches only this turn's stones) or OCCUPIED."""
    if s[BOARD + c] != 0:
        return OCCUPIED
    links, par, when, grown = t.links, t.par, t.when, t.grown
    own, start = False, False
    for d in range(6):
        m = links[c, d]
        if s[BOARD + m] == colour:
            own = True
            if s[when + m] != s[TURN]:
                start = True
                if s[grown + s[par + m]] == s[TURN]:
                    return REGROWS
    if not own:
        return NEW_GROUP
    return GROWTH if start else ONLY_NEW


@njit
def final_scores(s, t):
    """(black's score, white's score): maximum disjoint configurations."""
    n = t.ncells
    out = np.empty(n // 6 + 1, dtype=np.int32)
    black, white = owned_by_colour(s[BOARD: BOARD + n], t.configs, BLACK, WHITE)
    return pack(black, t.configs, n, out), pack(white, t.configs, n, out)


@njit
def _result(s, t):
    """(black's, white's) values whose order decides the game: their scores,
    except when a greedy packing of the player with more stones already
    beats the other's exact score (then that packing's size stands for his
    score: lopsided boards, whose exact packing can be slow)."""
    n = t.ncells
    out = np.empty(n // 6 + 1, dtype=np.int32)
    dense = BLACK if s[STONES] >= s[STONES + 1] else WHITE
    mine, theirs = owned_by_colour(s[BOARD: BOARD + n], t.configs, dense, 3 - dense)
    other = pack(theirs, t.configs, n, out)
    best = greedy_packing(mine, t.configs, n)
    if best <= other:
        best = pack(mine, t.configs, n, out)
    return (best, other) if dense == BLACK else (other, best)


@njit
def _finish(s, t):
    """End the game: higher score, then fewer stones, else a draw."""
    b, w = _result(s, t)
    if b == w:
        b, w = s[STONES + 1], s[STONES]  # fewer stones wins: compare the other's count
    s[TO_MOVE] = -1
    if b == w:
        s[WINNER] = DRAW
    else:
        best = BLACK if b > w else WHITE
        s[WINNER] = 0 if s[COLOUR0] == best else 1


@hot
def _commit_turn(s, t):
    """Join this turn's stones to their groups (counting the groups) and
    pass the move on."""
    links, par, size, tlist, nxt = t.links, t.par, t.size, t.tlist, t.nxt
    for i in range(s[TCOUNT]):
        c = s[tlist + i]
        colour = s[BOARD + c]
        s[GROUPS + colour - 1] += 1
        for d in range(6):
            m = links[c, d]
            if s[BOARD + m] == colour:
                a, b = s[par + c], s[par + m]
                if a != b:
                    if s[size + a] < s[size + b]:
                        a, b = b, a
                    x = b  # the smaller group's stones take the larger's root
                    while True:
                        s[par + x] = a
                        x = s[nxt + x]
                        if x == b:
                            break
                    s[GROUPS + colour - 1] -= 1
                    s[size + a] += s[size + b]
                    s[nxt + a], s[nxt + b] = s[nxt + b], s[nxt + a]  # the two cycles become one
    s[PASSES] = 0 if s[TCOUNT] else s[PASSES] + 1
    s[TCOUNT] = 0
    s[TURN] += 1
    s[STEP] = 0
    s[TO_MOVE] = 1 - s[TO_MOVE]


@hot
def _place(s, t, c, colour, kind):
    """Put a stone of ``colour`` on c; a growth stone marks the start-of-turn
    groups it touches as grown.  Returns how many groups it grew."""
    links, par, when, grown, size, tlist, nxt = t.links, t.par, t.when, t.grown, t.size, t.tlist, t.nxt
    count = 0
    if kind == GROWTH:
        for d in range(6):
            m = links[c, d]
            if s[BOARD + m] == colour and s[when + m] != s[TURN]:
                r = s[par + m]
                if s[grown + r] != s[TURN]:
                    s[grown + r] = s[TURN]
                    count += 1
    s[BOARD + c] = colour
    s[par + c] = c
    s[when + c] = s[TURN]
    s[size + c] = 1
    s[nxt + c] = c
    s[tlist + s[TCOUNT]] = c
    s[TCOUNT] += 1
    s[STONES + colour - 1] += 1
    s[STEP] += 1
    return count


@hot
def legal(s, t, out):
    n = t.ncells
    if s[WINNER] >= 0:
        return 0
    if s[TURN] == 2:
        out[0], out[1] = n + 1, n + 2  # accept, decline
        return 2
    colour = mover_colour(s)
    k = 0
    for c in range(n):
        kind = classify(s, t, c, colour)
        if kind == GROWTH or kind == NEW_GROUP:  # on turn 1, every cell: the board is empty
            out[k] = c
            k += 1
    if s[TURN] > 2:
        out[k] = n  # end (at once: a pass)
        k += 1
    return k


@hot
def is_legal(s, t, a):
    """``a in legal(s)`` without listing the legal moves."""
    n = t.ncells
    if s[TURN] == 2:
        return a == n + 1 or a == n + 2
    if a >= n:
        return a == n and s[TURN] > 2
    kind = classify(s, t, a, mover_colour(s))
    return kind == GROWTH or kind == NEW_GROUP


@hot
def search_moves(s, t, out):
    """The moves MCTS expands: while a growth stone is possible, the growth
    stones and ``end`` only (a new-group stone ends the turn, so it waits
    until the groups have grown; -count says moves were left out), else the
    legal moves."""
    n = t.ncells
    if s[WINNER] >= 0 or s[TURN] <= 2:
        return legal(s, t, out)
    colour = mover_colour(s)
    k, new = 0, False
    for c in range(n):
        kind = classify(s, t, c, colour)
        if kind == GROWTH:
            out[k] = c
            k += 1
        new = new or kind == NEW_GROUP
    if k == 0:
        return legal(s, t, out)
    out[k] = n  # end
    return -(k + 1) if new else k + 1


@hot
def _step(s, t, a):
    """Play action a but for the scoring; True when it was the second pass
    in a row, so the game must be scored (allocates nothing)."""
    n = t.ncells
    s[PLY] += 1
    if s[TURN] == 2:  # accept: player 1 is White; decline: he is Black.  Black moves next.
        s[COLOUR0] = BLACK if a == n + 1 else WHITE
        s[TURN] += 1
        s[TO_MOVE] = 0 if s[COLOUR0] == BLACK else 1
        return False
    if a == n:  # end
        passed = s[STEP] == 0
        _commit_turn(s, t)
        return passed and s[PASSES] >= 2
    colour = mover_colour(s)
    kind = classify(s, t, a, colour)
    _place(s, t, a, colour, kind)
    if kind != GROWTH:  # a new group (or the opening stone) ends the turn
        _commit_turn(s, t)
    return False


@njit
def apply(s, t, a):
    if _step(s, t, a):
        _finish(s, t)


@njit
def playout(s, t):
    """Play to the end, in place, by the policy of :func:`recorded_playout`."""
    none = np.empty(0, dtype=np.int32)
    recorded_playout(s, t, none, none)


@inline
def _take(pool, where, k, c):
    """Remove c from the set ``pool[:k]`` (``where[c]`` its index there, -1
    when absent); returns the new k."""
    i = where[c]
    if i < 0:
        return k
    k -= 1
    last = pool[k]
    pool[i], where[last] = last, i
    where[c] = -1
    return k


@inline
def _add(pool, where, k, c):
    """Add c to the set ``pool[:k]`` unless there; returns the new k."""
    if where[c] >= 0:
        return k
    pool[k], where[c] = c, k
    return k + 1


@inline
def _below(k):
    """A random int in [0, k) (0 when k is 0); cheaper than np.random.randint."""
    return int(np.random.random() * k)


@inline
def _landed(s, links, c, colour, pool, where, k, front, fwhere, fk):
    """Book a stone of ``colour`` on c: it leaves the empty cells and both
    frontiers, and its empty neighbours join its colour's frontier."""
    k = _take(pool, where, k, c)
    for row in range(2):
        fk[row] = _take(front[row], fwhere[row], fk[row], c)
    row = colour - 1
    for d in range(6):
        m = links[c, d]
        if s[BOARD + m] == 0:
            fk[row] = _add(front[row], fwhere[row], fk[row], m)
    return k


@inline
def _policy_turn(s, t, pool, where, k, front, fwhere, fk, scratch, actions, movers, written):
    """One turn of the playout policy: every start-of-turn group of the
    mover grows by one stone (the first cell of its colour's frontier, taken
    from a random place in it, that is a growth stone), then a new group on
    a random empty cell where one may go (eight tries), else ``end``.
    Returns (empty cells left in ``pool``, written, whether the game must
    now be scored)."""
    n, links = t.ncells, t.links
    mover, colour = s[TO_MOVE], mover_colour(s)
    row = colour - 1
    count = fk[row]
    for i in range(count):
        scratch[i] = front[row, i]
    i = _below(count)
    ungrown = s[GROUPS + row]
    for _ in range(count if ungrown else 0):
        c = scratch[i]
        i = i + 1 if i + 1 < count else 0
        if classify(s, t, c, colour) == GROWTH:
            ungrown -= _place(s, t, c, colour, GROWTH)
            s[PLY] += 1
            written = note(actions, movers, written, c, mover)
            k = _landed(s, links, c, colour, pool, where, k, front, fwhere, fk)
            if ungrown == 0:
                break
    a = n  # 'end' (a pass if nothing was placed), unless a new group ends the turn
    for _ in range(8 if k else 0):
        c = pool[_below(k)]
        if fwhere[row, c] < 0:  # an empty cell off the mover's frontier: a new group may go there
            a = c
            k = _landed(s, links, c, colour, pool, where, k, front, fwhere, fk)
            break
    written = note(actions, movers, written, a, mover)
    return k, written, _step(s, t, a)


@hot
def _policy_turns(s, t, pool, where, k, front, fwhere, fk, scratch, actions, movers):
    """The playout's moves up to the game's scoring (allocates nothing):
    a random opening stone and choice, then :func:`_policy_turn` until both
    pass; returns the number of moves written."""
    n, links = t.ncells, t.links
    written, over = 0, False
    while not over:
        if s[TURN] <= 2:
            a = pool[_below(k)] if s[TURN] == 1 else n + 1 + _below(2)
            if s[TURN] == 1:
                k = _landed(s, links, a, WHITE, pool, where, k, front, fwhere, fk)
            written = note(actions, movers, written, a, s[TO_MOVE])
            over = _step(s, t, a)
        else:
            k, written, over = _policy_turn(s, t, pool, where, k, front, fwhere, fk, scratch, actions, movers,
                                            written)
    return written


@njit
def recorded_playout(s, t, actions, movers):
    """Play to the end by the policy (:func:`_policy_turns`), writing each
    action and its mover into ``actions`` and ``movers`` while they have
    room; returns the number written."""
    n, links = t.ncells, t.links
    if s[WINNER] >= 0:
        return 0
    pool = np.empty(n, dtype=np.int32)
    where = np.full(n + 1, -1, dtype=np.int32)
    front = np.empty((2, n), dtype=np.int32)  # per colour: empty cells next to its stones
    fwhere = np.full((2, n + 1), -1, dtype=np.int32)
    fk = np.zeros(2, dtype=np.int32)
    scratch = np.empty(n, dtype=np.int32)
    k = 0
    for c in range(n):
        if s[BOARD + c] == 0:
            k = _add(pool, where, k, c)
            for d in range(6):
                colour = s[BOARD + links[c, d]]
                if colour == BLACK or colour == WHITE:
                    fk[colour - 1] = _add(front[colour - 1], fwhere[colour - 1], fk[colour - 1], c)
    written = _policy_turns(s, t, pool, where, k, front, fwhere, fk, scratch, actions, movers)
    _finish(s, t)
    return written


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
                     is_legal=is_legal, planes=planes)


class Lhexus(Game):
    """Lhexus on the hexhex board of base N (default 10)."""

    name = "lhexus"
    BENCH_SETUPS = (("base 10 (271 cells)", {"size": 10}), ("base 8 (169 cells)", {"size": 8}))
    SLOW_TO_COMPILE = True
    PLAYERS = ("first", "second")
    OPTIONS = {"size": int_between(10, MIN_SIZE, MAX_SIZE, "N: cells a side (3N(N-1)+1 cells)")}
    COSTLY_SCORES = True  # a maximum packing of configurations
    PLANES = ("own", "opponent", "empty", "placed this turn", "growth legal now", "new group legal now",
              "colours unchosen")
    WORDS = ("end", "accept", "decline")
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
        return board_svg(self, state, (BLACK, WHITE), hints, **kw)
