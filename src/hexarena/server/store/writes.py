"""Changing a match: one transaction that locks the match row, lets the caller check and change a copy of its
state against the rebuilt position, and stores what changed (:meth:`.matches.Matches.save`) before anyone is
answered; and the loss on time of a player whose time ran out."""

from __future__ import annotations

from collections.abc import Callable

from hexarena.games.base import IllegalMove, State

from .. import clocks
from ..errors import Refused
from ..scoring import costly
from .matches import Match, Matches

TRIES = 5  # a costly game's change, prepared outside the lock, is tried again this often if the match changed


class TimedOut(Refused):
    """A change refused because the player to move had run out of time: the loss on time was stored instead."""

    def __init__(self, match: Match) -> None:
        super().__init__(409, f"too late: {match.state.game.status(match.state)}")
        self.match = match


class MatchWrites:
    """The changes of the matches in ``matches``, each in one transaction."""

    def __init__(self, matches: Matches) -> None:
        self.matches = matches
        self.db = matches.db

    def change(self, match_id: str, apply: Callable[[Match, State], None]) -> Match:
        """One transaction: lock the match, let ``apply`` check and change a copy
        of its state (raising Refused or IllegalMove to refuse), store what
        changed and commit.  Returns the match as committed.  For a game whose
        scores are costly (its end may be slow to apply), ``apply`` runs before
        the write lock, on the match as read, and the change is stored if the
        match is unchanged then (else tried again)."""
        if costly((self.matches.cached(match_id) or self.matches.get(match_id)).state.game):
            return self._change_prepared(match_id, apply)
        with self.db.write() as conn:
            match = self.matches.load(conn, match_id, lock=True)
            state = match.state.copy()
            late = self._late(match, state)
            if not late:
                checked(apply, match, state)
            changed = self.matches.save(conn, match, state)
        return self._committed(changed, late)

    def _change_prepared(self, match_id: str, apply: Callable[[Match, State], None]) -> Match:
        for _ in range(TRIES):
            match = self.matches.get(match_id)
            state = match.state.copy()
            checked(apply, match, state)
            with self.db.write() as conn:
                current = self.matches.load(conn, match_id, lock=True)
                if current.version != match.version:
                    continue
                late_state = current.state.copy()
                late = self._late(current, late_state)
                changed = self.matches.save(conn, current, late_state if late else state)
            return self._committed(changed, late)
        raise Refused(409, "the match kept changing meanwhile; reload it and try again")

    def _committed(self, changed: Match, late: bool) -> Match:
        """``changed`` remembered; raised as :class:`TimedOut` if it was the loss on time that was stored."""
        self.matches.remember(changed)
        if late:
            raise TimedOut(changed)
        return changed

    def _late(self, match: Match, state: State) -> bool:
        """When the player to move has run out of time: ``state`` (a copy of the match's) lost on time, True."""
        if state.is_over() or not clocks.expired(match.timing, self.db.clock()):
            return False
        state.lose_on_time(state.to_move)
        return True

    def flag(self, match_id: str) -> Match | None:
        """Store the loss on time of ``match_id``'s player to move if their deadline has passed (judged again
        with the row locked, so one process flags it once); the match flagged, or None."""
        with self.db.write() as conn:
            match = self.matches.load(conn, match_id, lock=True)
            state = match.state.copy()
            if not self._late(match, state):
                return None
            changed = self.matches.save(conn, match, state)
        self.matches.remember(changed)
        return changed


def checked(apply: Callable[[Match, State], None], match: Match, state: State) -> None:
    """``apply`` to ``state``, an illegal move refused (400)."""
    try:
        apply(match, state)
    except IllegalMove as e:
        raise Refused(400, str(e)) from None
