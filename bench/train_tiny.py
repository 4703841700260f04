"""A tiny policy/value network trained by self-play through the PUCT search, numpy only.

    .venv/bin/python bench/train_tiny.py [--stages 3] [--games 300] [--simulations 64]
                                         [--eval-games 100] [--eval-simulations 100] [--seed 0]

Projective Hex size 3 (27 cells), opening none.  The network is a small
multilayer perceptron written here with its gradients by hand: the input is
:class:`hexarena.ai.puct.Leaves`' observation planes at the 27 cells, a
hidden layer, a policy head (softmax over the legal moves) and a value head
(tanh).  Self-play follows AlphaZero: :class:`~hexarena.ai.puct.PUCTAgent`
with Dirichlet noise at the root, moves drawn from the visits in the first
plies and the most visited after; each position's visit distribution and
the game's result become training targets, with the board's six symmetries
(:class:`hexarena.search.positions.PositionKeys`) as extra samples; Adam on
cross-entropy plus squared value error.

Before training and after each stage of ``--games`` self-play games, the
network's PUCT agent plays ``--eval-games`` games against plain ``uct``
MCTS at the same simulations a move (colours alternated, shipped solutions
off), and a last row shows the search with a trivial evaluator (uniform
priors, zero values) for reference.  Prints progress, then a table of win
rates with 95% Wilson intervals.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import hexarena
from hexarena.ai.arena import MatchResult, match
from hexarena.ai.mcts import MCTSAgent
from hexarena.search.positions import PositionKeys
from hexarena.ai.puct import Leaves, PUCTAgent
from hexarena.games.base import Game
from hexarena.observe import grid_index, observation

GAME = hexarena.load("projective-hex", size=3, opening="none")


class TinyNet:
    """Observation planes at the board's cells -> hidden ReLU layer -> (policy logits, tanh value); Adam."""

    def __init__(self, game: Game, hidden: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.rows, self.cols, _ = grid_index(game.topology)
        inputs = (len(game.PLANES) + 1) * game.topology.ncells
        self.params = {"w1": rng.normal(0, np.sqrt(2 / inputs), (inputs, hidden)), "b1": np.zeros(hidden),
                       "wp": rng.normal(0, 0.01, (hidden, game.num_actions)), "bp": np.zeros(game.num_actions),
                       "wv": rng.normal(0, 0.01, (hidden, 1)), "bv": np.zeros(1)}
        self.moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.steps = 0

    def features(self, planes: np.ndarray) -> np.ndarray:
        """``float32[B, C, H, W]`` grid planes -> ``[B, C * cells]``, the planes at the cells only."""
        return planes[:, :, self.rows, self.cols].reshape(len(planes), -1)

    def forward(self, x: np.ndarray, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Hidden activations, the policy over the legal moves, the value."""
        p = self.params
        h = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        logits = np.where(legal, h @ p["wp"] + p["bp"], -np.inf)
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        return h, e / e.sum(axis=1, keepdims=True), np.tanh(h @ p["wv"] + p["bv"])[:, 0]

    def __call__(self, leaves: Leaves) -> tuple[np.ndarray, np.ndarray]:
        """The PUCT search's evaluator."""
        _, policy, value = self.forward(self.features(leaves.planes), leaves.legal)
        return policy.astype(np.float32), value.astype(np.float32)

    def gradients(self, x: np.ndarray, legal: np.ndarray, target: np.ndarray,
                  z: np.ndarray) -> tuple[float, float, dict[str, np.ndarray]]:
        """The losses, cross-entropy(target, policy) and mean (value - z)², and the gradient of their sum."""
        h, policy, value = self.forward(x, legal)
        b = len(x)
        cross = -np.sum(target * np.log(np.where(target > 0, policy, 1.0))) / b
        squared = float(np.mean((value - z) ** 2))
        d_logits = (policy - target) / b  # softmax cross-entropy; zero on illegal moves
        d_value = (2 * (value - z) * (1 - value ** 2) / b)[:, None]
        p = self.params
        d_h = (d_logits @ p["wp"].T + d_value @ p["wv"].T) * (h > 0)
        grads = {"wp": h.T @ d_logits, "bp": d_logits.sum(0), "wv": h.T @ d_value, "bv": d_value.sum(0),
                 "w1": x.T @ d_h, "b1": d_h.sum(0)}
        return float(cross), squared, grads

    def train_step(self, x: np.ndarray, legal: np.ndarray, target: np.ndarray, z: np.ndarray,
                   lr: float = 1e-3, decay: float = 1e-4) -> tuple[float, float]:
        """One Adam step on the losses of :meth:`gradients` plus weight decay; the two losses."""
        cross, squared, grads = self.gradients(x, legal, target, z)
        self.steps += 1
        for k, g in grads.items():
            m, v = self.moments[k]
            g = g + decay * self.params[k]
            m[:] = 0.9 * m + 0.1 * g
            v[:] = 0.999 * v + 0.001 * g * g
            self.params[k] -= lr * (m / (1 - 0.9 ** self.steps)) / (np.sqrt(v / (1 - 0.999 ** self.steps)) + 1e-8)
        return cross, squared


@dataclass
class Samples:
    """Training positions: features, legal moves, visit distributions, results for the player to move."""

    x: list[np.ndarray]
    legal: list[np.ndarray]
    target: list[np.ndarray]
    z: list[float]


def self_play(net: TinyNet, simulations: int, seed: int, perms: np.ndarray, samples: Samples,
              explore_plies: int = 8) -> int:
    """One game of ``net``'s PUCT agent against itself; adds its positions (under every symmetry in
    ``perms``) to ``samples``; returns the winner."""
    agent = PUCTAgent(net, simulations=simulations, batch=8, seed=seed, dirichlet_alpha=0.5)
    state, cells = GAME.new_state(), GAME.topology.ncells
    positions = []
    while not state.is_over():
        result = agent.search(state)
        legal = np.zeros(GAME.num_actions, bool)
        legal[state.legal_actions()] = True
        positions.append((net.features(observation(state)[None])[0], legal, result.policy, state.to_move))
        state.apply(agent.pick(result.visits, 1.0 if len(state.history) < explore_plies else 0.0))
    winner = state.winner()
    for x, legal, target, mover in positions:
        planes = x.reshape(-1, cells)
        for perm in perms:  # a cell's plane values and its move's share go to its image
            image = np.arange(GAME.num_actions)
            image[:cells] = perm
            moved = np.empty_like(planes)
            moved[:, perm] = planes
            samples.x.append(moved.reshape(-1))
            samples.legal.append(legal[np.argsort(image)])
            samples.target.append(target[np.argsort(image)])
            samples.z.append(1.0 if winner == mover else -1.0)
    return winner


def train(net: TinyNet, samples: Samples, steps: int, rng: np.random.Generator, window: int = 30000,
          size: int = 128) -> tuple[float, float]:
    """``steps`` minibatches from the latest ``window`` samples; the mean losses."""
    x, legal = np.array(samples.x[-window:]), np.array(samples.legal[-window:])
    target, z = np.array(samples.target[-window:]), np.array(samples.z[-window:])
    losses = [net.train_step(x[i], legal[i], target[i], z[i])
              for i in (rng.integers(0, len(x), size) for _ in range(steps))]
    return float(np.mean([c for c, _ in losses])), float(np.mean([v for _, v in losses]))


def uniform(leaves: Leaves) -> tuple[np.ndarray, np.ndarray]:
    return np.ones(leaves.legal.shape, np.float32), np.zeros(len(leaves), np.float32)


def against_uct(evaluator: Callable[[Leaves], tuple[np.ndarray, np.ndarray]], simulations: int, games: int,
                seed: int) -> MatchResult:
    """``games`` games of PUCT with ``evaluator`` against ``uct``, both at ``simulations`` a move."""
    seeds = itertools.count(seed)
    return match(GAME, lambda: PUCTAgent(evaluator, simulations=simulations, batch=8, seed=next(seeds)),
                 lambda: MCTSAgent(simulations=simulations, variant="uct", seed=next(seeds), solutions=False),
                 games=games)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--stages", type=int, default=3, help="stages of self-play, each followed by a match")
    p.add_argument("--games", type=int, default=300, help="self-play games a stage")
    p.add_argument("--simulations", type=int, default=64, help="self-play simulations a move")
    p.add_argument("--train-every", type=int, default=25, help="self-play games between training rounds")
    p.add_argument("--steps", type=int, default=200, help="minibatches a training round")
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--eval-games", type=int, default=100)
    p.add_argument("--eval-simulations", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    start = time.perf_counter()
    net, rng = TinyNet(GAME, args.hidden, args.seed), np.random.default_rng(args.seed)
    perms = PositionKeys(GAME).perms
    samples = Samples([], [], [], [])
    rows: list[tuple[str, MatchResult]] = []

    def evaluate(label: str, evaluator) -> None:
        result = against_uct(evaluator, args.eval_simulations, args.eval_games, seed=1000 * (len(rows) + 1))
        rows.append((label, result))
        low, high = result.interval()
        print(f"[{time.perf_counter() - start:6.0f} s] {label}: {result.wins[0]} - {result.wins[1]} against uct "
              f"({result.score():.0%}, {low:.0%}..{high:.0%})", flush=True)

    evaluate("0 games (untrained)", net)
    wins = [0, 0]
    for stage in range(1, args.stages + 1):
        for g in range(args.games):
            wins[self_play(net, args.simulations, args.seed * 100_000 + len(samples.z), perms, samples)] += 1
            if (g + 1) % args.train_every == 0:
                cross, squared = train(net, samples, args.steps, rng)
                print(f"[{time.perf_counter() - start:6.0f} s] {(stage - 1) * args.games + g + 1} games "
                      f"(first player won {wins[0]}), {len(samples.z)} samples; "
                      f"policy loss {cross:.3f}, value loss {squared:.3f}", flush=True)
        evaluate(f"{stage * args.games} games", net)
    evaluate("uniform priors, zero values", uniform)
    print("\n| self-play games | PUCT - uct | PUCT's score (95% Wilson) |\n|---|---|---|")
    for label, result in rows:
        low, high = result.interval()
        print(f"| {label} | {result.wins[0]} - {result.wins[1]} | {result.score():.0%} ({low:.0%}..{high:.0%}) |")
    print(f"\n{time.perf_counter() - start:.0f} s in all, {time.process_time():.0f} s of CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
