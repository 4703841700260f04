"""The bench's OpenSpiel opponent (bench/openspiel_bots.py) plays legal moves."""

import doctest
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_openspiel_bots_doctest():
    sys.path.insert(0, str(BENCH))
    try:
        import openspiel_bots
    finally:
        sys.path.remove(str(BENCH))
    result = doctest.testmod(openspiel_bots)
    assert result.attempted > 0 and result.failed == 0
