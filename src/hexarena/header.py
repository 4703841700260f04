"""The shared header of every position array (see :mod:`hexarena.games.base`):
the indices of its fields.  Kept apart from :mod:`hexarena.kernels` (which
re-exports them) so that ``import hexarena`` does not load numba; a game's
module loads it with its kernels.  It imports nothing."""

TO_MOVE, WINNER, TURN, STEP, PLY = range(5)
HEADER = 8
DRAW = 2  # WINNER's value for a draw
