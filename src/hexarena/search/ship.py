"""The long run's proof as package data, for the AI and its hint.

The run's directory (:mod:`hexarena.search.run`) holds the proven positions
(``proven.npz``, a few hundred) and the df-pn table (``table.npz``, 30 MB:
millions of entries, most not proven).  :func:`proof_positions` walks the
proof down from every proven position, to positions of ``stones`` stones:
where the player to move wins it keeps one child proven lost for its
player (the stored one, else the table's cheapest to prove), where it loses
every child class the table has proven.  :func:`ship` writes them in the
format of :mod:`hexarena.search.solutions` (result for the player to move;
plies -1 where the length is unknown, the length where ``proven.npz`` has
one), so the package can carry the proof without the table::

    python -m hexarena.search.ship data/solve-ph3 --stones 7

Below the shipped positions the AI proves its move with a bounded
:class:`~hexarena.search.vc.VcDfpn` search (:mod:`hexarena.search.solutions`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from ..games.base import Game, State
from .dfpn import SALT, find
from .files import load_npz
from .positions import PositionKeys
from .proven import UNKNOWN_PLIES, Entry, Proven
from .solutions import STORE_DIR, save, store_name
from .vc import VcDfpn


class TableValues:
    """A saved df-pn table's settled entries: ``result(key, mover)`` for the player to move."""

    def __init__(self, path: Path, attacker: int = 0) -> None:
        data = load_npz(path)
        self.keys = np.cumsum(data["key_steps"], dtype=np.uint64)
        self.pn, self.dn, self.work = data["pn"], data["dn"], data["work"]
        self.salt, self.attacker = int(SALT[attacker]), attacker

    def _slot(self, key: int) -> int:
        salted = np.uint64(key ^ self.salt)
        i = int(np.searchsorted(self.keys, salted))
        return i if i < len(self.keys) and self.keys[i] == salted else -1

    def result(self, key: int, mover: int) -> int | None:
        """1 / -1: the position is proven won / lost for ``mover``; None: not settled here."""
        i = self._slot(key)
        if i < 0 or (self.pn[i] != 0 and self.dn[i] != 0):
            return None
        return 1 if (self.pn[i] == 0) == (mover == self.attacker) else -1

    def work_of(self, key: int) -> int:
        i = self._slot(key)
        return int(self.work[i]) if i >= 0 else 0


def _children(state: State, keys: PositionKeys) -> dict[int, State]:
    """One child per class under the symmetries, by key (finished games left out)."""
    out: dict[int, State] = {}
    for a in state.legal_actions():
        child = state.copy()
        child.apply(a)
        if not child.is_over():
            out.setdefault(keys.key(child.array), child)
    return out


class Prover:
    """Values the table lacks, proven by a :class:`VcDfpn` of at most ``nodes`` nodes each
    (positions the run's df-pn left out: moves outside a must-play region)."""

    def __init__(self, game: Game, keys: PositionKeys, nodes: int, table_bits: int = 22) -> None:
        self.dfpn, self.budget = VcDfpn(game, table_bits, keys=keys), nodes

    def known(self, key: int, mover: int) -> int | None:
        """The value for ``mover`` if this search's table settled it (no search)."""
        for attacker in (0, 1):
            slot = find(self.dfpn.table.arrays, np.uint64(key) ^ SALT[attacker])
            if slot >= 0 and 0 in (self.dfpn.table.pn[slot], self.dfpn.table.dn[slot]):
                return 1 if (self.dfpn.table.pn[slot] == 0) == (attacker == mover) else -1
        return None

    def value(self, state: State) -> int | None:
        return self.dfpn.value(state.array, self.budget)


def proof_positions(game: Game, proven: Proven, table: TableValues, stones: int,
                    prover: Prover | None = None, search_stones: int = 0) -> dict[int, Entry]:
    """Key -> (result for the player to move, plies or -1, moves from the start): ``proven``'s
    positions and the proof below them down to ``stones`` moves from the
    start; values the table lacks in positions of fewer than ``search_stones``
    moves are searched by ``prover``."""
    keys = PositionKeys(game)
    out = dict(proven.entries)
    todo = []
    for e in proven.entries.values():
        state = game.new_state()
        for a in e.moves:
            state.apply(a)
        todo.append(state)
    while todo:
        state = todo.pop()
        if len(state.history) >= stones or _wins_at_once(state):
            continue
        result = out[keys.key(state.array)].result
        search = prover if prover is not None and len(state.history) < search_stones else None
        for k, child, value in _kept_children(state, keys, out, table, result, search):
            if k not in out:
                out[k] = Entry(value, UNKNOWN_PLIES, tuple(child.history))
                todo.append(child)
    return out


def _kept_children(state: State, keys: PositionKeys, out: dict, table: TableValues, result: int,
                   prover: Prover | None) -> list[tuple[int, State, int]]:
    """A won position's one child lost for its player (the stored one, else the
    cheapest); a lost position's every child with a value."""
    kids = []
    for k, child in _children(state, keys).items():
        known, mover = out.get(k), child.to_move
        if mover is None:
            continue
        value = known.result if known else table.result(k, mover)
        if value is None and prover is not None:
            value = prover.known(k, mover)
            if value is None and result == -1:
                value = prover.value(child)
        kids.append((known is None, table.work_of(k), k, child, value))
    if result == 1:
        lost = sorted((x for x in kids if x[4] == (-1 if x[3].to_move != state.to_move else 1)),
                      key=lambda x: x[:3])
        if not lost and prover is not None and prover.value(state) == 1:
            lost = _proven_lost(state, kids, prover)
        kids = lost[:1]
    for _, _, _, child, value in kids:
        if result == -1 and value is not None and (value == 1) != (child.to_move != state.to_move):
            raise ValueError(f"after {state.moves()}: a lost position with a child won for its mover")
    return [(k, child, value) for _, _, k, child, value in kids if value is not None]


def _proven_lost(state: State, kids: list, prover: Prover) -> list:
    """After ``prover`` proved ``state`` won: a child it proved lost for its
    player, from its table, else searched one by one (the root settled at once)."""
    for x in kids:
        lost = -1 if x[3].to_move != state.to_move else 1
        if prover.known(x[2], x[3].to_move) == lost:
            return [x[:4] + (lost,)]
    for x in kids:
        lost = -1 if x[3].to_move != state.to_move else 1
        if prover.value(x[3]) == lost:
            return [x[:4] + (lost,)]
    return []


def _wins_at_once(state: State) -> bool:
    """Whether a move ends the game in the mover's favour (no proof to keep below)."""
    for a in state.legal_actions():
        child = state.copy()
        child.apply(a)
        if child.is_over() and child.winner() == state.to_move:
            return True
    return False


def ship(game: Game, run_dir: Path, stones: int, out: Path | None = None, search_stones: int = 0,
         nodes: int = 2_000_000) -> tuple[Path, int]:
    """Write the proof of the run in ``run_dir`` to the package's store (or
    ``out``), searching what the table lacks above ``search_stones`` moves with
    ``nodes`` df-pn nodes a position; its path and size."""
    proven = Proven.load(run_dir / "proven.npz", store_name(game))
    prover = Prover(game, PositionKeys(game), nodes) if search_stones else None
    found = proof_positions(game, proven, TableValues(run_dir / "table.npz"), stones, prover, search_stones)
    path = out or STORE_DIR / store_name(game)
    keys = np.array(list(found), dtype=np.uint64)
    save(path, game, keys, np.array([e.result for e in found.values()]), np.array([e.plies for e in found.values()]))
    return path, len(found)


def main(argv: list[str] | None = None) -> None:
    import hexarena

    ap = argparse.ArgumentParser(prog="python -m hexarena.search.ship", description=__doc__.split("\n")[0])
    ap.add_argument("run_dir", type=Path, help="the long run's directory (proven.npz, table.npz)")
    ap.add_argument("--stones", type=int, default=7, help="walk the proof down to positions of this many moves")
    ap.add_argument("--search-stones", type=int, default=0,
                    help="search values the table lacks in positions of fewer moves than this")
    ap.add_argument("--nodes", type=int, default=2_000_000, help="df-pn nodes for each such search")
    ap.add_argument("--size", type=int, default=3)
    ap.add_argument("--out", type=Path, default=None, help="default: the package's solutions directory")
    args = ap.parse_args(argv)
    game = hexarena.load("projective-hex", size=args.size, opening="none")
    path, n = ship(game, args.run_dir, args.stones, args.out, args.search_stones, args.nodes)
    print(f"{path}: {n:,} positions, {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
