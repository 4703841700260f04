"""Tournaments: round robins by FIDE's Berger tables, Swiss pairings, knockouts, standings with tie-breaks,
crosstables and Little Golem-style championships in divisions.

A pure package: plain Python on player names, no server, database or game imports, so that the arena's
judge, its routes and the tests all call the same functions with the same values (:mod:`.model`). Each
module says the rules it applies: :mod:`.berger` (round robins), :mod:`.knockout`, :mod:`.standings`
(points and tie-breaks), :mod:`.swiss` (the pairing) and :mod:`.championship` (divisions, promotion and
relegation).
"""

from .berger import berger_rounds
from .championship import DIVISION_SIZE, PROMOTED, RELEGATED, division_names, first_divisions, next_divisions
from .knockout import knockout_first_round, knockout_next, knockout_rounds, knockout_winner
from .model import Entrant, Pairing, Played, Result, RoundRecord
from .standings import FORMATS, crosstable, standings
from .swiss import pair_swiss

__all__ = ["DIVISION_SIZE", "FORMATS", "PROMOTED", "RELEGATED", "Entrant", "Pairing", "Played", "Result",
           "RoundRecord", "berger_rounds", "crosstable", "division_names", "first_divisions", "knockout_first_round",
           "knockout_next", "knockout_rounds", "knockout_winner", "next_divisions", "pair_swiss", "standings"]
