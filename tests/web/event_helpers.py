"""What the events' browser tests share (tests/web/test_events*.py): a server judging every second with no limit on
accounts, events or moves from one address, and people, each a browser context signed in to an account of their own
(its pages and its API requests share the session)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.waits import until
from tests.web.helpers import ARTIFACTS, start_server, stop_server, watched_page

PASSWORD = "a long secret"
GAME = "projective-hex"
OPTIONS = {"size": 3, "opening": "none"}
SERVE = ["--judge-seconds", "1", "--championship-wait", "0", "--max-accounts-per-address", "0",
         "--max-websockets", "500", "--max-ai-per-client", "50", "--max-upcoming-events", "20",
         "--max-events-per-day", "50", *[x for kind in ("register", "event", "move", "live", "create", "login")
                                         for x in ("--rate", f"{kind}=0/1")]]


@pytest.fixture(scope="module")
def event_server(tmp_path_factory) -> Iterator[str]:
    """`hexarena serve` for one test module (SERVE's options), its game's kernels warmed by a first match."""
    if os.environ.get("HEXARENA_WEB_URL"):
        pytest.skip("the events' tests start a server of their own (SERVE's options), not HEXARENA_WEB_URL's")
    base, proc = start_server(tmp_path_factory.mktemp("events"), *SERVE)
    warm_up(base)
    yield base
    stop_server(proc)


def warm_up(base: str) -> None:
    import urllib.request

    body = json.dumps({"game": GAME, "options": OPTIONS, "seats": ["me", "me"]}).encode()
    req = urllib.request.Request(base + "/api/matches", data=body, method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        made = json.loads(r.read())
    urllib.request.urlopen(f"{base}/api/matches/{made['id']}", timeout=120).read()


class Person:
    """A person in a browser context of their own, registered as ``name``; ``page`` once opened."""

    def __init__(self, browser: Any, base: str, name: str, errors: list[str], viewport: dict | None = None) -> None:
        self.name, self.base, self.errors = name, base, errors
        self.ctx = browser.new_context(viewport=viewport or {"width": 1100, "height": 800})
        self.page: Any = None
        self.api("POST", "/api/account/register", {"name": name, "password": PASSWORD})

    def open(self, path: str = "/") -> Any:
        """This person's page (one per person), at ``path``."""
        if self.page is None:
            self.page = watched_page(self.ctx, self.errors)
        self.page.goto(self.base + path)
        return self.page

    def api(self, method: str, path: str, body: dict | None = None) -> Any:
        """A request with this person's session (and CSRF token): its JSON; an error status fails the test."""
        csrf = next((c["value"] for c in self.ctx.cookies() if c["name"] == "csrf"), "")
        r = self.ctx.request.fetch(self.base + path, method=method, data=None if body is None else json.dumps(body),
                                   headers={"Content-Type": "application/json", "X-CSRF-Token": csrf}, timeout=30_000)
        assert r.ok, f"{method} {path}: {r.status} {r.text()}"
        return r.json()

    def close(self) -> None:
        self.ctx.close()


def people(browser: Any, base: str, names: list[str], errors: list[str]) -> dict[str, Person]:
    return {n: Person(browser, base, n, errors) for n in names}


def wait_for(what: str, check: Callable[[], Any], timeout: float = 20.0) -> Any:
    """``check()`` once it is true (that value); fails naming ``what`` after ``timeout`` s."""
    return until(check, f"waited {timeout:g} s for {what}", timeout)


def event_of(person: Person, event_id: str) -> dict:
    return person.api("GET", f"/api/tournaments/{event_id}")


def round_paired(person: Person, event_id: str, number: int, timeout: float = 20.0) -> dict:
    """The event object once round ``number`` is paired (the judge pairs it within a second or two)."""
    return wait_for(f"round {number} of {event_id}", lambda: (lambda e: e if e["round"] >= number and len(
        e["pairings"]) >= number else None)(event_of(person, event_id)), timeout)


def table_rows(page: Any, selector: str) -> list[list[str]]:
    """The text of each body row's cells (th and td) of the table at ``selector``."""
    return page.eval_on_selector_all(f"{selector} tbody tr",
                                     "rows => rows.map(r => [...r.children].map(c => c.textContent.trim()))")


def shot(page: Any, name: str, full: bool = False) -> None:
    """A screenshot in test-artifacts/web/ (the ones in docs/img/ are copied from there and looked at)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full)
