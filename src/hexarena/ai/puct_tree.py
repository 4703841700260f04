"""The PUCT search's tree in arrays, and the parts of its loop that need no game.

One row per node in two preallocated arrays:

* ``ints[node]``: ``ACTION`` (the move leading here), ``FIRST`` (index of
  the first child, -1 while unexpanded), ``COUNT`` (number of children),
  ``MOVER`` (the player to move in this node's position, -1 until the node
  is a leaf sent to the evaluator, and at the game's end), ``VIRTUAL`` (the
  simulations now passing through it that are not backed up yet: its virtual
  losses) and ``PENDING`` (1 while the node waits for the evaluator);
* ``flts[node]``: ``N`` visits, ``W`` the sum of the values backed up
  through it for the player who chose its move (the parent's ``MOVER``),
  in [-1, 1] each, and ``P`` its prior.

Values are backed up per player, never by alternation: a value ``v`` for
player ``p`` adds ``v`` to each node on the path whose chooser is ``p`` and
``-v`` to the others, so turns of several steps need nothing special.
The loop that descends the tree calls the game's kernels and is specialised
per game (``puct_template.py``, :mod:`hexarena.ai.puct`).
"""

from __future__ import annotations

import math

import numpy as np

from ..kernels import njit

ACTION, FIRST, COUNT, MOVER, VIRTUAL, PENDING = range(6)
N, W, P = range(3)
USED, CAPACITY = range(2)  # meta: nodes in use, rows allocated


@njit
def new_tree(capacity):
    """A tree of ``capacity`` rows holding its root (row 0); the other rows are
    left unwritten (:func:`add_node` writes each node it adds), so a large tree
    costs memory as it grows, not when it is allocated."""
    ints = np.empty((capacity, 6), dtype=np.int32)
    flts = np.empty((capacity, 3), dtype=np.float64)
    meta = np.zeros(2, dtype=np.int64)
    meta[CAPACITY] = capacity
    add_node(ints, flts, meta, -1)
    return ints, flts, meta


@njit
def clear(ints, flts, meta):
    """Empty the tree down to a fresh root."""
    meta[USED] = 0
    add_node(ints, flts, meta, -1)


@njit
def add_node(ints, flts, meta, action):
    i = meta[USED]
    meta[USED] += 1
    ints[i, ACTION] = action
    ints[i, FIRST] = -1
    ints[i, COUNT] = 0
    ints[i, MOVER] = -1
    ints[i, VIRTUAL] = 0
    ints[i, PENDING] = 0
    flts[i, :] = 0.0
    return i


@njit
def select(ints, flts, node, c_puct):
    """The child of ``node`` maximising Q + c_puct · P · sqrt(N_parent) / (1 + N_child).

    Q is the child's mean value for the chooser, 0 while unvisited; a virtual
    loss counts as a visit valued -1.  ``N_parent`` is the node's own
    evaluation plus its children's visits (at least 1, so the priors order
    the first choice); the node is on the current path, so its own virtual
    loss is one more than its children's."""
    first, count = ints[node, FIRST], ints[node, COUNT]
    root_n = math.sqrt(flts[node, N] + ints[node, VIRTUAL] - 1.0)
    best, best_v = first, -math.inf
    for i in range(first, first + count):
        vl = ints[i, VIRTUAL]
        n = flts[i, N] + vl
        q = (flts[i, W] - vl) / n if n > 0.0 else 0.0
        v = q + c_puct * flts[i, P] * root_n / (1.0 + n)
        if v > best_v:
            best, best_v = i, v
    return best


@njit
def back_up(ints, flts, path, length, player, value):
    """Count a simulation along ``path[:length]`` (root first): a visit and the
    value ``value`` for ``player`` (-``value`` for the other), and lift its virtual losses."""
    for d in range(length):
        node = path[d]
        flts[node, N] += 1.0
        ints[node, VIRTUAL] -= 1
        if d > 0:
            flts[node, W] += value if ints[path[d - 1], MOVER] == player else -value


@njit
def drop(ints, path, length):
    """Lift the virtual losses of a simulation abandoned along ``path[:length]``."""
    for d in range(length):
        ints[path[d], VIRTUAL] -= 1


OK, BAD_PRIOR, BAD_VALUE = range(3)  # what back_up_leaves found


@njit
def back_up_leaves(ints, flts, leaves, paths, lengths, count, priors, values):
    """The evaluator's answers for the first ``count`` waiting leaves: each
    leaf's children get its priors of their moves, renormalised over them
    (uniform when those sum to 0), and its value, for the leaf's player to
    move, is backed up along its path.  Returns (``OK``, 0), or, changing
    nothing, (``BAD_PRIOR``, leaf) when a leaf's prior of one of its moves is
    negative or not finite, (``BAD_VALUE``, leaf) when a value is not in [-1, 1]."""
    for j in range(count):
        if not abs(values[j]) <= 1.0:  # NaN too
            return BAD_VALUE, j
        node = leaves[j]
        for i in range(ints[node, FIRST], ints[node, FIRST] + ints[node, COUNT]):
            if not 0.0 <= priors[j, ints[i, ACTION]] < math.inf:
                return BAD_PRIOR, j
    for j in range(count):
        node = leaves[j]
        first, n = ints[node, FIRST], ints[node, COUNT]
        total = 0.0
        for i in range(first, first + n):
            total += priors[j, ints[i, ACTION]]
        for i in range(first, first + n):
            flts[i, P] = priors[j, ints[i, ACTION]] / total if total > 0.0 else 1.0 / n
        ints[node, PENDING] = 0
        back_up(ints, flts, paths[j], lengths[j], ints[node, MOVER], values[j])
    return OK, 0
