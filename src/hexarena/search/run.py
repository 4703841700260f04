"""A df-pn solve that stops and goes on, with its files in one directory.

:class:`LongSolve` works through a game's first-move classes (then, once
they are all proven, the next level's positions) with the df-pn of
:mod:`hexarena.search.dfpn`, in chunks of about a minute, round
robin.  Every proof is for the first player ("the first player wins" is
proven or disproven), so one table serves every first move and the
positions they share.  After each chunk it looks the tracked positions of
:mod:`hexarena.search.frontier` (every class up to ``depth`` moves in) up in
the table, records the settled ones in the proven store and carries values
up (a position whose children are settled is settled too).  Every few
minutes it checkpoints to ``store_dir``:

- ``proven.npz``: the proven positions (:mod:`hexarena.search.proven`), the
  tracked ones and witnesses from deeper in the table
  (:mod:`hexarena.search.samples`);
- ``table.npz``: the df-pn table, pruned to its most-worked entries;
- ``run.json``: nodes and seconds over every session, and the frontier at
  each checkpoint (its growth per hour).

A new :class:`LongSolve` on the same directory resumes: the table is
reloaded and every proven position is written into it as settled.  Files
are replaced atomically, so a kill at any moment leaves the last checkpoint.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from ..games.base import TO_MOVE, Game
from .dfpn import INF, SALT, DfpnSolver, find, store
from .files import load_json, load_table, save_json, save_table
from .frontier import Frontier, Tracked, carried_up
from .proven import Proven
from .samples import Witnesses
from .solutions import store_name
from .vc import VcDfpn

TABLE_BITS = 24  # 16M slots, 400 MB
KEEP = 3_000_000  # table entries a checkpoint keeps (about 40 MB compressed)
DEPTH = 3  # tracked levels: first moves, replies, third stones
CHUNK_SECONDS = 60.0  # one df-pn call's share of time
FIRST_CHUNK = 50_000  # nodes of the first call, before the rate is known
WALKS = 20  # witness walks per checkpoint
MAX_WITNESSES = 20_000
SEED_WORK = 1 << 40  # the work a proven position is written into the table with: never replaced
FILES = ("proven.npz", "table.npz", "run.json")


def now_utc() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class LongSolve:
    """One game's resumable run in ``store_dir`` (created if missing); ``virtual``:
    df-pn with the virtual connections' pruning (:mod:`hexarena.search.vc`)."""

    def __init__(self, game: Game, store_dir: Path | str, table_bits: int = TABLE_BITS, depth: int = DEPTH,
                 keep: int = KEEP, progress: Callable[[str], None] | None = None, virtual: bool = True) -> None:
        self.game, self.dir, self.keep, self.progress = game, Path(store_dir), keep, progress
        self.dfpn = VcDfpn(game, table_bits) if virtual else DfpnSolver(game, table_bits)
        if self.dfpn.can_draw:
            raise ValueError(f"{game.name} can end in a draw; the long solve proves wins only")
        self.attacker = game.new_state().to_move or 0
        self.salt = int(SALT[self.attacker])
        self.frontier = Frontier(game, self.dfpn.keys, depth)
        self.name = store_name(game)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.proven = Proven.load(self.dir / FILES[0], self.name) if (self.dir / FILES[0]).exists() else Proven()
        self.meta = self._load_meta()
        if (self.dir / FILES[1]).exists():
            load_table(self.dir / FILES[1], self.dfpn.table)
        for key, entry in self.proven.entries.items():
            self._settle(key, entry.result, self._mover(entry.moves))
        ncells = game.topology.ncells
        self.witnesses = Witnesses(self.frontier, self.dfpn.table.arrays, self.salt, self.attacker,
                                   min_stones=max(depth + 1, ncells - 15), seed=len(self.meta["history"]))
        self.started, self.search_seconds, self.cpu_seconds, self.last_target = time.perf_counter(), 0.0, 0.0, ""
        self.session_started = now_utc()
        self.harvest()

    # the files -------------------------------------------------------------
    def _load_meta(self) -> dict:
        path = self.dir / FILES[2]
        if not path.exists():
            return {"game": self.game.name, "options": dict(self.game.options), "nodes": 0, "seconds": 0.0,
                    "cpu_seconds": 0.0, "turn": 0, "sessions": [], "history": []}
        meta = load_json(path)
        if meta["game"] != self.game.name or meta["options"] != dict(self.game.options):
            raise ValueError(f"{self.dir} holds a run of {meta['game']} {meta['options']}")
        return meta

    def checkpoint(self) -> None:
        """Write the three files (each atomically), after a few witness walks."""
        for _ in range(WALKS if len(self.proven) < MAX_WITNESSES else 0):
            self.witnesses.walk(self.proven)
        self.proven.save(self.dir / FILES[0], self.name)
        kept = save_table(self.dir / FILES[1], self.dfpn.table, self.keep)
        report = self.report()
        self.meta["history"].append({"at": now_utc(), "nodes": report["nodes"], "seconds": report["seconds"],
                                     "cpu_seconds": report["cpu_seconds"],
                                     "proven": [lv["proven"] for lv in report["levels"]],
                                     "stored": len(self.proven), "table_kept": kept})
        session = {"started": self.session_started, "nodes": self.dfpn.nodes, "seconds": round(self.search_seconds, 1),
                   "cpu_seconds": round(self.cpu_seconds, 1), "table_slots": len(self.dfpn.table.key),
                   "search": type(self.dfpn).__name__}
        save_json(self.dir / FILES[2], dict(self.meta, nodes=report["nodes"], seconds=report["seconds"],
                                            cpu_seconds=report["cpu_seconds"],
                                            sessions=[*self.meta["sessions"], session]))
        self.say(f"checkpoint: {len(self.proven):,} proven positions, {kept:,} table entries kept")

    # the table and the store ---------------------------------------------
    def _mover(self, moves: tuple[int, ...]) -> int:
        s = self.game.new_state().array.copy()
        for a in moves:
            self.game.kernels.apply(s, self.game.tables, a)
        return int(s[TO_MOVE])

    def _settle(self, key: int, result: int, mover: int) -> None:
        """Write a proven position into the table (``result`` for ``mover``)."""
        attacker_wins = (result == 1) == (mover == self.attacker)
        pn, dn = (0, INF) if attacker_wins else (INF, 0)
        store(self.dfpn.table.arrays, np.uint64(key ^ self.salt), pn, dn, SEED_WORK)

    def table_numbers(self, key: int) -> tuple[int, int] | None:
        """(pn, dn) of a position in the table, for the first player's win."""
        table = self.dfpn.table.arrays
        slot = find(table, np.uint64(key ^ self.salt))
        return None if slot < 0 else (int(table[1][slot]), int(table[2][slot]))

    def _record(self, node: Tracked, result: int) -> None:
        self.proven.add(node.key, result, node.moves)
        self._settle(node.key, result, node.to_move)

    def harvest(self) -> int:
        """Record the tracked positions the table has settled, then carry
        values up the levels; how many were new."""
        new = 0
        for node in self.frontier:
            numbers = None if node.key in self.proven else self.table_numbers(node.key)
            if numbers is not None and 0 in numbers:
                attacker_wins = numbers[0] == 0
                self._record(node, 1 if attacker_wins == (node.to_move == self.attacker) else -1)
                new += 1
        values = {k: e.result for k, e in self.proven.entries.items()}
        for level in reversed(self.frontier.levels):
            for node in level:
                v = None if node.key in values else carried_up(node, values, self.frontier)
                if v is not None:
                    values[node.key] = v
                    self._record(node, v)
                    new += 1
        return new

    # the search ------------------------------------------------------------
    def next_target(self) -> Tracked | None:
        """The next open position, round robin over the shallowest level with any open."""
        for level in self.frontier.levels[1:]:
            open_ = [n for n in level if n.key not in self.proven]
            if open_:
                self.meta["turn"] += 1
                return open_[self.meta["turn"] % len(open_)]
        return None

    def chunk(self, target: Tracked, budget: int) -> bool | None:
        """``budget`` df-pn nodes on ``target``; whether the first player wins there, if proven."""
        start, cpu = time.perf_counter(), time.process_time()
        wins = self.dfpn.prove(self.frontier.array(target.key), self.attacker, self.dfpn.nodes + budget)
        self.search_seconds += time.perf_counter() - start
        self.cpu_seconds += time.process_time() - cpu
        self.last_target = self.moves_text(target.moves)
        self.harvest()
        return wins

    def rate(self) -> float:
        """This session's df-pn nodes per second of search (wall-clock)."""
        return self.dfpn.nodes / self.search_seconds if self.search_seconds > 0 else 0.0

    def cpu_rate(self) -> float:
        """This session's df-pn nodes per second of CPU time: the rate on a core of its own."""
        return self.dfpn.nodes / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    def run(self, seconds: float | None = None, checkpoint_seconds: float = 300.0,
            chunk_seconds: float = CHUNK_SECONDS, stop: Callable[[], bool] = lambda: False) -> None:
        """Search until ``seconds`` pass (None: until everything tracked is
        proven or ``stop()``), checkpointing every ``checkpoint_seconds`` and at the end."""
        start = time.perf_counter()
        deadline = float("inf") if seconds is None else start + seconds
        last, searched = start, False
        while not stop() and time.perf_counter() < deadline:
            target = self.next_target()
            if target is None:
                break
            left = deadline - time.perf_counter()
            budget = int(self.rate() * min(chunk_seconds, left)) if self.rate() else FIRST_CHUNK
            self.chunk(target, max(budget, 1000))
            searched = True
            self.say(self.status())
            if time.perf_counter() - last >= checkpoint_seconds:
                self.checkpoint()
                last, searched = time.perf_counter(), False
        if searched:
            self.checkpoint()

    def say(self, line: str) -> None:
        if self.progress:
            self.progress(line)

    # what is known ---------------------------------------------------------
    def moves_text(self, moves: tuple[int, ...]) -> str:
        s = self.game.new_state()
        for a in moves:
            s.apply(a)
        return " ".join(s.moves())

    def first_player_result(self, node: Tracked) -> int | None:
        """1 if the first player wins from ``node`` (proven), -1 if the second does, None if open."""
        entry = self.proven.get(node.key)
        if entry is None:
            return None
        return entry.result if node.to_move == self.attacker else -entry.result

    def report(self) -> dict:
        """The frontier: each level's proven positions (``winners``: the
        moves to one of each class, and which player wins), each first move's
        value (for the first player) and proven replies, nodes and rates."""
        levels: list[dict[str, Any]] = []
        for k, nodes in enumerate(self.frontier.levels):
            values = [self.first_player_result(n) for n in nodes]
            winner = {1: "first", -1: "second"}
            levels.append({"stones": k, "positions": len(nodes), "proven": sum(1 for v in values if v is not None),
                           "first_player_wins": values.count(1), "second_player_wins": values.count(-1),
                           "winners": {self.moves_text(n.moves): winner[v] for n, v in zip(nodes, values, strict=True)
                                       if v is not None}})
        nodes = self.meta["nodes"] + self.dfpn.nodes
        seconds = self.meta["seconds"] + self.search_seconds
        tracked = sum(lv["proven"] for lv in levels)
        table = self.dfpn.table
        settled = int(np.count_nonzero((table.key != 0) & ((table.pn == 0) | (table.dn == 0))))
        return {"game": self.game.name, "options": dict(self.game.options), "store": str(self.dir),
                "first_moves": [self._first_move(n) for n in self.frontier.levels[1]], "levels": levels,
                "nodes": nodes, "seconds": round(seconds, 1),
                "cpu_seconds": round(self.meta["cpu_seconds"] + self.cpu_seconds, 1), "session_nodes": self.dfpn.nodes,
                "nodes_per_second": round(self.rate(), 1), "nodes_per_cpu_second": round(self.cpu_rate(), 1),
                "proven_per_hour": round(tracked / (seconds / 3600), 2) if seconds > 0 else None,
                "stored_positions": len(self.proven), "table_entries": table.used(), "table_settled": settled}

    def _first_move(self, node: Tracked) -> dict:
        s = self.game.new_state()
        v = self.first_player_result(node)
        replies = [self.frontier.by_key[k] for k in node.children]
        numbers = self.table_numbers(node.key)
        return {"move": s.move_name(node.moves[0]), "same_as": [s.move_name(a) for a in node.same_as],
                "result": {1: "win", -1: "loss", None: "unknown"}[v],
                "replies": len(replies), "replies_proven": sum(r.key in self.proven for r in replies),
                "pn": numbers[0] if numbers else None, "dn": numbers[1] if numbers else None}

    def status(self) -> str:
        """One progress line."""
        r = self.report()
        counts = " ".join(f"{lv['proven']}/{lv['positions']}" for lv in r["levels"][1:])
        return (f"{time.perf_counter() - self.started:7.0f}s  {self.last_target:>8}  nodes {r['nodes']:,} "
                f"({r['nodes_per_second']:,.0f}/s)  proven by stones 1-{len(r['levels']) - 1}: {counts}  "
                f"table {r['table_entries']:,} ({r['table_settled']:,} settled)")
