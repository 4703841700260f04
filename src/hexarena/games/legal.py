"""A state's legal action ids as a lazy sequence (:class:`LegalActions`), what move parsers read."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, overload

if TYPE_CHECKING:
    from .base import State


class LegalActions(Sequence[int]):
    """A state's legal action ids, listed only when first read (a move's
    parser that can check its action directly never lists them)."""

    __slots__ = ("_state", "_list")

    def __init__(self, state: State) -> None:
        self._state = state
        self._list: list[int] | None = None

    def _actions(self) -> list[int]:
        if self._list is None:
            self._list = self._state.legal_actions()
        return self._list

    @overload
    def __getitem__(self, i: int) -> int: ...

    @overload
    def __getitem__(self, i: slice) -> list[int]: ...

    def __getitem__(self, i: int | slice) -> int | list[int]:
        return self._actions()[i]

    def __len__(self) -> int:
        return len(self._actions())

    def __contains__(self, action: object) -> bool:
        return action in self._actions()

    def __iter__(self) -> Iterator[int]:
        return iter(self._actions())

    def __eq__(self, other: object) -> bool:
        return list(self) == other

    __hash__ = None  # type: ignore[assignment]
