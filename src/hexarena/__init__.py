"""hexarena: hex-grid abstract strategy games with fast rules, agents and tools.

>>> import hexarena
>>> game = hexarena.load("projective-hex")
>>> state = game.new_state()
>>> state.legal_moves()[:5]
['A', 'B', 'C', 'D', 'E']
"""

from __future__ import annotations

from .games import (GAMES, AmbiguousMove, Game, IllegalMove, MalformedMove, NothingToUndo, State, game_class, load,
                    register)
from .records import from_record

__version__ = "0.1.0"
__all__ = ["GAMES", "Game", "IllegalMove", "MalformedMove", "AmbiguousMove", "NothingToUndo", "State", "load",
           "game_class", "register", "from_record", "__version__"]
