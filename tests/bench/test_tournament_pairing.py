"""bench/tournament_pairing.py: a short run of its simulation."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
try:
    import tournament_pairing
finally:
    sys.path.pop(0)


def test_a_small_simulated_swiss_pairs_every_round_without_repeats():
    seconds, repeats, imbalance = tournament_pairing.simulate(players=24, rounds=5, seed=3, withdraw=0.05)
    assert len(seconds) == 5 and repeats == 0 and 1 <= imbalance <= 3
