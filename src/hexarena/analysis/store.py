"""A run's directory: its settings (``run.json``) and one line per finished
game (``games.jsonl``), appended as games finish, so an interrupted run
resumes where it stopped.

>>> import tempfile
>>> d = tempfile.mkdtemp()
>>> store = RunStore(d, {"game": "g", "seed": 1})
>>> store.finished()
{}
>>> store.append({"set": 0, "index": 0, "winner": 1})
>>> RunStore(d, {"game": "g", "seed": 1}).finished()
{(0, 0): {'set': 0, 'index': 0, 'winner': 1}}
>>> RunStore(d, {"game": "g", "seed": 2})
Traceback (most recent call last):
...
ValueError: ... holds a run with other settings (seed 1, not 2): choose another --out or delete it
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .selfplay import GameResult

SETTINGS = "run.json"
GAMES = "games.jsonl"
DERIVED = ("labels",)  # settings written from the others (their spelling may change): not compared


class RunStore:
    """The directory ``path`` of a run with ``settings``; refuses one holding other settings."""

    def __init__(self, path: str | Path, settings: dict[str, Any]) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)
        self.settings = settings
        known = self.path / SETTINGS
        if known.exists():
            _check_same(self.path, json.loads(known.read_text()), settings)
        else:
            known.write_text(json.dumps(settings, indent=1) + "\n")
        self._games = self.path / GAMES
        self._results = self._read()

    def finished(self) -> dict[tuple[int, int], GameResult]:
        """The finished games by (option set, index)."""
        return dict(self._results)

    def append(self, result: GameResult) -> None:
        """Record a finished game (one line, flushed at once)."""
        with self._games.open("a") as f:
            f.write(json.dumps(result, separators=(",", ":")) + "\n")
        self._results[(result["set"], result["index"])] = result

    def _read(self) -> dict[tuple[int, int], GameResult]:
        """The file's complete lines; a line cut by an interruption is dropped (and the file rewritten)."""
        if not self._games.exists():
            return {}
        results, clean = {}, True
        for line in self._games.read_text().splitlines(keepends=True):
            try:
                if not line.endswith("\n"):
                    raise ValueError("cut short")
                r = json.loads(line)
                results[(r["set"], r["index"])] = r
            except (ValueError, KeyError, TypeError):
                clean = False
        if not clean:
            self._games.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in results.values()))
        return results


def _check_same(path: Path, old: dict[str, Any], new: dict[str, Any]) -> None:
    for key in sorted(set(old) | set(new)):
        if key not in DERIVED and old.get(key) != new.get(key):
            raise ValueError(f"{path} holds a run with other settings ({key} {_show(old.get(key))}, not "
                             f"{_show(new.get(key))}): choose another --out or delete it")


def _show(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value
