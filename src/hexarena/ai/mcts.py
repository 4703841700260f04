"""Monte Carlo tree search whose whole simulation loop runs in numba.

The tree lives in two preallocated arrays, one row per node:

* ``ints[node]``: ``ACTION`` (the move leading here), ``FIRST`` (index of
  the first child, -1 while unexpanded), ``COUNT`` (number of children),
  ``MOVER`` (the player to move in this node's position, -1 at the end) and
  ``PROVEN`` (-1 unknown, ``PRUNED`` unknown at a node whose children leave out
  legal moves, so never proven lost or drawn, else the proven winner 0, 1 or ``DRAW``);
* ``flts[node]``: ``N`` visits, ``W`` reward, ``RN``/``RW`` the AMAF
  (all-moves-as-first) visits and reward; rewards count for the player who
  chose the move (the parent's ``MOVER``): 1 a win, 0.5 a draw, 0 a loss.

A node's children are allocated together when it is expanded, in random
order.  Values are backed up per player, never by alternation, so turns of
several steps (the same player moving again) need nothing special; the
MCTS-solver is player-aware in the same way: a node is a proven win for its
mover if one child is, and a proven loss if every child is.

The search is generic over the game protocol: the simulation loop
(``search_template.py``) calls the game's kernels ``legal``, ``apply``,
``playout`` and the optional ``policy`` and ``recorded_playout`` (see
:mod:`hexarena.games.base`) as globals.  Numba cannot
cache a function that receives jitted functions as arguments or in a
closure (their identities change between processes), so
:func:`compiled_search` writes the loop once per game into a cache
directory with that game's kernels imported, and numba compiles and caches
it like any kernel.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator
from contextlib import AbstractContextManager
from dataclasses import dataclass, fields, replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ..compiling import announcing
from ..games.base import DRAW, Game, State
from ..kernels import njit
from ..kernels import seed as seed_numba
from ..search.solutions import perfect_move, reward
from ..specialise import specialised, where

ACTION, FIRST, COUNT, MOVER, PROVEN = range(5)
PRUNED = -2  # PROVEN of a node expanded with the game's ``search_moves``, which left out legal moves
N, W, RN, RW = range(4)
# meta: nodes in use, capacity, root, simulations done in the last call, AMAF stamp
USED, CAPACITY, ROOT, SIMS, STAMP = range(5)
# configuration vector (float64), see Config
C_UCT, RAVE, RAVE_BIAS, GRAVE_REF, SOLVER, DECISIVE, ANTI, GENERIC, EXPAND, PATTERNS, C_PLAIN = range(11)
# proof-number search (Config.pns): node columns (the first three as in ``ints``, so
# ``descend`` walks both trees), numbers, and its meta (nodes in use, a draw seen, root)
P_ACTION, P_FIRST, P_COUNT, P_PARENT, P_OR = range(5)
PN, DN = range(2)
P_USED, P_DRAWS, P_ROOT = range(3)
PN_INF = 1 << 40
PN_PATH = 1024  # the longest line the proof-number search follows (its positions are kept)


@njit
def uniform_policy(s, t, moves, n):
    """The default playout policy: the index of a uniformly random move in ``moves[:n]``."""
    return np.random.randint(0, n)


@njit
def new_tree(capacity):
    """A tree of ``capacity`` nodes holding its root; the rows are left unwritten (:func:`_new_node` writes each
    node it adds), so a large tree costs memory as it grows, not when it is allocated."""
    ints = np.empty((capacity, 5), dtype=np.int32)
    flts = np.empty((capacity, 4), dtype=np.float32)
    meta = np.zeros(5, dtype=np.int64)
    meta[CAPACITY] = capacity
    _new_node(ints, flts, meta, np.int32(-1))  # the action's type as in the search: one compile of _new_node
    return ints, flts, meta


@njit
def _new_node(ints, flts, meta, action):
    i = meta[USED]
    meta[USED] += 1
    ints[i, ACTION] = action
    ints[i, FIRST] = -1
    ints[i, COUNT] = 0
    ints[i, MOVER] = -1
    ints[i, PROVEN] = -1
    flts[i, :] = 0.0
    return i


@njit
def _reward(winner, player):
    if winner == player:
        return 1.0
    return 0.5 if winner == DRAW else 0.0


@njit
def _map_children(ints, node, amap):
    first = ints[node, FIRST]
    for i in range(first, first + ints[node, COUNT]):
        amap[ints[i, ACTION]] = i


@njit
def _select(ints, flts, node, cfg, ref, amap):
    """The child of ``node`` to descend into (UCT, RAVE or GRAVE, solver-aware)."""
    p = ints[node, MOVER]
    first, count = ints[node, FIRST], ints[node, COUNT]
    ref_first, ref_end = ints[ref, FIRST], ints[ref, FIRST] + ints[ref, COUNT]  # amap entries in here are current
    log_n = math.log(max(flts[node, N], 1.0))
    c, c_plain, rave, bias, solver = cfg[C_UCT], cfg[C_PLAIN], cfg[RAVE] > 0, cfg[RAVE_BIAS], cfg[SOLVER] > 0
    best, best_v = first, -1e300
    for i in range(first, first + count):
        proven = ints[i, PROVEN]
        if solver and proven >= 0:
            if proven == p:
                return i
            v = 0.5 if proven == DRAW else -1.0
        else:
            n = flts[i, N]
            if rave:  # the reference's AMAF values of this move if it has some, else the child's own
                rn, rw = float(flts[i, RN]), float(flts[i, RW])
                if ref != node:
                    a = ints[i, ACTION]
                    r = amap[a]
                    if ref_first <= r < ref_end and ints[r, ACTION] == a and flts[r, RN] != 0.0:
                        rn, rw = float(flts[r, RN]), float(flts[r, RW])
                if n == 0.0 and rn == 0.0:
                    v = 1e9
                else:
                    beta = rn / (rn + n + bias * rn * n) if rn > 0 else 0.0
                    mean = flts[i, W] / n if n > 0 else 0.0
                    explore = c if rn > n else c_plain  # else AMAF knows no more than the child's own visits
                    amaf = rw / rn if rn > 0 else 0.0
                    v = (1.0 - beta) * mean + beta * amaf + explore * math.sqrt(log_n / (n + 1.0))
            elif n == 0.0:
                v = 1e9
            else:
                v = flts[i, W] / n + c * math.sqrt(log_n / n)
        if v > best_v:
            best, best_v = i, v
    return best


@njit
def _prove(ints, node):
    """Recompute ``node``'s proof from its children; True if it is now proven."""
    p = ints[node, MOVER]
    first, count = ints[node, FIRST], ints[node, COUNT]
    if count == 0:
        return False
    draw = unknown = False
    for i in range(first, first + count):
        proven = ints[i, PROVEN]
        if proven == p:
            ints[node, PROVEN] = p
            return True
        unknown = unknown or proven < 0
        draw = draw or proven == DRAW
    if unknown or ints[node, PROVEN] == PRUNED:
        return False
    ints[node, PROVEN] = DRAW if draw else 1 - p
    return True


@njit
def _update_amaf(ints, flts, path, length, seq_a, seq_p, depth, winner, seen, stamp, num_actions):
    """Credit every child whose move its node's mover played later in the simulation."""
    for d in range(depth - 1, -1, -1):
        seen[seq_p[d] * num_actions + seq_a[d]] = stamp
        if d < length and ints[path[d], FIRST] >= 0:
            node = path[d]
            p = ints[node, MOVER]
            if p < 0:
                continue
            r = _reward(winner, p)
            first = ints[node, FIRST]
            for i in range(first, first + ints[node, COUNT]):
                if seen[p * num_actions + ints[i, ACTION]] == stamp:
                    flts[i, RN] += 1.0
                    flts[i, RW] += r


KERNELS_LINE = ("legal = apply = playout = policy = recorded_playout = pattern_playout = search_moves = None\n"
                "GAME_RECORDS = GAME_PATTERNS = None")


def compiled_search(kernels, use_policy: bool = True):
    """``search(root_state, tables, ints, flts, meta, cfg, sims, work, seen) -> done``
    specialised to a game's kernels: ``legal``, ``apply``, ``playout`` and the
    optional ``policy`` (ignored when ``use_policy`` is false: playouts are then
    uniform, as for a game without one), ``recorded_playout`` and
    ``pattern_playout`` (used only without a policy) or, with a policy,
    ``policy_playout`` (the policy's playout in one compiled loop), and
    ``search_moves`` (the moves the tree expands, by default ``legal``)."""
    return _module(kernels, use_policy).search


def compiled_proof_search(kernels, use_policy: bool = True):
    """``proof_search(root_state, tables, pints, pnum, meta_p, iterations, moves, replies) -> done``
    from the same specialised module as :func:`compiled_search`."""
    return _module(kernels, use_policy).proof_search


def _module(kernels, use_policy: bool):
    names = [where(getattr(kernels, k)) for k in ("legal", "apply", "playout")]
    policy = getattr(kernels, "policy", None) if use_policy else None
    if policy is None:
        optional = [getattr(kernels, k, None) for k in ("recorded_playout", "pattern_playout")]
    else:  # the policy's own recorded playout, where the game has one (no patterns with a policy)
        optional = [getattr(kernels, "policy_playout", None), None]
    optional.append(getattr(kernels, "search_moves", None))
    return _compiled(tuple(names), where(policy or uniform_policy), *(f and where(f) for f in optional))


COMPILE_SECONDS = 30  # about what a game's search takes to compile on first use (docs/speed.md)


def search_notice(game: Game) -> tuple[str, str]:
    """The key and the line of :func:`compiling_search`."""
    return (f"{game.name}: AI search", f"hexarena: compiling the AI's search for {game.name} once (numba), "
                                       f"about {COMPILE_SECONDS} s; `hexarena warmup` does it ahead")


def compiling_search(game: Game) -> AbstractContextManager[None]:
    """Around code that may compile the search for ``game``: when numba compiles
    (its cache empty or stale), one line on stderr says so, once per process and
    game (:mod:`hexarena.compiling`)."""
    return announcing(*search_notice(game))


def said_compiling(game: Game, run: Callable[[int], int]) -> Callable[[int], int]:
    """``run`` (a search's ``run(n)``: numba compiles the search at its first
    call) inside :func:`compiling_search`."""
    def call(n: int) -> int:
        with compiling_search(game):
            return run(n)
    return call


@cache
def _compiled(kernels: tuple, policy: tuple[str, str], recorded: tuple[str, str] | None,
              patterns: tuple[str, str] | None, moves: tuple[str, str] | None):
    """The template with the kernels imported (:func:`hexarena.specialise.specialised`)."""
    roles = list(zip(("legal", "apply", "playout", "policy"), (*kernels, policy), strict=True))
    roles += [(role, f) for role, f in (("recorded_playout", recorded), ("pattern_playout", patterns),
                                        ("search_moves", moves)) if f]
    extra = [f"GAME_RECORDS = {bool(recorded)}"] + ([] if recorded else ["recorded_playout = _not_recorded"])
    extra += [f"GAME_PATTERNS = {bool(recorded and patterns)}"]
    extra += [] if patterns else ["pattern_playout = _not_recorded"]
    extra += [] if moves else ["search_moves = legal"]
    return specialised(Path(__file__).with_name("search_template.py"), KERNELS_LINE, roles, extra, kind="mcts",
                       stem="search_" + kernels[0][0].rsplit(".", 1)[-1], depends=[__name__])


def work_shape(num_actions: int) -> tuple[int, int]:
    """Rows of move buffers and paths: long enough for any game's length in steps."""
    return 7, 4 * num_actions + 64


@njit
def descend(ints, node, action):
    """The child of ``node`` reached by ``action``, or -1 if it is not in the tree."""
    first = ints[node, FIRST]
    if first < 0:
        return -1
    for i in range(first, first + ints[node, COUNT]):
        if ints[i, ACTION] == action:
            return i
    return -1


@njit
def compact(ints, flts, meta, root):
    """Keep only the subtree under ``root``, moved to the front of the arrays
    (in the old order, so every node's children stay together); it becomes the root."""
    used = meta[USED]
    inside = np.zeros(used, dtype=np.bool_)
    stack = np.empty(used, dtype=np.int64)
    stack[0], top = root, 1
    inside[root] = True
    while top > 0:
        top -= 1
        node = stack[top]
        first = ints[node, FIRST]
        if first < 0:
            continue
        for i in range(first, first + ints[node, COUNT]):
            inside[i] = True
            stack[top] = i
            top += 1
    where = np.full(used, -1, dtype=np.int64)
    k = 0
    for i in range(used):
        if inside[i]:
            where[i] = k
            k += 1
    for i in range(used):  # where[i] <= i: rows are only written over once read
        if inside[i]:
            j = where[i]
            ints[j, :] = ints[i, :]
            flts[j, :] = flts[i, :]
            if ints[j, FIRST] >= 0:
                ints[j, FIRST] = where[ints[j, FIRST]]
    meta[USED], meta[ROOT] = k, 0


# --- the agent ------------------------------------------------------------------

@dataclass(frozen=True)
class Config:
    """Search settings.  ``c`` is the UCT exploration constant; ``rave`` turns on
    AMAF statistics, used through the nearest ancestor of the same mover with at
    least ``grave_ref`` visits (GRAVE; 0 is plain RAVE) and weighted with
    ``rave_bias``; a child whose AMAF statistics hold no more than its own
    visits (a move made nowhere else, such as a choice of colour) explores
    with ``c_plain`` instead of ``c``, as under plain UCT; ``solver`` proves
    wins and losses; ``decisive`` (``anti``) tries that many sampled moves
    (opponent replies) per playout step for an immediate win (an immediate
    loss to block); ``expand`` is the visits a leaf needs before its children
    are allocated; ``policy`` False ignores the game's playout policy (uniform
    playouts, for comparisons); ``patterns`` plays the game's
    ``pattern_playout`` (local replies such as Hex's bridge saves) where it
    has one and no policy; ``pns`` is the share of each move's budget given
    first to a proof-number search from the root, whose proven root moves (won, or lost when it met no draw) are
    marked in the tree: the search then plays a win at once and avoids the
    losses; with ``pns_pick`` the move played among those not proven is the
    one that search found hardest to refute (highest disproof number, then
    lowest proof number) instead of the most visited: 1 always, 2 once it
    has proven some root move lost."""

    c: float = 0.7
    rave: bool = False
    rave_bias: float = 1e-3
    c_plain: float = 0.7
    grave_ref: int = 0
    solver: bool = False
    decisive: int = 0
    anti: int = 0
    expand: int = 1
    policy: bool = True
    pns: float = 0.0
    pns_pick: int = 0
    patterns: bool = False

    def __post_init__(self) -> None:
        if not 0.0 <= self.pns <= 1.0:
            raise ValueError(f"pns is the share of each move for proof-number search, 0..1; got {self.pns!r}")
        if self.pns_pick not in (0, 1, 2):
            raise ValueError(f"pns_pick must be 0 (off), 1 (always) or 2 (once a root move is proven lost); "
                             f"got {self.pns_pick!r}")

    def vector(self, custom_policy: bool) -> np.ndarray:
        generic = self.rave or self.decisive > 0 or self.anti > 0 or custom_policy
        return np.array([self.c, self.rave, self.rave_bias, self.grave_ref, self.solver, self.decisive,
                         self.anti, generic, self.expand, self.patterns, self.c_plain], dtype=np.float64)


VARIANTS: dict[str, Config] = {
    "uct": Config(),
    "rave": Config(c=0.2, rave=True),
    "grave": Config(c=0.2, rave=True, grave_ref=50),
    "solver": Config(solver=True),
    "enhanced": Config(c=0.2, rave=True, grave_ref=50, solver=True, patterns=True),
    "decisive": Config(c=0.2, rave=True, grave_ref=50, solver=True, decisive=8, anti=8),
}
NO_POLICY = "-nopolicy"


def config_of(variant: str, game: Game | None = None) -> Config:
    """The Config of a variant name: ``NAME[-nopolicy][:key=value...]``.

    ``NAME-nopolicy`` is ``NAME`` ignoring the game's playout policy;
    ``:key=value`` sets a field of :class:`Config`; ``enhanced`` for a
    ``game`` takes that game's measured settings (``game.MCTS``) first.

    >>> config_of("uct-nopolicy") == Config(policy=False)
    True
    >>> config_of("enhanced:c=0.4:rave=0").c, config_of("enhanced:c=0.4:rave=0").rave
    (0.4, False)
    """
    name, *settings = variant.split(":") if isinstance(variant, str) else [variant]
    base = name[:-len(NO_POLICY)] if isinstance(name, str) and name.endswith(NO_POLICY) else name
    if base not in VARIANTS:
        raise ValueError(f"unknown MCTS variant {variant!r}; variants: {', '.join(VARIANTS)} "
                         f"(each also as NAME{NO_POLICY}: uniform playouts instead of the game's policy, "
                         f"and with :key=value settings, keys: {', '.join(f.name for f in fields(Config))})")
    config = VARIANTS[base]
    if base == "enhanced" and game is not None:
        config = replace(config, **game.MCTS)
    if base != name:
        config = replace(config, policy=False)
    return replace(config, **dict(_setting(s, variant) for s in settings))


def _setting(text: str, variant: str) -> tuple[str, Any]:
    """``key=value`` of a variant name as a Config field and its typed value."""
    key, _, value = text.partition("=")
    kinds = {f.name: type(getattr(Config(), f.name)) for f in fields(Config)}
    if key not in kinds or not value:
        raise ValueError(f"bad setting {text!r} in MCTS variant {variant!r}; "
                         f"settings are key=value with keys: {', '.join(kinds)}")
    kind = kinds[key]
    try:
        if kind is bool:
            return key, {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}[value.lower()]
        return key, kind(value)
    except (KeyError, ValueError):
        raise ValueError(f"bad value {value!r} for {key!r} in MCTS variant {variant!r}: "
                         f"{kind.__name__} expected") from None


PNS_NODES = 1 << 20  # proof-number search nodes (36 MB), kept by an agent that uses it
# Level -> simulations per move (all levels search with the "enhanced" variant).
LEVELS: dict[int, int] = {1: 25, 2: 50, 3: 100, 4: 250, 5: 500, 6: 1000, 7: 2500, 8: 5000, 9: 10000, 10: 25000}
MAX_NODES = 1 << 22
# Level -> the most searching time a turn may take where a front end bounds it (the web app's AI seats:
# on a large board a level's simulations can take minutes); the search then stops early.
LEVEL_SECONDS: dict[int, float] = {1: 1.0, 2: 1.0, 3: 1.5, 4: 2.0, 5: 2.5, 6: 3.0, 7: 4.0, 8: 5.0, 9: 6.0, 10: 7.0}
LATER_STEP_SHARE = 8  # a later step of a turn searches at least 1/8 of the turn's budget (and its kept subtree)


class MCTSAgent:
    """MCTS over the game's kernels, with tree reuse between moves.

    The budget is ``simulations`` per turn, or ``seconds`` per turn when given
    (then the simulation count, and so the moves, depend on the machine's
    speed); by default ``LEVELS[level]`` simulations.  In a turn of several
    steps (Lisbon's stones, Palago's tiles) the first step may spend the whole
    budget, the tree it grows holding the turn's later steps too, and each
    later step what is left, at least ``1/LATER_STEP_SHARE`` of it, in the
    subtree it keeps (:meth:`step_budget`).  ``until``, a
    :func:`time.perf_counter` moment, stops every search by then whatever the
    budget (a clock's limit: the time waiting between slices counts too).  With a ``seed`` and a
    simulation budget, play is reproducible: the generator is reseeded from
    (seed, moves played) at every move.  With ``solutions`` (the default) it
    plays shipped solved positions perfectly instead of searching them.
    """

    def __init__(self, level: int = 5, seed: int | None = None, seconds: float | None = None,
                 simulations: int | None = None, variant: str | Config = "enhanced", solutions: bool = True) -> None:
        if isinstance(level, bool) or level not in LEVELS:
            raise ValueError(f"level must be an integer 1..10, got {level!r}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be positive, got {seconds!r}")
        if simulations is not None and (isinstance(simulations, bool) or not isinstance(simulations, int)
                                        or simulations < 1):
            raise ValueError(f"simulations must be a positive integer, got {simulations!r}")
        self.variant = variant
        self.config = variant if isinstance(variant, Config) else config_of(variant)  # checks the name
        self.level, self.seed, self.seconds, self.solutions = level, seed, seconds, solutions
        self.simulations = simulations if simulations is not None else (None if seconds else LEVELS[level])
        self.name = f"mcts:{level}"
        self.last_simulations = 0  # simulations run by the last search (reused ones not counted)
        self.max_nodes = MAX_NODES  # the tree's most nodes (36 bytes each); a full tree stops growing, not searching
        self.until: float | None = None  # a perf_counter moment no search goes past (None: no such limit)
        self._tree: tuple | None = None
        self._turn: tuple[tuple, dict[int, tuple[int, float]]] = ((), {})  # the turn; per step its search's cost
        self._key: tuple | None = None
        self._history: list[int] = []
        self._pns_arrays: tuple | None = None
        self._pns_history: tuple | None = None  # (game, history) at the proof-number search's root
        self._pns_pick: dict[int, tuple] | None = None  # root child -> (disproof, -proof) when they choose

    # public ------------------------------------------------------------------
    def choose(self, state: State) -> str:
        """The best move in ``state`` (the state is not changed)."""
        return self.hint(state)[0]

    def hint(self, state: State) -> tuple[str, float]:
        """The best move and its estimated win rate for the player to move; in
        a solved position (:mod:`hexarena.search.solutions`) the perfect move and
        its proven result (1, 0.5 or 0) without searching."""
        return drain(self.hinting(state))

    def hinting(self, state: State, slice_seconds: float | None = None,
                max_seconds: float | None = None) -> Generator[None, None, tuple[str, float]]:
        """:meth:`hint` in slices (:meth:`searching` says how); returns the move and its win rate."""
        proven = perfect_move(state) if self.solutions else None
        if proven is not None:
            return proven.move, reward(proven.result)
        ints, flts, meta = yield from self.searching(state, slice_seconds, max_seconds)
        child = self._best_child(ints, flts, meta)
        return state.move_name(int(ints[child, ACTION])), self._rate(ints, flts, meta, child)

    def stats(self, state: State) -> list[tuple[str, int, float]]:
        """Search ``state``; each root move with its visits and win rate, most visited first."""
        ints, flts, meta = self.search(state)
        root = meta[ROOT]
        first = ints[root, FIRST]
        rows = [(state.move_name(int(ints[i, ACTION])), int(flts[i, N]), self._rate(ints, flts, meta, i))
                for i in range(first, first + ints[root, COUNT])]
        return sorted(rows, key=lambda r: -r[1])

    def root_rates(self, state: State) -> list[float] | None:
        """Without searching: the win rates of the root moves the last search visited (proven moves at
        their proven value), if that search was of ``state``; None otherwise (a solved position played
        without a search)."""
        if self._tree is None or self._key != _game_key(state.game) or self._history != state.history:
            return None
        ints, flts, meta = self._tree[:3]
        root = meta[ROOT]
        first = ints[root, FIRST]
        return [self._rate(ints, flts, meta, i) for i in range(first, first + ints[root, COUNT])
                if flts[i, N] > 0 or ints[i, PROVEN] >= 0]

    def step_budget(self, state: State) -> tuple[int | None, float | None]:
        """The simulations and seconds a search of ``state`` may spend (None: no such bound): what the
        turn's budget leaves after this agent's searches of the turn's earlier steps, at least
        ``1/LATER_STEP_SHARE`` of it."""
        key, costs = self._turn
        earlier = [cost for step, cost in costs.items() if step < state.step] if key == _turn_key(state) else []
        simulations, seconds = sum(c[0] for c in earlier), sum(c[1] for c in earlier)
        share = LATER_STEP_SHARE
        sims, secs = self.simulations, self.seconds
        return (None if sims is None else max(-(-sims // share), sims - simulations),
                None if secs is None else max(secs / share, secs - seconds))

    def limit(self, max_nodes: int, until: float | None = None) -> None:
        """Bound every later search: its tree to ``max_nodes`` nodes (a full tree stops growing, not searching),
        its end to the :func:`time.perf_counter` moment ``until`` (None: no such moment)."""
        self.max_nodes, self.until = max_nodes, until

    def root_visits(self, state: State) -> int:
        """Visits already in the tree for ``state`` (tree reuse), without searching."""
        tree = self._reuse(state)
        return 0 if tree is None else int(tree[1][tree[2][ROOT], N])

    # search ------------------------------------------------------------------
    def search(self, state: State) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Search ``state`` within the agent's budget; the tree (ints, flts, meta)."""
        return drain(self.searching(state))

    def searching(self, state: State, slice_seconds: float | None = None,
                  max_seconds: float | None = None) -> Generator[None, None, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """:meth:`search` in slices, for a scheduler that interleaves searches:
        yields after each ``slice_seconds`` of searching (about: a chunk of
        work takes at most 0.05 s), the tree kept between slices; returns the
        tree.  ``max_seconds`` bounds the searching time (time in slices, not
        time waiting between them) on top of the budget, and :attr:`until` the
        moment it ends by (both phases, sliced or not).  With none of them, it
        never yields and searches exactly as before (one call for a simulation
        budget, so seeded play is reproducible)."""
        if state.is_over():
            raise ValueError("the game is over: no move to choose")
        game = state.game
        with compiling_search(game):  # its helpers compile on first use too
            if self.seed is not None:
                seed_numba((self.seed * 1_000_003 + len(state.history)) % 2**32)
            tree = self._reuse(state)
            if tree is None:
                tree = self._new_tree(game)
            self._tree, self._key, self._history = tree, _game_key(game), state.history
            ints, flts, meta, work, seen = tree
            if not isinstance(self.variant, Config):
                self.config = config_of(self.variant, game)
            use_policy = self.config.policy
            cfg = self.config.vector(custom_policy=use_policy and hasattr(game.kernels, "policy"))
        search = compiled_search(game.kernels, use_policy)
        s = state.array.copy()
        run = said_compiling(game, lambda n: search(s, game.tables, ints, flts, meta, cfg, n, work, seen))
        proven = lambda: self.config.solver and ints[meta[ROOT], PROVEN] >= 0  # noqa: E731
        start, share, spent, until = time.perf_counter(), self.config.pns, 0.0, self.until
        self._pns_pick = None
        sliced = slice_seconds is not None or max_seconds is not None
        # a time budget, else simulations (set when seconds are not: __init__); sliced, max_seconds bounds both
        step_simulations, step_seconds = self.step_budget(state)
        seconds = step_seconds if max_seconds is None else min(step_seconds or max_seconds, max_seconds)
        simulations = step_simulations or 1 << 62
        if share > 0:
            if ints[meta[ROOT], FIRST] < 0:
                run(1)  # expand the root: proofs are marked on its children
            iterations = max(1, int(share * simulations)) if step_simulations else 1 << 62
            proof_seconds = None if seconds is None else share * seconds
            proof_until = None if until is None else start + share * max(0.0, until - start)  # its share of both
            if sliced:
                spent = yield from self._proving(game, s, ints, meta, state.history, iterations=iterations,
                                                 seconds=proof_seconds, slice_seconds=slice_seconds,
                                                 deadline=proof_until)
            elif proof_until is not None:
                deadline = sooner(proof_until, start, proof_seconds)
                self._proof_search(game, s, ints, meta, state.history, deadline=deadline, iterations=iterations)
            elif seconds is not None:
                self._proof_search(game, s, ints, meta, state.history, deadline=start + share * seconds)
            else:
                self._proof_search(game, s, ints, meta, state.history, iterations=max(1, int(share * simulations)))
            if self.seconds is None:
                simulations = max(1, simulations - int(share * simulations))
        if sliced:
            left = None if seconds is None else max(0.0, seconds - spent)
            self.last_simulations, _ = yield from run_slices(run, simulations, left, slice_seconds, proven,
                                                             deadline=until)
        elif until is not None:
            self.last_simulations = run_until(run, sooner(until, start, seconds), simulations, 0.05, proven)
        elif seconds is not None:
            self.last_simulations = run_until(run, start + seconds, simulations, 0.05, proven)
        else:
            self.last_simulations = run(simulations)
        self._spend(state, step_simulations or 0, time.perf_counter() - start)
        return ints, flts, meta

    def _spend(self, state: State, simulations: int, seconds: float) -> None:
        """Count a search of ``state`` against its turn's budget (a step searched again: its last search)."""
        key = _turn_key(state)
        costs = self._turn[1] if self._turn[0] == key else {}
        costs[state.step] = simulations, seconds
        self._turn = key, costs

    def _proof_search(self, game, s, ints, meta, history: list[int], deadline: float | None = None,
                      iterations: int = 0) -> None:
        """Proof-number search from the root (``Config.pns``) until ``deadline``
        (and at most ``iterations`` expansions when given), else for
        ``iterations`` expansions, in the tree of earlier moves when it leads
        here; marks the root moves it proves."""
        run, (pints, pnum, meta_p) = self._prover(game, s, history)
        if deadline is None:
            run(iterations)
        else:
            run_until(run, deadline, iterations or 1 << 62, slice_seconds=0.02)
        self._mark_proofs(ints, meta, pints, pnum, meta_p)

    def _proving(self, game, s, ints, meta, history: list[int], iterations: int, seconds: float | None,
                 slice_seconds: float | None, deadline: float | None = None) -> Generator[None, None, float]:
        """:meth:`_proof_search` in slices (:meth:`searching`): ``iterations``
        expansions, ``seconds`` of searching or the moment ``deadline``,
        whichever comes first; returns the seconds it searched."""
        run, (pints, pnum, meta_p) = self._prover(game, s, history)
        _, spent = yield from run_slices(run, iterations, seconds, slice_seconds, deadline=deadline)
        self._mark_proofs(ints, meta, pints, pnum, meta_p)
        return spent

    def _prover(self, game, s, history: list[int]) -> tuple[Callable[[int], int], tuple]:
        """``run(n)``, ``n`` expansions of the proof-number search from ``s``
        (compiled here on first use), and its arrays (nodes, numbers, meta)."""
        pints, pnum, meta_p, moves, replies = self._pns_reuse(game, history)
        prove = compiled_proof_search(game.kernels, self.config.policy)
        run = said_compiling(game, lambda n: prove(s, game.tables, pints, pnum, meta_p, n, moves, replies))
        return run, (pints, pnum, meta_p)

    def _mark_proofs(self, ints, meta, pints, pnum, meta_p) -> None:
        """Mark the root moves the proof-number search proved (and its numbers, for ``pns_pick``)."""
        root, proof_root = meta[ROOT], meta_p[P_ROOT]
        p = ints[root, MOVER]
        first = pints[proof_root, P_FIRST]
        numbers = {}
        for k in range(first, first + pints[proof_root, P_COUNT]):  # none when unexpanded
            child = descend(ints, root, pints[k, P_ACTION])
            if child < 0:
                continue  # the tree was too full to expand the root
            numbers[child] = int(pnum[k, DN]), -int(pnum[k, PN])
            if pnum[k, PN] == 0:
                ints[child, PROVEN] = p
            elif pnum[k, DN] == 0 and not meta_p[P_DRAWS]:
                ints[child, PROVEN] = 1 - p
        _prove(ints, root)
        pick = self.config.pns_pick
        if pick == 1 or pick == 2 and any(dn == 0 for dn, _ in numbers.values()):
            self._pns_pick = numbers

    def _pns_reuse(self, game, history: list[int]) -> tuple:
        """The proof-number search arrays, rooted at ``history``'s position: the
        earlier search's node there when it has one for the same player to
        move and room to spare, else a fresh root."""
        a = game.num_actions
        arrays = self._pns_arrays
        if arrays is None or arrays[3].shape[0] != a:
            # the nodes' rows unwritten: the search writes each node it adds (memory is touched as it grows)
            arrays = self._pns_arrays = (np.empty((PNS_NODES, 5), dtype=np.int32),
                                         np.empty((PNS_NODES, 2), dtype=np.int64), np.zeros(3, dtype=np.int64),
                                         np.zeros(a, dtype=np.int32), np.zeros(a, dtype=np.int32))
            self._pns_history = None
        pints, pnum, meta_p = arrays[:3]
        key, old = self._pns_history or (None, None)
        node = -1
        if key == _game_key(game) and history[:len(old)] == old and meta_p[P_USED] < PNS_NODES // 2:
            node = int(meta_p[P_ROOT])
            for action in history[len(old):]:
                node = descend(pints, node, action)
                if node < 0:
                    break
        if node < 0 or not pints[node, P_OR]:
            meta_p[:] = (1, 0, 0)
            pints[0], pnum[0], node = (-1, -1, 0, -1, 1), (1, 1), 0
        meta_p[P_ROOT] = node
        self._pns_history = _game_key(game), list(history)
        return arrays

    def _new_tree(self, game) -> tuple:
        a = game.num_actions
        wanted = self.max_nodes if self.simulations is None else 2 * self.simulations * (a + 1)  # reuse needs room
        capacity = max(64 * (a + 1), min(self.max_nodes, wanted))  # room for the root's children at least
        ints, flts, meta = new_tree(capacity)
        return ints, flts, meta, np.zeros(work_shape(a), dtype=np.int32), np.zeros(2 * a, dtype=np.int64)

    def _reuse(self, state: State) -> tuple | None:
        """The kept tree moved down to ``state``, or None when it does not lead there."""
        history = state.history
        if self._tree is None or self._key != _game_key(state.game) or history[:len(self._history)] != self._history:
            return None
        ints, flts, meta = self._tree[:3]
        node = int(meta[ROOT])
        for a in history[len(self._history):]:
            node = descend(ints, node, a)
            if node < 0:
                return None
        if ints[node, FIRST] < 0:  # never expanded (perhaps proven from above): nothing to keep
            return None
        meta[ROOT] = node
        if meta[USED] > meta[CAPACITY] // 2:
            compact(ints, flts, meta, node)
            if meta[USED] > meta[CAPACITY] // 2:
                return None
        self._history = history
        return self._tree

    def _best_child(self, ints, flts, meta) -> int:
        """The most visited root move, except that proofs come first (and,
        with ``Config.pns_pick``, the proof-number search's numbers next)."""
        root = meta[ROOT]
        p, first, count = ints[root, MOVER], ints[root, FIRST], ints[root, COUNT]
        numbers = self._pns_pick or {}

        def key(i: int) -> tuple:
            proven = ints[i, PROVEN]
            rank = 2 if proven == p else (0 if proven == 1 - p else 1)
            return rank, numbers.get(i, (0, 0)) if rank == 1 else (0, 0), flts[i, N], flts[i, W]

        return max(range(first, first + count), key=key)

    def _rate(self, ints, flts, meta, child) -> float:
        p, proven = ints[meta[ROOT], MOVER], ints[child, PROVEN]
        if proven >= 0:
            return _reward(proven, p)
        n = flts[child, N]
        return float(flts[child, W] / n) if n > 0 else 0.5


def run_until(run: Callable[[int], int], deadline: float, limit: int = 1 << 62, slice_seconds: float = 0.05,
              stop: Callable[[], bool] = lambda: False) -> int:
    """Call ``run(n)`` (at most ``n`` units of work; returns those done) in chunks
    sized from the measured rate, at most ``slice_seconds`` each, until
    ``deadline``, ``limit`` units, a chunk that stops short, or ``stop()``;
    returns the units done."""
    done, chunk = 0, 16
    while done < limit:
        begin = time.perf_counter()
        n = run(min(chunk, limit - done))
        done += n
        now = time.perf_counter()
        if n < chunk or now >= deadline or stop():
            break
        rate = n / max(now - begin, 1e-6)
        chunk = max(16, min(int(rate * (deadline - now)), int(rate * slice_seconds)))
    return done


def run_slices(run: Callable[[int], int], limit: int, seconds: float | None = None,
               slice_seconds: float | None = None, stop: Callable[[], bool] = lambda: False,
               chunk_seconds: float = 0.05, deadline: float | None = None) -> Generator[None, None, tuple[int, float]]:
    """Call ``run(n)`` (at most ``n`` units of work; returns those done) in
    chunks of at most ``chunk_seconds`` (sized from the measured rate) until
    ``limit`` units, ``seconds`` spent in ``run``, the moment ``deadline``
    (:func:`time.perf_counter`; one chunk runs whatever the moment), a chunk
    that stops short, or ``stop()``; yields after each ``slice_seconds`` spent
    in ``run`` (never when None); returns the units done and the seconds spent
    in ``run``."""
    done, chunk, spent, since = 0, 1, 0.0, 0.0
    while done < limit:
        asked = min(chunk, limit - done)
        begin = time.perf_counter()
        n = run(asked)
        end = time.perf_counter()
        took = end - begin
        done, spent, since = done + n, spent + took, since + took
        if n < asked or (seconds is not None and spent >= seconds) or _past(deadline, end) or stop():
            break
        room = chunk_seconds if seconds is None else min(chunk_seconds, seconds - spent)
        room = room if deadline is None else min(room, deadline - end)
        chunk = max(1, min(2 * asked, int(n / max(took, 1e-6) * room)))  # at most double: one sample is noisy
        if slice_seconds is not None and since >= slice_seconds:
            since = 0.0
            yield
            if _past(deadline, time.perf_counter()):  # the wait took the time left
                break
    return done, spent


def sooner(moment: float, start: float, seconds: float | None) -> float:
    """``moment``, or ``start + seconds`` when that comes first."""
    return moment if seconds is None else min(moment, start + seconds)


def _past(deadline: float | None, now: float) -> bool:
    return deadline is not None and now >= deadline


def drain(steps: Generator[None, None, Any]) -> Any:
    """Run a generator of :meth:`MCTSAgent.searching` to its end; its result."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def _game_key(game) -> tuple:
    return game.name, tuple(sorted(game.options.items()))


def _turn_key(state: State) -> tuple:
    """The turn ``state`` is in: its game and the moves before the turn's first step."""
    before = len(state.history) - state.step
    return _game_key(state.game), tuple(state.history[:before])
