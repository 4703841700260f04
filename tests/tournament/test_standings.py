"""Standings, tie-breaks and crosstables against tables computed by hand."""

import pytest

from hexarena.tournament import Entrant, Played, RoundRecord, berger_rounds, crosstable, standings


def entrants(names: str, withdrawn: str = "") -> list[Entrant]:
    """Entrants seeded in the order named."""
    return [Entrant(n, i, withdrawn=n in withdrawn.split()) for i, n in enumerate(names.split(), 1)]


def rounds(*spec: tuple[list[tuple[str, str, float | None] | tuple[str, str, float, str]], str | None]
           ) -> list[RoundRecord]:
    """Rounds from ([(seat0, seat1, result[, "forfeit"]), ...], bye) per round."""
    return [RoundRecord(r, tuple(Played(r, (g[0], g[1]), g[2], forfeit=len(g) > 3) for g in games), bye)
            for r, (games, bye) in enumerate(spec, 1)]


# A round robin of four by the Berger table (A=1 .. D=4): a draw, and D withdrew after round 2 (forfeit to B).
ROUND_ROBIN = rounds(([("A", "D", 1.0), ("B", "C", 0.5)], None),
                     ([("D", "C", 1.0), ("A", "B", 0.0)], None),
                     ([("B", "D", 1.0, "forfeit"), ("C", "A", 1.0)], None))


def test_the_round_robin_follows_its_berger_table():
    seeds = {n: i for i, n in enumerate("ABCD", 1)}
    assert [[(seeds[a], seeds[b]) for a, b in (g.seats for g in r.games)] for r in ROUND_ROBIN] == berger_rounds(4)


def test_a_round_robin_of_four_with_a_draw_and_a_forfeit():
    """By hand: points A 0+... = 1, B ½+1+1(forfeit) = 2.5, C ½+0+1 = 1.5, D 1+0+0 = 1. Over the board:
    Buchholz A = D 1 + B 2.5 + C 1.5 = 5 (cut 4), B = C 1.5 + A 1 = 2.5 (cut 1.5), C = B 2.5 + D 1 + A 1 = 4.5
    (cut 3.5), D = A 1 + C 1.5 = 2.5 (cut 1.5); Sonneborn-Berger A = D 1, B = ½·C 1.5 + A 1 = 1.75,
    C = ½·B 2.5 + A 1 = 2.25, D = C 1.5. D and A tie on 1 point: D's SB 1.5 beats A's 1."""
    rows = standings(entrants("A B C D", withdrawn="D"), ROUND_ROBIN, "round-robin")
    assert rows == [
        {"rank": 1, "name": "B", "points": 2.5, "buchholz": 2.5, "buchholz_cut1": 1.5, "sonneborn_berger": 1.75,
         "wins": 1, "games": 2, "withdrawn": False},
        {"rank": 2, "name": "C", "points": 1.5, "buchholz": 4.5, "buchholz_cut1": 3.5, "sonneborn_berger": 2.25,
         "wins": 1, "games": 3, "withdrawn": False},
        {"rank": 3, "name": "D", "points": 1.0, "buchholz": 2.5, "buchholz_cut1": 1.5, "sonneborn_berger": 1.5,
         "wins": 1, "games": 2, "withdrawn": True},
        {"rank": 4, "name": "A", "points": 1.0, "buchholz": 5.0, "buchholz_cut1": 4.0, "sonneborn_berger": 1.0,
         "wins": 1, "games": 3, "withdrawn": False}]


def test_the_round_robins_crosstable():
    assert crosstable(entrants("A B C D"), ROUND_ROBIN) == [
        {"name": "A", "results": {"D": ["1"], "B": ["0"], "C": ["0"]}, "byes": []},
        {"name": "B", "results": {"C": ["½"], "A": ["1"], "D": ["+"]}, "byes": []},
        {"name": "C", "results": {"B": ["½"], "D": ["0"], "A": ["1"]}, "byes": []},
        {"name": "D", "results": {"A": ["0"], "C": ["1"], "B": ["-"]}, "byes": []}]


# A Swiss of five over three rounds (P1 best seed), a bye each round.
SWISS = rounds(([("P1", "P4", 1.0), ("P5", "P2", 0.5)], "P3"),
               ([("P3", "P1", 0.0), ("P4", "P5", 0.5)], "P2"),
               ([("P1", "P2", 0.5), ("P5", "P3", 1.0)], "P4"))


def test_a_swiss_of_five_with_byes():
    """By hand: points P1 1+1+½ = 2.5, P2 ½+1(bye)+½ = 2, P3 1(bye)+0+0 = 1, P4 0+½+1(bye) = 1.5,
    P5 ½+½+1 = 2. Buchholz (no virtual opponent for a bye): P1 = P4 1.5 + P3 1 + P2 2 = 4.5 (cut 3.5),
    P2 = P5 2 + P1 2.5 = 4.5 (cut 2.5), P3 = P1 2.5 + P5 2 = 4.5 (cut 2.5), P4 = P1 2.5 + P5 2 = 4.5 (cut 2.5),
    P5 = P2 2 + P4 1.5 + P3 1 = 4.5 (cut 3.5); SB P1 = 1.5 + 1 + ½·2 = 3.5, P2 = ½·2 + ½·2.5 = 2.25, P3 = 0,
    P4 = ½·2 = 1, P5 = ½·2 + ½·1.5 + 1 = 2.75. P5 and P2 tie on 2 points: P5's cut 3.5 beats P2's 2.5."""
    rows = standings(entrants("P1 P2 P3 P4 P5"), SWISS, "swiss")
    table = [(r["rank"], r["name"], r["points"], r["buchholz"], r["buchholz_cut1"], r["sonneborn_berger"],
              r["wins"], r["games"]) for r in rows]
    assert table == [(1, "P1", 2.5, 4.5, 3.5, 3.5, 2, 3), (2, "P5", 2.0, 4.5, 3.5, 2.75, 1, 3),
                     (3, "P2", 2.0, 4.5, 2.5, 2.25, 0, 2), (4, "P4", 1.5, 4.5, 2.5, 1.0, 0, 2),
                     (5, "P3", 1.0, 4.5, 2.5, 0.0, 0, 2)]
    assert not any(r["withdrawn"] for r in rows)


def test_the_swiss_crosstable_lists_the_byes():
    assert crosstable(entrants("P1 P2 P3 P4 P5"), SWISS) == [
        {"name": "P1", "results": {"P4": ["1"], "P3": ["1"], "P2": ["½"]}, "byes": []},
        {"name": "P2", "results": {"P5": ["½"], "P1": ["½"]}, "byes": [2]},
        {"name": "P3", "results": {"P1": ["0"], "P5": ["0"]}, "byes": [1]},
        {"name": "P4", "results": {"P1": ["0"], "P5": ["½"]}, "byes": [3]},
        {"name": "P5", "results": {"P2": ["½"], "P4": ["½"], "P3": ["1"]}, "byes": []}]


def test_direct_encounter_separates_players_tied_on_points_and_sonneborn_berger():
    """A and C both score 1.5 with SB 1.75 (A = D ½ + ½·B 2.5, C = ½·D ½ + A 1.5) and one win each: C beat A, so C
    ranks above the better seed."""
    played = rounds(([("A", "D", 1.0), ("B", "C", 1.0)], None), ([("D", "C", 0.5), ("A", "B", 0.5)], None),
                    ([("B", "D", 1.0), ("C", "A", 1.0)], None))
    rows = standings(entrants("A B C D"), played, "round-robin")
    assert [(r["name"], r["points"], r["sonneborn_berger"], r["wins"]) for r in rows] == [
        ("B", 2.5, 2.75, 2), ("C", 1.5, 1.75, 1), ("A", 1.5, 1.75, 1), ("D", 0.5, 0.75, 0)]


def test_players_who_have_not_all_met_are_not_separated_by_their_games():
    """Two rounds of a round robin: A, B and E score 1 with SB 1 and one win each; A beat B and B beat E, but A and
    E have not met, so direct encounter does not apply and the seeds decide (E 1, B 2, A 3)."""
    played = rounds(([("A", "B", 1.0), ("C", "D", 1.0), ("E", "F", 1.0)], None),
                    ([("C", "A", 1.0), ("B", "E", 1.0), ("D", "F", 0.0)], None))
    rows = standings(entrants("E B A C D F"), played, "round-robin")
    assert [(r["name"], r["points"], r["sonneborn_berger"]) for r in rows] == [
        ("C", 2.0, 1.0), ("E", 1.0, 1.0), ("B", 1.0, 1.0), ("A", 1.0, 1.0), ("F", 1.0, 0.0), ("D", 0.0, 0.0)]


def test_a_game_going_on_counts_nothing_yet_and_knockouts_rank_by_the_stage_reached():
    played = rounds(([("A", "D", 1.0), ("B", "C", 0.5), ("C", "B", None)], None))
    rows = standings(entrants("A B C D"), played, "knockout")
    assert [(r["name"], r["points"], r["games"]) for r in rows] == [
        ("A", 1.0, 1), ("B", 0.5, 1), ("C", 0.5, 1), ("D", 0.0, 1)]
    assert crosstable(entrants("A B C D"), played)[1]["results"] == {"C": ["½"]}
    before = standings(entrants("A B"), [], "swiss")  # numbers are floats, even with no game yet
    assert [type(before[0][k]) for k in ("points", "buchholz", "buchholz_cut1", "sonneborn_berger")] == [float] * 4


def test_knockout_winner_outranks_the_finalist_with_more_points():
    """The finalist drew three times in round 1; the champion had a bye: the stage reached decides first."""
    played = rounds(([("F", "X", 0.5), ("X", "F", 0.5), ("F", "X", 1.0)], "C"),
                    ([("C", "F", 0.5), ("F", "C", 0.0)], None))
    rows = standings(entrants("C F X"), played, "knockout")
    assert [(r["name"], r["points"]) for r in rows] == [("C", 2.5), ("F", 2.5), ("X", 1.0)]


@pytest.mark.parametrize("bad,message", [
    (lambda: Played(1, ("A", "A"), 1.0), "two different players"),
    (lambda: Played(0, ("A", "B"), 1.0), "numbered from 1"),
    (lambda: Played(1, ("A", "B"), 0.7), "one of 1.0, 0.5, 0.0"),
    (lambda: Played(1, ("A", "B"), 0.5, forfeit=True), "a forfeit has a winner"),
    (lambda: RoundRecord(2, (Played(1, ("A", "B"), 1.0),)), "round 2 holds games of round 1"),
    (lambda: standings(entrants("A B"), rounds(([("A", "Z", 1.0)], None)), "swiss"), "names Z: not an entrant"),
    (lambda: standings(entrants("A B"), [], "arena"), "format 'arena': one of swiss"),
    (lambda: standings([Entrant("A", 1), Entrant("A", 2)], [], "swiss"), "repeat a name or a seed"),
])
def test_bad_values_are_refused_with_what_is_allowed(bad, message):
    with pytest.raises(ValueError, match=message):
        bad()
