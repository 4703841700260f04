"""The app's parts (:class:`Server`): the store, the live hub, the AI and the scorer, and the changes to a
match that the routes ask for."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import replace
from typing import Any

from fastapi.concurrency import run_in_threadpool

from hexarena.search.solutions import proof_text
from hexarena.games.base import State

from . import clocks
from . import lists
from .accounts import Account, Accounts
from .changes import check_ply, check_turn, play_line, play_turn, position, seats_of, undo_back
from .chat import Chat, check_text, guest_label
from .fair import check_help, help_closed, within_turn
from .guards import CALLER, FairTurns, Sockets
from .limits import Limits
from .live import Hub
from .mail import MailSettings
from .notices import Mailer
from .scoring import ProcessWorker, RayScoring, Scorer, costly, digest, is_result, needs_scoring
from .searchers import Pool
from .review import Reviews
from .schema import POOL_SIZE
from .seeks import Seeks
from .errors import Refused
from .store import Store
from .store.matches import Match
from .store.notify import account_topic
from .store.seats import new_token, seat_kind
from .store.writes import TimedOut
from .thinker import Thinker
from .tournaments import Tournaments
from .tournaments.rows import event_topic
from .view import board_object, match_object

HINT_LEVEL = 5
STORE_TURNS = POOL_SIZE  # threaded store calls at once (the PostgreSQL pool's size; the AI and the clocks use the rest)
JUDGE_TOPIC = "judge:"  # the hub's topic that wakes the judging loop (a running clock changed)


class Server:
    """The app's parts: the store, the live hub and the AI."""

    def __init__(self, db_url: str, ai_workers: int = 2, limits: Limits | None = None,
                 mail: MailSettings | None = None, clock: clocks.Clock | None = None) -> None:
        self.limits = limits or Limits()
        self.clock = clock or clocks.clock_from_env()  # the time clocks are judged by
        self.store = Store(db_url, self.limits.open_matches, self.limits.open_hours, self.clock)
        self.accounts = Accounts(self.store.db, self.limits)
        self.chat = Chat(self.store.db)
        self.mailer = Mailer(self.store.db, mail)
        self.sockets = Sockets(self.limits.websockets)  # per client address
        self.watchers = Sockets(self.limits.watchers)  # spectators per match
        self.hub = Hub()
        self.seeks = Seeks(self.store, self.limits, self.hub.publish, lambda to, seek: self.on_challenge(to, seek),
                           self.changed)
        pool = Pool(ai_workers, self.limits.pool, self.limits.ray_address)
        self.thinker = Thinker(self.store, self.changed, caps=self.limits.ai, pool=pool)
        self.reviews = Reviews(self.store, self.thinker.scheduler, pool)
        self.scorer = Scorer(self.scored, self.limits.scoring_seconds, workers=self.limits.scoring_workers,
                             backend=RayScoring if self.limits.pool == "ray" else ProcessWorker)
        self.store_turns = FairTurns(STORE_TURNS, per_key=2)
        self.tournaments = Tournaments(self.store, self.limits, self.hub.publish, self.changed, self.final_of,
                                       self.resign_withdrawn, self.mailer)
        self._events: dict[str, dict[str, Any] | None] = {}  # per match, the event it is a game of (fixed at birth)
        self._objects: dict[tuple[str, int, bool], dict[str, Any]] = {}
        self._finals: dict[tuple[str, int, str], dict[str, Any]] = {}

    async def call(self, work: Any, *args: Any, heavy: bool = False) -> Any:
        """Run store ``work``: on SQLite inline on the event loop (a local file,
        about a millisecond, one writer at a time anyway: thread hops cost more
        than they save) unless it is ``heavy`` (:meth:`heavy`: replaying moves,
        a costly game); on PostgreSQL in a thread (network round trips, row locks).  Threaded work takes
        fair turns per client address (:data:`STORE_TURNS` at once, 2 per address, round robin), so one
        address's flood of requests never queues another's behind it in the threads."""
        if self.store.db.postgres or heavy:
            async with self.store_turns.turn(CALLER.get()):
                return await run_in_threadpool(work, *args)
        return work(*args)

    def heavy(self, match_id: str) -> bool:
        """Whether work on ``match_id`` may be slow: not in this process's cache (a replay), or a costly game."""
        known = self.store.matches.cached(match_id)
        return known is None or costly(known.state.game)

    def final_of(self, match: Match) -> dict[str, Any] | None:
        """A finished costly match's final fields: known, stored, or else asked of the scorer (None meanwhile)."""
        if not needs_scoring(match.state):
            return None
        key = (match.id, match.ply, digest(match.state))
        final = self._finals.get(key) or self.store.finals.get(*key)
        if not is_result(final):
            scoring_key = ":".join(map(str, key))
            if not self.scorer.pending(scoring_key):
                self.scorer.request(scoring_key, match.state.copy(), self.store.lookups.creator(match.id))
            return None
        self._finals[key] = final
        if len(self._finals) > 200:
            self._finals.pop(next(iter(self._finals)), None)
        return final

    def resume_scoring(self) -> None:
        """Ask the scorer for every finished match's final scoring that is not stored (a server stopped while it
        was scoring or before it began): at start-up, so no read is needed."""
        for match_id in self.store.finals.unscored():
            self.final_of(self.store.matches.get(match_id))

    def scored(self, key: str, _state: State, fields: dict[str, Any]) -> None:
        """The scorer's result for ``key`` (match:ply:digest): kept, and the match's watchers told."""
        match_id, ply, dig = key.split(":", 2)
        self.store.finals.save(match_id, int(ply), dig, fields)
        self._finals[(match_id, int(ply), dig)] = fields
        self.hub.publish(match_id)
        self.event_game_changed(match_id, True)  # an event's round may have waited for this result

    def changed(self, match_id: str) -> None:
        """After a committed change: tell the watchers and the seated accounts' sockets, let an AI to move
        think, and a costly game that ended be scored (unasked: by a move, the AI's too, a loss on time, an
        import)."""
        self.hub.publish(match_id)
        for account in self.store.matches.accounts_of(match_id):
            self.hub.publish(account_topic(account))
        known = self.store.matches.cached(match_id)
        if known is not None and known.timing.deadline is not None:
            self.hub.publish(JUDGE_TOPIC)
        if known is not None:
            self.final_of(known)
            self.event_game_changed(match_id, known.state.is_over())
        self.thinker.kick(match_id)

    def event_game_changed(self, match_id: str, over: bool) -> None:
        """If ``match_id`` is an event's game: its event's watchers told (their live boards), and when it is
        ``over`` the event's next step taken: by the judging loop, woken (pairing 200 players takes a second: not
        in the request of the last move), or with no loop (``judge_seconds`` 0) here."""
        event = self.event_of(match_id)
        if event is None:
            return
        self.hub.publish(event_topic(event["id"]))
        if not over:
            return
        if self.limits.judge_seconds:
            self.hub.publish(JUDGE_TOPIC)
        else:
            self.tournaments.match_over(match_id)

    def on_challenge(self, to_account: int, seek: dict[str, Any]) -> None:
        """Once a challenge to ``to_account`` is stored (``seek``: as GET /api/seeks shows it): mail it, where
        e-mail is set up."""
        self.mailer.challenge(to_account, seek["by"], seek["game"])

    def live_state(self, account: int) -> dict[str, Any]:
        """What an account's live socket shows: the matches where it is to move (and how many), the challenges to
        it, and its own open seeks and challenges."""
        turn = lists.turn(self.store, account)
        return {"turn": turn, "count": len(turn), **self.seeks.concerning(account),
                "events": self.tournaments.reads.playing(account)}

    def judge(self) -> list[str]:
        """Flag every match whose player to move has run out of time (each judged again under its row lock, so
        once across processes) and tell their watchers, then take the events' steps (rounds paired, events started
        and finished: :meth:`.tournaments.Tournaments.judge`); the matches flagged."""
        flagged = []
        for match_id in self.store.lookups.expired():
            if self.store.writes.flag(match_id) is not None:
                flagged.append(match_id)
                self.changed(match_id)
        self.tournaments.judge()
        return flagged

    def resign_withdrawn(self, match_id: str, account: int) -> None:
        """Resign ``account``'s seat in ``match_id`` (a player withdrawn from an event), if the game goes on."""
        def resign(match: Match, state: State) -> None:
            if not state.is_over():
                seats = [i for i, a in enumerate(match.accounts) if a == account]
                state.resign(state.to_move if state.to_move in seats else seats[0])

        with suppress(TimedOut):
            self.store.writes.change(match_id, resign)
        self.changed(match_id)

    def event_of(self, match_id: str) -> dict[str, Any] | None:
        """The event ``match_id`` is a game of (``{"id", "name", "round"}``) or None; kept per match (a match's
        event is written with it)."""
        if match_id not in self._events:
            found = self.tournaments.reads.of_match(match_id)
            self._events[match_id] = None if found is None else {k: found[k] for k in ("id", "name", "round")}
            if len(self._events) > 2000:
                self._events.pop(next(iter(self._events)), None)
        return self._events[match_id]

    def create(self, state: State, specs: list[str], client: str = "", account: Account | None = None
               ) -> dict[str, Any]:
        if len(specs) != 2:
            raise Refused(400, f"seats: a match has 2 seats, got {len(specs)}")
        kinds = [seat_kind(s) for s in specs]
        mine = [i for i, k in enumerate(kinds) if k == "me"]
        token = new_token()
        match = self.store.new_matches.create(state, ["human" if k == "me" else k for k in kinds], mine, token, client,
                                              self.limits.ai, account.id if account else None)
        self.changed(match.id)
        return {"id": match.id, "seats": mine, "token": token}

    def object(self, match: Match) -> dict[str, Any]:
        """The match object, kept per (match, version, final scoring known): watchers and readers share it; its
        chat (kept per newest line, :class:`~.chat.Chat`) joined at each read, so a line replays nothing."""
        final = self.final_of(match)
        key = (match.id, match.version, final is not None)
        obj = self._objects.get(key)
        if obj is None:
            obj = self._objects[key] = {**match_object(match, final), "tournament": self.event_of(match.id)}
            if len(self._objects) > 500:
                self._objects.pop(next(iter(self._objects)), None)
        return {**obj, "chat": self.chat.lines(match)}

    def post_chat(self, match_id: str, text: Any, token: str | None, account: Account | None = None
                  ) -> dict[str, Any]:
        """A player's chat line kept and pushed to the match's watchers: ``{"chat": the lines shown}``."""
        match = self.store.matches.get(match_id)
        seat = seats_of(match, token, account_id(account))[0]  # the lower seat for one holding both
        count = self.chat.post(match, seat, check_text(text))
        self.hub.publish(match_id)
        return {"chat": self.chat.lines(replace(match, chat_lines=count))}

    def move(self, match_id: str, move: str, token: str | None, ply: int, account: Account | None = None
             ) -> dict[str, Any]:
        return self._play(match_id, token, ply, account, lambda state: state.play(move))

    def turn(self, match_id: str, moves: list[str], token: str | None, ply: int, account: Account | None = None
             ) -> dict[str, Any]:
        """A whole turn at once (the turn builder's Confirm): every step applied in one transaction, or none."""
        return self._play(match_id, token, ply, account, lambda state: play_turn(state, moves))

    def _play(self, match_id: str, token: str | None, ply: int, account: Account | None,
              act: Callable[[State], Any]) -> dict[str, Any]:
        """``act`` on the match's state by the player to move (their seat, the ply they saw checked)."""
        movers: list[int] = []

        def play(match: Match, state: State) -> None:
            seats = seats_of(match, token, account_id(account))
            check_ply(match, ply)
            check_turn(state, seats)
            act(state)
            movers[:] = seats

        return self.change(match_id, play, movers)

    def preview(self, match_id: str, ply: int | None, moves: list[str]) -> dict[str, Any]:
        """The board after ``match_id``'s first ``ply`` moves and then ``moves`` (staged steps, a move's effect,
        a scratch line; the match is not changed), with ``turn_done``: whether the steps ended the turn begun at
        ``ply``."""
        match = self.store.matches.get(match_id)
        at = match.ply if ply is None else ply
        start = position(match, at)
        if help_closed(match) is not None and moves and (at != match.ply or not within_turn(start, moves)):
            check_help(match, "lines tried ahead")
        state = play_line(start, moves)
        done = state.is_over() or (state.to_move, state.turn) != (start.to_move, start.turn)
        return {**board_object(state), "from": at, "line": moves, "turn_done": done}

    def undo(self, match_id: str, token: str | None, ply: int, account: Account | None = None) -> dict[str, Any]:
        def back(match: Match, state: State) -> None:
            seats = seats_of(match, token, account_id(account))
            check_ply(match, ply)
            undo_back(match, state, seats)

        return self.change(match_id, back)

    def resign(self, match_id: str, token: str | None, account: Account | None = None) -> dict[str, Any]:
        def resign(match: Match, state: State) -> None:
            seats = seats_of(match, token, account_id(account))
            state.resign(state.to_move if state.to_move in seats else seats[0])

        return self.change(match_id, resign)

    def change(self, match_id: str, apply: Callable[[Match, State], None], movers: list[int] | None = None
               ) -> dict[str, Any]:
        """Apply a change (checked by ``apply``, in one transaction), tell everyone, answer the match object.
        ``movers``: the seats that moved (filled by ``apply``), whose opponent may be mailed its turn.  When the
        player to move had run out of time, their loss on time is stored instead (and told): 409."""
        try:
            match = self.store.writes.change(match_id, apply)
        except TimedOut:
            self.changed(match_id)
            raise
        self.changed(match_id)
        if movers:
            self.tell_turn(match, movers)
        return self.object(match)

    def tell_turn(self, match: Match, movers: list[int]) -> None:
        """Mail "your move" to the account whose turn it became by the move of ``movers`` (not to them, nor to
        an AI or a guest; :class:`~.notices.Mailer` keeps it to one an hour per match)."""
        seat = match.state.to_move
        if not self.mailer.enabled or seat is None or seat in movers:
            return
        to = match.accounts[seat]
        if to is None or to in (match.accounts[m] for m in movers):
            return
        opponent = match.seat_names()[movers[0]] or guest_label(match, movers[0])
        self.mailer.your_move(to, match.id, match.state.game.name, opponent)

    def hint(self, match_id: str, token: str, account: Account | None = None, ply: int | None = None,
             line: list[str] | None = None, client: str = "") -> dict[str, Any]:
        """The AI's suggestion for the seat to move: in a match going on, to that seat's player (never in a rated
        match nor between two people: :mod:`.fair`); in a finished match, to anyone, at any ``ply`` of its replay and
        after any ``line`` of moves from there (searched on the AI's pool in the share of ``account``, else of the
        address ``client``)."""
        match = self.store.matches.get(match_id)
        check_help(match, "hints")
        if match.state.is_over():
            state = play_line(position(match, match.ply if ply is None else ply), line or [])
            if state.is_over():
                raise Refused(400, "no hint: the game is over at this ply")
        else:
            check_turn(match.state, seats_of(match, token, account_id(account)))
            if (ply is not None and ply != match.ply) or line:
                raise Refused(403, "hints at earlier plies or in other lines are for finished games")
            state = match.state
        owner = account_topic(account.id) if account is not None else f"client:{client}"
        move, rate = self.thinker.hint(state.copy(), HINT_LEVEL, owner)
        return {"move": move, "rate": rate, "proof": proof_text(state)}

    def close(self) -> None:
        self.thinker.shutdown()
        self.scorer.shutdown()
        self.mailer.close()
        self.store.close()


def account_id(account: Account | None) -> int | None:
    return None if account is None else account.id
