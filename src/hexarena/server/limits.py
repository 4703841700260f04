"""The limits at every door (docs/server.md "Limits") and ``hexarena serve``'s
options for them: request bodies, requests per client address, open matches
per client and their expiry, WebSockets per address and spectators per match, trusted proxies.

No web framework here (the CLI builds its parser from this module);
:mod:`.guards` enforces them.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

MiB = 1 << 20
POOLS = ("local", "ray")  # where the AI searches (:mod:`.searchers`)


@dataclass(frozen=True)
class Rate:
    """At most ``count`` requests at once, refilled at ``count`` per ``seconds`` (a token bucket)."""

    count: int
    seconds: float

    def __str__(self) -> str:
        return f"{self.count}/{self.seconds:g}"


# The kinds of request limited per client address, and the defaults (a person at a board never meets them:
# a fast hot-seat game posts a few moves a second, the browser tests about 20 matches in a minute).
RATES = {"create": Rate(30, 60), "import": Rate(20, 60), "join": Rate(30, 60), "move": Rate(300, 30),
         "hint": Rate(20, 60), "register": Rate(10, 3600), "login": Rate(30, 300), "seek": Rate(30, 60),
         "chat": Rate(20, 60), "preview": Rate(600, 60), "live": Rate(120, 60), "event": Rate(30, 60),
         # failed logins (not requests: counted after the password is checked) for one name from one address,
         # and for any names from one address; never per name alone, so nobody elsewhere can lock a player out
         "failed": Rate(10, 300), "failed_all": Rate(100, 3600)}
RATED = (  # (method, path, kind): the requests each kind counts ("WS": a WebSocket's opening handshake)
    ("POST", re.compile(r"/api/matches"), "create"),
    ("POST", re.compile(r"/api/matches/import"), "import"),
    ("POST", re.compile(r"/api/matches/[^/]+/join"), "join"),
    ("POST", re.compile(r"/api/matches/[^/]+/(?:moves|undo|resign|turn)"), "move"),
    ("GET", re.compile(r"/api/matches/[^/]+/hint"), "hint"),
    ("POST", re.compile(r"/api/matches/[^/]+/preview"), "preview"),
    ("POST", re.compile(r"/api/account/register"), "register"),
    ("POST", re.compile(r"/api/account/login"), "login"),
    ("POST", re.compile(r"/api/seeks(?:/[^/]+/accept)?"), "seek"),
    ("POST", re.compile(r"/api/matches/[^/]+/chat"), "chat"),
    ("WS", re.compile(r"/api/(?:matches/[^/]+|account)/live"), "live"),  # opening a live socket
    # an event made, joined, left, an AI invited, started; a championship joined or left
    ("POST", re.compile(r"/api/(?:tournaments(?:/[^/]+/(?:join|withdraw|invite|start))?"
                        r"|championships/[^/]+/(?:join|leave))"), "event"),
)


@dataclass(frozen=True)
class AICaps:
    """The most AI matches at once: AI against AI on the server, and with an AI
    seat per client address (not over, changed within ``active_seconds``); the
    most searches holding a tree at once, server-wide and per owner (an account,
    else a client address), and the memory all their trees may take together."""

    ai_vs_ai: int = 4
    per_client: int = 8
    active_seconds: float = 3600.0
    searches: int = 32
    owner_searches: int = 2
    trees_mb: int = 256


def processors() -> int:
    """This machine's processors: the scoring processes for any board by default."""
    return os.cpu_count() or 1


@dataclass(frozen=True)
class Limits:
    """Every door's limit (``hexarena serve`` options; docs/server.md)."""

    body_bytes: int = MiB                 # a request body larger is refused (413) unread
    rates: dict[str, Rate] = field(default_factory=lambda: dict(RATES))  # per client address and kind (429)
    open_matches: int = 20                # matches with a seat still open that one client may hold (429)
    open_hours: float = 24.0              # an open seat nobody joined expires after this (0: never)
    websockets: int = 32                  # live connections from one client address at once, per process
    forwarded_allow_ips: str | None = None  # proxies trusted to name the client in X-Forwarded-For
    ai: AICaps = field(default_factory=AICaps)  # AI matches at once, server-wide and per client (429)
    scoring_seconds: float = 60.0         # the most one costly final scoring may take, in its own process
    scoring_workers: int = field(default_factory=processors)  # scoring processes for any board (+1 for small)
    secure_cookies: bool = False          # the session cookie only over HTTPS (behind a proxy that terminates it)
    open_seeks: int = 10                  # seeks and challenges one account may have open at once (429)
    seek_hours: float = 72.0              # a seek or challenge nobody accepted expires after this
    pool: str = "local"                   # where the AI searches: "local" processes or "ray" actors
    ray_address: str | None = None        # with pool "ray": the cluster (None: a local Ray started by the server)
    judge_seconds: float = 5.0            # how often the server looks for players out of time (0: only at start-up
    # and on a late move, for tests that judge by hand; the command line needs a positive number)
    watchers: int = 100                   # spectators' live connections to one match at once, per process
    address_accounts: int = 10            # accounts registered from one client address in 24 hours (429; 0: any)
    address_seeks: int = 30               # seeks and challenges open at once from one client address, whatever
    # the accounts that posted them (429; 0: any)
    event_players: int = 500              # the most max_players an event may have
    events_per_day: int = 5               # events one account may make in 24 hours (429)
    upcoming_events: int = 3              # events one account may have upcoming at once (429)
    entered_events: int = 20              # events not finished one account may be entered in at once (429)
    championship_wait: float = 24.0       # hours from the first waiting sign-up before a championship's cycle starts
    championship_days: int = 3            # a championship game's correspondence clock, days per move

    def to_json(self) -> str:
        """The limits as JSON (passed to ``uvicorn --workers`` processes through the environment)."""
        out = asdict(self)
        out["rates"] = {k: [r.count, r.seconds] for k, r in self.rates.items()}
        return json.dumps(out)

    @classmethod
    def from_json(cls, text: str) -> Limits:
        data = json.loads(text)
        data["rates"] = {k: Rate(int(c), float(s)) for k, (c, s) in data["rates"].items()}
        data["ai"] = AICaps(**data["ai"])
        return cls(**data)


def parse_rate(text: str) -> tuple[str, Rate]:
    """``KIND=COUNT/SECONDS`` (``move=300/30``; ``COUNT`` 0 lifts the limit) as (kind, Rate); ValueError naming
    what is wrong."""
    kind, _, rate = text.partition("=")
    if kind not in RATES:
        raise ValueError(f"{text!r}: the kind is one of {', '.join(RATES)} (e.g. move=300/30)")
    count, _, seconds = rate.partition("/")
    try:
        parsed = Rate(int(count), float(seconds))
    except ValueError:
        parsed = Rate(-1, 0)
    if parsed.count < 0 or not (0 < parsed.seconds < math.inf):
        raise ValueError(f"{text!r}: give {kind}=COUNT/SECONDS, COUNT requests per SECONDS seconds "
                         f"(e.g. {kind}={RATES[kind]}; a COUNT of 0 lifts the limit)")
    return kind, parsed


def add_limit_arguments(sp: argparse.ArgumentParser) -> None:
    """``hexarena serve``'s limits (docs/server.md "Limits")."""
    d = Limits()
    sp.add_argument("--max-body", type=count(1), default=d.body_bytes, metavar="BYTES",
                    help=f"largest request body; larger is refused with 413 unread (default {d.body_bytes})")
    sp.add_argument("--rate", type=rate, action="append", default=[], metavar="KIND=COUNT/SECONDS",
                    help="requests per client address, a KIND of " + ", ".join(RATES) + " (repeat the option; "
                         "COUNT 0 lifts the limit; defaults " + " ".join(f"{k}={r}" for k, r in RATES.items())
                         + "); over it: 429 with Retry-After")
    sp.add_argument("--max-open-matches", type=count(0), default=d.open_matches, metavar="N",
                    help=f"matches with an open seat one client address may hold (default {d.open_matches}; "
                         f"0: any number)")
    sp.add_argument("--open-seat-hours", type=hours, default=d.open_hours, metavar="H",
                    help=f"an open seat nobody joined expires after H hours (default {d.open_hours:g}; 0: never)")
    sp.add_argument("--max-websockets", type=count(0), default=d.websockets, metavar="N",
                    help=f"live connections at once from one client address, per process (default "
                         f"{d.websockets}; 0: any number)")
    sp.add_argument("--max-watchers", type=count(0), default=d.watchers, metavar="N",
                    help=f"spectators' live connections to one match at once, per process; its players always "
                         f"get in (default {d.watchers}; 0: any number)")
    sp.add_argument("--forwarded-allow-ips", default=None, metavar="IPS",
                    help="proxies (comma-separated addresses or networks, * for any) whose X-Forwarded-For names "
                         "the client (default: none, the connecting address is the client)")
    sp.add_argument("--max-ai-vs-ai", type=count(0), default=d.ai.ai_vs_ai, metavar="N",
                    help=f"AI-against-AI matches running at once on the server (default {d.ai.ai_vs_ai}; 429 beyond)")
    sp.add_argument("--max-ai-per-client", type=count(0), default=d.ai.per_client, metavar="N",
                    help=f"unfinished matches against the AI per client address, active in the last hour "
                         f"(default {d.ai.per_client}; 429 beyond)")
    sp.add_argument("--ai-searches", type=count(1), default=d.ai.searches, metavar="N",
                    help=f"AI searches holding a tree at once on the server, the rest wait (default {d.ai.searches})")
    sp.add_argument("--ai-searches-per-owner", type=count(1), default=d.ai.owner_searches, metavar="N",
                    help=f"of which one account (else client address) holds at most N (default "
                         f"{d.ai.owner_searches})")
    sp.add_argument("--ai-trees-mb", type=count(16), default=d.ai.trees_mb, metavar="MB",
                    help=f"the memory all those searches' trees may take together, each at most its share "
                         f"(default {d.ai.trees_mb})")
    sp.add_argument("--pool", choices=POOLS, default=d.pool,
                    help="where the AI searches and the exact scorings run: local worker processes (default), or Ray "
                         "actors on the cluster of --ray-address, so capacity grows by adding machines")
    sp.add_argument("--ray-address", default=None, metavar="HOST:PORT",
                    help="with --pool ray: the Ray cluster to join (default: a local Ray started by the server)")
    sp.add_argument("--secure-cookies", action="store_true",
                    help="send the session cookies only over HTTPS (serving behind a proxy that terminates it)")
    sp.add_argument("--max-open-seeks", type=count(1), default=d.open_seeks, metavar="N",
                    help=f"seeks and challenges one account may have open at once (default {d.open_seeks}; "
                         f"429 beyond)")
    sp.add_argument("--max-accounts-per-address", type=count(0), default=d.address_accounts, metavar="N",
                    help=f"accounts registered from one client address in 24 hours (default {d.address_accounts}; "
                         f"0: any number; 429 beyond)")
    sp.add_argument("--max-open-seeks-per-address", type=count(0), default=d.address_seeks, metavar="N",
                    help=f"seeks and challenges open at once from one client address, across its accounts (default "
                         f"{d.address_seeks}; 0: any number; 429 beyond)")
    sp.add_argument("--seek-hours", type=seconds, default=d.seek_hours, metavar="H",
                    help=f"a seek or challenge nobody accepted expires after H hours (default {d.seek_hours:g})")
    sp.add_argument("--judge-seconds", type=seconds, default=d.judge_seconds, metavar="S",
                    help=f"how often the server looks for players whose time ran out (default "
                         f"{d.judge_seconds:g}; also at start-up)")
    add_event_arguments(sp, d)
    sp.add_argument("--scoring-seconds", type=seconds, default=d.scoring_seconds, metavar="S",
                    help=f"the most a final position's exact scoring may take, in its own process "
                         f"(default {d.scoring_seconds:g})")
    sp.add_argument("--scoring-workers", type=count(1), default=d.scoring_workers, metavar="N",
                    help=f"final scorings at once, each in its own process, plus one more for small boards only "
                         f"(default {d.scoring_workers}: the processors)")


def add_event_arguments(sp: argparse.ArgumentParser, d: Limits) -> None:
    """``hexarena serve``'s limits on tournaments and championships (docs/server.md "Tournaments and
    championships")."""
    sp.add_argument("--max-event-players", type=count(2), default=d.event_players, metavar="N",
                    help=f"the most players an event may take (its max_players; default {d.event_players})")
    sp.add_argument("--max-events-per-day", type=count(0), default=d.events_per_day, metavar="N",
                    help=f"events one account may make in 24 hours (default {d.events_per_day}; 429 beyond)")
    sp.add_argument("--max-upcoming-events", type=count(0), default=d.upcoming_events, metavar="N",
                    help=f"events one account may have upcoming at once (default {d.upcoming_events}; 429 beyond)")
    sp.add_argument("--max-entered-events", type=count(1), default=d.entered_events, metavar="N",
                    help=f"events not finished one account may be entered in at once (default {d.entered_events}; "
                         f"429 beyond)")
    sp.add_argument("--championship-wait", type=hours, default=d.championship_wait, metavar="H",
                    help=f"hours after the first waiting sign-up before a championship's cycle starts (default "
                         f"{d.championship_wait:g}; it needs 4 players)")
    sp.add_argument("--championship-days", type=count(1), default=d.championship_days, metavar="D",
                    help=f"days per move in championship games (default {d.championship_days})")


def limits_from(args: argparse.Namespace) -> Limits:
    """The limits ``hexarena serve``'s options give."""
    return Limits(body_bytes=args.max_body, rates={**RATES, **dict(args.rate)}, open_matches=args.max_open_matches,
                  open_hours=args.open_seat_hours, websockets=args.max_websockets, watchers=args.max_watchers,
                  forwarded_allow_ips=args.forwarded_allow_ips,
                  ai=AICaps(args.max_ai_vs_ai, args.max_ai_per_client, searches=args.ai_searches,
                                owner_searches=args.ai_searches_per_owner, trees_mb=args.ai_trees_mb),
                  scoring_seconds=args.scoring_seconds, scoring_workers=args.scoring_workers,
                  secure_cookies=args.secure_cookies, open_seeks=args.max_open_seeks, seek_hours=args.seek_hours,
                  judge_seconds=args.judge_seconds, pool=args.pool, ray_address=args.ray_address,
                  address_accounts=args.max_accounts_per_address, address_seeks=args.max_open_seeks_per_address,
                  event_players=args.max_event_players, events_per_day=args.max_events_per_day,
                  upcoming_events=args.max_upcoming_events, entered_events=args.max_entered_events,
                  championship_wait=args.championship_wait, championship_days=args.championship_days)


def count(least: int) -> Callable[[str], int]:
    """argparse type: an integer of at least ``least``."""
    def parse(text: str) -> int:
        if not (text.isascii() and text.isdigit() and int(text) >= least):
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer of at least {least}")
        return int(text)
    return parse


def rate(text: str) -> tuple[str, Rate]:
    """argparse type: ``KIND=COUNT/SECONDS``."""
    try:
        return parse_rate(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def hours(text: str) -> float:
    """argparse type: a number of hours, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < 1e6:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of hours (0 or more; 0: never)")
    return value


def seconds(text: str) -> float:
    """argparse type: a positive finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive finite number of seconds (e.g. 60)")
    return value
