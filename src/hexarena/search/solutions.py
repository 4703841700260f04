"""Solved positions shipped with the package, and perfect play from them.

``hexarena solve GAME --store FILE`` (see docs/solving.md) writes what it
proved: for each position (a key from :mod:`hexarena.search.positions`, the
same for every symmetric image) the result for the player to move (1 win,
0 draw, -1 loss) and the plies to the end with perfect play (the winner
fastest, the loser slowest; 0 for a draw, whose length is not searched).
The positions are the start, every first move, and from there a proof:
one best move where the player to move wins, every move where it does not.

:func:`perfect_move` reads them: in a stored position it returns the move
that wins fastest (or draws, or loses slowest) and what it leads to;
:func:`proof_text` words it ("proven win in 9").  Files live in
``hexarena/search/solutions/`` as ``NAME-OPT=VALUE-....npz``.

>>> import hexarena
>>> s = hexarena.load("projective-hex", size=2, opening="none").new_state()
>>> proof_text(s)
'proven win in 9'
>>> perfect_move(s).plies
9

A long run's proof (:mod:`hexarena.search.ship`: Projective Hex size 3)
stores the proven positions down to a few stones, with plies -1 (the
length not known): there the words are "proven win" / "proven loss".  In a
won position below them (the position before it lost for the opponent, as
after a reply to a stored move), :func:`perfect_move` proves a winning move
with a df-pn of at most ``SEARCH_NODES`` nodes and remembers what it proved;
in a loss of unknown length it returns None, so the agent searches on.

>>> s = hexarena.load("projective-hex", size=3, opening="none").new_state()
>>> proof_text(s), perfect_move(s).result
('proven win', 1)
>>> _ = s.play(perfect_move(s).move)
>>> proof_text(s), perfect_move(s)
('proven loss', None)
"""

from __future__ import annotations

import threading
from functools import cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..games.base import Game, State
from .dfpn import SALT, DfpnSolver, find
from .positions import ZOBRIST_SEED, PositionKeys

STORE_DIR = Path(__file__).with_name("solutions")
RESULT_WORDS = {1: "win", 0: "draw", -1: "loss"}
UNKNOWN_PLIES = -1  # a stored length not searched (the long runs' proofs, hexarena.search.ship)


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
    """(result for the player to move, plies to the end or -1 where not known) if
    ``state`` is a shipped solved position or one this process proved on the way."""
    found = _lookup(state)
    if found is None or state.is_over():
        return None
    store, keys = found
    key = keys.key(state.array)
    return store.lookup(key) or _proved(store_name(state.game)).get(key)


def perfect_move(state: State) -> Proven | None:
    """In a shipped solved position, the best move: the fastest win, else a
    draw, else the slowest loss; in a won position below the shipped ones
    (its parent lost for the opponent), a move that a bounded df-pn proves
    keeps the win.  None where nothing is known, and in a loss whose length is
    unknown (the search resists better than an arbitrary move)."""
    found = _lookup(state)
    if found is None or state.is_over():
        return None
    store, keys = found
    own = stored_value(state)
    if own is None:
        return _searched_move(state, keys) if _parent_lost(state) else None
    best = _best_stored(state, store, keys)
    if best is not None and best.result == own[0]:
        return None if best.result < 0 and best.plies < 0 else best
    return _searched_move(state, keys) if own[0] == 1 else None


def _best_stored(state: State, store: Store, keys: PositionKeys) -> Proven | None:
    """The best move to a stored child (or one that ends the game): fastest win,
    then draw, then slowest loss; unknown lengths rank below known ones."""
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
            result, plies = (r if child.to_move == mover else -r), (d + 1 if d >= 0 else UNKNOWN_PLIES)
        known = plies >= 0
        rank = (result, known, -plies if result > 0 else plies if result < 0 else 0)
        if best is None or rank > best[0]:
            best = rank, Proven(a, state.move_name(a), result, plies if result else 0)
    return None if best is None else best[1]


def _parent_lost(state: State) -> bool:
    """Whether the position before the last move is known lost for the one who made it."""
    if not state.history or state.is_over() or _lookup(state) is None:
        return False
    parent = state.copy()
    parent.undo()
    value = stored_value(parent)
    return value is not None and value[0] == -1 and parent.to_move != state.to_move


def proof_text(state: State) -> str | None:
    """'proven win in k' / 'proven draw' / 'proven loss in k' (k plies to the end,
    both sides', with perfect play) for a shipped solved position, 'proven win'
    / 'proven loss' where the length is not known, else None."""
    value = stored_value(state) or ((1, UNKNOWN_PLIES) if _parent_lost(state) else None)
    if value is None:
        return None
    result, plies = value
    if result == 0:
        return "proven draw"
    return f"proven {RESULT_WORDS[result]}" + (f" in {plies}" if plies >= 0 else "")


SEARCH_NODES = 60_000  # df-pn nodes for a proven move below the shipped positions (docs/ai.md: about 1 s)
SEARCH_TABLE_BITS = 18  # its table: 6 MB, kept between moves so the last proof helps the next
MAX_PROVED = 1 << 16  # positions proven on the way, remembered per game (then forgotten at once)
_search_lock = threading.Lock()


@cache
def _proved(file_name: str) -> dict[int, tuple[int, int]]:
    return {}


@cache
def _searcher(game_key: tuple) -> DfpnSolver | None:
    """The VC df-pn of the game (None where it has none), its table kept between moves."""
    import hexarena

    from .vc import VcDfpn  # here, not above: the AI's compiled search hashes the sources of what this module holds
    try:
        return VcDfpn(hexarena.load(game_key[0], **dict(game_key[1])), SEARCH_TABLE_BITS, keys=_keys(game_key))
    except ValueError:  # not a game, or a board, that the virtual connections know
        return None


def forget_searches() -> None:
    """Forget what the searches below the shipped positions proved, and their tables: what follows
    depends on nothing searched before (the lab starts every game so, so that a game's moves depend
    on its task alone, not on the games its process played before)."""
    _proved.cache_clear()
    _searcher.cache_clear()


def _searched_move(state: State, keys: PositionKeys) -> Proven | None:
    """A move that a df-pn of at most ``SEARCH_NODES`` nodes proves keeps the
    win for the player to move, remembered with what it proved; None if not found."""
    game_key = (state.game.name, tuple(sorted(state.game.options.items())))
    solver = _searcher(game_key)
    if solver is None:
        return None
    mover, kids = state.to_move, dict[int, tuple[int, State]]()
    if mover is None:
        return None
    for a in state.legal_actions():
        child = state.copy()
        child.apply(a)
        if child.is_over() and child.winner() == mover:
            return Proven(a, state.move_name(a), 1, 1)
        if not child.is_over():
            kids.setdefault(keys.key(child.array), (a, child))
    with _search_lock:
        found = _prove_child(solver, state, mover, kids)
    if found is None:
        return None
    proved = _proved(store_name(state.game))
    if len(proved) >= MAX_PROVED:
        proved.clear()
    key, (a, child) = found
    proved[keys.key(state.array)] = (1, UNKNOWN_PLIES)
    proved[key] = (-1 if child.to_move != mover else 1, UNKNOWN_PLIES)
    return Proven(a, state.move_name(a), 1, UNKNOWN_PLIES)


def _prove_child(solver: DfpnSolver, state: State, mover: int, kids: dict) -> tuple | None:
    """Prove ``state`` won for ``mover``, then find the child that proves it: in
    the table, else each child in turn (a virtual win settles the root at once)."""
    limit = solver.nodes + SEARCH_NODES
    if not solver.prove(state.array, mover, limit):
        return None
    salt = SALT[mover]
    for key, kid in kids.items():
        slot = find(solver.table.arrays, np.uint64(key) ^ salt)
        if slot >= 0 and solver.table.pn[slot] == 0:
            return key, kid
    for key, kid in kids.items():
        if solver.prove(kid[1].array, mover, limit):
            return key, kid
    return None


def reward(result: int) -> float:
    """A proven result as a win rate for the player to move."""
    return {1: 1.0, 0: 0.5, -1: 0.0}[result]


__all__ = ["Proven", "Store", "load_store", "perfect_move", "proof_text", "save", "store_name",
           "stored_value", "reward", "forget_searches"]
