"""The ``hexarena`` command line.  Bad input prints one line and exits 2."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from typing import NamedTuple, TextIO

from . import GAMES, IllegalMove, game_class, load
from .extras import MissingExtra, missing, require
from .games.base import State, quoted
from .info import game_info, replay_summary
from .records import read_file


class UsageError(Exception):
    """Bad input from the command line: one line, exit code 2."""


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise UsageError(f"option {quoted(pair)} is not key=value")
        options[key.strip()] = value.strip()
    return options


def _game(args: argparse.Namespace):
    try:
        return load(args.game, **parse_options(args.option))
    except ValueError as e:
        raise UsageError(str(e)) from None


def _name(game: str) -> str:
    """The registered name of ``game`` (or an alias)."""
    try:
        return game_class(game).name
    except ValueError as e:
        raise UsageError(str(e)) from None


def cmd_games(args: argparse.Namespace, out: TextIO) -> int:
    info = [game_info(name) for name in GAMES]
    if args.json:
        print(json.dumps(info, indent=1), file=out)
        return 0
    for g in info:
        print(f"{g['name']}: {g['doc']}", file=out)
        for k, o in g["options"].items():
            print(f"    {k} = {o['default']}    ({o['allowed']}){'  ' + o['doc'] if o['doc'] else ''}", file=out)
    return 0


def cmd_cells(args: argparse.Namespace, out: TextIO) -> int:
    topo = _game(args).topology
    cells = topo.cells_json()
    if args.json:
        print(json.dumps(cells), file=out)
    else:
        from .render.ascii import names_diagram

        print(names_diagram(topo), file=out)
        for c in cells:
            edge = "edge " if c["edge"] else ""
            print(f"{c['name']:>4}  xy={c['xy']}  {edge}-> {' '.join(c['neighbours'])}", file=out)
    return 0


def _recorded(path: str) -> State:
    """The game of the record file ``path`` (JSON or text); UsageError if unreadable."""
    try:
        return read_file(path)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _start(args: argparse.Namespace, record: str | None, moves: list[str]) -> tuple[State, list[str]]:
    """The starting state and the moves still to play: from the record file
    if given (then every positional is a move), else a new game of GAME."""
    if record is None:
        if args.game is None:
            raise UsageError("name a GAME (or give a record file)")
        return _game(args).new_state(), moves
    if args.option:
        raise UsageError("a record gives the game's options: no -o with a record file")
    return _recorded(record), ([args.game] if args.game else []) + moves


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    state, moves = _start(args, args.record, args.moves)
    for i, move in enumerate(moves):
        try:
            state.play(move)
        except IllegalMove as e:
            if args.json:
                print(json.dumps({"error": str(e), "index": i}), file=out)
                return 2
            raise UsageError(f"move {i + 1}: {e}") from None
    if args.json:
        print(json.dumps(replay_summary(state)), file=out)
    else:
        print(state, file=out)
        print(state.record_text(), file=out)
    return 0


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    from .play import PlayError, play_terminal

    state = None
    if args.load is not None:
        state = _recorded(args.load)
        if args.option:
            raise UsageError("a record gives the game's options: no -o with --load")
        if args.game is not None and _name(args.game) != state.game.name:
            raise UsageError(f"{args.load} is a record of {state.game.name}, not {args.game}")
    elif args.game is None:
        raise UsageError("name a GAME (or --load a record file)")
    game = state.game if state is not None else _game(args)
    try:
        return play_terminal(game, args.vs, human_first=args.first != "second", seed=args.seed,
                             hints=args.hints, out=out, inp=sys.stdin, state=state)
    except PlayError as e:
        raise UsageError(str(e)) from None
    except KeyboardInterrupt:
        print("\ninterrupted: the game is abandoned", file=out)
        return 130


def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    from .bench import run_bench

    for name in args.games:
        if name not in GAMES:
            raise UsageError(f"unknown game {quoted(name)}; games: {', '.join(GAMES)}")
    return run_bench(args.games or list(GAMES), seconds=args.seconds, openspiel=not args.no_openspiel, out=out,
                     ai=args.ai, as_json=args.json)


def cmd_warmup(args: argparse.Namespace, out: TextIO) -> int:
    from .warmup import default_games, warm

    names = [_name(g) for g in args.games] or default_games()
    return warm(names, out, workers=args.workers)


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    from .server.limits import limits_from
    from .server.mail import mail_from
    from .server.main import ServeError, serve

    try:
        return serve(args.host, args.port, args.db, args.workers, out, args.reports, limits_from(args),
                     mail_from(args))
    except (ServeError, ValueError) as e:
        raise UsageError(str(e)) from None


def cmd_analyze(args: argparse.Namespace, out: TextIO) -> int:
    from .analysis.lab import DEFAULT_AGENTS, analyze, default_out, parse_agents
    from pathlib import Path

    from .analysis.first_moves import split_moves
    from .analysis.ladder import parse_ladder
    from .analysis.progress import rich_progress

    try:
        if args.ladder and args.agents:
            raise ValueError("--ladder sets the agents (each rung's on both seats): leave out --agents")
        agents = parse_agents(args.agents or DEFAULT_AGENTS)
        ladder = parse_ladder(args.ladder) if args.ladder else []
        options = parse_options(args.option)
        name = _name(args.game)
        start = split_moves(game_class(name), args.start, "--from") if args.start is not None else []
        extra = [word for flag, value in (("from", args.start), ("first-moves", args.first_moves),
                                          ("ladder", args.ladder)) if value for word in (flag, value)]
        where = Path(args.out) if args.out else default_out(name, options, args.compare, [a.text for a in agents],
                                                            args.seed, extra)
        with rich_progress(f"{name} -> {where}") as progress:
            report = analyze(name, options, args.compare, args.games, agents, args.seed, where, args.backend,
                             args.workers, args.address, command=analyze_command(args, str(where)),
                             progress=progress, start=start, first_moves=args.first_moves, ladder=ladder)
    except ValueError as e:
        raise UsageError(str(e)) from None
    for s in report.sets:
        first, draws = s.metrics.outcomes.seat_wins[0], s.metrics.outcomes.draws
        print(f"{s.label}: first player wins {100 * (first.rate or 0):.1f}% "
              f"[{100 * first.ci95[0]:.1f}, {100 * first.ci95[1]:.1f}], draws {100 * (draws.rate or 0):.1f}%, "
              f"{s.metrics.lengths.plies.mean} plies", file=out)
    print(report.verdict["summary"], file=out)
    for warning in (report.ladder or {}).get("warnings", []):
        print(warning, file=out)
    print(f"report: {where / 'report.html'} (numbers: {where / 'report.json'})", file=out)
    return 0


def analyze_command(args: argparse.Namespace, out_dir: str) -> str:
    """The command line that reproduces an analyze run (shown in its report)."""
    import shlex

    from .analysis.lab import DEFAULT_AGENTS

    words = ["hexarena", "analyze", args.game, *[w for o in args.option for w in ("-o", o)],
             *[w for c in args.compare for w in ("--compare", c)], "--games", str(args.games),
             *(["--ladder", args.ladder] if args.ladder else ["--agents", args.agents or DEFAULT_AGENTS]),
             *(["--from", args.start] if args.start is not None else []),
             *(["--first-moves", args.first_moves] if args.first_moves else []),
             "--seed", str(args.seed), "--out", out_dir]
    return shlex.join(words)


def game_count(text: str) -> int:
    """argparse type: a number of games, 1..10**7."""
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 10**7):
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number of games: an integer 1..10000000")
    return int(text)


def process_count(text: str) -> int:
    """argparse type: a number of worker processes, 1..1024."""
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 1024):
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number of workers: an integer 1..1024")
    return int(text)


def cmd_solve(args: argparse.Namespace, out: TextIO) -> int:
    from .search.solve import Solver, solve
    from .search.dfpn import solvable_games
    from .search.solve_store import proof_positions
    from .search.solutions import save

    game = _game(args)
    if not game.SOLVABLE:
        raise UsageError(f"cannot solve {quoted(game.name)}; solvable games: {', '.join(solvable_games())}")
    if not 10 <= args.table_bits <= 30:
        raise UsageError(f"--table-bits must be 10..30 (2**bits table slots), got {args.table_bits}")
    if args.after is not None:
        return _solve_after(game, args, out)
    needs_alphabeta = args.method == "alphabeta" or not args.no_distances  # the value pass, or distances (--store)
    solver = Solver(game, args.table_bits) if needs_alphabeta else None
    say = None if args.json or args.quiet else (lambda line: print("  " + line, file=sys.stderr, flush=True))
    solution = solve(game, seconds=args.seconds, nodes=args.nodes, distances=not args.no_distances,
                     table_bits=args.table_bits, progress=say, solver=solver, method=args.method)
    stored = None
    if args.store:
        if not solution.complete or args.no_distances or solver is None:
            raise UsageError("--store needs a complete solution with distances (no budget cut, no --no-distances)")
        keys, results, plies = proof_positions(solver, limit=args.store_limit, progress=say)
        save(args.store, game, keys, results, plies)
        stored = len(keys)
    if args.json:
        print(json.dumps(solution.as_dict() | ({"stored": stored} if stored is not None else {})), file=out)
        return 0
    print(_solution_text(solution, stored), file=out)
    return 0


def _solve_after(game, args: argparse.Namespace, out: TextIO) -> int:
    """``solve --after MOVES``: the position's value and each move's (stored proofs first, then a search)."""
    from .search.query import position_text, position_value

    moves = args.after.split(",") if "," in args.after else args.after.split()
    try:
        value = position_value(game, [m.strip() for m in moves], args.seconds, args.nodes, not args.no_distances,
                               args.table_bits)
    except IllegalMove as e:
        raise UsageError(str(e)) from None
    print(json.dumps(value.as_dict()) if args.json else position_text(value), file=out)
    return 0


def _solution_text(sol, stored: int | None) -> str:
    """The solution as a few lines: the start's value, each first move's, the effort."""
    opts = ", ".join(f"{k}={v}" for k, v in sorted(sol.options.items()))
    length = f" in {sol.plies} plies" if sol.plies else ""
    head = {"win": "the first player wins", "loss": "the second player wins", "draw": "a draw",
            "unknown": "unknown (budget ran out)"}[sol.result]
    lines = [f"{sol.game} ({opts}): {head}{length}",
             f"first moves ({len(sol.moves)} up to the board's {sol.symmetries} symmetries), value for the player "
             f"making them, plies to the end with perfect play:"]
    for m in sol.moves:
        plies = f" in {m.plies}" if m.plies else ""
        same = f"  (also {' '.join(m.same_as)})" if m.same_as else ""
        lines.append(f"  {m.move:8} {m.result}{plies}{same}")
    proven = sum(m.result != "unknown" for m in sol.moves)
    lines.append(f"proven {proven} of {len(sol.moves)} ({sol.method}); {sol.nodes:,} nodes in {sol.seconds:.1f} s; "
                 f"table {sol.table_entries:,} entries")
    if stored is not None:
        lines.append(f"stored {stored:,} positions")
    return "\n".join(lines)


MAX_SEED = 2**32 - 1


def positive_seconds(text: str) -> float:
    """argparse type: a positive finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (0 < value < math.inf):
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a positive finite number of seconds (e.g. 0.5)")
    return value


def seed_number(text: str) -> int:
    """argparse type: a seed, an integer 0..MAX_SEED."""
    if not (text.isascii() and text.isdigit() and len(text) <= 10 and int(text) <= MAX_SEED):
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a seed: an integer 0..{MAX_SEED}")
    return int(text)


def port_number(text: str) -> int:
    """argparse type: a TCP port, 1..65535."""
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 65535):
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a port: an integer 1..65535")
    return int(text)


def node_count(text: str) -> int:
    """argparse type: a positive number of nodes (1000000, 1e6 or 1_000_000)."""
    try:
        value = float(text.replace("_", ""))
    except ValueError:
        value = math.nan
    if not (1 <= value < 2**62) or value != int(value):
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number of nodes: a positive integer (e.g. 1e6)")
    return int(value)


def worker_count(text: str) -> int:
    """argparse type: a number of server processes, 1..64."""
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 64):
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number of workers: an integer 1..64")
    return int(text)


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit code 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _json_flag(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--json", action="store_true")


def _replay_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("moves", nargs="*", metavar="MOVE")
    sp.add_argument("--record", metavar="FILE", help="start from this JSON or text record (it names the game)")
    sp.add_argument("--json", action="store_true")


def _play_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--vs", default="human",
                    help="human or an agent: random, ai:LEVEL, mcts:VARIANT... (docs/ai.md; default human: hot-seat)")
    sp.add_argument("--first", choices=("first", "second"), default="first", help="your seat against a program")
    sp.add_argument("--seed", type=seed_number, default=None, help=f"an integer 0..{MAX_SEED}")
    sp.add_argument("--hints", action="store_true", help="list the legal moves at every prompt")
    sp.add_argument("--load", metavar="FILE", help="continue the game of this JSON or text record")


def _bench_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("games", nargs="*", metavar="GAME")
    sp.add_argument("--seconds", type=positive_seconds, default=2.0, help="time per measurement (a positive number)")
    sp.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel reference")
    sp.add_argument("--ai", action="store_true", help="MCTS simulations/s instead, beside OpenSpiel's C++ MCTS")
    sp.add_argument("--json", action="store_true", help="print one JSON object (reference figures, then each game's)")


def _warmup_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("games", nargs="*", metavar="GAME", help="default: every game")
    sp.add_argument("--workers", type=worker_count, default=None, help="processes, 1..64 (default: one per core)")


def _serve_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sp.add_argument("--port", type=port_number, default=8000, help="port (default 8000)")
    sp.add_argument("--db", default="sqlite:///data/hexarena.db",
                    help="SQLAlchemy URL (default sqlite:///data/hexarena.db; postgresql+psycopg://... for several "
                         "processes)")
    sp.add_argument("--workers", type=worker_count, default=1, help="server processes (PostgreSQL only)")
    sp.add_argument("--reports", default="data/reports", metavar="DIR",
                    help="analysis reports shown at /reports (default data/reports)")
    from .server.limits import add_limit_arguments
    from .server.mail import add_mail_arguments

    add_limit_arguments(sp)
    add_mail_arguments(sp)


def _analyze_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--games", type=game_count, default=100, help="games per option set (default 100)")
    sp.add_argument("--agents", default=None,
                    help="A,B (or one for both): random, mcts:LEVEL, mcts:VARIANT[:sims=N|:seconds=S][:key=value...]"
                         " (docs/ai.md; default mcts:6)")
    sp.add_argument("--first-moves", default=None, metavar="all|M1,M2",
                    help="force each game's first move: all (one per symmetry class) or these moves; games split "
                         "evenly over them, a heat map of the first player's score in the report")
    sp.add_argument("--from", dest="start", default=None, metavar="MOVES",
                    help="play every game from the position after MOVES (commas or spaces between moves)")
    sp.add_argument("--ladder", default=None, metavar="A1,A2,...",
                    help="play each option set at each of these agents (both seats, weakest first) and say which "
                         "figures move with strength (instead of --agents)")
    sp.add_argument("--seed", type=seed_number, default=1, help=f"an integer 0..{MAX_SEED} (default 1)")
    sp.add_argument("--compare", action="append", default=[], metavar="KEY=V1,V2",
                    help="option sets side by side (KEY=V1|V2 when values hold commas; repeat for a product)")
    sp.add_argument("--backend", choices=("local", "ray"), default="local", help="local processes or a Ray cluster")
    sp.add_argument("--workers", type=process_count, default=None, help="processes (default: the CPU count)")
    sp.add_argument("--address", default=None, help="Ray cluster address (ray backend; default a local instance)")
    sp.add_argument("--out", default=None, metavar="DIR",
                    help="run and report directory (default data/reports/NAME); a rerun resumes it")


def _solve_arguments(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--seconds", type=positive_seconds, help="stop after this long, reporting what was proven")
    sp.add_argument("--nodes", type=node_count, help="stop after this many nodes, reporting what was proven")
    sp.add_argument("--no-distances", action="store_true", help="only win/draw/loss, not the plies to the end")
    sp.add_argument("--method", choices=("alphabeta", "dfpn"), default="alphabeta",
                    help="win/draw/loss by alpha-beta or by proof-number search (df-pn); distances by alpha-beta")
    sp.add_argument("--table-bits", type=int, default=22, help="transposition table of 2**BITS slots (default 22)")
    sp.add_argument("--store", metavar="FILE", help="write the proven positions (.npz) for the AI")
    sp.add_argument("--store-limit", type=node_count, default=200_000, help="positions to store at most")
    sp.add_argument("--after", metavar="MOVES", help="value the position after MOVES (from the start; spaces "
                    "between moves, or commas when a move has a space) and each move from it: "
                    "stored proofs, else a search")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


class Command(NamedTuple):
    """A command: its name, help line, what runs it, its parser's arguments,
    whether it takes a GAME (True; "optional" where a record may replace it)
    and the extra it needs (hexarena.extras), if any."""

    name: str
    help: str
    run: Callable[[argparse.Namespace, TextIO], int]
    arguments: Callable[[argparse.ArgumentParser], None]
    game: bool | str = False
    extra: str | None = None


COMMANDS = (
    Command("games", "list games and their options", cmd_games, _json_flag),
    Command("cells", "cells, names and neighbours of a board", cmd_cells, _json_flag, game=True),
    Command("replay", "replay moves (of GAME, or after a record file's) and print the position", cmd_replay,
            _replay_arguments, game="optional"),
    Command("play", "play in the terminal", cmd_play, _play_arguments, game="optional"),
    Command("bench", "random playouts and plies per second, beside OpenSpiel's C++ figures", cmd_bench,
            _bench_arguments),
    Command("warmup", "compile the games' kernels and the AI's search into numba's cache (./dev does)", cmd_warmup,
            _warmup_arguments),
    Command("serve", "the web app: play in the browser (against the AI, hot-seat, online)", cmd_serve,
            _serve_arguments, extra="server"),
    Command("analyze", "balance metrics from self-play: an HTML and JSON report (docs/analysis.md)", cmd_analyze,
            _analyze_arguments, game=True, extra="lab"),
    Command("solve", "exact values of small boards and of every first move", cmd_solve, _solve_arguments, game=True),
)


def build_parsers() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The top-level parser (for help) and one parser per command.

    Commands parse with ``parse_intermixed_args`` so options may come
    between the game and its moves (``replay GAME -o k=v MOVE ...``).  A
    command whose extra is not installed gets no arguments (:func:`main`
    refuses it before parsing).
    """
    top = Parser(prog="hexarena", description="Hex-grid abstract strategy games.")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    parsers: dict[str, argparse.ArgumentParser] = {}
    for command in COMMANDS:
        sp = sub.add_parser(command.name, help=command.help, prog=f"hexarena {command.name}")
        if command.game:
            sp.add_argument("game", nargs="?" if command.game == "optional" else None,
                            help=f"one of: {', '.join(GAMES)}")
            sp.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="game option")
        if command.extra is None or not missing(command.extra):
            command.arguments(sp)
        sp.set_defaults(run=command.run)
        parsers[command.name] = sp
    return top, parsers


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    argv = list(sys.argv[1:] if argv is None else argv)
    top, parsers = build_parsers()
    if not argv or argv[0] in ("-h", "--help"):
        top.print_help(out)
        return 0 if argv else 2
    if argv[0] not in parsers:
        top.error(f"unknown command {quoted(argv[0])}; commands: {', '.join(parsers)}")
    try:
        _check_extra(argv[0])
        args = parsers[argv[0]].parse_intermixed_args(argv[1:])
        return args.run(args, out)
    except (UsageError, MissingExtra) as e:
        print(f"hexarena: error: {e}", file=sys.stderr)
        return 2


def _check_extra(name: str) -> None:
    """MissingExtra when the command ``name`` needs an extra that is not installed."""
    extra = next(c.extra for c in COMMANDS if c.name == name)
    if extra:
        require(extra, f"hexarena {name}")


def entry() -> None:
    try:
        sys.exit(main())
    except BrokenPipeError:  # output piped into a pager or head that closed early
        sys.stderr.close()
        sys.exit(0)
    except KeyboardInterrupt:  # Ctrl-C outside a game
        print("\nhexarena: interrupted", file=sys.stderr)
        sys.exit(130)
