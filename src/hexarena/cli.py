"""The ``hexarena`` command line.  Bad input prints one line and exits 2."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence, TextIO

from . import GAMES, IllegalMove, game_class, load
from .games.base import State


class UsageError(Exception):
    """Bad input from the command line: one line, exit code 2."""


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise UsageError(f"option {pair!r} is not key=value")
        options[key.strip()] = value.strip()
    return options


def _game(args: argparse.Namespace):
    try:
        return load(args.game, **parse_options(args.option))
    except ValueError as e:
        raise UsageError(str(e)) from None


def cmd_games(args: argparse.Namespace, out: TextIO) -> int:
    info = []
    for name in GAMES:
        cls = game_class(name)
        opts = {k: {"default": _plain(o.default), "allowed": o.allowed, "doc": o.doc} for k, o in cls.OPTIONS.items()}
        info.append({"name": name, "options": opts, "doc": (cls.__doc__ or "").strip().split("\n")[0]})
    if args.json:
        print(json.dumps(info, indent=1), file=out)
        return 0
    for g in info:
        print(f"{g['name']}: {g['doc']}", file=out)
        for k, o in g["options"].items():
            print(f"    {k} = {o['default']}    ({o['allowed']}){'  ' + o['doc'] if o['doc'] else ''}", file=out)
    return 0


def _plain(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


def cmd_cells(args: argparse.Namespace, out: TextIO) -> int:
    topo = _game(args).topology
    cells = topo.cells_json()
    if args.json:
        print(json.dumps(cells), file=out)
    else:
        from .render.ascii import names_diagram

        print(names_diagram(topo), file=out)
        for c in cells:
            print(f"{c['name']:>4}  xy={c['xy']}  {'edge ' if c['edge'] else ''}-> {' '.join(c['neighbours'])}", file=out)
    return 0


def replay_summary(state: State) -> dict[str, Any]:
    g = state.game
    return {
        "game": g.name,
        "options": {k: _plain(v) for k, v in g.options.items()},
        "moves": state.moves(),
        "to_move": state.to_move,
        "over": state.is_over(),
        "winner": state.winner(),
        "scores": state.scores(),
        "legal_moves": state.legal_moves(),
    }


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    game = _game(args)
    state = game.new_state()
    for i, move in enumerate(args.moves):
        try:
            state.play(move)
        except IllegalMove as e:
            if args.json:
                print(json.dumps({"error": str(e), "index": i}), file=out)
                return 2
            raise UsageError(f"move {i + 1} {move!r}: {e}") from None
    if args.json:
        print(json.dumps(replay_summary(state)), file=out)
    else:
        print(state, file=out)
        print(state.record_text(), file=out)
    return 0


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    from .play import play_terminal

    game = _game(args)
    return play_terminal(game, args.vs, human_first=args.first != "second", seed=args.seed,
                         hints=args.hints, out=out, inp=sys.stdin)


def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    from .bench import run_bench

    for name in args.games:
        if name not in GAMES:
            raise UsageError(f"unknown game {name!r}; games: {', '.join(GAMES)}")
    return run_bench(args.games or list(GAMES), seconds=args.seconds, openspiel=not args.no_openspiel, out=out,
                     ai=args.ai)


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit code 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parsers() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The top-level parser (for help) and one parser per command.

    Commands parse with ``parse_intermixed_args`` so options may come
    between the game and its moves (``replay GAME -o k=v MOVE ...``).
    """
    top = Parser(prog="hexarena", description="Hex-grid abstract strategy games.")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    parsers: dict[str, argparse.ArgumentParser] = {}

    def command(name: str, help_: str, run, game: bool = False) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_, prog=f"hexarena {name}")
        if game:
            sp.add_argument("game", help=f"one of: {', '.join(GAMES)}")
            sp.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="game option")
        sp.set_defaults(run=run)
        parsers[name] = sp
        return sp

    command("games", "list games and their options", cmd_games).add_argument("--json", action="store_true")
    command("cells", "cells, names and neighbours of a board", cmd_cells, game=True).add_argument(
        "--json", action="store_true")

    sp = command("replay", "replay moves and print the position", cmd_replay, game=True)
    sp.add_argument("moves", nargs="*", metavar="MOVE")
    sp.add_argument("--json", action="store_true")

    sp = command("play", "play in the terminal", cmd_play, game=True)
    sp.add_argument("--vs", default="human", help="human, random or ai:LEVEL (default human: hot-seat)")
    sp.add_argument("--first", choices=("first", "second"), default="first", help="your seat against a program")
    sp.add_argument("--seed", type=int, default=None)
    sp.add_argument("--hints", action="store_true", help="list the legal moves at every prompt")

    sp = command("bench", "random playouts per second, beside OpenSpiel's C++ figures", cmd_bench)
    sp.add_argument("games", nargs="*", metavar="GAME")
    sp.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    sp.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel reference")
    sp.add_argument("--ai", action="store_true", help="MCTS simulations/s instead, beside OpenSpiel's C++ MCTS")
    return top, parsers


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    argv = list(sys.argv[1:] if argv is None else argv)
    top, parsers = build_parsers()
    if not argv or argv[0] in ("-h", "--help"):
        top.print_help(out)
        return 0 if argv else 2
    if argv[0] not in parsers:
        top.error(f"unknown command {argv[0]!r}; commands: {', '.join(parsers)}")
    args = parsers[argv[0]].parse_intermixed_args(argv[1:])
    try:
        return args.run(args, out)
    except UsageError as e:
        print(f"hexarena: error: {e}", file=sys.stderr)
        return 2


def entry() -> None:
    try:
        sys.exit(main())
    except BrokenPipeError:  # output piped into a pager or head that closed early
        sys.stderr.close()
        sys.exit(0)
