"""bench/ai_pace.py: a short AI-against-AI game on a real store and Thinker, its turns timed, kept once."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
try:
    import ai_pace
finally:
    sys.path.pop(0)


def test_a_game_is_timed_turn_by_turn_and_kept(tmp_path, capsys):
    """ai:1 against itself on Palago (turns of two tiles): a time and a step count per turn, every step counted;
    a rerun plays nothing and prints the table."""
    out = tmp_path / "r.jsonl"
    args = ["--games", "1", "--games-list", "palago", "--level", "1", "--out", str(out)]
    assert ai_pace.main(args) == 0
    (row,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert row["game"] == "palago" and row["level"] == 1 and len(row["turn_seconds"]) == len(row["turn_steps"])
    assert sum(row["turn_steps"]) == row["plies"] and max(row["turn_steps"]) == 2  # how fast: the bench's own table
    assert "palago #0" in capsys.readouterr().out
    assert ai_pace.main(args) == 0
    table = capsys.readouterr().out
    assert "palago #0" not in table and "max/target" in table and "\npalago " in table


def test_percentile_is_the_nearest_rank():
    assert ai_pace.percentile([3.0, 1.0, 2.0, 4.0], 0.5) == 2.0 and ai_pace.percentile([5.0], 0.95) == 5.0
