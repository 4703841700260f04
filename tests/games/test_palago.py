"""Palago / Lambo: the tile against RULES.md, groups and closedness against a from-scratch oracle,
every ending of every variant, the hole rule, the notation and records."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

import hexarena
from hexarena import IllegalMove, MalformedMove
from hexarena.games import palago_playouts as PP
from hexarena.games import palago_rules as P
from hexarena.games.base import WINNER
from hexarena.games.palago_draw import BLUE, WHITE, tile_pixels
from hexarena.render import raster
from hexarena.kernels import seed as seed_numba

from tests.palago_oracle import CORNER, EDGE, bridges_of, colour_of, picture, tips_of

SMALLEST_WIN = ["1,1:0", "3,1:2", "2,0:0", "1,-1:1"]  # a white bridge closed by four tips: Light wins
DOUBLE_WIN = ("1. -2,0:1 2. -3,1:2 -2,2:2 3. -1,-1:1 0,-2:2 4. -4,2:0 -3,3:1 5. 1,1:2 2,0:0 6. -2,-2:0 -1,-3:0 "
              "7. -4,0:2 -5,-1:1 8. -3,-1:2 -4,-2:2 9. -1,3:2 0,2:1 10. -5,1:2 -6,2:1 11. -4,4:2 -5,5:0 "
              "12. -7,5:2 -6,6:1 13. -1,1:2").split()
EAT_WIN = ["-1,-1:0", "0,-2:1", "-1,-3:2", "1,1:0", "3,1:2", "2,0:1", "1,-1:2"]  # Dark eats two white eyes
EAT_DOUBLE = ("1. 1,1:0 2. -1,1:0 -2,2:1 3. 0,2:0 2,2:1 4. 1,-1:0 0,-2:2 5. -1,3:2 1,3:0 6. -3,3:0 -2,4:0 "
              "7. -1,-3:1 -2,-2:0 8. -4,2:2 -3,1:2 9. 2,4:2 3,3:1 10. -1,-1:2 -2,0:0 11. 0,4:1").split()
MUST_WIN = ["1,1:2", "2,0:1", "3,-1:0", "-1,-1:1", "-2,0:2", "-1,1:1", "-3,1:0"]  # Light holds a blue group


def moves_of(record: list[str]) -> list[str]:
    return [m for m in record if ":" in m]


def played(moves: list[str], **options) -> hexarena.State:
    state = hexarena.load("palago", **options).new_state()
    for m in moves:
        state.play(m)
    return state


# --- the tile ------------------------------------------------------------------------------

@pytest.mark.parametrize("k", [0, 1, 2])
def test_each_orientation_has_the_bridges_tips_and_corner_colours_of_the_rules(k):
    bridges = bridges_of(k)
    assert bridges == [(2 * k, (2 * k + 2) % 6), ((2 * k + 3) % 6, (2 * k + 5) % 6)]
    assert [colour_of(a) for a, _ in bridges] == ["blue", "white"]
    assert tips_of(k) == {2 * k + 1: "white", (2 * k + 4) % 6: "blue"}
    assert sorted(c for b in bridges for c in b) + sorted(tips_of(k)) != [] and \
        sorted([c for b in bridges for c in b] + list(tips_of(k))) == list(range(6))
    game = hexarena.load("palago", tiles=4)
    state = game.new_state()
    state.play(f"2,0:{k}")
    s = state.array
    tile = 1  # its nodes 6..11: bridges join corners, tips stand alone unless they meet the start tile
    for a, b in bridges:
        assert game.root(s, 6 + a) == game.root(s, 6 + b)
        assert s[game.tables.bridges + game.root(s, 6 + a)] >= 1
    assert all(game.root(s, 6 + i) != game.root(s, 6 + j) for i in range(6) for j in range(6) if (i - j) % 2)
    assert tile == 1


@pytest.mark.parametrize("k", [0, 1, 2])
def test_the_image_of_a_tile_has_its_orientations_colours(k):
    """Near each corner, the corner's colour; near the centre, towards each corner, blue on the blue
    bridge's side (corners 2k..2k+2, the white tip's side of the tile) and white on the other."""
    radius = 40.0
    image = np.zeros((100, 100, 3), dtype=np.uint8)
    tile_pixels(image, 50.0, 50.0, radius, k)
    blue_bridge = bridges_of(k)[0]
    colours = {raster.colour(BLUE): "blue", raster.colour(WHITE): "white"}

    def pixel(corner, distance):  # the colour at ``distance`` from the centre towards ``corner``
        angle = math.radians(60 * corner - 90)
        rgb = image[round(50 + distance * math.sin(angle)), round(50 + distance * math.cos(angle))]
        return colours.get(tuple(int(v) for v in rgb))

    for corner in range(6):
        near = "blue" if corner in blue_bridge or tips_of(k).get(corner) == "blue" else "white"
        assert pixel(corner, 0.85 * radius) == near == colour_of(corner)
        assert pixel(corner, 0.3 * radius) == ("blue" if (corner - 2 * k) % 6 <= 2 else "white")


def test_the_board_image_is_cropped_to_the_tiles_and_shows_orientations():
    images = [raster.rgb(played([f"2,0:{k}"], tiles=4)) for k in range(3)]
    assert all(image.shape == images[0].shape for image in images)
    assert len({image.tobytes() for image in images}) == 3, "the orientation shows"
    start = raster.rgb(hexarena.load("palago").new_state(), radius=12)
    assert start.shape[0] < 80 and start.shape[1] < 80, "one tile and a margin, not the plane of 48 tiles"
    state = played(moves_of(DOUBLE_WIN))
    image = raster.rgb(state, radius=12)
    assert image.shape[0] < 20 * 12 * 1.5 and np.all(image == raster.colour(BLUE), axis=2).sum() > 1000


def test_every_edge_is_half_blue_half_white_and_neighbours_share_corners():
    for e, (dx, dy) in enumerate(EDGE):
        a, b = e, (e + 1) % 6
        assert {colour_of(a), colour_of(b)} == {"blue", "white"}
        # the neighbour across edge e has the same two corners, of the same colours, at the same points
        theirs = {(3 * dx + CORNER[j][0], 3 * dy + CORNER[j][1]): j for j in range(6)}
        for i in (a, b):
            j = theirs[CORNER[i]]
            assert colour_of(i) == colour_of(j)
            assert j == ((i + 4) % 6 if i == e else (i + 2) % 6)  # what the kernels' vertex join assumes


def test_the_start_tile_is_fixed_and_light_places_one_tile_next_to_it():
    state = hexarena.load("palago").new_state()
    assert state.game.tiles(state.array) == [(state.game.topology.index("0,0"), 0)]
    assert state.to_move == 0 and state.turn == 1
    assert sorted({m.split(":")[0] for m in state.legal_moves()}) == sorted(["2,0", "1,1", "-1,1", "-2,0",
                                                                             "-1,-1", "1,-1"])
    state.play("2,0:1")
    assert state.to_move == 1 and state.turn == 2 and state.step == 0
    state.play("4,0:0")
    assert state.to_move == 1 and state.step == 1
    state.play("3,1:2")
    assert state.to_move == 0 and state.turn == 3


def test_lambo_is_an_alias_of_palago():
    assert hexarena.load("lambo").name == "palago" and "palago" in hexarena.GAMES


# --- groups and closedness -----------------------------------------------------------------

def check_against_oracle(state: hexarena.State) -> None:
    """Union-find groups, bridges, open counts, closedness and eaters equal the oracle's."""
    game, s = state.game, state.array
    pic = picture(game, s)
    groups = game.groups(s)
    xy = game.topology.xy
    for root, nodes in groups.items():
        points = set()
        for node in nodes:
            tile, corner = divmod(node, 6)
            x, y = (int(v) for v in xy[int(s[game.tables.tcell + tile])])
            points.add(pic.group[pic.vertex[(x, y, corner)]])
        assert len(points) == 1, "one union-find group is one oracle group"
        g = points.pop()
        facts = game.group_facts(s, root)
        assert facts["bridges"] == pic.bridge_count[g]
        assert facts["open"] == pic.open_count(g)
        if facts["closed"] and game.options["variant"] != "standard":
            eater = game.root(s, int(s[game.tables.eater + root]))
            tile, corner = divmod(eater, 6)
            x, y = (int(v) for v in xy[int(s[game.tables.tcell + tile])])
            assert pic.group[pic.vertex[(x, y, corner)]] == pic.surrounding(g)
    assert len(groups) == len(pic.group_ids())


@pytest.mark.parametrize("options", [{}, {"variant": "eat-enemy"}, {"variant": "must-contain", "anywhere": True}])
def test_incremental_groups_equal_a_flood_fill_over_random_games(options):
    rng = random.Random(7)
    game = hexarena.load("palago", **options)
    for _ in range(6):
        state = game.new_state()
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
            check_against_oracle(state)


def test_the_eye_of_three_tips_is_closed_and_does_not_win():
    state = played(["2,0:2", "1,-1:1", "3,-1:0"])  # start's white tip at corner 1 meets two white tips
    game, s = state.game, state.array
    root = game.root(s, 1)
    assert game.group_facts(s, root) == {"owner": 0, "bridges": 0, "open": 0, "closed": True, "eats": 0,
                                         "eatmax": -1}
    assert not state.is_over()


def test_the_smallest_winning_group_is_a_bridge_closed_by_four_tips():
    state = played(SMALLEST_WIN[:-1])
    assert not state.is_over()
    state.play(SMALLEST_WIN[-1])  # Light's first tile of turn 3 ends the game at once
    assert state.winner() == 0 and state.step == 1
    group = state.game.deciding_group(state.array)
    facts = state.game.group_facts(state.array, group[0])
    assert facts["bridges"] == 1 and facts["closed"]
    assert len(state.game.tiles(state.array)) == 5
    assert state.game.rules_status(state) == "light wins with a closed white group with 1 bridge"


def test_a_group_closed_for_the_opponent_wins_for_the_opponent():
    state = played(["-1,1:0", "1,1:2", "2,0:0", "-2,0:0", "-1,-1:1"])
    assert state.winner() == 0  # the start tile's white bridge
    state = played(["-1,1:0", "1,1:2", "2,0:0", "-2,0:0"])
    state.undo()
    state = played(["-2,0:0", "-1,-1:1", "0,-2:0", "1,1:2", "-1,1:0"])  # Light's tile closes... for Light
    assert state.winner() == 0


def test_a_tile_making_winners_for_both_loses_for_the_mover():
    state = played(moves_of(DOUBLE_WIN)[:-1])
    mover = state.to_move
    state.play(moves_of(DOUBLE_WIN)[-1])
    assert state.winner() == 1 - mover and state.array[P.HOW] == P.DOUBLE_WIN
    pic = picture(state.game, state.array)
    winners = {pic.colour(g) for g in pic.group_ids() if pic.closed(g) and pic.bridge_count[g]}
    assert winners == {"white", "blue"}
    assert "winners for both" in state.game.rules_status(state)


# --- the hole rule ---------------------------------------------------------------------------

def position_with_a_hole(options=None) -> tuple[hexarena.State, int]:
    """A random position at a two-tile turn's start with an empty cell whose six neighbours are filled."""
    rng = random.Random(3)
    game = hexarena.load("palago", **(options or {}))
    while True:
        state = game.new_state()
        while not state.is_over():
            s = state.array
            grid = game.grid(s)
            if state.step == 0 and s[P.ALLOW] == 2:
                for c, _ in game.tiles(s):
                    for m in game.topology.neighbours(c):
                        if not grid[m] and all(grid[n] for n in game.topology.neighbours(m)):
                            return state, m
            state.apply(rng.choice(state.legal_actions()))


def test_a_turns_first_tile_fills_a_hole_only_if_it_ends_the_game():
    state, hole = position_with_a_hole()
    name = state.game.topology.name(hole)
    legal = set(state.legal_moves())
    for k in range(3):
        trial = state.copy()
        trial.array  # noqa: B018
        t = state.game.kernels
        s = state.array.copy()
        t.apply(s, state.game.tables, 3 * hole + k)
        ends = s[WINNER] >= 0
        assert (f"{name}:{k}" in legal) == ends
        if not ends:
            with pytest.raises(IllegalMove, match="fills a hole"):
                state.play(f"{name}:{k}")
    anywhere = hexarena.load("palago", anywhere=True).new_state()
    for m in state.moves():
        anywhere.play(m)
    assert {f"{name}:{k}" for k in range(3)} <= set(anywhere.legal_moves())


def test_the_second_tile_goes_next_to_the_first_unless_anywhere():
    state = played(["2,0:1", "4,0:0"])
    with pytest.raises(IllegalMove, match="not next to this turn's first tile at 4,0.*anywhere"):
        state.play("-2,0:0")
    assert state.step == 1
    state = played(["2,0:1", "4,0:0", "-2,0:0"], anywhere=True)
    assert state.turn == 3


# --- the pool running out ----------------------------------------------------------------------

@pytest.mark.parametrize("move,exhausted,winner", [
    ("2,0:0", "largest", None),  # blue 1 bridge, white 1: a draw
    ("2,0:1", "largest", 1),  # the start's blue bridge meets the new one: 2 against 1
    ("2,0:1", "draw", None),
])
def test_an_empty_pool_goes_to_the_largest_group_or_is_a_draw(move, exhausted, winner):
    state = played([move], tiles=2, exhausted=exhausted)  # the start tile and Light's: the pool is empty
    assert state.is_over() and state.winner() == winner and state.array[P.HOW] == P.EXHAUSTED
    assert "pool is empty" in state.game.rules_status(state)


def oracle_exhaustion(game, s) -> int:
    """The exhaustion winner (2 for a draw) by the oracle."""
    pic = picture(game, s)
    variant = game.options["variant"]
    measures = {"white": [-1, 0], "blue": [-1, 0]}
    for g in pic.group_ids():
        colour = pic.colour(g)
        if variant == "standard":
            measures[colour][0] = max(measures[colour][0], pic.bridge_count[g])
        elif variant == "must-contain" and pic.closed(g):
            measures[colour][0] = max(measures[colour][0], pic.bridge_count[g])
            measures[colour][1] += 1
        elif variant == "eat-enemy" and pic.closed(g) and pic.bridge_count[g] >= game.options["eat_size"]:
            eater = pic.colour(pic.surrounding(g))
            measures[eater][0] = max(measures[eater][0], pic.bridge_count[g])
            measures[eater][1] += 1
    w, b = measures["white"], measures["blue"]
    return 2 if w == b else 0 if w > b else 1


def oracle_winners(game, s) -> dict[str, int]:
    """Per colour, how strongly it wins now by the oracle (0: it does not)."""
    pic = picture(game, s)
    variant, out = game.options["variant"], {"white": 0, "blue": 0}
    eaten: dict[int, int] = {}
    for g in pic.group_ids():
        if pic.closed(g) and (variant == "must-contain" or pic.bridge_count[g] >= game.options["eat_size"]):
            e = pic.surrounding(g)
            eaten[e] = eaten.get(e, 0) + 1
    for g in pic.group_ids():
        c = pic.colour(g)
        if variant == "standard" and pic.closed(g) and pic.bridge_count[g]:
            out[c] = 1
        elif variant == "eat-enemy" and eaten.get(g, 0) >= 2:
            out[c] = max(out[c], eaten[g])
        elif variant == "must-contain" and pic.closed(g) and eaten.get(g, 0):
            out[c] = 1
    return out


@pytest.mark.parametrize("options", [{"tiles": 14}, {"tiles": 16, "variant": "eat-enemy"},
                                     {"tiles": 18, "variant": "eat-enemy", "eat_size": 1},
                                     {"tiles": 16, "variant": "must-contain"}])
def test_every_ending_agrees_with_the_oracle(options):
    """Random games: no winner by the oracle before the end, the winner's rule at the end (a double win
    by its variant's rule), and an empty pool decided by the variant's measures."""
    rng = random.Random(11)
    game = hexarena.load("palago", **options)
    endings = set()
    for _ in range(25):
        state = game.new_state()
        while not state.is_over():
            mover = state.to_move
            state.apply(rng.choice(state.legal_actions()))
            wins = oracle_winners(game, state.array)
            if not state.is_over():
                assert wins == {"white": 0, "blue": 0}
        s = state.array
        endings.add(int(s[P.HOW]))
        if s[P.HOW] == P.EXHAUSTED:
            assert s[WINNER] == oracle_exhaustion(game, s)
        elif s[P.HOW] == P.CLOSED_WIN:
            assert (wins["white"] > 0, wins["blue"] > 0) == ((True, False) if s[WINNER] == 0 else (False, True))
        else:
            assert wins["white"] and wins["blue"]
            expected = 1 - mover
            if options.get("variant") == "eat-enemy" and wins["white"] != wins["blue"]:
                expected = 0 if wins["white"] > wins["blue"] else 1
            assert s[WINNER] == expected
    assert P.EXHAUSTED in endings


# --- the variants ------------------------------------------------------------------------------

def test_eat_enemy_wins_by_eating_two_closed_groups_not_by_closing_one():
    state = played(SMALLEST_WIN, variant="eat-enemy")
    assert not state.is_over()  # a closed group with a bridge does not win by itself
    state = played(EAT_WIN, variant="eat-enemy")
    assert state.winner() == 1 and state.array[P.HOW] == P.CLOSED_WIN
    facts = state.game.group_facts(state.array, state.game.deciding_group(state.array)[0])
    assert facts["eats"] == 2 and facts["eatmax"] == 0  # two eyes
    assert "eating 2 closed enemy groups" in state.game.rules_status(state)
    assert not played(EAT_WIN, variant="eat-enemy", eat_size=1).is_over()  # eyes are below eat_size 1


def test_eat_enemy_double_win_with_equal_counts_loses_for_the_mover():
    state = played(moves_of(EAT_DOUBLE)[:-1], variant="eat-enemy")
    mover = state.to_move
    state.play(moves_of(EAT_DOUBLE)[-1])
    assert oracle_winners(state.game, state.array) == {"white": 2, "blue": 2}
    assert state.winner() == 1 - mover and state.array[P.HOW] == P.DOUBLE_WIN


def test_must_contain_wins_by_a_closed_group_holding_a_closed_enemy_group():
    assert not played(SMALLEST_WIN, variant="must-contain").is_over()
    state = played(MUST_WIN, variant="must-contain")
    assert state.winner() == 0
    facts = state.game.group_facts(state.array, state.game.deciding_group(state.array)[0])
    assert facts["closed"] and facts["eats"] >= 1 and facts["owner"] == 0
    assert played(MUST_WIN[:-1], variant="must-contain").is_over() is False


def test_eat_size_applies_to_eat_enemy_only():
    with pytest.raises(ValueError, match="eat_size.*eat-enemy only"):
        hexarena.load("palago", eat_size=2)
    with pytest.raises(ValueError, match="tiles"):
        hexarena.load("palago", tiles=P.MAX_TILES + 1)
    assert hexarena.load("palago", anywhere="true").options["anywhere"] is True


# --- notation and records ----------------------------------------------------------------------

def test_refusals_name_what_is_wrong_and_change_nothing():
    state = played(["2,0:1"])
    before = state.array.copy()
    for move, error, words in [("6,0:0", IllegalMove, "not next to a placed tile"),
                               ("0,0:1", IllegalMove, "holds a tile already"),
                               ("1,0:0", MalformedMove, "x \\+ y must be even"),
                               ("2,2:3", MalformedMove, "orientation k is 0, 1 or 2"),
                               ("f5", MalformedMove, "a tile 'x,y:k'"),
                               ("900,0:0", IllegalMove, "not next to a placed tile")]:
        with pytest.raises(error, match=words):
            state.play(move)
    assert np.array_equal(state.array, before)


def test_leading_zeros_are_read_in_position_and_orientation_alike():
    """docs/notation.md: leading zeros (and -0) are read, in x, y and k alike."""
    state = played(["2,0:1"])
    for spelled in ("1,1:00", "01,1:0", "1,001:000", "001,01:00", "1,1:0"):
        assert state.copy().play(spelled) == state.copy().play("1,1:0"), spelled
    assert state.copy().play("-01,-0001:02") == state.copy().play("-1,-1:2")
    with pytest.raises(IllegalMove, match="0,0 holds a tile already"):
        state.copy().play("-00,000:1")  # read as 0,0:1
    with pytest.raises(MalformedMove, match="orientation k is 0, 1 or 2"):
        state.copy().play("1,1:03")
    text = "[palago] 1. 2,0:1 2. 1,1:00 03,01:002 *"
    assert hexarena.from_record(text) == played(["2,0:1", "1,1:0", "3,1:2"])


def test_text_records_separate_a_turns_tiles_by_a_space_and_round_trip():
    state = played(["2,0:1", "1,1:0", "3,1:2"])
    text = state.record_text()
    assert text.endswith("1. 2,0:1 2. 1,1:0 3,1:2 *")
    assert hexarena.from_record(text) == state
    done = played(SMALLEST_WIN)
    assert hexarena.from_record(done.record_text()).winner() == 0
    assert hexarena.from_record(done.record()) == done


def test_ascii_and_svg_show_the_tiles():
    state = played(SMALLEST_WIN)
    text = str(state)
    assert "[1]" in text and "light wins" in text
    svg = state.svg(hints=False)
    assert svg.count("<polygon") >= 10 and "#d0202a" in svg  # the winning group outlined in red
    assert state.game.move_target(state.array, 3 * state.game.topology.index("2,0") + 1) == \
        state.game.topology.index("2,0")


# --- the closing playout (MCTS `enhanced`) --------------------------------------------------

def closing_playout(state: hexarena.State, seed: int) -> tuple[list[int], np.ndarray]:
    """The closing playout from ``state`` with numba's generator seeded: its actions and final position."""
    s = state.array.copy()
    actions, movers = np.zeros(128, dtype=np.int32), np.zeros(128, dtype=np.int32)
    seed_numba(seed)
    written = PP.closing_playout(s, state.game.tables, actions, movers)
    return actions[:written].tolist(), s


def random_positions(game, games: int, seed: int):
    """Every position (not over) of ``games`` uniformly random games."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_state()
        while not state.is_over():
            yield state
            state = state.copy()
            state.apply(rng.choice(state.legal_actions()))


def winning_actions(state: hexarena.State) -> list[int]:
    """The mover's tiles that win at once by a closed group (tried on copies of the position); in
    must-contain only those whose group held a closed enemy group before (the closing playout does not see
    a tile that closes an enemy group and the group round it at once)."""
    game, s0 = state.game, state.array
    out = []
    for a in state.legal_actions():
        s = s0.copy()
        P.apply(s, game.tables, a)
        if s[WINNER] != state.to_move or s[P.HOW] == P.EXHAUSTED:
            continue
        if game.options["variant"] == "must-contain":
            root, placed = game.root(s, int(s[P.WIN_NODE])), 6 * int(s0[P.PLACED])
            held = [x for x in range(placed) if s[game.tables.par + x] == x and s[game.tables.opens + x] == 0
                    and s[game.tables.eater + x] >= 0 and game.root(s, int(s[game.tables.eater + x])) == root]
            if not any(s0[game.tables.opens + game.root(s0, x)] == 0 for x in held):
                continue
        out.append(a)
    return out


def test_closing_orientation_closes_a_group_open_only_at_those_corners():
    for colour, corners in ((0, (1, 3, 5)), (1, (0, 2, 4))):
        for j in corners:
            assert PP.tip_corner(colour, PP.tip_orientation(colour, j)) == j
        for size in (1, 2, 3):
            for chosen in itertools.combinations(corners, size):
                mask = sum(1 << j for j in chosen)
                closing = [k for k in range(3) if PP.closes(colour, mask, k)]
                assert closing == ([0, 1, 2] if size == 3 else [PP.closing_orientation(colour, mask)])


@pytest.mark.parametrize("variant", P.VARIANTS)
def test_closing_playouts_are_legal_games(variant):
    game = hexarena.load("palago", variant=variant)
    starts = [game.new_state()] + [p for i, p in enumerate(random_positions(game, 2, 3)) if i % 9 == 4]
    for i, start in enumerate(starts):
        actions, final = closing_playout(start, seed=i)
        state = start.copy()
        for a in actions:
            assert a in state.legal_actions()
            state.apply(a)
        assert state.is_over() and state.winner() == (None if final[WINNER] == P.DRAW else int(final[WINNER]))
        assert len(actions) == final[P.PLY] - start.array[P.PLY]


@pytest.mark.parametrize("variant", ["standard", "must-contain"])
def test_the_closing_playout_takes_an_immediate_win(variant):
    game = hexarena.load("palago", variant=variant)
    checked = 0
    for state in random_positions(game, 30 if variant == "standard" else 60, 11):
        if not winning_actions(state):
            continue
        for seed in range(3):
            actions, _ = closing_playout(state, seed)
            s = state.array.copy()
            P.apply(s, game.tables, actions[0])
            assert s[WINNER] == state.to_move, (state.moves(), actions[0])
        checked += 1
    assert checked >= 5


def test_the_closing_playout_takes_the_win_of_the_smallest_group():
    state = played(SMALLEST_WIN[:-1])
    for seed in range(5):
        actions, final = closing_playout(state, seed)
        assert state.move_name(actions[0]) == SMALLEST_WIN[-1] and final[WINNER] == 0 and len(actions) == 1


def test_the_closing_playout_is_deterministic_for_a_seed():
    game = hexarena.load("palago")
    state = game.new_state()
    first = closing_playout(state, 5)
    again = closing_playout(state, 5)
    assert first[0] == again[0] and np.array_equal(first[1], again[1])
    assert any(closing_playout(state, seed)[0] != first[0] for seed in range(6, 9))


def test_in_eat_enemy_the_closing_playout_takes_a_win_by_closing_a_group():
    """Eat-enemy's closures are tried on a copy: a tile that wins by closing a group (the second its
    surrounding group eats) is found; wins by merging two groups that each ate one are not looked for."""
    game = hexarena.load("palago", variant="eat-enemy")
    t, checked = game.tables, 0
    for state in random_positions(game, 40, 13):
        closing_wins = []
        for a in winning_actions(state):
            s = state.array.copy()
            P.apply(s, t, a)
            tile, k = int(s[P.PLACED]) - 1, a % 3
            regions = [game.root(s, 6 * tile + (2 * k + j) % 6) for j in P.REGION_CORNERS]
            if any(s[t.opens + r] == 0 for r in regions):
                closing_wins.append(a)
        if not closing_wins:
            continue
        actions, _ = closing_playout(state, 0)
        s = state.array.copy()
        P.apply(s, t, actions[0])
        assert s[WINNER] == state.to_move, (state.moves(), actions[0], closing_wins)
        checked += 1
    assert checked >= 5


def test_closing_playouts_end_by_a_closed_group_as_searched_games_do():
    """Uniform playouts run the pool out about 70% of the time; closing ones rarely (docs/palago.md)."""
    state = hexarena.load("palago").new_state()
    endings = [closing_playout(state, seed)[1][P.HOW] for seed in range(200)]
    assert endings.count(P.EXHAUSTED) < 30
