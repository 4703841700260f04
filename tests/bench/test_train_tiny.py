"""bench/train_tiny.py: the hand-written gradients, the symmetric samples, and a run in miniature."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from hexarena.search.positions import PositionKeys

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
try:
    import train_tiny
finally:
    sys.path.pop(0)


def test_the_gradients_match_finite_differences():
    net = train_tiny.TinyNet(train_tiny.GAME, hidden=6, seed=1)
    rng = np.random.default_rng(0)
    inputs, actions = net.params["w1"].shape[0], train_tiny.GAME.num_actions
    x = rng.random((5, inputs))
    legal = rng.random((5, actions)) < 0.6
    legal[:, 0] = True
    target = np.where(legal, rng.random((5, actions)), 0.0)
    target /= target.sum(axis=1, keepdims=True)
    z = np.array([1.0, -1.0, 1.0, 1.0, -1.0])
    for p in net.params.values():  # values away from 0, so that tanh and ReLU are not flat or kinked
        p += rng.normal(0, 0.3, p.shape)
    _, _, grads = net.gradients(x, legal, target, z)
    for key, param in net.params.items():
        for index in list(np.ndindex(param.shape))[:: max(1, param.size // 7)]:
            old = param[index]
            param[index] = old + 1e-6
            up = sum(net.gradients(x, legal, target, z)[:2])
            param[index] = old - 1e-6
            down = sum(net.gradients(x, legal, target, z)[:2])
            param[index] = old
            assert abs((up - down) / 2e-6 - grads[key][index]) < 1e-5, (key, index)


def test_each_position_is_kept_under_every_symmetry_consistently():
    """In every image the empty cells (a plane) are the legal cell moves, and the visits stay on legal moves."""
    net = train_tiny.TinyNet(train_tiny.GAME, hidden=8, seed=0)
    perms = PositionKeys(train_tiny.GAME).perms
    samples = train_tiny.Samples([], [], [], [])
    train_tiny.self_play(net, simulations=8, seed=3, perms=perms, samples=samples)
    cells = train_tiny.GAME.topology.ncells
    empty = train_tiny.GAME.PLANES.index("empty")
    assert len(samples.z) % len(perms) == 0 and set(samples.z) == {-1.0, 1.0}
    for x, legal, target in zip(samples.x, samples.legal, samples.target, strict=True):
        assert np.array_equal(x.reshape(-1, cells)[empty] > 0, legal[:cells])
        assert target.sum() > 0.99 and not target[~legal].any()


def test_a_miniature_run_prints_the_table(capsys):
    args = ["--stages", "1", "--games", "2", "--train-every", "1", "--steps", "2", "--simulations", "8",
            "--eval-games", "2", "--eval-simulations", "8", "--hidden", "8"]
    assert train_tiny.main(args) == 0
    out = capsys.readouterr().out
    assert "| 0 games (untrained) |" in out and "| 2 games |" in out and "| uniform priors, zero values |" in out
