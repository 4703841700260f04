"""Push and Pull (Bill Taylor and João Pedro Neto): neutral stones that drag
two markers around; a marker that can no longer be moved loses for its owner.

A placement puts a neutral stone on an empty cell; each marker that sees it
along a hex line may then move along that line toward it (pull, written
negative) or away (push), over and onto empty cells.  The first turn is one
placement, later turns two; over a turn both markers must move.  Atomic
steps: the cell, then the mover's own marker's move (if it sees the stone and
can move), then the opponent's; ``play("o5 -2 2")`` takes a whole placement.
The rules' kernels are in :mod:`hexarena.games.push_and_pull_rules`, the
playouts and their policy in :mod:`hexarena.games.push_and_pull_playouts`,
the drawing in :mod:`hexarena.games.push_and_pull_draw`.

>>> import hexarena
>>> s = hexarena.load("push-and-pull").new_state()
>>> _ = s.play("o5 -2 2")
>>> s.moves()
['o5', '-2', '2']
>>> [s.game.topology.name(c) for c in s.game.markers(s.array)]
['k5', 'u11']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..board import hexhex, rays
from ..kernels import kernel_set, njit
from . import push_and_pull_draw
from .base import TO_MOVE, WINNER, Game, IllegalMove, State
from .options import int_between
from .push_and_pull_playouts import bit_tables, playout, policy, policy_playout, recorded_playout
from .push_and_pull_rules import (BOARD, BOTH_STUCK, EMPTY, ENDING, MARK, MOVED, NEUTRAL, NO_TURN, NOT_OVER, OTHER,
                                  OWN, PHASE, PLACE, PLACED, STONE, STUCK, Tables, apply, asked, can_move, check,
                                  identity, is_legal, legal, lines, marker_line, placements)
from .position import RESULTS, Head, PositionTextError, cell_named, flag_field
from .pushing import MAX_SIZE


@njit
def planes(s, t, player, out, cols):
    """The observation planes (``Game.planes``): the markers (own,
    opponent's), neutral stones, empty cells, the stone whose marker moves are
    being asked; then constant planes: each marker still owed a move this
    turn, whether the next placement is the turn's last, whether a marker
    move is being asked."""
    own_owed, other_owed = s[MOVED + player] == 0, s[MOVED + 1 - player] == 0
    last, asking = s[PLACED] == placements(s) - 1, s[PHASE] != PLACE
    for c in range(t.ncells):
        v, j = s[BOARD + c], cols[c]
        out[0, j], out[1, j], out[2, j], out[3, j] = v == 2 + player, v == 3 - player, v == NEUTRAL, v == EMPTY
        out[4, j], out[5, j], out[6, j], out[7, j], out[8, j] = c == s[STONE], own_owed, other_owed, last, asking


KERNELS = kernel_set(legal, apply, playout, recorded_playout=recorded_playout, policy=policy,
                     policy_playout=policy_playout, is_legal=is_legal, identity=identity, planes=planes)
PHASES = ("place", "own", "other")  # PHASE's values as phase= writes them (place: not written)
END_REASONS = ("none", "stuck", "both-stuck", "no-full-turn")  # ENDING's values as end= writes them
RESULT_TEXT = {v: k for k, v in RESULTS.items()}


# the markers' starting cells as offsets (doubled x, rows) from the centre: g5 and s9 on base 7
START_OFFSETS = ((-6, -2), (6, 2))
_MARKER = re.compile(r"[+-]?[1-9][0-9]{0,2}|0|--")  # a marker's move: signed distance, 0 or -- for none


class PushAndPull(Game):
    """Push and Pull on the hexhex board of base size (default 7), doubled-width names."""

    name = "push-and-pull"
    BENCH_SETUPS = (("base 7 (127 cells)", {"size": 7}),)
    SLOW_TO_COMPILE = True
    PLAYERS = ("first", "second")
    OPTIONS = {"size": int_between(7, 5, MAX_SIZE, "base of the hexhex board (markers start at g5, s9 on base 7)")}
    POSITION_FIELDS = ("placed", "moved", "phase", "stone", "end")
    MCTS = {"rave": False}  # AMAF misleads here: 80% against uct without it, 54% with it (docs/ai.md)
    kernels = KERNELS
    tables: Tables

    def setup(self) -> None:
        self.topology = hexhex(self.options["size"], naming="doubled")
        self.rays = rays(self.topology)
        n = self.topology.ncells
        self.reach = self.rays.shape[2]
        self.tables = Tables(self.rays, lines(self.rays), n, *bit_tables(self.rays))
        self.num_actions = n + 2 * self.reach + 1
        self.state_size = BOARD + n
        cx, cy = self.topology.xy[n // 2]
        starts = [self.topology.at(int(cx) + dx, int(cy) + dy) for dx, dy in START_OFFSETS]
        self.starts = tuple(c for c in starts if c is not None)  # all of them, on every size allowed

    def initial_array(self) -> np.ndarray:
        s = super().initial_array()
        s[STONE] = -1
        for p, c in enumerate(self.starts):
            s[MARK + p] = c
            s[BOARD + c] = 2 + p
        check(s, self.tables)
        return s

    # facts ------------------------------------------------------------------
    def markers(self, s: np.ndarray) -> tuple[int, int]:
        """Each player's marker cell."""
        return int(s[MARK]), int(s[MARK + 1])

    def stone(self, s: np.ndarray) -> int | None:
        """The stone whose marker moves are being asked, if any."""
        return None if s[STONE] < 0 else int(s[STONE])

    def owed(self, s: np.ndarray) -> list[int]:
        """The players whose markers have not moved yet this turn."""
        return [p for p in (0, 1) if not s[MOVED + p]]

    def last_placement(self, s: np.ndarray) -> bool:
        return int(s[PLACED]) == int(placements(s)) - 1

    def ending(self, s: np.ndarray) -> str:
        """Why the game ended ('' while it goes on)."""
        kind = int(s[ENDING])
        if kind == STUCK:
            return f"{self.PLAYERS[1 - int(s[WINNER])]}'s marker cannot be moved"
        if kind == BOTH_STUCK:
            return "neither marker can be moved"
        if kind == NO_TURN:
            return f"{self.PLAYERS[1 - int(s[WINNER])]} cannot move both markers with the last placement"
        return ""

    # position text ---------------------------------------------------------------
    def write_position(self, s: np.ndarray) -> tuple[str, dict[str, str]]:
        """The rows (``o`` a stone, ``A`` ``B`` the first and second player's markers) and the turn's state:
        ``placed=1`` (placements done this turn), ``moved=1|2|12`` (markers moved this turn), while a
        stone's marker moves are asked ``phase=own|other`` and ``stone=CELL``; ``end=`` why it ended."""
        rows = self.positions.board.write(s[BOARD:BOARD + self.topology.ncells], "oAB")
        fields = {"placed": str(int(s[PLACED]))} if s[PLACED] else {}
        if s[MOVED] or s[MOVED + 1]:
            fields["moved"] = "1" * int(s[MOVED]) + "2" * int(s[MOVED + 1])
        if s[PHASE] != PLACE:
            fields.update(phase=PHASES[int(s[PHASE])], stone=self.topology.name(int(s[STONE])))
        if s[ENDING]:
            fields["end"] = END_REASONS[int(s[ENDING])]
        return rows, fields

    def read_position(self, head: Head) -> np.ndarray:
        """The array of a position text; checked: one marker each, a turn's placements and steps, the stone
        being resolved on a stone and its asked marker able to move, and the end rules as the kernels apply
        them between placements: the game over exactly when they end it, for the reason given."""
        s = head.header(self.initial_array())
        board = self.positions.board.read(head.board, "oAB")  # NEUTRAL, then 2 + player
        s[BOARD: BOARD + self.topology.ncells] = board
        for p in (0, 1):
            cells = np.flatnonzero(board == 2 + p)
            if len(cells) != 1:
                raise PositionTextError(f"{len(cells)} markers {'AB'[p]} (player {p + 1}'s) on the board: there is one")
            s[MARK + p] = cells[0]
        moved = head.fields.get("moved", "")
        if moved not in ("", "1", "2", "12"):
            raise PositionTextError(f"moved={moved!r}: moved lists the players whose markers moved this turn: 1, 2 "
                                    f"or 12")
        s[MOVED], s[MOVED + 1] = "1" in moved, "2" in moved
        s[PLACED] = flag_field(head, "placed", ("0", "1"))
        s[PHASE] = flag_field(head, "phase", PHASES)
        s[ENDING] = flag_field(head, "end", END_REASONS)
        self._check_turn(head, s)
        return s

    def _check_turn(self, head: Head, s: np.ndarray) -> None:
        """The placement being resolved, the turn's counts, and the end rules (see :meth:`read_position`)."""
        if (s[PHASE] != PLACE) != ("stone" in head.fields):
            raise PositionTextError("stone=CELL names the stone whose markers' moves are asked: with phase=own or "
                                    "phase=other, not without")
        if s[PHASE] != PLACE:
            s[STONE] = cell_named(self.topology, head.fields["stone"], "stone")
            if s[BOARD + s[STONE]] != NEUTRAL or head.over() or not can_move(s, self.tables, asked(s)):
                raise PositionTextError(f"stone={head.fields['stone']}: a stone (o) whose asked marker can move, "
                                        f"in a game going on")
        if s[PLACED] >= placements(s) or head.step < s[PLACED] + (s[PHASE] != PLACE):
            raise PositionTextError(f"placed={int(s[PLACED])} and step {head.step} in turn {head.turn}, which "
                                    f"places {int(placements(s))}: a turn's steps are its placements and marker moves")
        if s[PHASE] == PLACE:
            ended = s.copy()
            ended[WINNER], ended[ENDING] = -1, NOT_OVER
            ended[TO_MOVE] = 1 - head.winner if s[ENDING] == NO_TURN else max(head.to_move, 0)
            check(ended, self.tables)
            if (ended[WINNER], ended[ENDING]) != (head.winner, s[ENDING]):
                why = END_REASONS[int(ended[ENDING])] if ended[ENDING] else "it goes on"
                raise PositionTextError(f"by the end rules this position's result is {why}"
                                        + (f" ({RESULT_TEXT[int(ended[WINNER])]})" if ended[ENDING] else ""))

    # notation -----------------------------------------------------------------
    def action_name(self, s: np.ndarray, action: int) -> str:
        n = self.topology.ncells
        return self.topology.name(action) if action < n else str(action - n - self.reach)

    def normalize(self, text: str) -> str:
        """A cell, then up to two marker moves; or one or two marker moves:
        words split by spaces, in any case.  A marker move is an integer
        (``-2``, ``2``, one optional ``+``: ``+2``), ``0`` or ``--``; it is
        written back without ``+`` and ``--`` as ``0``."""
        words = [w for w in text.lower().split(" ") if w]
        head = words[:1] if words and self.topology.find(words[0]) is not None else []
        moves = words[len(head):]
        if not words or len(moves) > 2 or not all(_MARKER.fullmatch(w) for w in moves):
            raise self.malformed(text, "a cell (o5), a marker's move (-2, +2, 0, --), or both (o5 -2 2)")
        return " ".join(head + ["0" if w == "--" else w.lstrip("+") for w in moves])

    def parse_steps(self, s: np.ndarray, text: str, legal_: Sequence[int]) -> list[int]:
        """A step (``o5``, ``-2``), or a placement with its marker moves
        (``o5 -2 2``; ``0`` or ``--`` where a marker does not move or does not
        see the stone), or the rest of one (``-2 2``) -- all or nothing."""
        key = self.normalize(text)
        words = key.split()
        scratch, actions = s.copy(), []
        slot = int(s[PHASE])
        if words[0][0].isalpha() != (slot == PLACE):
            raise IllegalMove(self.why_illegal(s, words[0]))
        if slot == PLACE:
            actions.append(self._step(scratch, words.pop(0), key))
            slot = OWN
        if len(words) > OTHER - slot + 1:
            raise IllegalMove(f"{key!r}: only the opponent's marker is still to move with this stone")
        for word in words:
            if scratch[WINNER] < 0 and scratch[PHASE] == slot:
                actions.append(self._step(scratch, word, key))
            elif word != "0":
                who = "own" if slot == OWN else "opponent's"
                raise IllegalMove(f"{key!r}: the {who} marker cannot move with this stone; write 0 or -- for it")
            slot += 1
        return actions

    def _step(self, scratch: np.ndarray, word: str, key: str) -> int:
        """The action of the step ``word`` (normalized) in ``scratch``, applied there."""
        names = {self.action_name(scratch, a): a for a in self._legal(scratch)}
        if word not in names:
            why = self.why_illegal(scratch, word)
            raise IllegalMove(why if word == key else f"{key!r}: {why}")
        self.kernels.apply(scratch, self.tables, names[word])
        return names[word]

    def write_moves(self, positions, actions) -> list[tuple[int, str]]:
        """A placement with its marker moves as one (``o5 -2 2``; ``--`` for a
        marker that does not see the stone or cannot move); an unfinished one
        as far as it goes (``o5``, ``o5 -2``)."""
        out: list[tuple[int, list[str]]] = []
        for i, (s, a) in enumerate(zip(positions, actions, strict=False)):
            if s[PHASE] == PLACE:
                out.append((i, [self.action_name(s, a)]))
                continue
            words = out[-1][1]
            words += ["--"] * (int(s[PHASE]) - len(words)) + [self.action_name(s, a)]
            out[-1] = (i, words)
        for i, words in out:
            after = positions[i + 1]
            done = after[WINNER] >= 0 or after[PHASE] == PLACE
            words += ["--"] * ((3 if done else int(after[PHASE])) - len(words))
        return [(i, " ".join(words)) for i, words in out]

    def move_target(self, s: np.ndarray, action: int) -> int:
        """A placement's cell, or where the asked marker's move takes it (its own cell for 0): every move has one."""
        n = self.topology.ncells
        if action < n:
            return action
        p = int(asked(s))
        d, _ = marker_line(s, self.tables, p)
        m, v = int(s[MARK + p]), action - n - self.reach
        return m if v == 0 else int(self.rays[m, d, -v - 1] if v < 0 else self.rays[m, (d + 3) % 6, v - 1])

    def _legal(self, s: np.ndarray) -> list[int]:
        out = np.empty(self.num_actions, dtype=np.int32)
        return [int(a) for a in out[:legal(s, self.tables, out)]]

    def why_illegal(self, s: np.ndarray, text: str) -> str:
        if s[PHASE] != PLACE:
            p = int(asked(s))
            options = ", ".join(self.action_name(s, a) for a in self._legal(s))
            return (f"{text!r}: now {self.PLAYERS[p]}'s marker (on {self.topology.name(int(s[MARK + p]))}) moves "
                    f"along its line to the stone on {self.topology.name(int(s[STONE]))}; choose one of: {options} "
                    f"(negative: toward the stone, 0: not moved)")
        cell = self.topology.find(text)
        if cell is None:
            return (f"{text!r}: no marker moves now; a placement is a cell ('o5'), optionally with the markers' "
                    f"moves ('o5 -2 2')")
        if s[BOARD + cell] > NEUTRAL:
            return f"{text!r} holds {self.PLAYERS[int(s[BOARD + cell]) - 2]}'s marker"
        if s[BOARD + cell]:
            return f"{text!r} is occupied"
        owed = " and ".join(f"{self.PLAYERS[p]}'s (on {self.topology.name(int(s[MARK + p]))})" for p in self.owed(s))
        return (f"{text!r}: this is the turn's last placement, so its stone must let every marker not yet "
                f"moved this turn move: {owed}")

    # observations ---------------------------------------------------------------
    PLANES = ("own marker", "opponent marker", "stones", "empty", "placed stone",
              "own marker owed", "opponent marker owed", "last placement", "marker move asked")

    # rendering --------------------------------------------------------------------
    def ascii(self, state: State) -> str:
        """Column letters and row numbers; ``o`` a stone, ``1`` / ``2`` the
        first / second player's marker."""
        return push_and_pull_draw.ascii_board(self, state)

    def rules_status(self, state) -> str:
        """Who is to place or move which marker, or who won and how."""
        s = state.array
        if state.is_over():
            w = state.winner()
            return f"{'a draw' if w is None else self.PLAYERS[w] + ' wins'}: {self.ending(s)}"
        who = self.PLAYERS[state.to_move]
        if s[PHASE] != PLACE:
            p = int(asked(s))
            whose = "own" if p == state.to_move else f"{self.PLAYERS[p]}'s"
            return f"{who} moves the {whose} marker (toward the stone on {self.topology.name(int(s[STONE]))}: negative)"
        owed = ", ".join(f"{self.PLAYERS[p]}'s" for p in self.owed(s)) or "none"
        return f"{who} to place ({int(s[PLACED]) + 1} of {int(placements(s))}); markers still to move: {owed}"

    def rules_end_reason(self, s: np.ndarray) -> str:
        """A marker ``stuck``, ``both-stuck`` (a draw), or ``no-full-turn``
        (the last placement cannot move both markers)."""
        return {STUCK: "stuck", BOTH_STUCK: "both-stuck", NO_TURN: "no-full-turn"}[int(s[ENDING])]

    def svg(self, state: State, hints: bool = False, **kw: Any) -> str:
        """The board; ``hints=True`` dots the legal placements or, while a
        marker's move is asked, draws an arrow to each cell it may move to."""
        return push_and_pull_draw.svg_board(self, state, hints, **kw)
