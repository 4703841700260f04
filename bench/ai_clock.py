"""Does the server's AI keep to a real-time clock?  Games of 1+0 (60 s each, no increment) on each game's default
board, the AI at ``--level`` against ``ai:1`` (colours alternated), both seats played by the server's Thinker on a
real Store (a temporary SQLite file), the clocks judged as the server judges them (``Store.expired`` and
``Store.flag`` at the nearest deadline).

    PYTHONPATH=src .venv/bin/python bench/ai_clock.py [--games 100] [--games-list lhexus,palago] [--level 10]
                                                      [--initial 60] [--increment 0] [--out FILE]

Each finished game is one JSON line appended to ``--out`` (default bench/results/ai_clock.jsonl); a rerun skips
the games already there (by game, index, level and clock).  Games are played round-robin over the games (game
index 0 of every game first), so every game gets some early.  At the end (and on an interrupt) it prints per game:
games played, losses on time of the AI and of ``ai:1``, the least time the AI had left at the end of any turn of
its, its largest overshoot (seconds a turn was charged beyond the policy's share) and its mean per turn, and the
mean game length.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from rich.progress import Progress

import hexarena
from hexarena.ai.mcts import MCTSAgent
from hexarena.server import clocks
from hexarena.server.store import Store
from hexarena.server.store.matches import Match
from hexarena.server.thinker import Thinker

OUT = Path(__file__).resolve().parent / "results" / "ai_clock.jsonl"
OPPONENT = "ai:1"
JUDGE_SECONDS = 5.0  # as the server's judge loop: at the nearest deadline, else at least this often


@dataclass
class Result:
    """One finished game."""

    game: str
    index: int
    level: int
    clock: str
    ai_seat: int
    winner: int | None
    timed_out: int | None  # the seat that lost on time, or None
    ai_least: float  # the least seconds the AI had left at the end of a turn of its
    ai_overshoot: float  # the most seconds a turn of the AI's was charged beyond its share (ai_seconds)
    ai_extra: float  # the seconds its turns were charged beyond their shares, in all (turns within theirs: 0)
    ai_turns: int
    turns: int
    plies: int
    seconds: float  # wall time of the game


class Watch:
    """Follows one match's changes: the AI's turns (share, charge) and the game's end."""

    def __init__(self, match: Match, ai_seat: int) -> None:
        self.ai_seat, self.control = ai_seat, match.control
        self.least = clocks.period(match.control or {"initial": 0})
        self.overshoot = self.extra = 0.0
        self.turns = 0
        self.done = threading.Event()
        self._lock = threading.Lock()  # the AI's thread and the judge may both report a change
        self._turn: tuple[float, float] | None = None  # the AI's running turn: seconds left at its start, start
        self.seen(match)

    def seen(self, match: Match) -> None:
        """Note ``match`` as just changed."""
        with self._lock:
            self._seen(match)

    def _seen(self, match: Match) -> None:
        timing, seat = match.timing, match.state.to_move
        started = None if timing.turn_started is None else clocks.seconds(timing.turn_started)
        if self._turn is not None and (started is None or started != self._turn[1]):
            self._ended(match, started)
        if seat == self.ai_seat and timing.remaining is not None and started is not None and self._turn is None:
            self._turn = timing.remaining[seat], started
        if match.state.is_over():
            self.done.set()

    def _ended(self, match: Match, next_start: float | None) -> None:
        """The AI's turn ended (at the next turn's start, else at the match's last change)."""
        assert self._turn is not None
        left, started = self._turn
        end = next_start if next_start is not None else clocks.seconds(match.updated)
        charged = end - started
        if match.state.timed_out == self.ai_seat:
            charged = left
        self.least = min(self.least, max(0.0, left - charged))
        beyond = charged - (clocks.ai_seconds(self.control, left) or 0.0)
        self.overshoot, self.extra = max(self.overshoot, beyond), self.extra + max(0.0, beyond)
        self.turns += 1
        self._turn = None


class Bench:
    """A Store and its Thinker playing matches, and the judge of their clocks."""

    def __init__(self, db: str) -> None:
        self.store = Store(f"sqlite:///{db}")
        self.thinker = Thinker(self.store, self.changed)
        self.watches: dict[str, Watch] = {}
        self.woken = threading.Event()

    def changed(self, match_id: str) -> None:
        """As the server's: note the change, wake the judge, let an AI to move think."""
        match, watch = self.store.matches.cached(match_id), self.watches.get(match_id)
        if match is not None and watch is not None:
            watch.seen(match)
        self.woken.set()
        self.thinker.kick(match_id)

    def play(self, game: str, index: int, level: int, control: dict[str, int]) -> Result:
        """Game ``index`` of ``game``: the AI at ``level`` moves first in even games."""
        state = hexarena.load(game).new_state()
        ai_seat = index % 2
        seats = [f"ai:{level}", OPPONENT] if ai_seat == 0 else [OPPONENT, f"ai:{level}"]
        with self.store.db.write() as conn:
            match = self.store.matches.insert(conn, state, seats, [None, None], "bench", [None, None], control)
        self.store.matches.remember(match)
        watch = self.watches[match.id] = Watch(match, ai_seat)
        begin = time.perf_counter()
        self.changed(match.id)
        while not watch.done.is_set():
            self.judge()
        final = self.store.matches.get(match.id)
        del self.watches[match.id]
        return Result(game, index, level, clock_name(control), ai_seat, final.state.winner(), final.state.timed_out,
                      round(watch.least, 3), round(watch.overshoot, 3), round(watch.extra, 3), watch.turns,
                      final.state.turn, final.ply,
                      round(time.perf_counter() - begin, 2))

    def judge(self) -> None:
        """Wait for a change or the nearest deadline (as the server's judge loop), then flag who ran out."""
        nearest = self.store.lookups.nearest_deadline()
        wait = JUDGE_SECONDS if nearest is None else \
            min(JUDGE_SECONDS, max(0.05, nearest - self.store.db.clock() + 0.01))
        self.woken.wait(wait)
        self.woken.clear()
        for match_id in self.store.lookups.expired():
            if self.store.writes.flag(match_id) is not None:
                self.changed(match_id)

    def close(self) -> None:
        self.thinker.shutdown()
        self.store.close()


def clock_name(control: dict[str, int]) -> str:
    return f"{control['initial']}+{control['increment']}"


def done_keys(out: Path) -> set[tuple[str, int, int, str]]:
    """The games already in ``out`` (by game, index, level and clock)."""
    if not out.exists():
        return set()
    rows = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    return {(r["game"], r["index"], r["level"], r["clock"]) for r in rows}


def schedule(games: list[str], count: int, level: int, clock: str, done: set) -> Iterator[tuple[str, int]]:
    """The games to play, round-robin over ``games``, skipping those ``done``."""
    for index in range(count):
        for game in games:
            if (game, index, level, clock) not in done:
                yield game, index


def summary(out: Path, level: int, clock: str) -> list[str]:
    """Per game in ``out`` at ``level`` and ``clock``: games, flags of each side, least time left, length."""
    rows = [r for r in map(json.loads, out.read_text().splitlines() if out.exists() else [])
            if r["level"] == level and r["clock"] == clock]
    lines = [f"{'game':16} {'games':>5} {'AI flags':>8} {'ai:1 flags':>10} {'AI least s':>10} "
             f"{'overshoot s':>11} {'extra s/turn':>12} {'turns':>6} {'plies':>6} {'game s':>7}"]
    for game in dict.fromkeys(r["game"] for r in rows):
        mine = [r for r in rows if r["game"] == game]
        ai_flags = sum(r["timed_out"] == r["ai_seat"] for r in mine)
        other_flags = sum(r["timed_out"] is not None and r["timed_out"] != r["ai_seat"] for r in mine)
        mean = {k: statistics.mean(r[k] for r in mine) for k in ("turns", "plies", "seconds")}
        lines.append(f"{game:16} {len(mine):5} {ai_flags:8} {other_flags:10} {min(r['ai_least'] for r in mine):10.2f} "
                     f"{max(r['ai_overshoot'] for r in mine):11.3f} {extra_per_turn(mine):12.3f} "
                     f"{mean['turns']:6.1f} {mean['plies']:6.1f} {mean['seconds']:7.1f}")
    return lines


def extra_per_turn(rows: list[dict]) -> float:
    """The seconds the AI's turns were charged beyond their shares, per turn (what the reserve pays)."""
    return sum(r["ai_extra"] for r in rows) / max(1, sum(r["ai_turns"] for r in rows))


def warm_up(games: list[str]) -> None:
    """Compile (or load) each game's search first, so no game's clock pays for it."""
    for game in games:
        MCTSAgent(level=1).choose(hexarena.load(game).new_state())


def game_list(parser: argparse.ArgumentParser, text: str) -> list[str]:
    """The game names of a comma-separated ``text`` (an unknown one: the parser's error)."""
    games = [g.strip() for g in text.split(",") if g.strip()]
    unknown = sorted(set(games) - set(hexarena.GAMES))
    if unknown:
        parser.error(f"unknown games {', '.join(unknown)}; games: {', '.join(hexarena.GAMES)}")
    return games


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=100, help="games per game name (default 100)")
    p.add_argument("--games-list", default=",".join(hexarena.GAMES), help="comma-separated game names")
    p.add_argument("--level", type=int, default=10, help="the AI's level against ai:1 (default 10)")
    p.add_argument("--initial", type=int, default=60)
    p.add_argument("--increment", type=int, default=0)
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    games = game_list(p, args.games_list)
    control = clocks.parse({"initial": args.initial, "increment": args.increment})
    assert control is not None
    clock = clock_name(control)
    todo = list(schedule(games, args.games, args.level, clock, done_keys(args.out)))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    warm_up(games)
    with tempfile.TemporaryDirectory() as tmp:
        bench = Bench(str(Path(tmp) / "ai_clock.db"))
        try:
            run(bench, todo, args.level, control, args.out)
        except KeyboardInterrupt:
            print("interrupted: the games finished are kept", flush=True)
        finally:
            bench.close()
    print("\n".join(summary(args.out, args.level, clock)), flush=True)
    return 0


def run(bench: Bench, todo: list[tuple[str, int]], level: int, control: dict[str, int], out: Path) -> None:
    """Play ``todo``, appending each result to ``out``, with a progress bar (a line per game where not a terminal)."""
    with Progress(disable=not sys.stdout.isatty()) as progress:
        task = progress.add_task(f"ai:{level} against {OPPONENT}, {clock_name(control)}", total=len(todo))
        for game, index in todo:
            result = bench.play(game, index, level, control)
            with out.open("a") as f:
                f.write(json.dumps(asdict(result)) + "\n")
            flag = "" if result.timed_out is None else ("  AI FLAGGED" if result.timed_out == result.ai_seat
                                                        else "  ai:1 flagged")
            progress.console.print(f"{game} #{index}: winner {result.winner}, AI least {result.ai_least:.2f} s, "
                                   f"overshoot {result.ai_overshoot:.3f} s, {result.turns} turns, "
                                   f"{result.seconds:.0f} s{flag}", highlight=False)
            progress.advance(task)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
