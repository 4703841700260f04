"""The whole packaging check, offline: build a wheel from this repository,
install it with ``--no-deps`` into a fresh venv that sees this venv's
packages, and use it from outside the repository as a researcher would.

    .venv/bin/python bench/wheel_check.py [--dir DIR]

Steps, each timed: build the wheel (``pip wheel --no-deps
--no-build-isolation --no-index``: setuptools from requirements.lock, no
download); a venv without pip whose site-packages adds this venv's by a
``.pth`` file (so numpy, numba, PettingZoo... come from here); ``pip
--python VENV install --no-deps --no-index`` of the wheel; then
tests/data/user_script.py (a game, records, an MCTS move, PettingZoo steps)
twice with the installed package's own, empty numba cache: the first run
compiles and must say so on stderr, the second loads the cache and must say
nothing; last, ``mypy --strict`` on the script against the installed package
(its ``py.typed``); and the examples of docs/research.md (doctest) run by
the installed package.  Exit code 0 when every step passed.
tests/house/test_packaging.py runs it as a slow test and builds the wheel with
:func:`build_wheel` in its fast ones.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "data" / "user_script.py"
RESEARCH = ROOT / "docs" / "research.md"
NOTICE = "hexarena: compiling"


def build_wheel(out: Path) -> Path:
    """A wheel of the repository's pyproject.toml, README.md and src/hexarena
    (copied first, without caches, so the build writes nothing in the tree)."""
    tree = out / "tree"
    tree.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tree / name)
    shutil.copytree(ROOT / "src" / "hexarena", tree / "src" / "hexarena",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index",
          "-w", str(out / "dist"), str(tree)])
    (wheel,) = (out / "dist").glob("hexarena-*.whl")
    return wheel


def fresh_venv(where: Path) -> Path:
    """A venv without pip whose site-packages also reads this venv's (a ``.pth``
    line, so this venv's own ``.pth`` files, such as hexarena's editable
    install, are not read); its python."""
    _run([sys.executable, "-m", "venv", "--without-pip", str(where)])
    python = where / "bin" / "python"
    purelib = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).strip()
    Path(purelib, "hexarena-check-base.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def install(python: Path, wheel: Path) -> None:
    """Install ``wheel`` into ``python``'s venv, from the file alone (this venv's editable hexarena ignored)."""
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index",
          "--ignore-installed", str(wheel)])


def _user_env() -> dict[str, str]:
    """This process's environment without what would point a user's run at the checkout."""
    hidden = ("PYTHONPATH", "NUMBA_CACHE_DIR", "HEXARENA_COMPILE_NOTICE")
    return {k: v for k, v in os.environ.items() if k not in hidden}


def run_script(python: Path, cwd: Path) -> tuple[dict, str]:
    """The user script's JSON result and its stderr, run by ``python`` in ``cwd`` (outside the repository)."""
    done = subprocess.run([str(python), str(cwd / SCRIPT.name)], cwd=cwd, env=_user_env(), capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise CheckFailed(f"the user script failed:\n{done.stderr}")
    return json.loads(done.stdout), done.stderr


def run_research_examples(python: Path, cwd: Path) -> str:
    """docs/research.md's examples run as doctests by ``python`` in ``cwd``: the summary line."""
    code = ("import doctest, sys; r = doctest.testfile(sys.argv[1], module_relative=False, "
            "optionflags=doctest.ELLIPSIS); print(f'{r.attempted} examples, {r.failed} failed'); "
            "sys.exit(1 if r.failed or not r.attempted else 0)")
    done = subprocess.run([str(python), "-c", code, str(RESEARCH)], cwd=cwd, env=_user_env(), capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise CheckFailed(f"docs/research.md's examples failed with the installed package:\n{done.stdout[-4000:]}")
    return done.stdout.strip()


def check(work: Path, say: Callable[[str], None]) -> None:
    """Every step in ``work``; CheckFailed naming the first that failed."""
    wheel = _timed(say, "build the wheel", lambda: build_wheel(work / "build"))
    python = _timed(say, "create the venv", lambda: fresh_venv(work / "venv"))
    _timed(say, "install the wheel --no-deps", lambda: install(python, wheel))
    shutil.copy(SCRIPT, work / SCRIPT.name)
    where = _run([str(python), "-c", "import hexarena; print(hexarena.__file__)"], cwd=work).strip()
    if not where.startswith(str(work / "venv")):
        raise CheckFailed(f"hexarena was imported from {where}, not from the venv's wheel")
    result, err = _timed(say, "first run (numba compiles)", lambda: run_script(python, work))
    if NOTICE not in err:
        raise CheckFailed(f"the first run compiled without saying so; its stderr:\n{err}")
    say("  it said: " + "\n  it said: ".join(line for line in err.splitlines() if line.startswith(NOTICE)))
    again, err = _timed(say, "second run (numba's cache)", lambda: run_script(python, work))
    if NOTICE in err or again != result:
        raise CheckFailed(f"the second run differs or said it compiles; its stderr:\n{err}")
    _timed(say, "mypy --strict on the script", lambda: _run(
        [str(python), "-m", "mypy", "--strict", "--cache-dir", str(work / "mypy"), SCRIPT.name], cwd=work))
    examples = _timed(say, "docs/research.md's examples", lambda: run_research_examples(python, work))
    say(f"  research examples: {examples}")
    say(f"  user script: {result['plies']} plies, ai move {result['ai_move']}, "
        f"PettingZoo rewards {result['pettingzoo_rewards']}")


class CheckFailed(Exception):
    """A step of the check failed."""


def _timed(say: Callable[[str], None], what: str, step: Callable[[], T]) -> T:
    start = time.perf_counter()
    value = step()
    say(f"{what:<32} {time.perf_counter() - start:7.1f} s")
    return value


def _run(argv: list[str], cwd: Path | None = None) -> str:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise CheckFailed(f"{' '.join(argv)} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return done.stdout


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--dir", help="work in DIR (kept) instead of a temporary directory")
    args = p.parse_args(argv)
    say = lambda line: print(line, flush=True)  # noqa: E731
    try:
        if args.dir:
            check(Path(args.dir), say)
        else:
            with tempfile.TemporaryDirectory(prefix="hexarena-wheel-") as tmp:
                check(Path(tmp), say)
    except CheckFailed as e:
        print(f"wheel check failed: {e}", file=sys.stderr)
        return 1
    print("wheel check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
