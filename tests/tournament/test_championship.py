"""Championship divisions: names, the first cycle by rating, and cycles of promotion and relegation."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexarena.tournament import division_names, first_divisions, next_divisions
from hexarena.tournament.championship import MAX_SIZE, MIN_SIZE, SMALLEST, children, parent, parse


def rated(n: int, prefix: str = "p") -> list[tuple[str, float]]:
    return [(f"{prefix}{i}", 2500.0 - i) for i in range(n)]


def test_names_and_the_tree():
    assert division_names(15)[-1] == "4h" and division_names(3) == ["1", "2a", "2b"]
    assert children("1") == ["2a", "2b"] and children("2b") == ["3c", "3d"] and parent("3c") == "2b"
    assert parent("1") is None and division_names(64)[-1] == "7a" and division_names(63)[31:33] == ["6a", "6b"]
    assert division_names(63)[31 + 26] == "6aa" and parse("6aa") == (6, 26)
    for bad in ("0", "2", "1a", "2c", "x"):
        with pytest.raises(ValueError, match="division"):
            parse(bad)


def test_the_first_cycle_deals_by_rating_in_snake_order():
    divisions = first_divisions(rated(24))
    assert divisions["1"] == [f"p{i}" for i in range(8)]
    assert divisions["2a"] == ["p8", "p11", "p12", "p15", "p16", "p19", "p20", "p23"]
    assert divisions["2b"] == ["p9", "p10", "p13", "p14", "p17", "p18", "p21", "p22"]


def test_a_short_last_level_uses_fewer_divisions_or_joins_the_level_above():
    assert {k: len(v) for k, v in first_divisions(rated(24 + 7)).items()} == {"1": 8, "2a": 8, "2b": 8, "3a": 3,
                                                                               "3b": 4}
    assert {k: len(v) for k, v in first_divisions(rated(24 + 2)).items()} == {"1": 8, "2a": 9, "2b": 9}
    assert first_divisions(rated(5)) == {"1": [f"p{i}" for i in range(5)]} and first_divisions([]) == {}


def test_a_cycle_of_three_divisions():
    """1, 2a and 2b of eight (best first): the top 2 of 2a and 2b go up, the bottom 4 of 1 go down (two to each
    child), one leaver is removed and two newcomers join level 2."""
    final = {"1": [f"a{i}" for i in range(8)], "2a": [f"b{i}" for i in range(8)], "2b": [f"c{i}" for i in range(8)]}
    after = next_divisions(final, leaving={"b5"}, joining=[("new1", 1400.0), ("new2", 1800.0)])
    assert sorted(after["1"]) == sorted(["a0", "a1", "a2", "a3", "b0", "b1", "c0", "c1"])
    assert set(after["2a"]) >= {"a4", "a7", "b2", "b3", "b4", "b6", "b7"} and "b5" not in after["2a"]
    assert set(after["2b"]) >= {"a5", "a6", "c2", "c3", "c4", "c5", "c6", "c7"}
    assert sorted(after["2a"] + after["2b"]) == sorted(
        ["a4", "a5", "a6", "a7", "b2", "b3", "b4", "b6", "b7", "c2", "c3", "c4", "c5", "c6", "c7", "new1", "new2"])
    assert "new2" in after["2a"]  # 2a lost a leaver: the better newcomer goes to the smaller division
    assert all(MIN_SIZE <= len(v) <= MAX_SIZE for v in after.values())


def test_a_second_level_promotes_into_the_first_and_takes_from_the_third():
    final = first_divisions(rated(8 + 16 + 32))
    after = next_divisions(final, leaving=set(), joining=[])
    assert set(final["3a"][:2] + final["3b"][:2]) <= set(after["2a"])
    assert set(final["2a"][-4:]) <= set(after["3a"] + after["3b"]) and set(final["2a"][:2]) <= set(after["1"])
    assert {k: len(v) for k, v in after.items()} == {k: len(v) for k, v in final.items()}


def test_newcomers_past_the_room_open_a_new_level():
    final = first_divisions(rated(24))
    after = next_divisions(final, leaving=set(), joining=rated(12, "n"))
    assert "3a" in after and all(len(v) >= SMALLEST for v in after.values())
    assert all(len(v) <= MAX_SIZE for v in after.values())
    assert sorted(p for v in after.values() for p in v) == sorted([p for p, _ in rated(24) + rated(12, "n")])


def test_bad_divisions_are_refused():
    with pytest.raises(ValueError, match="a player is in two divisions"):
        next_divisions({"1": ["a", "b"], "2a": ["a"]}, set(), [])
    with pytest.raises(ValueError, match="joining b: already in a division"):
        next_divisions({"1": ["a", "b"]}, set(), [("b", 1500.0)])
    with pytest.raises(ValueError, match="division '2q'"):
        next_divisions({"1": ["a"], "2q": ["b"]}, set(), [])


@settings(max_examples=80, deadline=None)
@given(players=st.integers(2, 120), cycles=st.integers(1, 4), seed=st.integers(0, 2**32))
def test_cycles_keep_everyone_once_and_sizes_in_range(players, cycles, seed):
    rng = random.Random(seed)
    divisions = first_divisions(rated(players))
    everyone = {p for v in divisions.values() for p in v}
    for cycle in range(cycles):
        final = {name: rng.sample(v, len(v)) for name, v in divisions.items()}
        leaving = set(rng.sample(sorted(everyone), min(len(everyone) - 1, rng.randint(0, 6))))
        joining = [(f"c{cycle}n{i}", rng.uniform(1000, 2000)) for i in range(rng.randint(0, 12))]
        divisions = next_divisions(final, leaving, joining)
        everyone = everyone - leaving | {n for n, _ in joining}
        placed = [p for v in divisions.values() for p in v]
        assert sorted(placed) == sorted(everyone) and all(divisions.values())
        for name, v in divisions.items():
            below = any(divisions.get(c) for c in children(name))  # a short division takes from below
            supply = sum(len(divisions.get(c, [])) for c in children(name))
            assert SMALLEST <= len(v) <= MAX_SIZE or name == "1" and len(v) < SMALLEST, (name, len(v))
            assert len(v) >= MIN_SIZE or not below or supply < 2 * MIN_SIZE, (name, len(v), supply)
