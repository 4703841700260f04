"""How Lhexus games end: useless stones in the playouts, and the final scoring of one-sided games.

    .venv/bin/python bench/lhexus_endings.py [--playouts 100] [--games 4] [--level 2] [--size 10]

1. The playout policy's games (``recorded_playout``): how many stones land on
   a dead cell (every configuration through it already holds both colours,
   so the stone can neither count nor block), and at which move every empty
   cell left is dead, i.e. how much shorter a policy that passes "when
   nothing useful is left" could make them.
2. One-sided games, the boards whose exact packing can be slow: the AI at
   ``--level`` against a player who places a random new group every turn
   and never grows; per game the stones, the scores, and the time of the
   exact scores and of the final picture (``state.svg()``, which outlines
   both players' maximum packings), as the web app draws it.
"""

import argparse
import random
import time

import numpy as np

import hexarena
from hexarena.ai import agent
from hexarena.games import lhexus_rules as L
from hexarena.kernels import seed as seed_all


def dead_stones(game, playouts: int) -> str:
    """Part 1: dead placements and the move from which only dead cells are left."""
    t, n = game.tables, game.tables.ncells
    through = [np.flatnonzero((t.configs == c).any(axis=1)) for c in range(n)]
    actions, movers = np.zeros(4 * n, np.int32), np.zeros(4 * n, np.int32)
    dead_total, all_dead_at, lengths = 0, [], []

    def dead(held: np.ndarray, c: int) -> bool:
        return bool((held[through[c], 1] & held[through[c], 2]).all())

    for i in range(playouts):
        seed_all(i)
        written = L.recorded_playout(game.new_state().array.copy(), t, actions, movers)
        s, held = game.new_state().array.copy(), np.zeros((len(t.configs), 3), bool)  # a colour in a configuration
        settled = written
        for ply, a in enumerate(actions[:written]):
            if a < n:
                dead_total += dead(held, a)
                held[through[a], int(L.mover_colour(s))] = True
            L.apply(s, t, a)
            if settled == written and ply > 2 and \
                    all(dead(held, c) for c in np.flatnonzero(s[L.BOARD: L.BOARD + n] == 0)):
                settled = ply + 1
        all_dead_at.append(settled)
        lengths.append(written)
    return (f"{playouts} playouts: {np.mean(lengths):.1f} moves, {dead_total / playouts:.1f} stones a game on dead "
            f"cells; every empty cell dead from move {np.mean(all_dead_at):.1f} on (mean)")


def new_groups_only(state, rng: random.Random) -> str:
    """A random cell where a new group may go, else 'end'."""
    cells = np.flatnonzero(state.game.growth_cells(state.array)[1])
    return state.game.topology.name(int(rng.choice(cells))) if len(cells) else "end"


def one_sided(game, games: int, level: int) -> list[str]:
    """Part 2: the AI against a player who never grows."""
    lines = []
    game.colour_scores(game.new_state().array)  # load the scoring kernels and the drawing first
    game.new_state().svg()
    for i in range(games):
        rng, ai, naive = random.Random(i), agent("mcts", level=level, seed=i), 1 - i % 2
        state = game.new_state()
        while not state.is_over():
            naive_turn = state.to_move == naive and state.turn > 2
            state.play(new_groups_only(state, rng) if naive_turn else ai.choose(state))
        board = game.stones(state.array)
        t0 = time.perf_counter()
        scores = game.colour_scores(state.array)
        t1 = time.perf_counter()
        state.svg()
        t2 = time.perf_counter()
        lines.append(f"game {i}: {len(state.history)} moves, stones black {(board == 1).sum()} white "
                     f"{(board == 2).sum()} empty {(board == 0).sum()}, scores {scores}; exact scores "
                     f"{(t1 - t0) * 1e3:.1f} ms, final picture {(t2 - t1) * 1e3:.1f} ms")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--playouts", type=int, default=100)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--level", type=int, default=2)
    ap.add_argument("--size", type=int, default=10)
    args = ap.parse_args()
    game = hexarena.load("lhexus", size=args.size)
    print(dead_stones(game, args.playouts), flush=True)
    for line in one_sided(game, args.games, args.level):
        print(line, flush=True)


if __name__ == "__main__":
    main()
