"""Terminal play: hot-seat, or against a program (``--vs random``, ``--vs ai:LEVEL``)."""

from __future__ import annotations

import json
from typing import TextIO

from .ai import agent, hint
from .games.base import Game, IllegalMove, State

HELP = """commands: a move (e.g. {example}), 'moves' (legal moves), 'hint' (the AI's
suggestion), 'undo', 'record' (text record), 'save FILE' (JSON record), 'help', 'quit'"""


def opponent(spec: str, seed: int | None):
    """The program named by ``--vs``: None for a human."""
    if spec == "human":
        return None
    kind, _, level = spec.partition(":")
    if kind == "ai":
        try:
            return agent("mcts", level=int(level) if level.isdigit() else (level or 5), seed=seed)
        except ValueError as e:
            raise ValueError(f"--vs {spec}: {e}") from None
    return agent(kind, seed=seed)


def _who(state: State) -> str:
    return f"player {state.to_move + 1}" if state.to_move is not None else "nobody"


def play_terminal(game: Game, vs: str, human_first: bool, seed: int | None, hints: bool,
                  out: TextIO, inp: TextIO) -> int:
    """Run a game at the terminal; returns the exit code."""
    from .cli import UsageError

    try:
        bot = opponent(vs, seed)
    except ValueError as e:
        raise UsageError(str(e)) from None
    human_seat = 0 if human_first else 1
    state = game.new_state()
    state.meta["players"] = ["human", "human"] if bot is None else \
        (["human", vs] if human_seat == 0 else [vs, "human"])
    print(HELP.format(example=state.legal_moves()[0]), file=out)
    while not state.is_over():
        if bot is not None and state.to_move != human_seat:
            if hasattr(bot, "hint"):
                move, rate = bot.hint(state)
                note = f" (estimated win rate {rate:.0%})"
            else:
                move, note = bot.choose(state), ""
            state.play(move)
            print(f"{vs} plays {move}{note}", file=out)
            continue
        print(state, file=out)
        if hints:
            print("legal: " + " ".join(state.legal_moves()), file=out)
        print(f"{_who(state)}> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            print("\n(end of input)", file=out)
            return 0
        if not _command(line.strip(), state, bot, human_seat, out):
            return 0
    print(state, file=out)
    print(state.record_text(), file=out)
    return 0


def _command(line: str, state: State, bot, human_seat: int, out: TextIO) -> bool:
    """Handle one input line; False to quit."""
    word, _, rest = line.partition(" ")
    if line in ("quit", "exit", "q"):
        return False
    if line in ("help", "?"):
        print(HELP.format(example=state.legal_moves()[0]), file=out)
    elif line == "moves":
        print(" ".join(state.legal_moves()), file=out)
    elif line == "hint":
        move, rate = hint(state, level=5, seed=0)
        print(f"hint: {move} (estimated win rate {rate:.0%})", file=out)
    elif line == "record":
        print(state.record_text(), file=out)
    elif word == "save" and rest:
        with open(rest, "w") as f:
            json.dump(state.record(), f, indent=1)
        print(f"saved {rest}", file=out)
    elif line == "undo":
        _undo(state, bot, human_seat, out)
    elif line:
        try:
            state.play(line)
        except IllegalMove as e:
            print(f"illegal: {e}", file=out)
    return True


def _undo(state: State, bot, human_seat: int, out: TextIO) -> None:
    """Take back the last move; against a program, back to the human's last turn."""
    if not state.history:
        print("nothing to undo", file=out)
        return
    state.undo()
    while bot is not None and state.history and state.to_move != human_seat:
        state.undo()
    print(f"undone; {_who(state)} to move", file=out)
