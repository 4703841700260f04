"""How a game reads and writes its moves: the notation hooks every
:class:`~hexarena.games.base.Game` has (docs/notation.md), with the
defaults a game overrides where its notation has more forms."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from types import SimpleNamespace
from typing import ClassVar

import numpy as np

from ..board import Topology
from .errors import IllegalMove, MalformedMove, quoted


class Notation(ABC):
    """The notation part of the game contract: move names, parsing, and the errors for bad move texts."""

    name: ClassVar[str]
    topology: Topology
    tables: tuple

    @property
    def calls(self) -> SimpleNamespace:  # the game's compiled entry points (Game.calls)
        raise NotImplementedError

    @abstractmethod
    def action_name(self, s: np.ndarray, action: int) -> str:
        """The notation of the legal ``action`` in position ``s``."""

    def parse_move(self, s: np.ndarray, text: str, legal: Sequence[int]) -> int:
        """The action that ``text`` names in position ``s``.

        The default matches ``text`` against the legal moves' names; games
        whose notation has more forms override it.  Raises
        :class:`MalformedMove` (from :meth:`normalize`) or :class:`IllegalMove`.
        """
        key = self.normalize(text)
        is_legal = self.calls.is_legal
        action = self.action_of(s, key) if is_legal is not None else None
        if action is not None:
            if is_legal(s, self.tables, action):
                return action
            raise IllegalMove(self.why_illegal(s, key))
        names = {self.action_name(s, a): a for a in legal}
        if key in names:
            return names[key]
        raise IllegalMove(self.why_illegal(s, key))

    def parse_steps(self, s: np.ndarray, text: str, legal: Sequence[int]) -> list[int]:
        """The atomic actions that ``text`` names from ``s``, in order: one by default (:meth:`parse_move`);
        a game whose notation writes several steps as one move (Push and Pull's ``o5 -2 2``) overrides it.
        Raises IllegalMove."""
        return [self.parse_move(s, text, legal)]

    def write_moves(self, positions: Sequence[np.ndarray], actions: Sequence[int]) -> list[tuple[int, str]]:
        """How records write the atomic ``actions``, each played from the
        matching entry of ``positions`` (which ends with the current one):
        ``(index of the written move's last step, text)`` per written move.
        One per step by default; Push and Pull writes a placement with its
        marker moves as one (``o5 -2 2``)."""
        return [(i, self.action_name(s, a)) for i, (s, a) in enumerate(zip(positions, actions, strict=False))]

    def move_target(self, s: np.ndarray, action: int) -> int | None:
        """The cell that a click on the board plays the legal ``action`` by
        (the web client's click-to-move; several actions may share a cell,
        then the player picks one by name), None for a move with no cell
        (``end``, ``pass``, ``swap``, ...).  By default an action below
        ``ncells`` is that cell's placement."""
        return action if action < self.topology.ncells else None

    def move_picture(self, s: np.ndarray, action: int) -> str | None:
        """A small SVG of the legal ``action`` that the web client's chooser
        shows beside the move's name where one cell plays several moves
        (Palago's three orientations of a tile), or None (the default)."""
        return None

    MOVE_SEPARATOR: ClassVar[str] = ","  # what joins a turn's moves in text records (Palago's moves hold commas)

    WORDS: ClassVar[tuple[str, ...]] = ()  # move words besides cell names: "pass", "end", "swap", ...

    def normalize(self, text: str) -> str:
        """The canonical form of move ``text``: by default one word, a cell
        name or one of ``WORDS``, in any case, spaces around it ignored.
        Raises :class:`MalformedMove` for text of no move of this game's
        notation (docs/notation.md)."""
        key = text.strip(" ").lower()
        if key not in self.WORDS and (self.topology is None or self.topology.find(key) is None):
            raise self.malformed(text)
        return key

    def malformed(self, text: str, forms: str = "") -> MalformedMove:
        """The error for ``text`` that is no move of this game: it says what
        a move is (``forms``; by default a cell or one of ``WORDS``)."""
        names = self.topology.names if self.topology is not None else ()
        cells = [f"a cell (like {names[0]} or {names[len(names) // 2]})"] if names else []
        forms = forms or " or ".join(cells + [repr(w) for w in self.WORDS])
        return MalformedMove(f"{quoted(text)} is not a move of {self.name}: a move is {forms}")

    def action_of(self, s: np.ndarray, key: str) -> int | None:
        """The action id that the normalized move text ``key`` names in
        ``s`` when the notation names actions directly (a game with an
        ``is_legal`` kernel may say, so that :meth:`parse_move` checks that
        one action instead of naming every legal move); None to search the
        legal moves' names (the default)."""
        return None

    def why_illegal(self, s: np.ndarray, text: str) -> str:
        """Why the well-formed move ``text`` (normalized) is not legal in ``s``."""
        return f"{quoted(text)} is not a legal move here"
