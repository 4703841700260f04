"""The tools check the contract (pyproject.toml's settings): ruff finds nothing
in the sources, tests and benchmarks, and mypy no error in the package and
in tests/data/user_script.py (a user's script, held to --strict's checks).

Both run from the repository's root with the venv's executables; mypy keeps
its cache in the root's ``.mypy_cache`` (ignored by git), so a warm run takes
seconds and a cold one about a minute."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def check(tool: str, *args: str) -> None:
    """Run ``tool`` (an executable of the venv) with ``args`` from the repository's
    root; fail with its report unless it found nothing."""
    done = subprocess.run([str(BIN / tool), *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"{tool} {' '.join(args)}:\n{done.stdout}{done.stderr}", pytrace=False)


def test_ruff_finds_nothing():
    check("ruff", "check", "--no-fix", "src", "tests", "bench")


def test_mypy_finds_nothing():
    check("mypy", "--cache-dir", str(ROOT / ".mypy_cache"))
