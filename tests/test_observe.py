"""Observation tensors: grid and graph forms agree with the game's planes,
the topology and the ASCII board; they are mover-relative."""

import doctest
from pathlib import Path

import numpy as np
import pytest

import hexarena
from hexarena.board import STEP
from hexarena.observe import default_form, edges, grid_index, observation, observation_shape, observe_array
from hexarena.render.raster import BOARD, PALETTE, cell_colours, rgb
from hexarena.vector.observe import observe_positions

from tests.small_games import all_configs, config_id, random_positions

PROJECTIVE = [{"size": n, "opening": o} for n in (2, 3, 4) for o in ("none", "swap", "cut-and-choose")]
CONFIGS = all_configs() + [("projective-hex", o) for o in PROJECTIVE]

# grid offsets (row, column) of the six directions E, SE, SW, W, NW, NE
AXIAL = {(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)}


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_grid_and_graph_hold_the_planes(config):
    name, options = config
    for state in random_positions(name, options, seed=5, every=7):
        game, topo = state.game, state.game.topology
        rows, cols, (h, w) = grid_index(topo)
        for player in (0, 1):
            planes = game.planes(state.array, player)
            assert planes.shape == (len(game.PLANES), topo.ncells) and planes.dtype == np.float32
            assert planes.min() >= 0 and planes.max() <= 1, "planes must lie in [0, 1] (the spaces promise it)"
            grid = observation(state, player)
            assert grid.shape == observation_shape(game) == (len(game.PLANES) + 1, h, w)
            assert np.array_equal(grid[:-1, rows, cols], planes)
            on_board = np.zeros((h, w), dtype=bool)
            on_board[rows, cols] = True
            assert np.array_equal(grid[-1], on_board.astype(np.float32))
            assert not grid[:, ~on_board].any(), "off-board grid points are all zero"
            nodes, links = observation(state, player, form="graph")
            assert nodes.shape == observation_shape(game, "graph")
            assert np.array_equal(nodes[:, :-1], planes.T) and np.all(nodes[:, -1] == 1)
            assert links is edges(topo)
            assert np.array_equal(observe_array(game, state.array, player), grid)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_a_batch_holds_each_positions_grid(config):
    name, options = config
    states = random_positions(name, options, seed=5, every=7)
    game = states[0].game
    players = np.arange(len(states)) % 2
    batch = observe_positions(game, np.stack([s.array for s in states]), players)
    assert np.array_equal(batch, np.stack([observation(s, int(p)) for s, p in zip(states, players, strict=True)]))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_grid_keeps_hex_neighbours_in_a_fixed_six(config):
    name, options = config
    topo = hexarena.load(name, **options).topology
    rows, cols, _ = grid_index(topo)
    assert len(set(zip(rows.tolist(), cols.tolist(), strict=True))) == topo.ncells, "one grid point per cell"
    for c in range(topo.ncells):
        for d in range(6):
            m = topo.nbr[c, d]
            if m < 0 or topo.seam[c, d]:
                continue
            assert tuple(topo.xy[m] - topo.xy[c]) == STEP[d]
            assert (rows[m] - rows[c], cols[m] - cols[c]) in AXIAL


def test_axial_columns_on_hexhex_3():
    topo = hexarena.board.hexhex(3)
    rows, cols, shape = grid_index(topo)
    assert shape == (5, 5)
    centre = topo.index("c3")
    assert (rows[centre], cols[centre]) == (2, 2)
    east = topo.neighbour(centre, hexarena.board.E)
    north_east = topo.neighbour(centre, hexarena.board.NE)
    assert (rows[east], cols[east]) == (2, 3) and (rows[north_east], cols[north_east]) == (1, 3)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_edges_are_the_topology_links_both_ways(config):
    name, options = config
    topo = hexarena.load(name, **options).topology
    links = edges(topo)
    pairs = set(zip(links[0].tolist(), links[1].tolist(), strict=True))
    assert links.dtype == np.int32 and len(pairs) == links.shape[1]
    assert pairs == {(c, m) for c in range(topo.ncells) for m in topo.neighbours(c)}
    assert all((m, c) in pairs for c, m in pairs)


def ascii_cells(state: hexarena.State) -> list[str]:
    """The character str(state) prints at each cell: the grid is drawn with
    one character per doubled-x column, offset by the ghost ring."""
    topo = state.game.topology
    points = [(int(x), int(r)) for x, r in topo.xy] + [(x, r) for x, r, _ in topo.ghosts]
    x0, r0 = min(x for x, _ in points), min(r for _, r in points)
    lines = str(state).split("\n")
    return [lines[int(r) - r0][int(x) - x0] for x, r in topo.xy]


@pytest.mark.parametrize("options", PROJECTIVE, ids=lambda o: f"n={o['size']}-{o['opening']}")
def test_projective_grid_agrees_with_the_ascii_board(options):
    for state in random_positions("projective-hex", options, seed=11, every=3):
        game = state.game
        rows, cols, _ = grid_index(game.topology)
        chars = ascii_cells(state)
        assert set(chars) <= {".", "X", "O"}
        for player in (0, 1):
            own = "O" if game.colour(state.array, player) == "white" else "X"  # "own" is black before the choice
            other = "X" if own == "O" else "O"
            grid = observation(state, player)
            assert [bool(v) for v in grid[0, rows, cols]] == [ch == own for ch in chars]
            assert [bool(v) for v in grid[1, rows, cols]] == [ch == other for ch in chars]
            assert [bool(v) for v in grid[2, rows, cols]] == [ch == "." for ch in chars]


def test_projective_before_the_choice_own_is_black_for_both():
    state = hexarena.load("projective-hex", size=2).new_state()
    for move in ("a1", "a2", "b1"):  # black, white, black: colours still open
        state.play(move)
    black = [ch == "X" for ch in ascii_cells(state)]
    rows, cols, _ = grid_index(state.game.topology)
    for player in (0, 1):
        grid = observation(state, player)
        assert [bool(v) for v in grid[0, rows, cols]] == black
        assert np.all(grid[3, rows, cols] == 1), "'colour unchosen' is set on every cell"
    state.play("white")
    assert np.all(observation(state, 0)[3] == 0)


@pytest.mark.parametrize("options", PROJECTIVE, ids=lambda o: f"n={o['size']}-{o['opening']}")
def test_projective_swapping_players_swaps_own_and_opponent(options):
    states = random_positions("projective-hex", options, seed=3)
    settled = [s for s in states if s.game.colour(s.array, 0) is not None]
    assert len(settled) >= len(states) - 5
    for state in settled:
        a, b = observation(state, 0), observation(state, 1)
        assert np.array_equal(a[0], b[1]) and np.array_equal(a[1], b[0])
        assert np.array_equal(a[2:], b[2:])


def test_swap_opening_changes_what_own_means():
    state = hexarena.load("projective-hex", size=2, opening="swap").new_state()
    state.play("a1")  # player 0's black stone
    cell = grid_index(state.game.topology)
    at = (cell[0][0], cell[1][0])
    assert observation(state, 0)[0][at] == 1 and observation(state, 1)[1][at] == 1
    state.play("swap")  # player 1 now owns that black stone
    assert observation(state, 0)[1][at] == 1 and observation(state, 1)[0][at] == 1
    assert state.to_move == 0 and observation(state)[1][at] == 1, "default viewer: the player to move"


@pytest.mark.parametrize("config", all_configs(), ids=config_id)
def test_generic_mover_relativity_once_the_game_is_settled(config):
    """Planes named "own ..." and "opponent ..." trade places between the
    two viewers (checked on the last positions of random games, after any
    opening has settled who owns what)."""
    name, options = config
    game = hexarena.load(name, **options)
    pairs = [(i, game.PLANES.index(p.replace("own", "opponent", 1))) for i, p in enumerate(game.PLANES)
             if p.startswith("own") and p.replace("own", "opponent", 1) in game.PLANES]
    for seed in range(3):
        for state in random_positions(name, options, seed)[-3:]:
            a, b = game.planes(state.array, 0), game.planes(state.array, 1)
            for own, opp in pairs:
                assert np.array_equal(a[own], b[opp]) and np.array_equal(a[opp], b[own])


def test_default_form_is_the_games_choice():
    game = hexarena.load("projective-hex", size=2)
    assert default_form(game) == "grid"
    game.OBSERVATION_FORM = "graph"
    assert default_form(game) == "graph"
    game.OBSERVATION_FORM = "image"
    with pytest.raises(ValueError, match="OBSERVATION_FORM 'image' is not one of grid, graph"):
        default_form(game)


def test_observation_errors_name_the_choices():
    state = hexarena.load("projective-hex", size=2).new_state()
    with pytest.raises(ValueError, match="forms: grid, graph"):
        observation(state, form="image")
    with pytest.raises(ValueError, match="forms: grid, graph"):
        observation_shape(state.game, "image")
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        observation(state, player=2)
    with pytest.raises(ValueError, match=r"players are 0 or 1 \(one for all, or one per position\)"):
        observe_positions(state.game, np.stack([state.array, state.array]), [0, 2])


def test_terminal_position_default_viewer_is_player_0():
    state = random_positions("projective-hex", {"size": 2, "opening": "none"}, seed=1)[-1]
    assert state.is_over()
    assert np.array_equal(observation(state), observation(state, 0))


def test_rgb_colours_cells_by_plane():
    state = hexarena.load("projective-hex", size=2, opening="none").new_state()
    state.play("a1")  # player 0's stone
    state.play("b2")
    colours = cell_colours(state, 0)
    topo = state.game.topology
    assert tuple(colours[topo.index("a1")]) == PALETTE[0]  # own: near-black
    assert tuple(colours[topo.index("b2")]) == PALETTE[1]  # opponent: near-white
    assert tuple(colours[topo.index("a2")]) == BOARD
    assert tuple(cell_colours(state, 1)[topo.index("a1")]) == PALETTE[1]
    image = rgb(state)
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    for colour in (PALETTE[0], PALETTE[1], BOARD):
        assert np.all(image == colour, axis=2).sum() > 50, f"{colour} fills hexagons"


def test_research_doc_examples():
    path = Path(__file__).resolve().parents[1] / "docs" / "research.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 20 and result.failed == 0
