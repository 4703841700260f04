"""The batched loops over N positions of one game (``states``: ``int32[N, S]``,
one position a row), written once and specialised per game.

This file is a template: :func:`hexarena.vector.loops.loops` copies it into
a cache directory with the line that binds ``legal``, ``apply``,
``is_legal`` and ``planes`` replaced by imports of one game's kernels, so
that numba compiles them in as plain globals and caches the result
(:mod:`hexarena.specialise`).

Observations go to ``out``: ``float32[N, C, H * W]`` (the grid of
:func:`hexarena.observe.observation` flattened), ``C = planes + 1``; the
loops clear the planes, the game's ``planes`` kernel writes the cells'
points (``points``) and the loops copy the on-board ``mask`` as the last
plane, so ``out`` may hold anything before.
"""

from hexarena.kernels import TO_MOVE, WINNER, inline, njit
from hexarena.vector.rng import below


@njit
def _no_is_legal(s, t, a):
    """Bound as ``is_legal`` for a game without one (never called: ``GAME_IS_LEGAL`` is False)."""
    return False


legal = apply = is_legal = planes = None
GAME_IS_LEGAL = None


@inline
def _is_legal(s, t, a, buf):
    """Is ``a`` legal in ``s`` (not over): the game's ``is_legal``, else a scan of its legal list."""
    if GAME_IS_LEGAL:
        return is_legal(s, t, a)
    n = legal(s, t, buf)
    for k in range(n):
        if buf[k] == a:
            return True
    return False


@njit
def legal_masks(states, t, masks, buf):
    """``masks[i, a]``: is action ``a`` legal in position ``i`` (none once it is over)?"""
    for i in range(states.shape[0]):
        row = masks[i]
        row[:] = False
        s = states[i]
        if s[WINNER] < 0:
            for k in range(legal(s, t, buf)):
                row[buf[k]] = True


@njit
def first_refused(states, t, actions, buf):
    """The first position whose action is not legal there (an over game
    takes none), or -1; nothing is changed."""
    for i in range(states.shape[0]):
        s = states[i]
        if s[WINNER] >= 0 or not _is_legal(s, t, actions[i], buf):
            return i
    return -1


@inline
def _restart_if_over(states, i, initial, finals, autoreset):
    """Position ``i``'s winner (-1 while it goes on); an over game is kept in
    ``finals[i]`` and started afresh when ``autoreset``."""
    s = states[i]
    w = s[WINNER]
    if w >= 0 and autoreset:
        finals[i, :] = s
        s[:] = initial
    return w


@njit
def step(states, t, actions, initial, autoreset, movers, winners, finals):
    """Apply ``actions[i]`` (legal: see :func:`first_refused`) to each
    position; ``movers[i]`` who moved, ``winners[i]`` the winner once over
    (``DRAW`` for a draw), else -1."""
    for i in range(states.shape[0]):
        movers[i] = states[i, TO_MOVE]
        apply(states[i], t, actions[i])
        winners[i] = _restart_if_over(states, i, initial, finals, autoreset)


@inline
def _observe_one(s, t, player, grid, points, mask):
    """Position ``s`` seen by ``player`` into ``grid`` (``float32[C, H * W]``):
    the planes cleared (as the game's ``planes`` kernel wants them; a memset is
    far quicker than clearing the points off the board one by one), the
    cells' points written, the mask plane copied."""
    last = grid.shape[0] - 1
    grid[:last] = 0.0
    planes(s, t, player, grid, points)
    grid[last, :] = mask


@njit
def observe(states, t, players, out, points, mask):
    """Each position ``i`` seen by ``players[i]`` into ``out[i]``."""
    for i in range(states.shape[0]):
        _observe_one(states[i], t, players[i], out[i], points, mask)


@njit
def random_actions(states, t, streams, out, buf):
    """A uniformly random legal action per position (-1 for an over game),
    drawn from each position's stream (:mod:`hexarena.vector.rng`)."""
    for i in range(states.shape[0]):
        s = states[i]
        n = legal(s, t, buf) if s[WINNER] < 0 else 0
        out[i] = buf[below(streams, i, n)] if n > 0 else -1


@njit
def self_play(states, t, initial, streams, plies, out, points, mask, buf, finals, tally):
    """``plies`` rounds of uniformly random moves in every position, a game
    that ends started afresh, each new position observed by its player to
    move into ``out`` (skipped when ``out`` has no rows).  Adds to ``tally``:
    wins of player 0, of player 1, draws, positions played."""
    observing = out.shape[0] > 0
    for _ in range(plies):
        for i in range(states.shape[0]):
            s = states[i]
            apply(s, t, buf[below(streams, i, legal(s, t, buf))])
            w = _restart_if_over(states, i, initial, finals, True)
            if w >= 0:
                tally[w] += 1
            if observing:
                _observe_one(s, t, s[TO_MOVE], out[i], points, mask)
        tally[3] += states.shape[0]
