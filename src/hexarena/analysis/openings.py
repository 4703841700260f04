"""Opening protocols in self-play: which choice the players made and how it went.

A game with an opening protocol names its moves (``Game.opening_words``: a
swap, a colour choice, an auction's end).  For every game we take the first
such word played (or none), and per word count the games, where it came
(ply), who played it, and how the player who made the choice did.

>>> games = [{"moves": ["A", "B", "black", "D"], "movers": [0, 0, 1, 0], "winner": 1},
...          {"moves": ["A", "B", "white", "D"], "movers": [0, 0, 1, 1], "winner": 0}]
>>> [(row["choice"], row["games"], row["chooser_wins"]["count"]) for row in choices(("black", "white"), games)["rows"]]
[('black', 1, 1), ('white', 1, 0)]
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .metrics import proportion

if TYPE_CHECKING:
    from .selfplay import GameResult

NONE = "(none)"  # the protocol's word never played: no swap, an auction lost before a block


def first_choice(words: tuple[str, ...], result: GameResult) -> tuple[str, int | None, int | None]:
    """(word, ply, seat) of the game's first protocol move (one of ``words``), or (NONE, None, None)."""
    for ply, move in enumerate(result["moves"]):
        if move in words:
            return move, ply, result["movers"][ply]
    return NONE, None, None


def choices(words: tuple[str, ...], results: Sequence[GameResult]) -> dict[str, Any]:
    """Per protocol word of ``words`` (and none): games, share, mean ply, the choosers' seats and wins."""
    if not words:
        return {"available": False, "reason": "no opening protocol with these options"}
    groups: dict[str, list[tuple[int | None, int | None, GameResult]]] = {}
    for r in results:
        word, ply, seat = first_choice(words, r)
        groups.setdefault(word, []).append((ply, seat, r))
    rows = []
    for word in (*words, NONE):
        picked = groups.get(word, [])
        if not picked and word == NONE:
            continue
        row: dict[str, Any] = {"choice": word, "games": len(picked), "share": proportion(len(picked), len(results))}
        if word != NONE:
            plies = [p + 1 for p, _, _ in picked if p is not None]  # all: the word was played; counted from 1
            row["mean_ply"] = round(statistics.fmean(plies), 3) if plies else None
            row["by_seat"] = [sum(1 for _, s, _ in picked if s == k) for k in (0, 1)]
            row["chooser_wins"] = proportion(sum(1 for _, s, r in picked if r["winner"] == s), len(picked))
        row["seat_wins"] = [proportion(sum(1 for _, _, r in picked if r["winner"] == k), len(picked))
                            for k in (0, 1)]
        rows.append(row)
    return {"available": True, "words": list(words), "rows": rows}
