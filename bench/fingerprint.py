"""Behaviour fingerprint: seeded playouts and matches of every game, hashed.

A refactoring must not change a single move. This plays, for every game and
the option sets of the property tests:

- ``--playouts`` seeded kernel playouts (``State.playout``) and, where the game
  has them, recorded playouts (the AI's), from the start and from a few plies
  in, hashing every final array and recorded sequence;
- ``--games`` seeded self-play games of random agents through the facade
  (legal moves, written moves, status, scores, record text at each end);
- ``--matches`` seeded MCTS games (``mcts:2`` against ``mcts:uct:sims=40``).

and prints one JSON object ``{config: sha256}`` (with ``--out FILE`` written
there too). Two runs on different builds agree exactly when every move,
every final position and every written record agree; the keys a build
lacks (``... endings``: the end reasons, newer than the first runs) are
left out of the comparison.

    python bench/fingerprint.py --out before.json
    python bench/fingerprint.py --out after.json && diff before.json after.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

import hexarena
from hexarena.analysis.selfplay import GameTask, play_task, without_timing
from hexarena.kernels import seed as seed_numba

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from conftest import EXTRA_CONFIGS  # noqa: E402


def configs() -> list[tuple[str, dict[str, Any]]]:
    """Every game with its default options, then the property tests' option sets."""
    out: list[tuple[str, dict[str, Any]]] = [(name, {}) for name in hexarena.GAMES]
    for name, sets in EXTRA_CONFIGS.items():
        out += [(name, dict(options)) for options in sets]
    return out


def playout_digest(name: str, options: dict[str, Any], count: int) -> str:
    """Hash of ``count`` seeded playouts' final arrays (and recorded sequences)."""
    game = hexarena.load(name, **options)
    h = hashlib.sha256()
    kernels, tables = game.kernels, game.tables
    extra = [getattr(kernels, k, None) for k in ("recorded_playout", "pattern_playout", "policy_playout")]
    for i in range(count):
        state = game.new_state()
        rng = np.random.default_rng(i)
        for _ in range(int(rng.integers(0, 6))):  # start a few random plies in
            legal = state.legal_actions()
            if not legal or state.is_over():
                break
            state.apply(int(legal[int(rng.integers(len(legal)))]))
        h.update(repr(state.playout(seed=i)).encode())
        s = state.array.copy()
        seed_numba(i)
        kernels.playout(s, tables)
        h.update(s.tobytes())
        for recorded in filter(None, extra):
            s = state.array.copy()
            seq_a = np.zeros(game.num_actions * 8 + 4096, np.int32)
            seq_p = np.zeros_like(seq_a)
            seed_numba(i)
            n = recorded(s, tables, seq_a, seq_p)
            h.update(s.tobytes())
            h.update(seq_a[:n].tobytes() + seq_p[:n].tobytes())
    return h.hexdigest()


LATER_FIELDS = ("reason",)  # result fields added after the first fingerprints: hashed on their own
UNHASHED = ("clarity",)  # what the searches saw, not what was played: left out


def selfplay_digest(name: str, options: dict[str, Any], agents: tuple[str, str], count: int) -> tuple[str, str]:
    """Hashes of ``count`` seeded self-play games: their moves, values, winners,
    records; and of the later fields (how each game ended)."""
    h, later = hashlib.sha256(), hashlib.sha256()
    for i in range(count):
        task = GameTask(0, i, name, options, agents, (1000 + i, 2000 + i))
        result = dict(without_timing(play_task(task)))
        later.update(json.dumps([result.pop(k, None) for k in LATER_FIELDS]).encode())
        for k in UNHASHED:
            result.pop(k, None)
        h.update(json.dumps(result, sort_keys=True, default=str).encode())
        state = hexarena.load(name, **options).new_state()
        for move in result["moves"]:
            state.play(move)
        h.update(state.record_text().encode())
        h.update(json.dumps([state.turns(), state.scores(), str(state)], default=str).encode())
    return h.hexdigest(), later.hexdigest()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--playouts", type=int, default=300, help="seeded kernel playouts per option set")
    ap.add_argument("--games", type=int, default=40, help="seeded random self-play games per option set")
    ap.add_argument("--matches", type=int, default=2, help="seeded MCTS games per option set")
    ap.add_argument("--game", action="append", help="only these games")
    ap.add_argument("--out", help="also write the JSON here")
    args = ap.parse_args(argv)
    digests: dict[str, str] = {}
    for name, options in configs():
        if args.game and name not in args.game:
            continue
        key = f"{name} {json.dumps(options, sort_keys=True)}"
        digests[f"{key} playouts"] = playout_digest(name, options, args.playouts)
        digests[f"{key} random"], digests[f"{key} random endings"] = selfplay_digest(
            name, options, ("random", "random"), args.games)
        if args.matches:
            digests[f"{key} mcts"], digests[f"{key} mcts endings"] = selfplay_digest(
                name, options, ("mcts:2", "mcts:uct:sims=40"), args.matches)
        print(key, "done", file=sys.stderr, flush=True)
    text = json.dumps(digests, indent=1, sort_keys=True)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
