"""The proven positions of a long solve: canonical key, value, length, moves.

Each entry is one position up to the board's symmetries: its key (from
:mod:`hexarena.search.positions`), the result for the player to move (1 win,
-1 loss, 0 draw), the plies to the end with perfect play where they were
cheap to find (-1 where not), and the actions from the start to one member of
its class, so that anyone can set it up again and check it.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np

from .files import load_npz, save_npz

UNKNOWN_PLIES = -1


class Entry(NamedTuple):
    result: int  # for the player to move
    plies: int  # to the end with perfect play, UNKNOWN_PLIES if not searched
    moves: tuple[int, ...]  # actions from the start to one position of the class


class Proven:
    """Proven positions by key; :meth:`save` and :meth:`load` a compressed file."""

    def __init__(self) -> None:
        self.entries: dict[int, Entry] = {}

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, key: int) -> bool:
        return key in self.entries

    def get(self, key: int) -> Entry | None:
        return self.entries.get(key)

    def add(self, key: int, result: int, moves: tuple[int, ...], plies: int = UNKNOWN_PLIES) -> None:
        """Record a proven position (a known one keeps its value; a length found later is added)."""
        old = self.entries.get(key)
        if old is not None and old.result != result:
            raise ValueError(f"position {key:#x} ({moves}) proven both {old.result} and {result}")
        if old is None or (old.plies == UNKNOWN_PLIES and plies != UNKNOWN_PLIES):
            self.entries[key] = Entry(result, plies, tuple(int(a) for a in moves))

    def save(self, path: Path, game_name: str) -> None:
        keys = sorted(self.entries)
        width = max((len(self.entries[k].moves) for k in keys), default=0)
        moves = np.full((len(keys), width), -1, dtype=np.int16)
        for i, k in enumerate(keys):
            m = self.entries[k].moves
            moves[i, :len(m)] = m
        save_npz(path, keys=np.array(keys, dtype=np.uint64),
                 results=np.array([self.entries[k].result for k in keys], dtype=np.int8),
                 plies=np.array([self.entries[k].plies for k in keys], dtype=np.int16), moves=moves,
                 game=np.str_(game_name))

    @classmethod
    def load(cls, path: Path, game_name: str) -> Proven:
        data = load_npz(path)
        if str(data["game"]) != game_name:
            raise ValueError(f"{path} holds {data['game']}, not {game_name}")
        out = cls()
        for k, r, p, m in zip(data["keys"], data["results"], data["plies"], data["moves"], strict=True):
            out.entries[int(k)] = Entry(int(r), int(p), tuple(int(a) for a in m if a >= 0))
        return out
