"""bench/ai_clock.py: a short game on a real store and Thinker, written once and skipped on a rerun."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
try:
    import ai_clock
finally:
    sys.path.pop(0)


def test_a_short_game_is_played_judged_and_kept(tmp_path, capsys):
    """ai:1 against ai:1 on a 15 s clock (a second or so): one line per game, a rerun plays nothing."""
    out = tmp_path / "r.jsonl"
    args = ["--games", "1", "--games-list", "projective-hex", "--level", "1", "--initial", "15", "--out", str(out)]
    assert ai_clock.main(args) == 0
    (row,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert row["game"] == "projective-hex" and row["clock"] == "15+0" and row["level"] == 1
    assert row["timed_out"] is None and 0 < row["ai_least"] <= 15 and row["ai_turns"] > 0 and row["plies"] > 0
    assert "projective-hex #0" in capsys.readouterr().out
    assert ai_clock.main(args) == 0
    assert len(out.read_text().splitlines()) == 1
    summary = capsys.readouterr().out
    assert "projective-hex #0" not in summary and "AI flags" in summary


def test_games_go_round_robin_skipping_those_done():
    done = {("b", 0, 10, "60+0")}
    assert list(ai_clock.schedule(["a", "b"], 2, 10, "60+0", done)) == [("a", 0), ("a", 1), ("b", 1)]
