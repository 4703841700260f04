"""Which code made a game or a report: the hexarena version, and the git
commit of the checkout it runs from, with whether that checkout's package
had changes not committed (``dirty``).  Installed from a package, outside
any checkout, the commit and ``dirty`` are None.

>>> sorted(provenance())
['commit', 'dirty', 'version']
>>> provenance_text({"version": "0.1.0", "commit": "0123456789abcdef", "dirty": True})
'hexarena 0.1.0, commit 0123456789ab with uncommitted changes'
>>> provenance_text(None)
'not recorded'
"""

from __future__ import annotations

import subprocess
from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import hexarena

if TYPE_CHECKING:
    from .selfplay import GameResult

PACKAGE = Path(hexarena.__file__).resolve().parent
SHORT = 12  # hex digits of a commit shown


def _git(*args: str) -> str | None:
    """``git args`` run in the package's directory: its output, or None (no git, not a checkout)."""
    try:
        done = subprocess.run(["git", "-C", str(PACKAGE), *args], capture_output=True, text=True, timeout=20,
                              check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@cache
def provenance() -> dict[str, Any]:
    """``{"version", "commit", "dirty"}`` of the running hexarena (asked of git once a process)."""
    top = _git("rev-parse", "--show-toplevel")
    in_checkout = top is not None and Path(top).resolve() / "src" / "hexarena" == PACKAGE
    commit = _git("rev-parse", "HEAD") if in_checkout else None
    changes = _git("status", "--porcelain", "--", ".") if commit else None
    return {"version": hexarena.__version__, "commit": commit, "dirty": None if changes is None else bool(changes)}


def provenance_text(p: dict[str, Any] | None) -> str:
    """One line: the version, the commit (its first digits) and whether it was dirty."""
    if not p:
        return "not recorded"
    if not p.get("commit"):
        return f"hexarena {p['version']} (not from a git checkout)"
    dirty = " with uncommitted changes" if p.get("dirty") else ""
    return f"hexarena {p['version']}, commit {p['commit'][:SHORT]}{dirty}"


def games_provenance(results: Sequence[GameResult]) -> list[dict[str, Any]]:
    """The code that played ``results``: each distinct provenance with its number of games, most games
    first (``None`` for games recorded before rows kept it)."""
    counts = Counter(_key(r.get("provenance")) for r in results)
    return [{"provenance": None if key is None else dict(key), "games": n}
            for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))]


def _key(p: dict[str, Any] | None) -> tuple | None:
    return None if p is None else tuple(sorted(p.items()))
