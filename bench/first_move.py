"""How long a new user waits for the AI's first move: for each game, start
``hexarena play GAME --vs ai:5 --first second`` (the program moves first)
through a pipe and time until it prints its move.

    .venv/bin/python bench/first_move.py [GAME ...] [--hexarena .venv/bin/hexarena]

Run it right after the README's set-up (``./dev app`` or ``./dev test``
warms numba's cache) to see what a user sees; the time includes starting
Python and importing hexarena and numba.  Prints a Markdown row per game:
seconds to the first move, and whether the program said it was compiling.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from hexarena import GAMES


def first_move_seconds(hexarena: str, game: str, timeout: float = 300.0) -> tuple[float, bool, str]:
    """(seconds from start to the program's first move, whether it announced compiling, the move line)."""
    start = time.perf_counter()
    proc = subprocess.Popen([hexarena, "play", game, "--vs", "ai:5", "--first", "second"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    compiling, line = False, ""
    try:
        for line in proc.stdout:
            compiling = compiling or line.startswith("preparing the AI")
            if line.startswith("ai:5 plays"):
                return time.perf_counter() - start, compiling, line.strip()
            if time.perf_counter() - start > timeout:
                break
        raise RuntimeError(f"{game}: no move from the program (last line {line!r})")
    finally:
        proc.stdin.write("quit\n")
        proc.stdin.close()
        proc.wait(timeout=30)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("games", nargs="*", metavar="GAME")
    p.add_argument("--hexarena", default=os.path.join(os.path.dirname(sys.executable), "hexarena"))
    args = p.parse_args(argv)
    print("| game | first `--vs ai:5` move (s) | said it compiles | move |")
    print("|---|---|---|---|")
    for game in args.games or GAMES:
        seconds, compiling, line = first_move_seconds(args.hexarena, game)
        print(f"| {game} | {seconds:.2f} | {'yes' if compiling else 'no'} | {line} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
