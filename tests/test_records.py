"""Records: JSON and text forms round-trip; corrupt records are refused clearly."""

import json
import re

import pytest

import hexarena
from hexarena.records import MAX_RECORD_BYTES, from_bytes, parse_text, read_file

FINISHED = "B C F G N K # J R O T S W X".split()


def finished():
    s = hexarena.load("projective-hex", opening="none").new_state()
    for m in FINISHED:
        s.play(m)
    return s


def test_json_record_fields():
    rec = finished().record(players=["ann", "bob"])
    assert rec["format"] == "hexarena-record/1" and rec["game"] == "projective-hex"
    assert rec["options"] == {"size": 3, "opening": "none"} and rec["players"] == ["ann", "bob"]
    assert rec["moves"] == FINISHED
    assert rec["result"] == {"over": True, "winner": 1, "scores": None, "text": "0-1"}
    assert len(rec["timestamps"]["moves"]) == 14 and rec["colours"] == ["black", "white"]
    again = hexarena.from_record(json.loads(json.dumps(rec)))
    assert again.record() == rec


def test_text_record():
    text = finished().record_text()
    assert text == "[projective-hex size=3 opening=none] " + " ".join(
        f"{i + 1}. {m}" for i, m in enumerate(FINISHED)) + " 0-1"
    assert hexarena.from_record(text) == finished()


def test_text_record_groups_a_turns_steps():
    s = hexarena.load("projective-hex").new_state()
    for m in ("J", "K", "O", "white", "A"):
        s.play(m)
    assert s.record_text() == "[projective-hex size=3 opening=cut-and-choose] 1. J,K,O 2. white 3. A *"
    assert parse_text(s.record_text())["turns"] == [(1, ["J", "K", "O"]), (2, ["white"]), (3, ["A"])]


@pytest.mark.parametrize("record,message", [
    ({"moves": []}, "field 'game' is missing"),
    ({"game": "projective-hex"}, "field 'moves' is missing"),
    ({"game": "hex", "moves": []}, "unknown game 'hex'"),
    ({"game": "projective-hex", "options": {"size": 0}, "moves": []}, "bad value 0 for option 'size'"),
    ({"game": "projective-hex", "moves": ["A", "A"]}, "record move 2 'A': 'A' is occupied"),
    ({"game": "projective-hex", "moves": ["A", 3]}, "record move 2 is not a string"),
    ({"game": "projective-hex", "format": "other/9", "moves": []}, "record format 'other/9'"),
    ({"game": "projective-hex", "options": {"opening": "none"}, "moves": ["A"],
      "result": {"over": True, "winner": 0}}, "disagrees with its moves"),
    ("[projective-hex opening=none] 1. A 3. B *", "record says turn 3 where the game is at turn 2"),
    ("[projective-hex opening=none] 1. A,B *", "turn 1 was already over"),
    ("[projective-hex opening=none] 1. A 2. B 1-0", "record result '1-0' disagrees"),
    ("projective-hex 1. A", "a text record starts with '[game"),
    ("[projective-hex] junk 1. A", "text before the first turn number"),
    (["A"], "a record is a dict or a text line"),
    # wrongly typed fields (issue 14): one ValueError naming the field, never a TypeError
    ({"game": "projective-hex", "moves": [], "timestamps": "x"}, "field 'timestamps' must be an object"),
    ({"game": "projective-hex", "moves": [], "timestamps": {"moves": 5}}, "'timestamps.moves' must be a list"),
    ({"game": "projective-hex", "moves": ["A"], "timestamps": {"moves": ["t1", "t2"]}}, "2 move times for 1 moves"),
    ({"game": "projective-hex", "moves": [], "players": 5}, "field 'players' must be a list of two names, got 5"),
    # every imported field bounded (issue 28): times are real ISO 8601 date-times, names short and printable
    ({"game": "projective-hex", "moves": ["A"], "timestamps": {"moves": ["<b>x</b>"]}},
     "'timestamps.moves[0]' must be an ISO 8601 date and time of at most 32 characters"),
    ({"game": "projective-hex", "moves": ["A"], "timestamps": {"moves": ["2" * 1_000_000]}}, "at most 32 characters"),
    ({"game": "projective-hex", "moves": ["A"], "timestamps": {"moves": ["2024-02-30T12:00:00Z"]}},
     "'timestamps.moves[0]' is no real date and time"),
    ({"game": "projective-hex", "moves": [], "timestamps": {"started": "<script>"}}, "'timestamps.started' must be"),
    ({"game": "projective-hex", "moves": [], "players": ["a" * 201, "b"]}, "a name is 1 to 200 printable"),
    ({"game": "projective-hex", "moves": [], "players": ["a\nb", "b"]}, "a name is 1 to 200 printable"),
    ({"game": "projective-hex", "moves": [], "result": 5}, "field 'result' must be a JSON object, got int"),
    ({"game": "projective-hex", "moves": [], "result": {"who": 1}}, "'result.who' is unknown"),
    ({"game": "projective-hex", "moves": [], "options": []}, "field 'options' must be a JSON object, got a list"),
    ({"game": ["projective-hex"], "moves": []}, "field 'game' must be a string, got a list"),
    ({"game": "projective-hex", "moves": [], "extra": 1}, "field 'extra' is unknown; fields: format, game"),
    ({"game": "projective-hex", "moves": [], "options": {"name": "x"}}, "unknown option 'name' for projective-hex"),
    ({"game": "projective-hex", "moves": [], "options": {"self": "x"}}, "unknown option 'self' for projective-hex"),
    # a stated result and game facts are checked against the replay
    ({"game": "projective-hex", "options": {"opening": "none"}, "moves": "B C F G N K # J R O T S W X".split(),
      "result": {"over": False}}, "record result 'over' False disagrees with its moves (True; 0-1)"),
    ({"game": "projective-hex", "moves": [], "result": {"over": 0}}, "'over' 0 disagrees"),
    ({"game": "projective-hex", "moves": [], "result": {"scores": [1, 2]}}, "'scores' [1, 2] disagrees"),
    ({"game": "projective-hex", "moves": ["J", "K", "O", "white"], "colours": ["white", "black"]},
     "field 'colours' ['white', 'black'] disagrees with its moves (['black', 'white'])"),
    ({"game": "weituweiqi", "moves": ["block"], "roles": ["escaper", "blocker"]}, "field 'roles'"),
    ("[projective-hex opening=none] 1. B 2. C 3. F 4. G 5. N 6. K 7. # 8. J 9. R 10. O 11. T 12. S 13. W 14. X *",
     "record result '*' says the game goes on, but its moves end it (0-1)"),
    ("[projective-hex size=3 size=4]", "option 'size' is given twice"),
    # resignations: the loser 0 or 1, a game not already over, a decisive result
    ({"game": "projective-hex", "moves": ["J"], "result": {"resigned": 2}},
     "'resigned' is the player who resigned, 0 or 1"),
    ({"game": "projective-hex", "moves": [], "result": {"resigned": 0, "winner": 0}}, "'winner' 0 disagrees"),
    ({"game": "projective-hex", "options": {"opening": "none"}, "moves": FINISHED, "result": {"resigned": 0}},
     "record says player 1 resigned, but its moves end the game (0-1)"),
    ("[projective-hex opening=none] 1. A resign 1/2-1/2", "a resignation ends 1-0 or 0-1"),
    ({"game": "projective-hex", "moves": ["A"], "result": {"resigned": 0, "text": "1-0"}},
     "record result 'text' '1-0' disagrees with its moves ('0-1'; 0-1)"),
    # losses on time: a winner stated, a game not already over, a decisive result, a reason that fits
    ({"game": "projective-hex", "moves": ["A"], "result": {"reason": "time"}},
     "'reason' 'time' needs 'winner' 0 or 1 (the loser lost on time), got None"),
    ({"game": "projective-hex", "options": {"opening": "none"}, "moves": FINISHED,
      "result": {"reason": "time", "winner": 1}}, "record says player 1 lost on time, but its moves end the game"),
    ("[projective-hex opening=none] 1. A time 1/2-1/2", "a loss on time ends 1-0 or 0-1"),
    ({"game": "projective-hex", "moves": ["A"], "result": {"reason": "resignation"}},
     "record result 'reason' 'resignation' disagrees with its moves (None; *)"),
    ({"game": "projective-hex", "moves": ["A"], "result": {"resigned": 1, "reason": "time"}},
     "record result 'reason' 'time' disagrees with its moves ('resignation'; 1-0)"),
])
def test_corrupt_records_are_refused_with_the_reason(record, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        hexarena.from_record(record)


def test_record_files_json_or_text(tmp_path):
    s = hexarena.load("projective-hex", opening="none").new_state()
    s.play("A")
    (tmp_path / "g.json").write_text(json.dumps(s.record()))
    (tmp_path / "g.txt").write_text(s.record_text() + "\n")
    assert read_file(tmp_path / "g.json") == s and read_file(tmp_path / "g.txt") == s
    assert from_bytes(s.record_text().encode()) == s
    for data, message in ((b"\xff", "UTF-8"), (b"[" * 100_000, "nested too deep"),
                          (b" " * (MAX_RECORD_BYTES + 1), "at most")):
        with pytest.raises(ValueError, match=message):
            from_bytes(data)
    with pytest.raises(ValueError, match="cannot read .*nope"):
        read_file(tmp_path / "nope")


def test_a_loss_on_time_round_trips_in_both_forms():
    s = hexarena.load("projective-hex", opening="none").new_state()
    for m in ("A", "B", "C"):
        s.play(m)
    s.lose_on_time()
    assert (s.timed_out, s.resigned, s.winner(), s.game.end_reason(s)) == (1, None, 0, "time")
    assert s.game.status(s) == "player 2 (second) lost on time: player 1 (first) wins"
    rec = s.record()
    assert rec["result"] == {"over": True, "winner": 0, "scores": None, "text": "1-0", "reason": "time"}
    assert s.record_text().endswith("3. C time 1-0")
    for again in (hexarena.from_record(json.loads(json.dumps(rec))), hexarena.from_record(s.record_text())):
        assert again.timed_out == 1 and again.record()["result"] == rec["result"]
        assert again.record_text() == s.record_text()
    assert parse_text(s.record_text())["ended"] == "time"


def test_the_library_takes_a_loss_on_time_back_as_a_resignation():
    s = hexarena.load("projective-hex", opening="none").new_state()
    s.play("A")
    s.lose_on_time(0)
    assert s.game.status(s).startswith("player 1 (first) lost on time")
    assert s.undo() == -1 and not s.is_over() and s.timed_out is None and s.to_move == 1
    with pytest.raises(hexarena.games.base.IllegalMove, match="lose on time: the game is over"):
        finished().lose_on_time()
