"""Terminal play: hot-seat, or against a program (``--vs`` an agent spec of
:mod:`hexarena.ai.agents`: ``random``, ``ai:LEVEL``, ``mcts:VARIANT:sims=N``...).

The front end knows nothing of the command line: bad setup (an unknown
opponent) raises :class:`PlayError`, a ValueError.
"""

from __future__ import annotations

import json
import os
from typing import TextIO

from .ai import Agent, Searcher, hint, hint_note, parse_agent, preparing, take_back
from .games.base import Game, IllegalMove, NothingToUndo, State
from .info import rules_text
from .records import read_file

HELP = """commands: a move (e.g. {example}), 'moves' (legal moves), 'hint' (the AI's suggestion), 'undo',
'rules' (the game's rules and notation), 'record' (text record), 'save FILE' (JSON record),
'load FILE' (a JSON or text record), 'resign', 'help', 'quit'"""


class PlayError(ValueError):
    """A terminal game that cannot start: an unknown opponent."""


def opponent(spec: str, seed: int | None) -> tuple[Agent, Searcher | None] | None:
    """The program named by ``--vs`` (an agent spec: :meth:`~hexarena.ai.AgentSpec.make_player`), None for
    ``human``."""
    if spec == "human":
        return None
    try:
        return parse_agent(spec).make_player(seed)
    except ValueError as e:
        raise PlayError(f"--vs: {e}; or human (hot-seat)") from None


class Session:
    """One terminal game: the state, the program (if any) and the prompt's commands."""

    def __init__(self, state: State, program: tuple[Agent, Searcher | None] | None, vs: str, human_seat: int,
                 hints: bool, out: TextIO) -> None:
        self.bot: Agent | None = program[0] if program else None
        self.searcher: Searcher | None = program[1] if program else None  # the program again where it searches
        self.state, self.vs, self.human_seat = state, vs, human_seat
        self.hints, self.out = hints, out
        self.changed = True  # the board changed since it was last shown
        self._name_players()

    def _name_players(self) -> None:
        players = ["human", "human"]
        if self.bot is not None:
            players[1 - self.human_seat] = self.vs
        self.state.meta["players"] = players

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def who(self) -> str:
        """The player to move: 'you' or the program, 'player N' in hot-seat."""
        p = self.state.to_move
        if p is None:
            return "nobody"
        if self.bot is not None:
            return "you" if p == self.human_seat else self.vs
        return f"player {p + 1}"

    def programs_turn(self) -> bool:
        return self.bot is not None and not self.state.is_over() and self.state.to_move != self.human_seat

    # the loop ---------------------------------------------------------------
    def run(self, inp: TextIO) -> int:
        """Play until 'quit' or the end of input; the exit code."""
        self.say(self.help())
        while True:
            if self.programs_turn():
                self.program_moves()
                continue
            self.show()
            mover = self.state.to_move  # None once the game is over
            prompt = "game over" if mover is None else f"player {mover + 1}"
            print(f"{prompt}> ", end="", file=self.out, flush=True)
            line = inp.readline()
            if not line:
                self.say("\n(end of input)")
                return 0
            if not self.command(line.strip()):
                return 0

    def show(self) -> None:
        """The board, when it changed since last shown (and the end, once)."""
        if not self.changed:
            return
        self.changed = False
        self.say(str(self.state))
        written = self.state.written_moves()
        if written and not self.state.is_over():
            self.say(f"last move: {written[-1][1]}")
        if self.state.is_over():
            self.say("game over; the record: " + self.state.record_text())
            self.say("'save FILE', 'record', 'undo' or 'quit'")
        elif self.hints:
            self.say("legal: " + ", ".join(self.state.legal_moves()))

    def program_moves(self) -> None:
        """The program's move, announced before and after it thinks."""
        assert self.bot is not None  # the program's turn
        if self.searcher is not None:
            self.say(f"{self.vs} is thinking...")
            with preparing(self.state.game, self.say):
                move, rate = self.searcher.hint(self.state)
            note = f" ({hint_note(self.state, rate)})"
        else:
            move, note = self.bot.choose(self.state), ""
        self.state.play(move)
        self.changed = True
        self.say(f"{self.vs} plays {move}{note}")

    def help(self) -> str:
        moves = self.state.legal_moves()
        return HELP.format(example=moves[0] if moves else "f5")

    # commands ---------------------------------------------------------------
    def command(self, line: str) -> bool:
        """Handle one input line; False to end the session."""
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        simple = {"help": lambda: self.say(self.help()), "?": lambda: self.say(self.help()),
                  "moves": lambda: self.say(", ".join(self.state.legal_moves()) or "none: the game is over"),
                  "rules": lambda: self.say(rules_text(self.state.game.name)),
                  "record": lambda: self.say(self.state.record_text()),
                  "hint": self.hint, "undo": self.undo}
        if line in ("quit", "exit", "q"):
            return False
        if line == "resign":
            return self.resign()
        if line in simple:
            simple[line]()
        elif word in ("save", "load"):
            (self.save if word == "save" else self.load)(rest) if rest else self.say(f"usage: {word} FILE")
        elif line:
            self.move(line)
        return True

    def move(self, text: str) -> None:
        before, mover = len(self.state.history), self.who()
        try:
            self.state.play(text)
        except IllegalMove as e:
            self.say(f"illegal: {e}")
            return
        self.say(f"{mover} {'play' if mover == 'you' else 'plays'} {' '.join(self.state.moves()[before:])}")
        self.changed = True

    def hint(self) -> None:
        if self.state.is_over():
            self.say("no hint: the game is over")
            return
        with preparing(self.state.game, self.say):
            move, rate = hint(self.state, level=5, seed=0)
        self.say(f"hint: {move} ({hint_note(self.state, rate)})")

    def save(self, path: str) -> None:
        try:
            with open(os.path.expanduser(path), "w", encoding="utf-8") as f:
                json.dump(self.state.record(), f, indent=1)
        except OSError as e:
            self.say(f"cannot save to {path}: {e.strerror or e}")
            return
        self.say(f"saved {path}")

    def load(self, path: str) -> None:
        try:
            state = read_file(path)
        except ValueError as e:
            self.say(str(e))
            return
        self.state, self.changed = state, True
        self._name_players()
        self.say(f"loaded {path}: {state.game.name}, {len(state.history)} moves")

    def resign(self) -> bool:
        """The player to move (you, against a program) resigns; the game is over
        and stays open for 'save', 'record', 'undo' (taking it back) and 'quit'."""
        mover = self.state.to_move  # None once the game is over
        if mover is None:
            self.say("the game is already over")
            return True
        loser = self.human_seat if self.bot is not None else mover
        self.state.resign(loser)
        self.changed = True
        self.say(f"player {loser + 1} resigns: player {2 - loser} wins")
        return True

    def undo(self) -> None:
        """Take back the last move (or a resignation); against a program, back to your last turn."""
        resigned = self.state.resigned is not None
        seats = (0, 1) if self.bot is None else (self.human_seat,)
        try:
            take_back(self.state, seats, kept=f"{self.vs}'s opening move stays")
        except NothingToUndo as e:
            self.say(str(e))
            return
        self.changed = True
        if resigned:
            self.say("resignation taken back")
        else:
            self.say(f"undone; {self.who()} to move" if self.bot is None else "undone; your move")


def play_terminal(game: Game, vs: str, human_first: bool, seed: int | None, hints: bool,
                  out: TextIO, inp: TextIO, state: State | None = None) -> int:
    """Run a game at the terminal (from ``state``, e.g. a loaded record); the exit code.
    Raises PlayError for an unknown opponent."""
    session = Session(state or game.new_state(), opponent(vs, seed), vs, 0 if human_first else 1, hints, out)
    return session.run(inp)
