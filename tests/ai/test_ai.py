"""Agents: legal moves without side effects, reproducibility, the solver on exactly
solved positions, multi-step turns, tree reuse, hints and terminal play."""

import io
import os
import subprocess
import sys

import numpy as np
import pytest

import hexarena
from hexarena.ai import agent, hint, parse_agent
from hexarena.ai.arena import match
from hexarena.ai.mcts import LEVELS, VARIANTS, MCTSAgent, drain
from hexarena.cli import main
from hexarena.games.base import HEADER, STEP, TO_MOVE, TURN, WINNER, Game
from hexarena.kernels import kernel_set, njit

from tests.conftest import EXTRA_CONFIGS

OPENINGS = ("none", "swap", "cut-and-choose")
CONFIGS = [(name, {}) for name in hexarena.GAMES] + [(n, o) for n, ops in EXTRA_CONFIGS.items() for o in ops]


@pytest.mark.parametrize("name,options", CONFIGS, ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_mcts_plays_every_registered_game(name, options):
    """Every game, through the protocol alone: legal moves, state untouched, rates in [0, 1]."""
    state = hexarena.load(name, **options).new_state()
    bots = (agent("mcts", simulations=30, seed=1), agent("mcts", simulations=30, seed=2, variant="uct"))
    while not state.is_over():
        before = state.copy()
        move, rate = bots[state.to_move].hint(state)
        assert state == before and move in state.legal_moves() and 0.0 <= rate <= 1.0
        state.play(move)


@pytest.mark.parametrize("size", [2, 3, 4])
@pytest.mark.parametrize("opening", OPENINGS)
def test_choose_is_legal_and_leaves_the_state_alone(size, opening):
    game = hexarena.load("projective-hex", size=size, opening=opening)
    state = game.new_state()
    bot = agent("mcts", simulations=60, seed=size)
    for _ in range(8):  # through the opening's special moves (swap, the colour choice)
        if state.is_over():
            break
        before = state.copy()
        move = bot.choose(state)
        assert state == before and state.history == before.history
        assert move in state.legal_moves()
        state.play(move)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_plays_a_whole_game(variant):
    game = hexarena.load("projective-hex", size=2, opening="swap")
    final = match(game, lambda: agent("mcts", simulations=40, seed=3, variant=variant),
                  lambda: agent("random", seed=4), games=1)
    assert final.wins[0] + final.wins[1] + final.draws == 1


def test_seeded_play_is_reproducible_with_a_simulation_budget():
    game = hexarena.load("projective-hex", size=3, opening="cut-and-choose")

    def moves(seed):
        state = game.new_state()
        a, b = agent("mcts", simulations=200, seed=seed), agent("mcts", simulations=150, seed=seed + 1)
        while not state.is_over():
            state.play((a, b)[state.to_move].choose(state))
        return state.moves()

    assert moves(5) == moves(5)
    assert moves(5) != moves(6)


# --- exact solutions of small positions ----------------------------------------

def solve(game, s, memo):
    """The winner of ``s`` under perfect play (plain minimax over the kernels)."""
    key = s.tobytes()
    if key not in memo:
        if s[WINNER] >= 0:
            memo[key] = int(s[WINNER])
        else:
            p, out = int(s[TO_MOVE]), np.empty(game.num_actions, np.int32)
            results = set()
            for a in out[:game.kernels.legal(s, game.tables, out)]:
                t = s.copy()
                game.kernels.apply(t, game.tables, int(a))
                results.add(solve(game, t, memo))
                if p in results:
                    break
            memo[key] = p if p in results else (2 if 2 in results else 1 - p)
    return memo[key]


def winning_moves(game, s, memo):
    p, out = int(s[TO_MOVE]), np.empty(game.num_actions, np.int32)
    wins = []
    for a in out[:game.kernels.legal(s, game.tables, out)]:
        t = s.copy()
        game.kernels.apply(t, game.tables, int(a))
        if solve(game, t, memo) == p:
            wins.append(int(a))
    return wins


def immediate_wins(game, s):
    out = np.empty(game.num_actions, np.int32)
    found = []
    for a in out[:game.kernels.legal(s, game.tables, out)]:
        t = s.copy()
        game.kernels.apply(t, game.tables, int(a))
        if t[WINNER] == s[TO_MOVE]:
            found.append(int(a))
    return found


def near_end_positions(game, count, empties):
    """Random positions with ``empties`` empty cells, not over, reached by seeded random play."""
    rng = np.random.default_rng(11)
    found = []
    while len(found) < count:
        state = game.new_state()
        while not state.is_over() and game.topology.ncells - int(np.count_nonzero(game.stones(state._s))) > empties:
            state.apply(int(rng.choice(state.legal_actions())))
        if not state.is_over():
            found.append(state)
    return found


def test_solver_keeps_every_won_position_won():
    """Positions near the end, solved exactly: where the mover can win, the solver
    agent picks a winning move; these include one-move wins and positions where
    the only way on is to block the opponent's immediate win."""
    game = hexarena.load("projective-hex", size=2, opening="none")
    memo: dict = {}
    kinds = set()
    for state in near_end_positions(game, 30, 6):
        s = state._s
        wins = winning_moves(game, s, memo)
        if not wins:
            continue
        threat = bool(immediate_wins(game, _passed(s)))
        kinds.add("one-move win" if immediate_wins(game, s) else ("block" if threat else "quiet"))
        bot = agent("mcts", simulations=3000, seed=1, variant="solver")
        move, rate = bot.hint(state)
        assert state.parse(move) in wins, (state.moves(), move)
        assert rate == 1.0  # proven
    assert {"one-move win", "block"} <= kinds


def _passed(s):
    """``s`` with the other player to move (to see the opponent's threats)."""
    t = s.copy()
    t[TO_MOVE] = 1 - t[TO_MOVE]
    return t


def test_solver_proves_a_lost_position_and_still_answers():
    game = hexarena.load("projective-hex", size=2, opening="none")
    memo: dict = {}
    lost = [st for st in near_end_positions(game, 40, 5) if not winning_moves(game, st._s, memo)]
    assert lost
    move, rate = agent("mcts", simulations=3000, seed=2, variant="solver").hint(lost[0])
    assert move in lost[0].legal_moves() and rate == 0.0


# --- a game with multi-step turns: take 1 or 2 stones, one per step ------------

PILE = HEADER
TAKE, END = 0, 1


@njit
def nim_legal(s, t, out):
    if s[WINNER] >= 0:
        return 0
    out[0] = TAKE
    if s[STEP] == 0:
        return 1
    out[1] = END
    return 2


@njit
def nim_apply(s, t, a):
    if a == TAKE:
        s[PILE] -= 1
        if s[PILE] == 0:
            s[WINNER], s[TO_MOVE] = s[TO_MOVE], -1
            return
        if s[STEP] == 0:
            s[STEP] = 1
            return
    s[TO_MOVE], s[STEP] = 1 - s[TO_MOVE], 0
    s[TURN] += 1


@njit
def nim_playout(s, t):
    out = np.empty(2, np.int32)
    while s[WINNER] < 0:
        nim_apply(s, t, out[np.random.randint(0, nim_legal(s, t, out))])


class Nim(Game):
    """Who takes the last stone wins; a turn takes one stone, then maybe a second ('end' stops)."""

    name = "test-nim"
    PLANES = ()
    WORDS = ("take", "end")
    kernels = kernel_set(nim_legal, nim_apply, nim_playout)

    def __init__(self, pile):
        self.pile = pile
        super().__init__()

    def setup(self):
        self.topology = None
        self.tables, self.num_actions, self.state_size = (np.zeros(1, np.int32),), 2, HEADER + 1

    def initial_array(self):
        s = super().initial_array()
        s[PILE] = self.pile
        return s

    def action_name(self, s, action):
        return ("take", "end")[action]

    def rules_status(self, state):
        return f"pile {state.array[PILE]}"

    def ascii(self, state):
        return self.status(state)

    def svg(self, state, hints=False, **kw):
        return f"<svg><text>{self.status(state)}</text></svg>"

    def planes(self, s, player):
        return np.zeros((0, 0), np.float32)


@pytest.mark.parametrize("pile", range(1, 9))
@pytest.mark.parametrize("variant", ["solver", "enhanced"])
def test_multi_step_turns_are_solved_per_player(pile, variant):
    """Piles that are multiples of 3 are lost for the player to move; elsewhere the
    winner takes pile % 3 stones: after one stone it must 'end' exactly when
    that leaves a multiple of 3 (the same player moves twice in a row)."""
    state = Nim(pile).new_state()
    bot = agent("mcts", simulations=2000, seed=pile, variant=variant)
    move, rate = bot.hint(state)
    assert move == "take" and rate == (0.0 if pile % 3 == 0 else 1.0)
    if pile % 3 and pile > 1:
        state.play("take")
        move, rate = bot.hint(state)
        assert rate == 1.0 and move == ("end" if (pile - 1) % 3 == 0 else "take")


def test_nim_positions_agree_with_the_exact_solution():
    memo: dict = {}
    for pile in range(1, 9):
        game = Nim(pile)
        assert solve(game, game.initial_array(), memo) == (1 if pile % 3 == 0 else 0)


# --- strength, reuse, hints, budgets -------------------------------------------

def test_mcts_beats_random():
    game = hexarena.load("projective-hex", size=3, opening="none")
    seeds = iter(range(100))
    result = match(game, lambda: agent("mcts", level=3, seed=next(seeds)), lambda: agent("random", seed=next(seeds)),
                   games=4)
    assert result.wins[0] == 4


def test_tree_reuse_keeps_statistics():
    game = hexarena.load("projective-hex", size=3, opening="none")
    state = game.new_state()
    bot = agent("mcts", simulations=1500, seed=1, solutions=False)  # search the proven start all the same
    state.play(bot.choose(state))
    state.play(state.legal_moves()[0])
    kept = bot.root_visits(state)
    assert kept > 0
    bot.choose(state)
    assert bot.root_visits(state) == kept + 1500
    state.undo()  # a position the tree's root no longer leads to: start afresh
    assert MCTSAgent(simulations=10).root_visits(state) == 0 and bot.root_visits(state) == 0


def test_reuse_into_a_proven_unexpanded_node_searches_afresh():
    """A move proven from above but never expanded (Weituweiqi's proof-number search marks them) leaves
    no subtree to keep: the next search starts afresh instead of answering with no move."""
    from hexarena.ai.mcts import FIRST, PROVEN, ROOT, descend

    state = hexarena.load("projective-hex", size=3, opening="none").new_state()
    bot = agent("mcts", simulations=10, seed=1, solutions=False)
    bot.choose(state)
    ints, _, meta = bot._tree[:3]
    unexpanded = [a for a in state.legal_actions() if ints[descend(ints, meta[ROOT], a), FIRST] < 0]
    child = descend(ints, meta[ROOT], unexpanded[0])
    ints[child, PROVEN] = 0  # as if proven a win for the first player
    state.apply(unexpanded[0])
    assert bot.choose(state) in state.legal_moves()


def test_a_turn_of_several_steps_shares_one_budget():
    """A Lisbon turn of two stones: the first step may spend the turn's budget, the second what is left and
    at least an eighth (searched again, the same), and the next turn starts afresh."""
    state = hexarena.load("lisbon").new_state()
    state.play(state.legal_moves()[0])  # turn 1: one stone; turn 2: two
    bot = MCTSAgent(simulations=800, seed=1)
    assert bot.step_budget(state) == (800, None)
    state.play(bot.choose(state))
    assert state.step == 1 and bot.step_budget(state) == (100, None)
    bot.hint(state)
    assert bot.step_budget(state) == (100, None) and bot.last_simulations == 100
    state.play(bot.choose(state))
    state.play(state.legal_moves()[0])
    assert state.step == 1 and bot.step_budget(state) == (800, None)  # another turn (the opponent's)
    timed = MCTSAgent(seconds=0.4)
    first = timed.step_budget(state)
    timed.choose(state)
    assert first == (None, 0.4) and timed.step_budget(state) == (None, 0.4)  # the same step: its budget again


def test_compaction_keeps_the_subtree():
    from hexarena.ai.mcts import ACTION, FIRST, COUNT, N, ROOT, USED, compact, descend

    game = hexarena.load("projective-hex", size=3, opening="none")
    state = game.new_state()
    bot = agent("mcts", simulations=2000, seed=1, solutions=False)  # search the proven start all the same
    bot.choose(state)
    ints, flts, meta = bot._tree[:3]

    def subtree(node, depth=3):
        """(action, visits, children...) below ``node``, children sorted by action."""
        first = ints[node, FIRST]
        count = ints[node, COUNT]
        kids = [] if first < 0 or depth == 0 else [subtree(i, depth - 1) for i in range(first, first + count)]
        return int(ints[node, ACTION]), float(flts[node, N]), sorted(kids)

    child = descend(ints, meta[ROOT], state.legal_actions()[5])
    before, used = subtree(child), int(meta[USED])
    compact(ints, flts, meta, child)
    assert meta[ROOT] == 0 and 0 < meta[USED] < used and subtree(0) == before


@pytest.mark.parametrize("variant,game", [("enhanced", "projective-hex"), ("rave", "nim"), ("uct", "projective-hex")])
def test_amaf_statistics(variant, game):
    """With RAVE every root move's AMAF count includes its own visits and is at most the
    simulations run (from the game's recorded playout or the step-by-step one); UCT keeps none."""
    from hexarena.ai.mcts import COUNT, FIRST, N, RN, ROOT

    state = (hexarena.load(game, size=3, opening="none") if game != "nim" else Nim(7)).new_state()
    if game == "nim":
        state.play("take")  # now 'take' again or 'end'
    bot = agent("mcts", simulations=400, seed=1, variant=variant, solutions=False)  # search a proven start too
    bot.choose(state)
    ints, flts, meta = bot._tree[:3]
    kids = range(ints[meta[ROOT], FIRST], ints[meta[ROOT], FIRST] + ints[meta[ROOT], COUNT])
    n, rn = np.array([flts[i, N] for i in kids]), np.array([flts[i, RN] for i in kids])
    if variant == "uct":
        assert not rn.any()
    else:
        assert (rn >= n).all() and (rn <= 400).all() and rn.sum() > n.sum()


def test_hint_gives_a_legal_move_and_a_rate():
    state = hexarena.load("projective-hex", size=3).new_state()
    for _ in range(3):
        move, rate = hint(state, level=2, seed=1)
        assert move in state.legal_moves() and 0.0 <= rate <= 1.0
        state.play(move)
    rows = agent("mcts", simulations=300, seed=1).stats(state)
    assert sorted(r[0] for r in rows) == sorted(state.legal_moves())
    assert sum(r[1] for r in rows) == 300 and rows[0][1] >= rows[-1][1]


def test_a_searching_kind_makes_the_searcher_the_server_drives():
    """``make_searcher``: bounded by ``limit``, searching in slices (``hinting``), its tree kept for the next move
    (``root_visits``, ``root_rates``); a kind that does not search is refused, naming those that do."""
    state = hexarena.load("projective-hex", size=3, opening="none").new_state()
    searcher = parse_agent("mcts:enhanced:sims=400:solutions=off").make_searcher(seed=1)
    searcher.limit(4096)
    move, rate = drain(searcher.hinting(state, slice_seconds=0.01))
    assert move in state.legal_moves() and 0.0 <= rate <= 1.0 and searcher.root_rates(state)
    state.play(move)
    assert searcher.root_visits(state) > 0  # the chosen move's subtree, kept for the next search
    with pytest.raises(ValueError, match="agent 'random' does not search: the agents that search are mcts, ai"):
        parse_agent("random").make_searcher(seed=1)


def test_time_budget():
    """A search given seconds and no simulation count stops by its time alone (were it not to stop, the suite's
    timeout would say so; how soon is not timed here: a loaded machine is slow, not wrong)."""
    state = hexarena.load("projective-hex", size=4, opening="none").new_state()
    bot = agent("mcts", seconds=0.2, seed=1)
    assert bot.simulations is None
    assert bot.choose(state) in state.legal_moves() and bot.last_simulations > 0


@pytest.mark.parametrize("game, options", [("weituweiqi", {}), ("lhexus", {"size": 12})])
@pytest.mark.parametrize("sliced", [False, True])
def test_until_stops_a_search_by_that_moment(game, options, sliced):
    """A level-10 search (seconds of simulations here) ends by ``until``: in one call and in slices with waits
    between them (the wait counts), through Weituweiqi's proof-number phase as through the tree search."""
    import time

    state = hexarena.load(game, **options).new_state()
    state.play(state.legal_moves()[0])
    MCTSAgent(level=1).choose(state.copy())  # compiled first
    bot = MCTSAgent(level=10)
    start = time.perf_counter()
    bot.until = start + 0.3
    steps = bot.hinting(state.copy(), slice_seconds=0.05 if sliced else None)
    while True:
        try:
            next(steps)
        except StopIteration as end:
            move = end.value[0]
            break
        time.sleep(0.05)  # another search's slice
    # stopped by ``until``: not before it (a loaded machine only makes that later), and long before level 10's own
    # budget (seconds of simulations here); no bound on how late, which a loaded machine decides
    assert time.perf_counter() >= bot.until - 0.05
    assert move in state.legal_moves() and 0 < bot.last_simulations < LEVELS[10]


def test_bad_agent_options():
    with pytest.raises(ValueError, match="kinds: random, mcts"):
        agent("alphazero")
    with pytest.raises(ValueError, match="level must be an integer 1..10"):
        agent("mcts", level=11)
    with pytest.raises(ValueError, match="options: level, seconds, simulations, variant"):
        agent("mcts", depth=3)
    with pytest.raises(ValueError, match="variants: uct"):
        agent("mcts", variant="magic")
    with pytest.raises(ValueError, match="seconds must be positive"):
        agent("mcts", seconds=0)
    state = hexarena.load("projective-hex", size=2, opening="none").new_state()
    for m in "a1 a2 b1 b2 b3 c1".split():
        if not state.is_over():
            state.play(m)
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="the game is over"):
        agent("mcts", level=1).choose(state)


def test_play_against_the_ai_in_the_terminal():
    cells = hexarena.load("projective-hex", size=2).topology.names
    out = io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO("hint\n" + "\n".join(cells) + "\n")
    try:
        code = main(["play", "projective-hex", "-o", "size=2", "-o", "opening=none", "--vs", "ai:1", "--seed", "3"],
                    out=out)
    finally:
        sys.stdin = old
    text = out.getvalue()
    assert code == 0 and "ai:1 plays" in text and "[projective-hex size=2 opening=none]" in text
    assert "hint: " in text and "(proven win in 9)" in text  # a solved start (hexarena.search.solutions)


@pytest.mark.parametrize("text, kind, options", [
    ("random", "random", {}),
    ("mcts:1", "mcts", {"level": 1}),
    ("mcts:10", "mcts", {"level": 10}),
    ("ai:7", "ai", {"level": 7}),
    ("ai", "ai", {"level": 5}),
    ("mcts:uct", "mcts", {"variant": "uct", "simulations": 500}),
    ("mcts:uct-nopolicy:sims=7", "mcts", {"variant": "uct-nopolicy", "simulations": 7}),
    ("mcts:enhanced:seconds=0.1", "mcts", {"variant": "enhanced", "seconds": 0.1}),
    ("mcts:grave:sims=50:grave_ref=20", "mcts", {"variant": "grave:grave_ref=20", "simulations": 50}),
    ("mcts:enhanced:sims=9:solutions=off", "mcts", {"variant": "enhanced", "simulations": 9, "solutions": False}),
])
def test_agent_specs(text, kind, options):
    spec = parse_agent(text)
    assert (spec.kind, spec.options, spec.level) == (kind, options, options.get("level"))
    assert spec.reproducible == ("seconds" not in options)
    assert spec.searches == (kind != "random")


def test_a_level_spec_plays_as_the_agent_of_that_level():
    state = hexarena.load("projective-hex", size=3, opening="none").new_state()
    searches = [parse_agent(text).make(seed=4).stats(state) for text in ("ai:2", "mcts:2", "mcts:enhanced:sims=50")]
    assert searches[0] == searches[1] == searches[2] == agent("mcts", level=2, seed=4).stats(state)
    assert searches[0] != parse_agent("mcts:2").make(seed=5).stats(state)


@pytest.mark.parametrize("text", ["", "mcts", "mcts:", "mcts:0", "mcts:11", "mcts:05", "mcts:fast", "mcts:uct:sims=0",
                                  "mcts:uct:sims=x", "mcts:uct:seconds=-1", "mcts:uct:sims=5:seconds=1",
                                  "mcts:uct:bogus=1", "mcts:uct:solutions=no", "alphazero", "random:3", "random:",
                                  "ai:", "ai:uct", "ai:٣"])
def test_bad_agent_specs_name_what_is_allowed(text):
    with pytest.raises(ValueError) as e:
        parse_agent(text)
    message = str(e.value)
    assert "\n" not in message and "random, mcts:LEVEL" in message and "uct" in message


@pytest.mark.parametrize("level", ["12", "x", "0"])
def test_play_rejects_a_bad_level(capsys, level):
    code = main(["play", "projective-hex", "--vs", f"ai:{level}"], out=io.StringIO())
    assert code == 2 and f"--vs: bad agent 'ai:{level}' (level must be an integer 1..10)" in capsys.readouterr().err


def test_search_runs_without_jit():
    code = ("import hexarena; from hexarena.ai import agent; "
            "s = hexarena.load('projective-hex', size=2, opening='swap').new_state(); s.play('a1'); "
            "w = hexarena.load('weituweiqi', size=3).new_state(); "
            "print(agent('mcts', simulations=30, seed=1).hint(s)[0] in s.legal_moves(), "
            "agent('mcts', simulations=30, seed=1, variant='solver:pns=0.5').hint(w)[0] in w.legal_moves())")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "True True", out.stderr


def test_bench_ai_prints_simulation_rates():
    out = io.StringIO()
    code = main(["bench", "--ai", "projective-hex", "--seconds", "0.05", "--no-openspiel"], out=out)
    lines = out.getvalue().splitlines()
    assert code == 0 and len(lines) == 4  # two board sizes, variants uct and enhanced
    assert all("simulations/s" in line for line in lines) and "enhanced" in lines[1]


def strength_script():  # noqa: ANN201
    """bench/strength.py, loaded as a module."""
    import importlib.util

    path = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "strength.py")
    spec = importlib.util.spec_from_file_location("strength", path)
    strength = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(strength)
    return strength


def test_strength_script_reports_a_match(capsys):
    strength = strength_script()
    code = strength.main(["projective-hex", "-o", "size=2", "--games", "2", "--seconds", "0.01", "--a", "enhanced",
                          "--b", "random"])
    text = capsys.readouterr().out
    assert code == 0 and text.count("won by") == 2 and "95% interval" in text
    with pytest.raises(SystemExit):
        strength.main(["projective-hex", "--a", "alphazero"])
    assert "unknown agent 'alphazero'; agents: random, openspiel-mcts, or an MCTS variant" in capsys.readouterr().err


# --- playout policies and the no-policy variants -------------------------------------------

def test_nopolicy_variants_are_the_variants_without_the_games_policy():
    from dataclasses import replace

    from hexarena.ai.mcts import config_of

    for name, config in VARIANTS.items():
        assert config.policy and config_of(name) == config
        assert config_of(name + "-nopolicy") == replace(config, policy=False)
    with pytest.raises(ValueError, match="NAME-nopolicy"):
        agent("mcts", variant="magic-nopolicy")


def test_variant_settings_and_per_game_enhanced_settings(monkeypatch):
    from dataclasses import replace

    from hexarena.ai.mcts import Config, config_of

    assert config_of("uct:c=1.5:solver=1") == Config(c=1.5, solver=True)
    assert config_of("grave-nopolicy:grave_ref=20") == replace(VARIANTS["grave"], grave_ref=20, policy=False)
    for bad, says in (("uct:cc=1", "keys: c, rave"), ("uct:c=high", "'high' for 'c'"), ("uct:rave=maybe", "bool"),
                      ("uct:c", "bad setting 'c'")):
        with pytest.raises(ValueError, match=says):
            agent("mcts", variant=bad)
    game = hexarena.load("projective-hex", size=2, opening="none")
    monkeypatch.setattr(type(game), "MCTS", {"c": 0.9, "rave": False})
    assert config_of("enhanced", game) == replace(VARIANTS["enhanced"], c=0.9, rave=False)
    assert config_of("enhanced:c=0.3", game).c == 0.3  # explicit settings win
    assert config_of("uct", game) == VARIANTS["uct"]  # only the default variant is per game
    bot = agent("mcts", simulations=50, seed=1, solutions=False)  # search the solved start all the same
    bot.choose(game.new_state())
    assert bot.config == replace(VARIANTS["enhanced"], c=0.9, rave=False)


def test_every_games_enhanced_settings_are_config_fields():
    from hexarena.ai.mcts import config_of

    for name in hexarena.GAMES:
        game = hexarena.load(name)
        config = config_of("enhanced", game)  # a misspelt key would raise TypeError
        assert all(getattr(config, key) == value for key, value in type(game).MCTS.items())


def test_without_its_policy_a_game_is_searched_as_one_that_has_none():
    from hexarena.ai.mcts import compiled_search
    from hexarena.games import push_and_pull as pp
    from hexarena.kernels import kernel_set

    k = pp.KERNELS
    plain = kernel_set(k.legal, k.apply, k.playout, recorded_playout=k.recorded_playout)  # without its policy

    assert compiled_search(pp.KERNELS, use_policy=False) is compiled_search(plain)
    assert compiled_search(pp.KERNELS) is not compiled_search(plain)


@pytest.mark.parametrize("name,options", [("push-and-pull", {"size": 5}), ("weituweiqi", {"size": 4})])
def test_mcts_with_and_without_the_policy_plays_games_with_one_to_the_end(name, options):
    game = hexarena.load(name, **options)
    assert hasattr(game.kernels, "policy")
    for variant in ("enhanced", "uct-nopolicy"):
        state = game.new_state()
        bots = (agent("mcts", simulations=40, seed=1, variant=variant), agent("mcts", simulations=40, seed=2))
        while not state.is_over():
            move = bots[state.to_move].choose(state)
            assert move in state.legal_moves()
            state.play(move)


def test_strength_script_matches_a_variant_against_itself_without_the_policy(capsys):
    strength = strength_script()
    code = strength.main(["weituweiqi", "-o", "size=4", "--games", "2", "--simulations", "20", "--a", "uct",
                          "--b", "uct-nopolicy"])
    text = capsys.readouterr().out
    assert code == 0 and text.count("won by") == 2 and "20 simulations/turn" in text and "uct-nopolicy" in text


def test_a_child_without_shared_amaf_explores_with_c_plain():
    """Two children whose AMAF counts are only their own visits (a colour choice): one
    lost its only visit, the other won 60% of 1000; with RAVE's small ``c`` the first
    would never be tried again, with ``c_plain`` (plain UCT's 0.7) it is."""
    from hexarena.ai.mcts import ACTION, COUNT, FIRST, MOVER, N, PROVEN, RN, RW, W, Config, _select

    ints, flts = np.zeros((3, 5), np.int32), np.zeros((3, 4), np.float32)
    ints[:, PROVEN], ints[:, FIRST], ints[0, FIRST], ints[0, COUNT], ints[:, MOVER] = -1, -1, 1, 2, 0
    ints[1:, ACTION] = [0, 1]
    flts[0, N], flts[1] = 1001, [1, 0, 1, 0]  # N, W, RN, RW
    flts[2, N], flts[2, W], flts[2, RN], flts[2, RW] = 1000, 600, 1500, 900
    assert (N, W, RN, RW) == (0, 1, 2, 3)
    amap = np.full(2, -1, np.int64)
    assert _select(ints, flts, 0, Config(c=0.2, rave=True).vector(False), 0, amap) == 1
    assert _select(ints, flts, 0, Config(c=0.2, rave=True, c_plain=0.2).vector(False), 0, amap) == 2
    flts[1, RN] = 50  # 49 AMAF losses beyond its own visit: the small c applies, not c_plain
    assert _select(ints, flts, 0, Config(c=0.2, rave=True, c_plain=9.0).vector(False), 0, amap) == 2


def test_enhanced_weighs_both_colours_at_the_choice():
    """After the cut the chooser's two answers are the same position with sides swapped:
    the search gives each enough visits to compare them, and picks the better one."""
    state = hexarena.load("projective-hex").new_state()
    for move in "ABC":
        state.play(move)
    bot = agent("mcts", simulations=20000, seed=3)
    (best, _, rate_best), (_, n_other, rate_other) = bot.stats(state)  # most visited first
    assert n_other >= 50 and rate_best >= rate_other and bot.choose(state) == best


def test_only_games_with_a_pattern_playout_bind_one():
    from hexarena.ai.mcts import _module

    assert _module(hexarena.load("projective-hex").kernels, True).GAME_PATTERNS
    assert not _module(hexarena.load("lisbon").kernels, True).GAME_PATTERNS
    assert VARIANTS["enhanced"].patterns and not VARIANTS["uct"].patterns


def test_specialised_search_depends_on_every_module_the_kernels_use():
    """The search module's hash covers the kernels' modules and what they use
    (Lhexus's rules use its scoring), so editing any of them recompiles the
    search instead of loading a stale one from the cache."""
    from hexarena.specialise import sources
    apply = hexarena.load("lhexus", size=3).kernels.apply
    files = {f.replace("\\", "/").rsplit("/hexarena/", 1)[-1] for f in sources({apply.__module__})}
    assert {"games/lhexus_rules.py", "games/lhexus_scoring.py", "kernels.py"} <= files


@pytest.mark.parametrize("pruned", [False, True])
def test_a_pruned_node_is_never_proven_lost(pruned):
    """A node expanded with a game's ``search_moves`` that left out legal
    moves is not lost when the children it has all lose: a left-out move
    might not."""
    from hexarena.ai.mcts import COUNT, FIRST, MOVER, PROVEN, PRUNED, _new_node, _prove, new_tree

    ints, flts, meta = new_tree(8)
    ints[0, MOVER], ints[0, FIRST], ints[0, COUNT] = 0, 1, 2  # two children
    for action in (3, 4):
        child = _new_node(ints, flts, meta, action)
        ints[child, PROVEN] = 1  # both won by the opponent
    ints[0, PROVEN] = PRUNED if pruned else -1
    assert _prove(ints, 0) is not pruned
    assert ints[0, PROVEN] == (PRUNED if pruned else 1)
    ints[2, PROVEN] = 0  # a move the node's mover wins by proves it either way
    assert _prove(ints, 0) and ints[0, PROVEN] == 0
