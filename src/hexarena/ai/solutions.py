"""Solved positions shipped with the package, and perfect play from them.

``hexarena solve GAME --store FILE`` (see docs/solving.md) writes what it
proved: for each position (a key from :mod:`hexarena.ai.positions`, the
same for every symmetric image) the result for the player to move (1 win,
0 draw, -1 loss) and the plies to the end with perfect play (the winner
fastest, the loser slowest; 0 for a draw, whose length is not searched).
The positions are the start, every first move, and from there a proof:
one best move where the player to move wins, every move where it does not.

:func:`perfect_move` reads them: in a stored position it returns the move
that wins fastest (or draws, or loses slowest) and what it leads to;
:func:`proof_text` words it ("proven win in 9").  Files live in
``hexarena/ai/solutions/`` as ``NAME-OPT=VALUE-....npz``.

>>> import hexarena
>>> s = hexarena.load("projective-hex", size=2, opening="none").new_state()
>>> proof_text(s)
'proven win in 9'
>>> perfect_move(s).plies
9
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..games.base import Game, State
from .positions import ZOBRIST_SEED, PositionKeys

STORE_DIR = Path(__file__).with_name("solutions")
RESULT_WORDS = {1: "win", 0: "draw", -1: "loss"}


class Proven(NamedTuple):
    """A stored position's value for the player to move, and the move that keeps it."""

    action: int
    move: str
    result: int  # 1 win, 0 draw, -1 loss
    plies: int  # to the end with perfect play, counting this move (0 for a draw)


def store_name(game: Game) -> str:
    """The file name of ``game``'s solutions (its name and options)."""
    opts = "-".join(f"{k}={v}" for k, v in sorted(game.options.items()))
    return f"{game.name}-{opts}.npz"


def save(path: Path | str, game: Game, keys: np.ndarray, results: np.ndarray, plies: np.ndarray) -> None:
    """Write solved positions (sorted by key) for :func:`load_store`."""
    order = np.argsort(keys)
    np.savez_compressed(path, keys=keys[order].astype(np.uint64), results=results[order].astype(np.int8),
                        plies=plies[order].astype(np.int16), zobrist_seed=np.int64(ZOBRIST_SEED),
                        game=np.str_(store_name(game)))


class Store:
    """One game's solved positions: ``lookup(key) -> (result, plies)``."""

    def __init__(self, keys: np.ndarray, results: np.ndarray, plies: np.ndarray) -> None:
        self.keys, self.results, self.plies = keys, results, plies

    def __len__(self) -> int:
        return len(self.keys)

    def lookup(self, key: int) -> tuple[int, int] | None:
        i = int(np.searchsorted(self.keys, np.uint64(key)))
        if i < len(self.keys) and int(self.keys[i]) == key:
            return int(self.results[i]), int(self.plies[i])
        return None


def load_store(path: Path | str) -> Store:
    """A store file; ValueError if it was keyed with other Zobrist numbers."""
    with np.load(path) as data:
        if int(data["zobrist_seed"]) != ZOBRIST_SEED:
            raise ValueError(f"{path}: keyed with Zobrist seed {int(data['zobrist_seed'])}, "
                             f"this version uses {ZOBRIST_SEED}; solve again")
        return Store(data["keys"], data["results"], data["plies"])


@cache
def _shipped(file_name: str) -> Store | None:
    path = STORE_DIR / file_name
    return load_store(path) if path.exists() else None


@cache
def _keys(game_key: tuple) -> PositionKeys:
    import hexarena
    return PositionKeys(hexarena.load(game_key[0], **dict(game_key[1])))


def _lookup(state: State) -> tuple[Store, PositionKeys] | None:
    store = _shipped(store_name(state.game))
    if store is None:
        return None
    return store, _keys((state.game.name, tuple(sorted(state.game.options.items()))))


def stored_value(state: State) -> tuple[int, int] | None:
    """(result for the player to move, plies to the end) if ``state`` is a shipped solved position."""
    found = _lookup(state)
    if found is None or state.is_over():
        return None
    store, keys = found
    return store.lookup(keys.key(state.array))


def perfect_move(state: State) -> Proven | None:
    """In a shipped solved position, the best move: the fastest win, else a
    draw, else the slowest loss; None where nothing is stored."""
    found = _lookup(state)
    if found is None or state.is_over():
        return None
    store, keys = found
    own = store.lookup(keys.key(state.array))
    if own is None:
        return None
    mover, best = state.to_move, None
    for a in state.legal_actions():
        child = state.copy()
        child.apply(a)
        if child.is_over():
            w = child.winner()
            result, plies = (0 if w is None else 1 if w == mover else -1), 1
        else:
            value = store.lookup(keys.key(child.array))
            if value is None:
                continue
            r, d = value
            result, plies = (r if child.to_move == mover else -r), d + 1
        rank = (result, -plies if result > 0 else plies if result < 0 else 0)
        if best is None or rank > best[0]:
            best = rank, Proven(a, state.move_name(a), result, plies if result else 0)
    if best is None or best[1].result != own[0]:
        return None  # the store lacks the move that keeps the value: let the search choose
    return best[1]


def proof_text(state: State) -> str | None:
    """'proven win in k' / 'proven draw' / 'proven loss in k' (k plies to the end,
    both sides', with perfect play) for a shipped solved position, else None."""
    value = stored_value(state)
    if value is None:
        return None
    result, plies = value
    return "proven draw" if result == 0 else f"proven {RESULT_WORDS[result]} in {plies}"


def reward(result: int) -> float:
    """A proven result as a win rate for the player to move."""
    return {1: 1.0, 0: 0.5, -1: 0.0}[result]


__all__ = ["Proven", "Store", "load_store", "perfect_move", "proof_text", "save", "store_name",
           "stored_value", "reward"]
