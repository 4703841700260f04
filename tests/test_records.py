"""Records: JSON and text forms round-trip; corrupt records are refused clearly."""

import json
import re

import pytest

import hexarena
from hexarena.record_writer import HEADER_KEYS
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


# players, ratings, the time control and the time used per move (arena games) ----------------------------------
ARENA = {"players": ["Ann Lee", "bó]b=%"], "clock": {"initial": 60, "increment": 1},
         "ratings": [{"before": 1500, "after": 1662}, {"before": 1500, "after": None}],
         "started": "2026-11-23T09:40:00.000+00:00"}
ARENA_TIMES = ["2026-11-23T09:40:03.200+00:00", "2026-11-23T09:40:04.250+00:00", "2026-11-23T09:40:10+00:00"]


def arena():
    s = hexarena.load("projective-hex", opening="none").new_state()
    s.meta.update(ARENA)
    for m in "ABC":
        s.play(m)
    s.set_times(ARENA_TIMES)
    return s


def test_an_arena_game_records_its_players_ratings_clock_and_time_used():
    s = arena()
    rec = s.record()
    assert rec["clock"] == {"initial": 60, "increment": 1} and rec["ratings"] == ARENA["ratings"]
    assert rec["timestamps"]["used"] == [3.2, 1.05, 5.75]
    assert list(rec)[:7] == ["format", "game", "options", "players", "clock", "ratings", "moves"]
    assert s.record_text() == ("[projective-hex size=3 opening=none player1=Ann%20Lee player2=b%C3%B3%5Db%3D%25 "
                               "rating1=1500>1662 rating2=1500 clock=60+1 used=3.2,1.05,5.75] 1. A 2. B 3. C *")
    for again in (hexarena.from_record(json.loads(json.dumps(rec))), hexarena.from_record(s.record_text())):
        assert {k: again.meta[k] for k in ("players", "clock", "ratings")} == {k: ARENA[k] for k in
                                                                               ("players", "clock", "ratings")}
        assert again.meta["used"] == [3.2, 1.05, 5.75] and again.record_text() == s.record_text()
    assert parse_text(s.record_text())["header"]["clock"] == "60+1"


def test_a_correspondence_clock_and_one_rated_seat():
    s = hexarena.load("projective-hex", opening="none").new_state()
    s.meta.update(clock={"days": 3}, ratings=[None, {"before": 1200, "after": None}])
    assert s.record_text() == "[projective-hex size=3 opening=none rating2=1200 clock=3d] *"
    assert s.record()["timestamps"]["used"] == [] and s.record()["ratings"] == [None, {"before": 1200, "after": None}]
    assert hexarena.from_record(s.record_text()).meta["ratings"] == [None, {"before": 1200, "after": None}]


def test_the_time_used_is_kept_from_a_record_then_derived_from_the_move_times():
    s = hexarena.from_record(arena().record())
    s.meta["used"] = [9.0, 8.0, 7.0]
    s.undo()
    assert s.record()["timestamps"]["used"] == [9.0, 8.0]
    s.play("C")
    s.set_times(ARENA_TIMES)
    assert s.record()["timestamps"]["used"] == [9.0, 8.0, 5.75]
    s.meta["started"] = None
    s.meta["used"] = None
    assert s.record()["timestamps"]["used"] == [0.0, 1.05, 5.75]


def test_names_go_in_the_text_header_only_with_a_clock_or_ratings():
    s = arena()
    s.meta.update(clock=None, ratings=None)
    assert s.record_text() == "[projective-hex size=3 opening=none] 1. A 2. B 3. C *"
    assert "clock" not in s.record() and "ratings" not in s.record() and "used" not in s.record()["timestamps"]
    assert hexarena.from_record("[projective-hex player1=ann] *").meta["players"] == ["ann", "player 2"]


def test_the_text_header_keys_are_no_games_options():
    for name in hexarena.GAMES:
        assert not set(hexarena.load(name).options) & set(HEADER_KEYS)


T = "2026-11-23T09:40:03.200+00:00"
CLOCK = {"initial": 60, "increment": 1}


@pytest.mark.parametrize("record,message", [
    ({"clock": {"initial": -1}}, "record field 'clock' {'initial': -1}: give null, {\"days\": D} (1..14) or"),
    ({"clock": "60+1"}, "record field 'clock' '60+1': give null"),
    ({"clock": {"initial": 14, "increment": 0}}, "record field 'clock' initial 14: a whole number from 15 to 10800"),
    ({"clock": {"initial": 60, "increment": 1.5}}, "record field 'clock' increment 1.5: a whole number from 0"),
    ({"clock": {"days": 15}}, "record field 'clock' days 15: a whole number from 1 to 14"),
    ({"ratings": 5}, "record field 'ratings' 5: give a list of the two seats' ratings"),
    ({"ratings": [None]}, "record field 'ratings' [None]: give a list"),
    ({"ratings": [None, None]}, "not both null"),
    ({"ratings": [{"before": 1500}, None]},
     "record field 'ratings[0]' {'before': 1500}: give {\"before\": R, \"after\": R or null}"),
    ({"ratings": [None, {"before": 1500, "after": -3}]},
     "record field 'ratings[1]' after -3: a whole number from 0 to 9999 or null"),
    ({"ratings": [{"before": True, "after": None}, None]}, "'ratings[0]' before True: a whole number from 0 to 9999"),
    ({"ratings": [{"before": 1500.0, "after": None}, None]}, "'ratings[0]' before 1500.0: a whole number"),
    ({"ratings": [{"before": None, "after": 1}, None]}, "'ratings[0]' before None: a whole number"),
    ({"timestamps": {"moves": [T], "used": [1]}}, "record field 'timestamps.used' needs a 'clock'"),
    ({"clock": CLOCK, "timestamps": {"moves": [T], "used": [1, 2]}},
     "record field 'timestamps.used' must be a list of seconds from 0 to 1000000000, one per move time of "
     "'timestamps.moves' (1); got [1, 2]"),
    ({"clock": CLOCK, "timestamps": {"used": [1]}}, "one per move time of 'timestamps.moves' (0)"),
    ({"clock": CLOCK, "timestamps": {"moves": [T], "used": [-1]}}, "'timestamps.used' must be a list of seconds"),
    ({"clock": CLOCK, "timestamps": {"moves": [T], "used": ["1"]}}, "'timestamps.used' must be a list of seconds"),
    ({"clock": CLOCK, "timestamps": {"moves": [T], "used": [True]}}, "'timestamps.used' must be a list of seconds"),
    ({"clock": CLOCK, "timestamps": {"moves": [T], "used": [float("inf")]}}, "'timestamps.used' must be a list"),
    ({"clock": CLOCK, "timestamps": {"moves": [T], "used": 1}}, "'timestamps.used' must be a list"),
    ({"timestamps": {"moves": [T], "spent": [1]}}, "'timestamps' must be an object with 'started', 'moves' and"),
])
def test_bad_clocks_ratings_and_times_used_are_refused(record, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        hexarena.from_record({"game": "projective-hex", "moves": ["A"], **record})


@pytest.mark.parametrize("header,message", [
    ("clock=60", "record header 'clock' '60': give INITIAL+INCREMENT (seconds) or Dd (days)"),
    ("clock=60+1s", "record header 'clock' '60+1s': give"),
    ("clock=10+0", "record header 'clock' initial 10: a whole number from 15 to 10800"),
    ("clock=0d", "record header 'clock' days 0: a whole number from 1 to 14"),
    ("clock=3d clock=3d", "option 'clock' is given twice"),
    ("rating1=abc", "record header 'rating1' 'abc': give BEFORE>AFTER or BEFORE, whole numbers from 0 to 9999"),
    ("rating1=1500>", "record header 'rating1' '1500>': give"),
    ("rating2=1500>99999", "record header 'rating2' after 99999: a whole number from 0 to 9999"),
    ("player1=%zz", "record header 'player1' '%zz': a '%' starts an escape of two hex digits"),
    ("player2=%FF", "record header 'player2' '%FF': its %XX escapes are no UTF-8 text"),
    ("player1=a%0Ab", "a name is 1 to 200 printable characters"),
    ("player1=", "a name is 1 to 200 printable characters"),
    ("used=1", "record header 'used' needs a 'clock'"),
    ("clock=3d used=1,2", "record header 'used' must be a list of seconds from 0 to 1000000000, one per written "
                          "move (1); got [1.0, 2.0]"),
    ("clock=3d used=1.2345", "record header 'used' holds '1.2345': seconds with at most 3 decimals"),
    ("clock=3d used=", "record header 'used' holds ''"),
])
def test_bad_text_headers_are_refused(header, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        hexarena.from_record(f"[projective-hex opening=none {header}] 1. A *")
