"""The fuzz suite (tests/games/test_fuzz.py) for longer: rounds of 500 examples per
property and game, each round with fresh random seeds, until the time is up.

    .venv/bin/python bench/fuzz.py [--minutes 10] [-- PYTEST ARGS...]

Exits with the first failing round's code (hypothesis prints the failing
example and its seed).
"""

import argparse
import os
import subprocess
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="how long to run (default 10)")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args()
    end = time.monotonic() + 60 * args.minutes
    env = {**os.environ, "HYPOTHESIS_PROFILE": "thorough"}
    command = [sys.executable, "-m", "pytest", "tests/games/test_fuzz.py", "-n", "2", "-p", "no:cacheprovider",
               "--hypothesis-seed", "", *args.pytest_args]
    rounds = 0
    while time.monotonic() < end:
        command[command.index("--hypothesis-seed") + 1] = str(int.from_bytes(os.urandom(4), "big"))
        code = subprocess.call(command, env=env)
        rounds += 1
        if code:
            return code
    print(f"fuzz: {rounds} rounds passed in {args.minutes:g} minutes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
