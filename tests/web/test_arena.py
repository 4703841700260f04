"""The arena in a real browser (Playwright driving Debian's chromium) against `hexarena serve`, on SQLite and
on PostgreSQL: two people register in two browser contexts, one posts a correspondence seek, the other accepts
it from the lobby, they play and chat, one signs out and in again on a third context ("another device") and
finds the match in "my games" with the right side to move; the server restarts; the test clock passes the
deadline and the player to move loses on time.  Then ratings and real-time clocks: two established players (their
ratings written in the database) play a rated 1+1 game, watch the clocks tick and switch, the second runs out of
time, and both ratings change on the match page, the profiles and the leaderboard; a challenge to the AI starts at
once.  Screenshots go to test-artifacts/web/.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, insert, select

from hexarena.record_writer import at
from hexarena.server.schema import accounts, ratings, seeks

from tests.server.helpers import fresh_pg
from tests.web.helpers import ARTIFACTS, confirm_turn, free_port

sync_api = pytest.importorskip("playwright.sync_api")
PASSWORD = "a long secret"
DAY = 86400
GAME = "projective-hex"
ESTABLISHED = {"ana": 1620.0, "ben": 1580.0}  # ratings of the rated game's players


class Served:
    """`hexarena serve` on a database, its clock ahead of the real one by what ``offset`` says."""

    def __init__(self, db: str, tmp: Path) -> None:
        self.db, self.tmp = db, tmp
        self.offset = tmp / "clock-offset"
        self.offset.write_text("0")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        exe = Path(sys.executable).with_name("hexarena")
        env = {**os.environ, "HEXARENA_CLOCK_OFFSET_FILE": str(self.offset)}
        self.proc = subprocess.Popen([str(exe), "serve", "--port", str(self.port), "--db", self.db,
                                      "--judge-seconds", "1"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     cwd=self.tmp, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"hexarena serve exited: {self.proc.stdout.read().decode()[-2000:]}")
            try:
                urllib.request.urlopen(self.base + "/api/games", timeout=2).read()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("hexarena serve did not answer within 60 s")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.base + path, timeout=30) as r:
            return json.loads(r.read())


# the browser flows on the default database in CI; on PostgreSQL too with -m slow (tests/server/test_arena.py
# checks the same rules on both databases without a browser)
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def served(request, tmp_path):
    if request.param == "sqlite":
        s = Served(f"sqlite:///{tmp_path / 'arena.db'}", tmp_path)
        s.start()
        yield s
        s.stop()
        return
    with fresh_pg() as url:
        s = Served(url, tmp_path)
        s.start()
        yield s
        s.stop()


def person(browser, errors: list[str]):
    ctx = browser.new_context(viewport={"width": 1100, "height": 820})
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    return ctx, page


def ana_and_ben(browser, base: str, errors: list[str]):
    """Two players, each in a browser context of their own, registered: ((context, page), (context, page))."""
    players = person(browser, errors), person(browser, errors)
    for (_, page), name in zip(players, ("ana", "ben"), strict=True):
        register(page, base, name)
    return players


def shot(page, name: str, db: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"arena-{name}-{db}.png"), full_page=True)


def register(page, base: str, name: str) -> None:
    page.goto(base + "/#/login")
    page.fill("#register-name", name)
    page.fill("#register-password", PASSWORD)
    page.click("#register-submit")
    page.wait_for_selector("#me-link")
    assert page.inner_text("#me-link") == name


def post_seek(page, base: str, live: bool = False) -> None:
    """A seek of GAME (no opening), its author playing first: casual correspondence (1 day a move), or ``live`` a
    rated 1 min + 1 s."""
    page.goto(base + "/#/")
    page.click(f'.gametabs .tab[data-game="{GAME}"]')
    page.select_option("#opt-opening", "none")
    page.check('input[name="new-mode"][value="seek"]')
    if live:
        page.select_option("#new-clock", "live")
        page.fill("#new-minutes", "1")
        page.fill("#new-increment", "1")
        page.check("#new-rated")
    else:
        page.select_option("#new-clock", "days")
        page.fill("#new-days", "1")
    page.select_option("#new-colour", "first")
    page.click("#create")
    page.wait_for_selector("#seeks tr[data-seek] button.withdraw")


def play_one(page, expect_ply: int) -> None:
    """The player to move clicks a legal cell and confirms the turn (online, the turn builder is on); wait until
    the board shows the next ply."""
    page.wait_for_function("p => { const b = document.querySelector('#board');"
                           " return b && b.dataset.ply === String(p) && b.classList.contains('active'); }",
                           arg=expect_ply)
    page.locator("#board polygon.cell.target").first.click()
    confirm_turn(page)
    page.wait_for_function("p => document.querySelector('#board')?.dataset.ply === String(p)", arg=expect_ply + 1)


def test_two_players_seek_play_chat_and_lose_on_time(browser, served, request):
    db = request.node.callspec.params["served"]
    base, errors = served.base, []
    (ctx_a, ana), (ctx_b, ben) = ana_and_ben(browser, base, errors)

    post_seek(ana, base)
    ben.goto(base + "/#/")
    accept = ben.locator("#seeks tr[data-seek] button.accept")
    accept.wait_for()
    assert "ana" in ben.inner_text("#seeks")
    shot(ben, "lobby-seeks", db)
    accept.click()
    ben.wait_for_url("**/#/match/*")
    match_id = ben.url.rsplit("/", 1)[1]
    ben.wait_for_selector("#board svg")

    ana.goto(base + "/#/my")
    ana.locator(f'#list-turn li[data-match="{match_id}"] a').first.click()
    ana.wait_for_selector("#board svg")
    assert "ana" in ana.inner_text(".seats") and "ben" in ana.inner_text(".seats")
    assert ana.locator("#deadline").count() == 1  # a correspondence deadline runs for the player to move

    for ply in range(4):
        play_one(ana if ply % 2 == 0 else ben, ply)

    ana.fill("#chat-text", "hello ben, good luck")
    ana.click("#chat-send")
    ben.wait_for_function("() => document.querySelector('#chat-lines')?.textContent.includes('good luck')")
    ben.fill("#chat-text", "<b>thanks</b> & you")
    ben.click("#chat-send")
    ana.wait_for_function("() => document.querySelector('#chat-lines')?.textContent.includes('<b>thanks</b> & you')")
    assert ana.locator("#chat-lines b").count() == 0  # shown as text, never as markup
    shot(ana, "match-names-chat", db)

    ana.click("#signout")
    ana.wait_for_selector("#signin-link")
    ctx_c, other_device = person(browser, errors)
    other_device.goto(base + "/#/login")
    other_device.fill("#login-name", "ana")
    other_device.fill("#login-password", PASSWORD)
    other_device.click("#login-submit")
    other_device.wait_for_selector(f'#list-turn li[data-match="{match_id}"]')  # ply 4: the first player's move
    other_device.wait_for_function("() => document.title.startsWith('(1)')")
    shot(other_device, "my-games", db)

    other_device.goto(base + "/@/ben")
    other_device.wait_for_selector(f'#profile-ongoing li[data-match="{match_id}"]')
    shot(other_device, "profile", db)

    served.stop()  # a restart between the move and the deadline keeps the deadline
    served.offset.write_text(str(2 * DAY))
    served.start()
    deadline = time.monotonic() + 30
    while not (m := served.get(f"/api/matches/{match_id}"))["over"] and time.monotonic() < deadline:
        time.sleep(0.3)
    assert m["over"] and m["winner"] == 1 and m["reason"] == "time", m
    assert m["record"]["result"]["reason"] == "time"
    ben.wait_for_selector("#result", timeout=30_000)  # the live feed reconnects after the restart
    assert "won" in ben.inner_text("#result").lower()
    for ctx in (ctx_a, ctx_b, ctx_c):
        ctx.close()
    assert not errors, errors


def establish(db: str) -> None:
    """Give ana and ben established ratings in GAME, as if they had played many rated games."""
    engine = create_engine(db)
    with engine.begin() as conn:
        ids = dict(conn.execute(select(accounts.c.name, accounts.c.id).where(accounts.c.name.in_(ESTABLISHED))).all())
        conn.execute(insert(ratings), [{"account_id": ids[name], "game": GAME, "rating": r, "rd": 60.0,
                                        "volatility": 0.06, "games": 30, "updated": "2024-01-01T00:00:00Z"}
                                       for name, r in ESTABLISHED.items()])
    engine.dispose()


def running(page, seat: int) -> None:
    page.wait_for_selector(f'.clock.running[data-seat="{seat}"]')
    assert page.locator(".clock").count() == 2


def ticks(page) -> None:
    """The running clock's text changes within about two seconds."""
    before = page.inner_text(".clock.running")
    page.wait_for_function("t => document.querySelector('.clock.running')?.textContent !== t", arg=before,
                           timeout=3000)


def seconds_left(served, match_id: str) -> float:
    """The running clock's time left, by the server's clock (the offset file's seconds ahead of the real one)."""
    deadline = served.get(f"/api/matches/{match_id}")["clock"]["deadline"]
    now = time.time() + float(served.offset.read_text())
    return datetime.fromisoformat(deadline.replace("Z", "+00:00")).timestamp() - now


def profile_rating(page, base: str, name: str) -> str:
    page.goto(f"{base}/#/@/{name}")
    return page.locator(f"#profile-ratings tr:has-text('{GAME}') td").first.inner_text()


def test_a_rated_game_on_time_changes_both_ratings(browser, served, request):
    db = request.node.callspec.params["served"]
    base, errors = served.base, []
    (ctx_a, ana), (ctx_b, ben) = ana_and_ben(browser, base, errors)
    establish(served.db)
    before = {r["name"]: r["rating"] for r in served.get(f"/api/leaderboard/{GAME}")}
    assert before == ESTABLISHED

    post_seek(ana, base, live=True)
    ben.goto(base + "/#/")
    ben.locator("#seeks tr[data-seek] button.accept").click()
    ben.wait_for_url("**/#/match/*")
    match_id = ben.url.rsplit("/", 1)[1]
    ana.goto(f"{base}/#/match/{match_id}")
    for page in (ana, ben):
        running(page, 0)
        assert page.inner_text("#rated").startswith("rated · no hints or analysis until the end")  # fair play
        assert page.locator("#hint-btn").count() == 0
        assert "1620" in page.inner_text(".seat0") and "1580" in page.inner_text(".seat1")
        ticks(page)
    for ply in range(3):
        play_one(ana if ply % 2 == 0 else ben, ply)
        for page in (ana, ben):
            running(page, (ply + 1) % 2)
    ticks(ana)

    served.offset.write_text(str(seconds_left(served, match_id) - 8))  # ben's clock under 10 s
    ben.reload()
    ben.wait_for_selector('.clock.running.low[data-seat="1"]')
    ben.wait_for_function("() => document.querySelector('#clock-alert').textContent.includes('seconds left')")
    assert ben.inner_text("#clock-alert").startswith("You have")
    shot(ben, "ratings-clock-low", db)
    served.offset.write_text(str(float(served.offset.read_text()) + 10))  # and out of time
    for page, outcome in ((ana, "You won"), (ben, "You lost")):
        page.wait_for_selector("#result", timeout=30_000)
        assert outcome in page.inner_text("#result") and "ran out of time" in page.inner_text("#result")
        page.wait_for_function("() => [...document.querySelectorAll('.seat-rating')]"
                               ".filter(e => e.textContent.includes('→')).length === 2")
    assert "(+" in ana.inner_text(".seat0") and "(−" in ana.inner_text(".seat1")
    assert ana.inner_text("#rated") == "rated" and ana.locator("#review-btn").count() == 1  # all open at the end
    shot(ana, "ratings-match-over", db)

    after = {r["name"]: r["rating"] for r in served.get(f"/api/leaderboard/{GAME}")}
    assert after["ana"] > before["ana"] and after["ben"] < before["ben"], after
    assert profile_rating(ana, base, "ana") == str(round(after["ana"]))
    assert ana.locator(f"#chart-{GAME} circle.point.won").count() == 1
    shot(ana, "ratings-profile", db)
    assert profile_rating(ben, base, "ben") == str(round(after["ben"]))
    assert ben.locator(f"#chart-{GAME} circle.point.lost").count() == 1

    ana.click("#leaderboard-link")
    ana.click(f'.leaderboard .tab[href="#/leaderboard/{GAME}"]')
    ana.wait_for_selector("#leaders")
    leaders = ana.inner_text("#leaders")
    assert all(str(round(after[name])) in leaders for name in after) and ana.locator("#ladder tbody tr").count() == 10
    shot(ana, "ratings-leaderboard", db)

    ana.goto(base + "/#/account")
    assert str(round(after["ana"])) in ana.inner_text("#my-ratings")

    ana.goto(base + "/#/")  # a challenge to the AI starts at once
    ana.click(f'.gametabs .tab[data-game="{GAME}"]')
    ana.check('input[name="new-mode"][value="seek"]')
    ana.select_option("#new-opponent", "ai")
    ana.fill("#new-ai-level", "2")
    ana.select_option("#new-clock", "none")
    ana.click("#create")
    ana.wait_for_url("**/#/match/*")
    ana.wait_for_selector("#board svg")
    assert "AI level 2" in ana.inner_text(".seats") and ana.inner_text("#rated") == "casual"
    for ctx in (ctx_a, ctx_b):
        ctx.close()
    assert not errors, errors


def flood_of(db: str, name: str, game: str, count: int) -> None:
    """``count`` open seeks of ``game`` by ``name``, newer than the seeks before (written in the database)."""
    now, engine = time.time(), create_engine(db)
    with engine.begin() as conn:
        author = conn.execute(select(accounts.c.id).where(accounts.c.name == name)).scalar_one()
        conn.execute(insert(seeks), [
            {"id": f"flood{n}", "author_id": author, "to_id": None, "game": game, "options": {}, "clock": None,
             "rated": False, "colour": "random", "created": at(now + n / 1000), "expires": at(now + DAY)}
            for n in range(count)])
    engine.dispose()


def seek_rows(page) -> list[str]:
    """The seeker cells (name, rating, "established") of the rows the lobby shows."""
    rows = page.locator("#seeks tr[data-seek]").all()
    return [" ".join(row.locator("td").first.inner_text().split()) for row in rows]


def test_the_lobby_filters_seeks_by_game_and_rating_and_marks_established_players(browser, served, request):
    """Issue 42, item 9 in the browser: among a newcomer's flood of another game's seeks, the lobby's game filter
    and rating range (sent to the server as ?game= and ?rating=) find the established player's seek, listed first
    and marked so."""
    db = request.node.callspec.params["served"]
    base, errors = served.base, []
    (ctx_a, ana), (ctx_b, ben) = ana_and_ben(browser, base, errors)
    ctx_c, cat = person(browser, errors)
    register(cat, base, "cat")
    establish(served.db)
    post_seek(cat, base)
    post_seek(ana, base)
    flood_of(served.db, "cat", "lisbon", 40)
    ben.goto(base + "/#/")
    ben.wait_for_selector("#seeks tr[data-seek]")
    rows = seek_rows(ben)
    assert len(rows) == 42 and rows[0].startswith("ana") and "established" in rows[0], rows[:3]
    assert all("established" not in r and "new" in r for r in rows[1:]), rows[1:3]
    with ben.expect_response(lambda r: f"/api/seeks?game={GAME}" in r.url):
        ben.select_option("#seek-game", GAME)
    ben.wait_for_function("() => document.querySelectorAll('#seeks tr[data-seek]').length === 2")
    assert [r.split()[0] for r in seek_rows(ben)] == ["ana", "cat"]
    with ben.expect_response(lambda r: r.url.endswith(f"/api/seeks?game={GAME}&rating=1600-9999")):
        ben.fill("#seek-rating-min", "1600")
        ben.dispatch_event("#seek-rating-min", "change")
    ben.wait_for_function("() => document.querySelectorAll('#seeks tr[data-seek]').length === 1")
    assert seek_rows(ben)[0].startswith("ana")
    shot(ben, "lobby-filter", db)
    ben.set_viewport_size({"width": 390, "height": 844})
    ben.locator("#seeks").scroll_into_view_if_needed()
    shot(ben, "lobby-filter-phone", db)
    width = ben.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the lobby is {width} px wide on a 390 px phone"
    for ctx in (ctx_a, ctx_b, ctx_c):
        ctx.close()
    assert not errors, errors
