"""The shared header of every position array (see :mod:`hexarena.games.base`):
the indices of its fields.  Kept apart from :mod:`hexarena.kernels` (which
re-exports them) so that ``import hexarena`` does not load numba; a game's
module loads it with its kernels.  It imports nothing.

==========  ===================================================
``TO_MOVE``  player to move (0 or 1), -1 when the game is over
``WINNER``   -1 none yet, 0 or 1, ``DRAW``
``TURN``     turn number, from 1
``STEP``     steps already taken in this turn
``PLY``      atomic moves applied since the start
==========  ===================================================
"""

TO_MOVE, WINNER, TURN, STEP, PLY = range(5)
HEADER = 8
DRAW = 2  # WINNER's value for a draw
