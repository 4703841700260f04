"""Per-environment random streams for the batched loops: one ``uint64``
SplitMix64 state per environment, advanced inside numba, so a batch's random
moves depend only on its seed (not on numba's global generator, which
searches and playouts share) and each environment's stream on its own index.

>>> import numpy as np
>>> streams = seeded_streams(3, seed=7)
>>> draws = [int(below(streams, i, 10)) for i in range(3)]
>>> np.array_equal(seeded_streams(3, seed=7), seeded_streams(3, seed=7)), all(0 <= d < 10 for d in draws)
(True, True)
"""

from __future__ import annotations

import numpy as np

from ..kernels import inline

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


def seeded_streams(n: int, seed: int | None) -> np.ndarray:
    """``uint64[n]``: the streams' states from ``seed`` (fresh entropy for None)."""
    return np.random.SeedSequence(seed).generate_state(n, dtype=np.uint64)


@inline
def next_word(streams, i):
    """The next 64 random bits of stream ``i`` (SplitMix64)."""
    x = streams[i] + GOLDEN
    streams[i] = x
    x = (x ^ (x >> np.uint64(30))) * MIX1
    x = (x ^ (x >> np.uint64(27))) * MIX2
    return x ^ (x >> np.uint64(31))


@inline
def below(streams, i, n):
    """A uniform integer in ``[0, n)`` from stream ``i`` (``1 <= n < 2**32``;
    the high 32 bits scaled, as Lemire's method without the rejection step:
    a bias under ``n / 2**32``)."""
    return np.int64(((next_word(streams, i) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))
