"""The arena's tournaments and championships (docs/server.md, "Tournaments and championships"), one part per job:

- :mod:`.fields`: a new event's fields checked; :mod:`.entry`: events made, joined, left, an AI invited;
- :mod:`.pairing`: the next round's pairs by format (:mod:`hexarena.tournament` pairs and ranks);
- :mod:`.rounds`: a round's rows and matches written; :mod:`.judge`: the judge's steps, once across processes;
- :mod:`.rows`, :mod:`.reads`, :mod:`.view`: the rows read and the event object shown;
- :mod:`.championships`: the standing championships' sign-ups and cycles.

:class:`Tournaments` wires them, and tells (matches started, sockets, mail) once a step is committed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from ..accounts import Account
from ..errors import Refused
from ..limits import Limits
from ..notices import Mailer
from ..store import Store
from ..store.matches import Match
from ..store.notify import account_topic
from .championships import Championships
from .entry import Entry
from .judge import Judge
from .reads import Reads
from .rounds import Step
from .rows import event_topic

log = logging.getLogger("hexarena.server")


class Tournaments:
    """The events on ``store``: ``publish(topic)`` wakes live sockets, ``changed(match_id)`` tells of a match made
    or changed, ``final_of(match)`` reads a costly game's final scoring, ``resign(match_id, account)`` resigns a
    withdrawn player's game, ``mailer`` mails the round notices."""

    def __init__(self, store: Store, limits: Limits, publish: Callable[[str], None], changed: Callable[[str], None],
                 final_of: Callable[[Match], dict[str, Any] | None], resign: Callable[[str, int], None],
                 mailer: Mailer) -> None:
        self.store, self.publish, self.changed, self.resign, self.mailer = store, publish, changed, resign, mailer
        self.entry = Entry(store, limits)
        self.judge_steps = Judge(store, final_of)
        self.reads = Reads(store)
        self.championships = Championships(store, limits)

    def create(self, account: Account, body: dict[str, Any]) -> dict[str, Any]:
        return self.reads.event(self.entry.create(account, body))

    def join(self, account: Account, event_id: str) -> dict[str, Any]:
        self.entry.join(account, event_id)
        return self._told(event_id, account.id)

    def invite(self, account: Account, event_id: str, name: Any) -> dict[str, Any]:
        self.entry.invite(account, event_id, name)
        return self._told(event_id)

    def withdraw(self, account: Account, event_id: str) -> dict[str, Any]:
        self.tell(self.entry.withdraw(account, event_id))
        return self._told(event_id, account.id)

    def start(self, account: Account, event_id: str) -> dict[str, Any]:
        self.tell(self.judge_steps.start(event_id, account))
        return self.reads.event(event_id)

    def _told(self, event_id: str, account: int | None = None) -> dict[str, Any]:
        self.publish(event_topic(event_id))
        if account is not None:
            self.publish(account_topic(account))
        return self.reads.event(event_id)

    def export(self, event_id: str) -> dict[str, Any]:
        """The event object of a running or finished event (409 for one not started)."""
        found = self.reads.event(event_id)
        if found["status"] == "upcoming":
            raise Refused(409, "the event has not started: there is nothing to export yet")
        return found

    def advance(self, event_id: str) -> Step | None:
        """The event's next step (:meth:`.judge.Judge.advance`), told; the step, or None."""
        step = self.judge_steps.advance(event_id)
        if step is not None:
            self.tell(step)
        return step

    def judge(self) -> None:
        """Every running event's next step, and the start of those whose time came (one failing is logged and
        tried again next time, the others go on)."""
        for event_id in self.judge_steps.running():
            try:
                self.advance(event_id)
            except Exception:
                log.exception("hexarena: the judge's step of event %s failed", event_id)
        try:
            steps = self.championships.judge()
        except Exception:
            log.exception("hexarena: the judge's step of the championships failed")
            return
        for step in steps:
            self.tell(step)

    def match_over(self, match_id: str) -> None:
        """A finished match: if it is an event's game, that event's next step (and a championship division that
        finished may let the next cycle start)."""
        event = self.reads.of_match(match_id)
        step = None if event is None else self.advance(event["id"])
        if step is not None and step.finished and event and event["championship"]:
            for cycle_step in self.championships.judge():
                self.tell(cycle_step)

    def tell(self, step: Step) -> None:
        """After a committed step: its matches remembered and started (the AI to move thinks), the withdrawn
        players' games resigned, the event's watchers told, the paired players mailed."""
        for match in step.made:
            self.store.matches.remember(match)
            self.changed(match.id)
        for match_id, account in step.resign:
            self.resign(match_id, account)
        self.publish(event_topic(step.event_id))
        if step.paired is not None:
            self._mail_round(step)

    def _mail_round(self, step: Step) -> None:
        """Mail each person paired in ``step``'s round: "round R of EVENT has started: your game against X"."""
        if not self.mailer.enabled or not step.made:
            return
        event = self.reads.of_match(step.made[0].id) or {"id": step.event_id, "name": step.event_id}
        for match in step.made:
            for seat, account in enumerate(match.accounts):
                if account is not None and match.seats[seat] == "human":
                    self.mailer.round_started(account, event, step.paired or 0, match.players[1 - seat] or "",
                                              match.id)
