"""Championships in divisions, Little Golem style: one standing championship per game, played in cycles of
round robins, with promotion and relegation between the cycles.

Divisions form a binary tree: division 1 at the top, then 2a and 2b, then 3a-3d, ... (level k has 2**(k-1)
divisions; a level past 26 divisions names them like spreadsheet columns: 6z, 6aa, ...). 2a and 2b are the
children of 1; 3a and 3b of 2a, 3c and 3d of 2b.

>>> division_names(7)
['1', '2a', '2b', '3a', '3b', '3c', '3d']
>>> first_divisions([(f"p{i}", 2000.0 - i) for i in range(12)])
{'1': ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'], '2a': ['p8', 'p9', 'p10', 'p11']}

Between two cycles (:func:`next_divisions`): the top ``PROMOTED`` of each division below 1 go up to its parent;
the bottom ``RELEGATED`` per child division of each division that has children go down, ``RELEGATED`` to each
child (division 1 over 2a and 2b: its bottom 4, two to each); leavers are removed; newcomers join the lowest
level (the smallest division first, best rated first). Then sizes are brought within ``DIVISION_SIZE`` +- 2:
an overfull division sends its bottom players down (to its smallest child, or into new child divisions when
there are 3 or more to send, else to a division of its level with room); a short division with children takes
their best players up; a division of the lowest level with fewer than 3 players joins its parent. What holds
after it (tests/tournament/test_championship.py, over random cycles): every player is in exactly one division,
every division holds 3 to DIVISION_SIZE + 2 players (division 1 fewer only when there are fewer in all), and a
division with divisions below it at least DIVISION_SIZE - 2 whenever its children hold 2 * (DIVISION_SIZE - 2)
or more.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

DIVISION_SIZE = 8
PROMOTED = 2
RELEGATED = 2  # per child division
MIN_SIZE, MAX_SIZE = DIVISION_SIZE - 2, DIVISION_SIZE + 2
SMALLEST = 3  # no division is started with fewer players
NAME = re.compile(r"([1-9][0-9]*)([a-z]*)")


def division_names(count: int) -> list[str]:
    """The names of the first ``count`` divisions, top first."""
    return [_name(*_place(i)) for i in range(count)]


def _place(index: int) -> tuple[int, int]:
    """(level, offset in the level) of the division ``index`` places from the top."""
    level = 1
    while index >= 2 ** (level - 1):
        index -= 2 ** (level - 1)
        level += 1
    return level, index


def _name(level: int, offset: int) -> str:
    if level == 1:
        return "1"
    letters, n = "", offset + 1
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(ord("a") + r) + letters
    return f"{level}{letters}"


def parse(name: str) -> tuple[int, int]:
    """(level, offset in the level) of a division's name; ValueError for a name that is none."""
    match = NAME.fullmatch(name)
    if not match or (match.group(1) == "1") != (match.group(2) == ""):
        raise ValueError(f"division {name!r}: a name like 1, 2a, 2b, 3a ... 3d")
    offset = 0
    for c in match.group(2):
        offset = offset * 26 + ord(c) - ord("a") + 1
    level = int(match.group(1))
    if offset > 2 ** (level - 1):
        raise ValueError(f"division {name!r}: level {level} has {2 ** (level - 1)} divisions")
    return level, max(offset - 1, 0)


def parent(name: str) -> str | None:
    level, offset = parse(name)
    return None if level == 1 else _name(level - 1, offset // 2)


def children(name: str) -> list[str]:
    level, offset = parse(name)
    return [_name(level + 1, 2 * offset), _name(level + 1, 2 * offset + 1)]


def first_divisions(players: Sequence[tuple[str, float]]) -> dict[str, list[str]]:
    """The first cycle's divisions from (name, rating): the best DIVISION_SIZE in division 1, the next level's
    divisions sharing the next ones in snake order by rating, and so on; a last level too short for 3 players a
    division uses fewer of its divisions (the first ones), and under 3 players in all it joins the level above."""
    ranked = [n for n, _ in sorted(players, key=lambda p: (-p[1], p[0]))]
    out: dict[str, list[str]] = {}
    level, taken = 1, 0
    while taken < len(ranked):
        rest, count = ranked[taken:], 2 ** (level - 1)
        if level > 1 and len(rest) < SMALLEST * count:
            count = len(rest) // SMALLEST
            if count == 0:
                _deal(rest, [n for n in out if parse(n)[0] == level - 1], out)
                break
        names = [_name(level, i) for i in range(count)]
        out.update({n: [] for n in names})
        _deal(rest[:count * DIVISION_SIZE], names, out)
        taken += min(len(rest), count * DIVISION_SIZE)
        level += 1
    return out


def _deal(players: Sequence[str], names: list[str], out: dict[str, list[str]]) -> None:
    """Deal ``players`` (best first) to the divisions ``names`` in snake order (a, b, b, a, a, b, ...)."""
    for i, player in enumerate(players):
        turn, place = divmod(i, len(names))
        out[names[place if turn % 2 == 0 else len(names) - 1 - place]].append(player)


def next_divisions(final: dict[str, list[str]], leaving: set[str], joining: Sequence[tuple[str, float]]
                   ) -> dict[str, list[str]]:
    """The next cycle's divisions from the last cycle's final orders (each division's names, best first), the
    players ``leaving`` and the (name, rating) of those ``joining`` (the module's docstring gives the rules). The
    lists come in no rank order (players who came down, then who stayed, then who came up, then newcomers):
    the event seeds them by rating."""
    _check(final, joining)
    came_down: dict[str, list[str]] = {n: [] for n in final}
    stayed: dict[str, list[str]] = {n: [] for n in final}
    came_up: dict[str, list[str]] = {n: [] for n in final}
    for name, order in final.items():
        up = order[:PROMOTED] if parent(name) in final else []
        kids = [c for c in children(name) if c in final]
        rest = order[len(up):]
        down = rest[len(rest) - min(len(rest), RELEGATED * len(kids)):] if kids else []
        if up:
            came_up[str(parent(name))].extend(up)
        _deal(down, kids, came_down)
        stayed[name] = rest[:len(rest) - len(down)]
    divisions = {n: [p for p in came_down[n] + stayed[n] + came_up[n] if p not in leaving] for n in final}
    _join(divisions, joining)
    _balance(divisions)
    return {n: divisions[n] for n in sorted(divisions, key=_order) if divisions[n]}


def _check(final: dict[str, list[str]], joining: Sequence[tuple[str, float]]) -> None:
    everyone = [p for order in final.values() for p in order]
    for name in final:
        parse(name)
    if len(everyone) != len(set(everyone)):
        raise ValueError("a player is in two divisions (or twice in one)")
    again = sorted({n for n, _ in joining} & set(everyone))
    if again:
        raise ValueError(f"joining {', '.join(again)}: already in a division")


def _order(name: str) -> tuple[int, int]:
    return parse(name)


def _join(divisions: dict[str, list[str]], joining: Sequence[tuple[str, float]]) -> None:
    """Newcomers, best rated first, each into the smallest division of the lowest level."""
    if not divisions:
        divisions.update(first_divisions(joining))
        return
    lowest = max(parse(n)[0] for n in divisions)
    names = sorted((n for n in divisions if parse(n)[0] == lowest), key=_order)
    for player, _ in sorted(joining, key=lambda p: (-p[1], p[0])):
        divisions[min(names, key=lambda n: len(divisions[n]))].append(player)


def _balance(divisions: dict[str, list[str]]) -> None:
    """Sizes within DIVISION_SIZE +- 2 where players can move (the module's docstring gives the rules)."""
    for _ in range(sum(map(len, divisions.values())) + 2):  # each pass moves players down, up or into a parent
        changed = False
        for name in sorted(divisions, key=_order):
            changed |= _settle(name, divisions)
        if not (_merge_small(divisions) or changed):
            return


def _settle(name: str, divisions: dict[str, list[str]]) -> bool:
    """Bring one division within range by its children and its level; whether anyone moved."""
    players, moved = divisions[name], False
    if len(players) > MAX_SIZE and not any(divisions.get(c) for c in children(name)) and \
            len(players) - DIVISION_SIZE >= SMALLEST:
        _open_children(name, divisions)
        moved = True
    while len(players) > MAX_SIZE:
        target = _room_below(name, divisions)
        if target is None:
            break
        divisions[target].insert(0, players.pop())
        moved = True
    while len(players) < MIN_SIZE:
        donors = [c for c in children(name) if divisions.get(c)]
        if not donors:
            break
        players.append(divisions[max(donors, key=lambda c: len(divisions[c]))].pop(0))
        moved = True
    return moved


def _open_children(name: str, divisions: dict[str, list[str]]) -> None:
    """New child divisions for an overfull division's players past DIVISION_SIZE (two when they are 6 or more)."""
    players = divisions[name]
    new = children(name)[:2 if len(players) - DIVISION_SIZE >= 2 * SMALLEST else 1]
    for c in new:
        divisions.setdefault(c, [])
    _deal(players[DIVISION_SIZE:], new, divisions)
    del players[DIVISION_SIZE:]


def _room_below(name: str, divisions: dict[str, list[str]]) -> str | None:
    """Where an overfull division's last player goes: its smallest child, else the smallest other division of
    its level with room."""
    kids = [c for c in children(name) if divisions.get(c)]
    if kids:
        return min(kids, key=lambda c: len(divisions[c]))
    level = parse(name)[0]
    room = [n for n in divisions if n != name and parse(n)[0] == level and len(divisions[n]) < MAX_SIZE]
    return min(room, key=lambda n: (len(divisions[n]), _order(n))) if room else None


def _merge_small(divisions: dict[str, list[str]]) -> bool:
    """A division under 3 players with none below it joins its nearest division above; whether any did."""
    merged = False
    for name in sorted(divisions, key=_order, reverse=True):
        players = divisions[name]
        if players and len(players) < SMALLEST and not any(divisions.get(c) for c in children(name)):
            above = parent(name)
            while above is not None and above not in divisions:
                above = parent(above)
            if above is not None:
                divisions[above].extend(players)
                players.clear()
                merged = True
    return merged
