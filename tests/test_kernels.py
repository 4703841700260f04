"""The rules kernels run compiled and, for debugging, as plain Python."""

import os
import subprocess
import sys

import hexarena

SCRIPT = """
import hexarena, random
from numba.core import config
assert config.DISABLE_JIT
for name in hexarena.GAMES:
    s = hexarena.load(name).new_state()
    rng = random.Random(1)
    while not s.is_over():
        s.apply(rng.choice(s.legal_actions()))
    fresh = hexarena.load(name).new_state()
    assert fresh.playout(3) in (0, 1, None)
    print(name, s.winner(), len(s.history))
"""


def test_numba_disable_jit_runs_every_game_as_plain_python():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.split("\n")) > len(hexarena.GAMES)


def test_seeded_playouts_repeat():
    s = hexarena.load("projective-hex", size=5).new_state()
    first = [s.playout(seed) for seed in range(20)]
    assert first == [s.playout(seed) for seed in range(20)]
    assert set(first) == {0, 1}
