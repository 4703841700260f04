"""Forced openings in self-play: ``--from MOVES`` and ``--first-moves all|M1,M2,...``.

``--from`` starts every game from the position after its moves.  With
``--first-moves`` the next move is forced: ``all`` takes one move per class
of the legal moves under the board's symmetries that keep the rules
(``Game.keeps_rules``, :func:`hexarena.search.positions.symmetries`) and the
position; a game that declares no symmetries has each move as its own
class.  Game ``i`` of a set forces class ``(i // 2) % classes``, so each
class gets pairs of games with the agents on both seats, and the first N
games of a run are the same whatever N.  A run's settings keep the classes
(each a list of moves, the forced one first), its results the forced moves.

>>> [class_index(i, 3) for i in range(8)]
[0, 0, 1, 1, 2, 2, 0, 0]
>>> settings = LabSettings("a game", ["x"], [{}], ["random"] * 2, 1, ["a1"], [[["b1"], ["b2"]]])
>>> forced_moves(settings, 0, 3)
('a1', 'b2')
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

import hexarena

from ..search.positions import action_maps, symmetries
from ..search.solutions import stored_value
from ..games.base import Game, State, quoted
from .balance import LabSettings
from .heatmap import heat_svg
from .metrics import wilson

if TYPE_CHECKING:
    from .selfplay import GameResult

ALL = "all"
FAIR = 0.5  # a first move whose score interval holds this is a candidate for a fair first move under swap


def split_moves(game: Game | type[Game], text: str, flag: str) -> list[str]:
    """Moves written in one argument: separated by commas, or by spaces (by spaces only where the
    game's moves hold commas: its ``MOVE_SEPARATOR`` is a space). ValueError naming ``flag`` when a
    move is empty."""
    separator = game.MOVE_SEPARATOR
    parts = text.split(separator) if separator != " " and separator in text else text.split()
    moves = [part.strip() for part in parts]
    if not moves or not all(moves):
        raise ValueError(f"{flag} {quoted(text)}: give moves in {game.name}'s notation, separated by commas "
                         "(or spaces)")
    return moves


def position_after(game: Game, moves: Sequence[str]) -> State:
    """The position after ``moves`` (``--from``); the library's error, naming the move, if one is not legal."""
    state = game.new_state()
    for number, move in enumerate(moves, 1):
        try:
            state.play(move)
        except ValueError as e:
            raise ValueError(f"--from: move {number} ({quoted(move)}): {e}") from None
    if state.is_over():
        raise ValueError(f"--from: the game is over after {' '.join(moves)}: no move is left to play")
    return state


@cache
def _declared(name: str, options: str) -> np.ndarray | None:
    """The board symmetries that keep the rules of game ``name`` with ``options`` (JSON), or None
    where the game declares none."""
    game = hexarena.load(name, **json.loads(options))
    try:
        game.keeps_rules(np.arange(game.topology.ncells))
    except ValueError:  # Game.keeps_rules: only games that say which automorphisms keep their rules have them
        return None
    return symmetries(game)


def declared_symmetries(game: Game) -> np.ndarray | None:
    """int64[k, ncells]: the automorphisms of ``game``'s board that keep its rules (identity first),
    or None when the game does not say which do (then every move is its own class)."""
    return _declared(game.name, json.dumps(game.options, sort_keys=True))


def stabiliser(game: Game, state: State) -> np.ndarray | None:
    """The declared symmetries that map ``state``'s position onto itself (all of them at the start)."""
    perms = declared_symmetries(game)
    if perms is None:
        return None
    offset, cells, _ = game.position_fields()
    board = state.array[offset:offset + cells]
    return perms[[bool(np.array_equal(board[p], board)) for p in perms]]


def move_classes(state: State) -> list[list[str]]:
    """The legal moves of ``state`` in classes of moves one position apart under its symmetries
    (:func:`stabiliser`), each class in the order of the legal moves, the classes by their first move."""
    legal = state.legal_actions()
    perms = stabiliser(state.game, state)
    if perms is None or len(perms) < 2:
        return [[state.move_name(a)] for a in legal]
    images = action_maps(state.game, perms)
    where = {a: i for i, a in enumerate(legal)}
    seen: set[int] = set()
    classes = []
    for a in legal:
        if a in seen:
            continue
        orbit = sorted({int(b) for b in images[:, a] if int(b) in where}, key=where.__getitem__)
        seen.update(orbit)
        classes.append([state.move_name(b) for b in orbit])
    return classes


def chosen_classes(state: State, text: str) -> list[list[str]]:
    """``--first-moves``: ``all`` (every class) or the listed moves, each with its class (it first)."""
    classes = move_classes(state)
    if text.strip().lower() == ALL:
        return classes
    of_move = {move: c for c in classes for move in c}
    chosen: list[list[str]] = []
    for move in split_moves(state.game, text, "--first-moves"):
        try:
            name = state.move_name(state.copy().parse(move))
        except ValueError as e:
            raise ValueError(f"--first-moves: {e}") from None
        members = of_move[name]
        twin = next((c[0] for c in chosen if name in c), None)
        if twin is not None:
            raise ValueError(f"--first-moves: {quoted(move)} and {quoted(twin)} are one first move under the "
                             f"board's symmetries (class {', '.join(members)}): list one of them")
        chosen.append([name, *[m for m in members if m != name]])
    return chosen


def settings_part(game: str, sets: Sequence[tuple[str, dict[str, Any]]], start: Sequence[str],
                  first_moves: str | None) -> dict[str, Any]:
    """What ``--from`` and ``--first-moves`` add to a run's settings (nothing without them): the
    start's moves and, per option set, the first-move classes."""
    part: dict[str, Any] = {}
    if start:
        part["start"] = list(start)
    if first_moves is None:
        for _, options in sets if start else ():  # check the start on every set
            position_after(hexarena.load(game, **options), start)
        return part
    part["first_moves"] = [chosen_classes(position_after(hexarena.load(game, **options), start), first_moves)
                           for _, options in sets]
    return part


def class_index(index: int, classes: int) -> int:
    """The class forced in game ``index``: pairs of games (both seats for each agent) in turn."""
    return (index // 2) % classes


def forced_moves(settings: LabSettings, set_index: int, index: int) -> tuple[str, ...]:
    """The moves game ``index`` of option set ``set_index`` plays before its agents do."""
    start = tuple(settings.start)
    if settings.first_moves is None:
        return start
    classes = settings.first_moves[set_index]
    return (*start, classes[class_index(index, len(classes))][0])


def check_games(settings: LabSettings, games: int) -> None:
    """Refuse fewer games than first-move classes (some classes would get none)."""
    most = max((len(c) for c in settings.first_moves or []), default=0)
    if games < most:
        raise ValueError(f"--games {games} is fewer than the {most} first-move classes: give at least {most} "
                         f"(the games are split evenly over the classes; {2 * most} gives each class both seats)")


# metrics ---------------------------------------------------------------------------------
def class_metrics(game: str, options: dict[str, Any], start: Sequence[str], classes: Sequence[Sequence[str]],
                  results: Sequence[GameResult], key: str = "") -> dict[str, Any]:
    """Per first-move class: its games, the first player's score with its 95% interval, whether
    the interval holds 50% (a fair first move for swap), the proven value where a shipped
    solution has it; the board's cells of each class, how the classes were made, and the heat
    map of the scores on the board (None when no class has a cell; ``key`` tells it apart)."""
    g = hexarena.load(game, **options)
    state = position_after(g, start)
    by_move: dict[str, list[GameResult]] = {c[0]: [] for c in classes}
    for r in results:
        by_move[r["forced"][-1]].append(r)
    perms = stabiliser(g, state)
    rows = [_class_row(state, list(c), by_move[c[0]]) for c in classes]
    return {"start": list(start), "mover": state.to_move, "symmetries": None if perms is None else len(perms),
            "classes": rows, "svg": heat_map(state, rows, key)}


def heat_map(state: State, rows: Sequence[dict[str, Any]], key: str = "") -> str | None:
    """``state``'s SVG with each class's cells filled by the first player's score (pooled where
    classes share a cell), a tooltip per cell; None when no class has a cell with games."""
    cells: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        for cell in row["cells"] if row["games"] else ():
            cells.setdefault(cell, []).append(row)
    if not cells:
        return None
    shown = {}
    for cell, found in cells.items():
        games = sum(r["games"] for r in found)
        points = sum(r["first_player_score"]["points"] for r in found)
        shown[cell] = (points / games, "\n".join(class_text(r) for r in found))
    return heat_svg(state.svg(), shown, "first player's score after each first move (hover a cell)", key)


def class_text(row: dict[str, Any]) -> str:
    """A class in one line: its moves, games, the first player's score and interval, the proven value."""
    score = row["first_player_score"]
    low, high = score["ci95"]
    same = f" (class: {', '.join(row['members'])})" if len(row["members"]) > 1 else ""
    text = (f"{row['move']}{same}: {row['games']} games, first player's score {100 * score['rate']:.1f}% "
            f"[{100 * low:.1f}, {100 * high:.1f}]") if row["games"] else f"{row['move']}{same}: no games"
    return text + (f"; proven: {proven_text(row['proven'])}" if row["proven"] else "")


def proven_text(proven: dict[str, Any]) -> str:
    """'first player wins in 9' / 'first player loses' / 'draw'."""
    verb = {"win": "wins", "loss": "loses", "draw": "draws"}[proven["result"]]
    return f"first player {verb}" + (f" in {proven['plies']}" if proven["plies"] is not None else "")


def against_proof(row: dict[str, Any]) -> str:
    """Whether a class's self-play interval agrees with its proven value, where the interval excludes 50%:
    'agrees', 'disagrees', 'not clear (holds 50%)', or '–' without a proof or games."""
    proven, (low, high) = row["proven"], row["first_player_score"]["ci95"]
    if not proven or not row["games"]:
        return "–"
    if low <= 0.5 <= high:
        return "not clear (holds 50%)"
    expected = {"win": True, "loss": False}.get(proven["result"])
    return "agrees" if expected == (low > 0.5) else "disagrees"


def _class_row(state: State, members: list[str], games: Sequence[GameResult]) -> dict[str, Any]:
    n = len(games)
    points = sum(1.0 if r["winner"] == 0 else 0.5 if r["winner"] is None else 0.0 for r in games)
    low, high = wilson(points, n)
    return {"move": members[0], "members": members, "cells": _cells(state, members), "games": n,
            "first_player_score": {"points": points, "rate": round(points / n, 4) if n else None,
                                   "ci95": [low, high]},
            "seat_wins": [sum(1 for r in games if r["winner"] == seat) for seat in (0, 1)],
            "mean_plies": round(sum(len(r["moves"]) for r in games) / n, 2) if n else None,
            "fair": bool(n) and low <= FAIR <= high, "proven": proven_value(state, members[0])}


def _cells(state: State, moves: Sequence[str]) -> list[str]:
    """The board cells the moves are played on (none for ``pass``, ``swap``, ...)."""
    game, topo, cells = state.game, state.game.topology, []
    for move in moves:
        cell = game.move_target(state.array, state.copy().parse(move))
        if cell is not None and topo.name(cell) not in cells:
            cells.append(topo.name(cell))
    return cells


def proven_value(state: State, move: str) -> dict[str, Any] | None:
    """The first player's proven result after ``move`` in ``state`` (a shipped solution,
    :mod:`hexarena.search.solutions`): ``{"result": "win"|"draw"|"loss", "plies": from the start or None}``."""
    child = state.copy()
    child.play(move)
    if child.is_over():
        w = child.winner()
        return {"result": "draw" if w is None else "win" if w == 0 else "loss", "plies": child.ply}
    found = stored_value(child)
    if found is None:
        return None
    result, plies = found
    first = result if child.to_move == 0 else -result
    return {"result": {1: "win", 0: "draw", -1: "loss"}[first], "plies": child.ply + plies if plies >= 0 else None}


def note(m: dict[str, Any]) -> str:
    """How the classes were made, in words."""
    where = "the position after --from" if m["start"] else "the start"
    k = m["symmetries"]
    if k is None:
        return f"The game declares no board symmetries: every legal move at {where} is its own class."
    if k < 2:
        return f"No symmetry of the board keeps {where}: every legal move is its own class."
    return (f"One class per first move up to the board's {k} symmetries that keep the rules and {where}: "
            "a class's moves lead to the same position turned or mirrored, so one of them is played for all.")



def set_part(settings: LabSettings, set_index: int, results: Sequence[GameResult]) -> dict[str, Any] | None:
    """The forced first moves' metrics of an option set (``SetMetrics.forced_first_moves``), or None."""
    if settings.first_moves is None:
        return None
    return class_metrics(settings.game, settings.sets[set_index], settings.start, settings.first_moves[set_index],
                         results, f"-{set_index}")
