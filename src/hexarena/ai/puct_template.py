"""The PUCT search's descent, written once and specialised per game.

This file is a template: :func:`hexarena.ai.puct.compiled_collect` has it
written with the line that binds ``legal`` and ``apply`` replaced by imports
of one game's kernels (:mod:`hexarena.specialise`), so that numba compiles
them in as globals and caches the result.  The tree and the backup live in
:mod:`hexarena.ai.puct_tree`.
"""

from hexarena.ai.puct_tree import (ACTION, CAPACITY, COUNT, FIRST, MOVER, PENDING, USED, VIRTUAL, add_node, back_up,
                                   drop, select)
from hexarena.games.base import DRAW, TO_MOVE, WINNER
from hexarena.kernels import njit


@njit
def collect(root_state, t, ints, flts, meta, c_puct, want, leaf_states, masks, leaves, paths, lengths, moves):
    """Run simulations from the root (row 0, position ``root_state``) until
    ``want`` of them have ended, each at the game's end (backed up at once
    with the true result) or at a leaf, which then waits for the evaluator:
    the ``k``-th gets its position in ``leaf_states[k]``, its legal moves
    in ``masks[k]`` (and as its new children, while the tree has room), its
    row in ``leaves[k]`` and its path in ``paths[k, :lengths[k]]``.  Each
    node passed holds a virtual loss until its simulation is backed up.  A
    simulation that reaches a leaf already waiting is abandoned and ends the
    collection early.  Returns (leaves waiting, simulations ended at the
    game's end)."""
    s = root_state.copy()
    k, ended = 0, 0
    while k + ended < want:
        s[:] = root_state
        path = paths[k]
        node, length = 0, 0
        while True:
            path[length] = node
            length += 1
            ints[node, VIRTUAL] += 1
            if s[WINNER] >= 0 or ints[node, PENDING] or ints[node, FIRST] < 0:
                break
            node = select(ints, flts, node, c_puct)
            apply(s, t, ints[node, ACTION])
        if s[WINNER] >= 0:
            winner = s[WINNER]
            back_up(ints, flts, path, length, 0 if winner == DRAW else winner, 0.0 if winner == DRAW else 1.0)
            ended += 1
        elif ints[node, PENDING]:
            drop(ints, path, length)
            break
        else:
            _wait(s, t, ints, flts, meta, node, length < paths.shape[1], k, leaf_states, masks, leaves, moves)
            lengths[k] = length
            k += 1
    return k, ended


@njit
def _wait(s, t, ints, flts, meta, node, grow, k, leaf_states, masks, leaves, moves):
    """Make the leaf ``node`` (position ``s``) the ``k``-th waiting for the
    evaluator; its legal moves become its children when the tree has room
    and ``grow`` (its children's paths fit), else it stays a leaf, evaluated
    again when next reached."""
    ints[node, MOVER] = s[TO_MOVE]
    ints[node, PENDING] = 1
    n = legal(s, t, moves)
    masks[k, :] = False
    for j in range(n):
        masks[k, moves[j]] = True
    if grow and n > 0 and meta[USED] + n <= meta[CAPACITY]:
        ints[node, FIRST] = meta[USED]
        ints[node, COUNT] = n
        for j in range(n):
            add_node(ints, flts, meta, moves[j])
    leaf_states[k] = s
    leaves[k] = node


# the game's kernels (numba reads globals when it compiles, after this module has run);
# compiled_collect binds them by replacing the next line
legal = apply = None
