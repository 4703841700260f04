"""Opening protocols in self-play: which choice the players made and how it went.

Each game with an opening protocol has words that are moves of the
protocol (Projective Hex's ``swap`` and cut-and-choose's ``black`` /
``white``, Lhexus's ``accept`` / ``decline``, Weituweiqi's auction ending in
``block``).  For every game we take the first such word played (or none),
and per word count the games, where it came (ply), who played it, and how
the player who made the choice did.

>>> games = [{"moves": ["A", "B", "C", "black", "D"], "movers": [0, 0, 0, 1, 0], "winner": 1},
...          {"moves": ["A", "B", "C", "white", "D"], "movers": [0, 0, 0, 1, 1], "winner": 0}]
>>> [(row["choice"], row["games"], row["chooser_wins"]["count"]) for row in choices("projective-hex", {}, games)["rows"]]
[('black', 1, 1), ('white', 1, 0)]
"""

from __future__ import annotations

import statistics
from typing import Any, Sequence

from .metrics import proportion

PROTOCOL_WORDS: dict[str, tuple[str, ...]] = {
    "lhexus": ("accept", "decline"),
    "weituweiqi": ("block",),
}
PROJECTIVE_WORDS = {"none": (), "swap": ("swap",), "cut-and-choose": ("black", "white")}
NONE = "(none)"  # the protocol's word never played: no swap, an auction lost before a block


def protocol_words(game: str, options: dict[str, Any]) -> tuple[str, ...]:
    """The opening protocol's words in ``game`` with ``options``."""
    if game == "projective-hex":
        return PROJECTIVE_WORDS[options.get("opening", "cut-and-choose")]
    return PROTOCOL_WORDS.get(game, ())


def first_choice(words: tuple[str, ...], result: dict[str, Any]) -> tuple[str, int | None, int | None]:
    """(word, ply, seat) of the game's first protocol move (one of ``words``), or (NONE, None, None)."""
    for ply, move in enumerate(result["moves"]):
        if move in words:
            return move, ply, result["movers"][ply]
    return NONE, None, None


def choices(game: str, options: dict[str, Any], results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per protocol word (and none): games, share, mean ply, the choosers' seats and wins."""
    words = protocol_words(game, options)
    if not words:
        return {"available": False, "reason": f"{game} has no opening protocol with these options"}
    groups: dict[str, list[tuple[int | None, int | None, dict[str, Any]]]] = {}
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
            plies = [p for p, _, _ in picked]
            row["mean_ply"] = round(statistics.fmean(plies), 3) if plies else None
            row["by_seat"] = [sum(1 for _, s, _ in picked if s == k) for k in (0, 1)]
            row["chooser_wins"] = proportion(sum(1 for _, s, r in picked if r["winner"] == s), len(picked))
        row["seat_wins"] = [proportion(sum(1 for _, _, r in picked if r["winner"] == k), len(picked))
                            for k in (0, 1)]
        rows.append(row)
    return {"available": True, "words": list(words), "rows": rows}
