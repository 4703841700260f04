"""The events' pages in a real browser (issue 44): the list's tabs and game filter, the create form's refusals, a
withdrawal before and after the start, and axe (no serious or critical violation) on the events list, a running
event's page and the championships page, on a desktop and on a phone; screenshots to test-artifacts/web/."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.web.event_helpers import GAME, OPTIONS, event_server, people, round_paired, shot, table_rows, wait_for
from tests.web.helpers import watched_page

axe_api = pytest.importorskip("axe_playwright_python.sync_playwright")
__all__ = ["event_server"]  # (the fixture, used by name)


def violations(pg) -> list[str]:
    from tests.web.test_a11y import violations as serious

    return serious(pg)


def new_event(person, name: str, **fields) -> dict:
    body = {"name": name, "game": GAME, "options": OPTIONS, "format": "round-robin", "clock": {"days": 3},
            "rated": False, **fields}
    return person.api("POST", "/api/tournaments", body)


def running_event(folks) -> dict:
    """A correspondence round robin of ana, ben, cleo and the AI at level 2, started: its object at round 1."""
    made = new_event(folks["ana"], "Autumn cup")
    for person in folks.values():
        person.api("POST", f"/api/tournaments/{made['id']}/join")
    folks["ana"].api("POST", f"/api/tournaments/{made['id']}/invite", {"name": "ai-2"})
    folks["ana"].api("POST", f"/api/tournaments/{made['id']}/start")
    return round_paired(folks["ana"], made["id"], 1)


def test_axe_finds_nothing_serious_on_the_events_pages_and_a_phone_shows_them(browser, event_server):
    errors: list[str] = []
    folks = people(browser, event_server, ["ana", "ben", "cleo"], errors)
    try:
        later = (datetime.now(UTC) + timedelta(days=2)).isoformat()
        new_event(folks["ben"], "Winter Swiss", format="swiss", rounds=5, clock={"initial": 300, "increment": 3},
                  starts=later, max_players=32)
        new_event(folks["cleo"], "Knockout night", format="knockout", clock={"initial": 180, "increment": 2},
                  rated=True)
        running = running_event(folks)
        page = folks["ana"].open("/#/events")
        page.wait_for_selector("#events-table")
        assert [r[0] for r in table_rows(page, "#events-table")] == ["Knockout night", "Winter Swiss"]
        found = {"list": violations(page)}
        shot(page, "events-list")
        page.click("#tab-running")
        page.wait_for_selector(f'#events-table tr[data-event="{running["id"]}"]')
        found["list-running"] = violations(page)
        page.goto(f"{event_server}/#/events/{running['id']}")
        page.wait_for_selector("#live-boards .mini-board svg")
        found["event"] = violations(page)
        page.goto(f"{event_server}/#/championships")
        page.click(f'button[data-join="{GAME}"]')
        page.wait_for_selector(f'button[data-leave="{GAME}"]')
        found["championships"] = violations(page)
        shot(page, "events-championships")
        assert not any(found.values()), found
        phone_views(browser, event_server, running, folks["ana"], errors)
        assert not errors, errors
    finally:
        for p in folks.values():
            p.close()


def phone_views(browser, base: str, running: dict, ana, errors: list[str]) -> None:
    """A phone (390x844, touch) in the dark theme: the event page's tables scroll sideways inside their boxes, the
    page itself never, and a live update keeps where the reader scrolled them; axe finds nothing there either (the
    dark theme's contrast included)."""
    event_id = running["id"]
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, has_touch=True,
                              is_mobile=True, color_scheme="dark")
    try:
        pg = watched_page(ctx, errors)
        for path in (f"/#/events/{event_id}", "/#/events", "/#/championships"):
            pg.goto(base + path)
            pg.wait_for_selector(".table-scroll")
            assert pg.evaluate("() => document.documentElement.scrollWidth") <= 390, path
            assert not violations(pg), path
        pg.goto(f"{base}/#/events/{event_id}")
        pg.wait_for_selector("#standings")
        left = pg.evaluate("() => { const b = document.querySelector('#standings-box'); b.scrollLeft = 400;"
                           " return b.scrollLeft; }")
        assert left > 0, "the standings fit a phone: nothing to scroll"
        shot(pg, "events-phone-running")
        game = next(g for g in running["pairings"][0]["games"] if "ana" in g["seats"])
        ana.api("POST", f"/api/matches/{game['match']}/resign", {})
        pg.wait_for_selector('#rounds details[data-round="1"] summary >> text=1 of 2 games over')
        assert pg.evaluate("() => document.querySelector('#standings-box').scrollLeft") == left
    finally:
        ctx.close()


def test_the_list_filters_by_status_and_game_and_the_form_says_what_is_wrong(browser, event_server):
    errors: list[str] = []
    folks = people(browser, event_server, ["dora"], errors)
    try:
        page = folks["dora"].open("/#/events")
        page.wait_for_selector("#ev-name")
        page.fill("#ev-name", "Too short")
        page.select_option("#ev-format", "swiss")
        page.fill("#ev-rounds", "30")  # (no bound in the client: the server says it)
        page.click("#ev-create")
        wait_for("the refusal", lambda: page.inner_text(".create-event-form .error").startswith("rounds 30: "))
        assert page.evaluate("() => location.hash") == "#/events"
        page.fill("#ev-rounds", "2")
        page.select_option("#ev-game", GAME)
        page.fill("#ev-max", "16")
        page.fill("#ev-rating-lo", "1000")
        page.fill("#ev-rating-hi", "2000")
        page.select_option("#ev-start", "at")
        page.fill("#ev-starts", "2031-05-04T18:30")  # (the browser's local time: the page sends it as UTC)
        page.click("#ev-create")
        page.wait_for_selector("#ev-join")
        made = page.evaluate("() => decodeURIComponent(location.hash.split('/')[2])")
        obj = folks["dora"].api("GET", f"/api/tournaments/{made}")
        local = page.evaluate("() => new Date('2031-05-04T18:30').toISOString()")
        assert (obj["max_players"], obj["rating_range"], obj["rounds"]) == (16, [1000, 2000], 2)
        assert datetime.fromisoformat(obj["starts"]) == datetime.fromisoformat(local.replace("Z", "+00:00"))
        assert "ratings 1000 to 2000 · at most 16 players · starts " in page.inner_text("#event-facts")
        page.goto(f"{event_server}/#/events")
        page.wait_for_selector(f'#events-table tr[data-event="{made}"]')
        others = [g["name"] for g in folks["dora"].api("GET", "/api/games") if g["name"] != GAME]
        page.select_option("#events-game", others[0])
        page.wait_for_selector("#events-empty")
        assert page.inner_text("#events-empty") == f"No upcoming event of {others[0]}. Create one below."
        page.select_option("#events-game", GAME)
        page.wait_for_selector(f'#events-table tr[data-event="{made}"]')
        page.click("#tab-finished")
        wait_for("no finished event", lambda: page.locator("#events-empty").count() == 1)
        assert not errors, errors
    finally:
        for p in folks.values():
            p.close()


def by_keys(page, element_id: str, most: int = 40) -> None:
    """Tab from the top of the page until the element ``element_id`` has the focus, then press Enter."""
    page.evaluate("() => document.activeElement?.blur()")
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement?.id") == element_id:
            page.keyboard.press("Enter")
            return
    raise AssertionError(f"#{element_id} not reached in {most} tabs")


def test_a_withdrawal_leaves_the_entrants_before_the_start_and_is_marked_after_it(browser, event_server):
    errors: list[str] = []
    folks = people(browser, event_server, ["emil", "finn", "gita"], errors)
    try:
        made = new_event(folks["emil"], "Spring cup")
        for person in folks.values():
            person.api("POST", f"/api/tournaments/{made['id']}/join")
        page = folks["gita"].open(f"/#/events/{made['id']}")
        page.once("dialog", lambda d: d.accept())
        page.click("#ev-withdraw")
        page.wait_for_selector("#ev-join")
        assert [r[0] for r in table_rows(page, "#entrants")] == ["emil", "finn"]
        by_keys(page, "ev-join")  # (Join again, by the keyboard alone)
        page.wait_for_selector("#ev-withdraw")
        started = folks["emil"].api("POST", f"/api/tournaments/{made['id']}/start")
        page.wait_for_selector("#standings")
        bye = started["pairings"][0]["bye"]  # (three players: one has the bye each round)
        first = table_rows(page, '#rounds table.pairings[data-round="1"]')
        assert [r[1:3] for r in first if r[2] == "bye"] == [[bye, "bye"]]
        page.once("dialog", lambda d: d.accept())
        page.click("#ev-withdraw")
        page.wait_for_selector('#standings tr.is-withdrawn[data-name="gita"] .withdrawn')
        assert page.locator("#ev-withdraw").count() == 0 and page.locator("#ev-join").count() == 0
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url) if "/api/tournaments/" in ws.url else None)
        page.goto(f"{event_server}/#/events/no-such-event")
        page.wait_for_selector(".event-page .error")
        assert page.inner_text(".event-page .error") == "no event 'no-such-event'"
        page.wait_for_timeout(2000)  # (a socket refused with 4404 is not opened again: one try in these 2 s)
        assert len(sockets) == 1, sockets
        assert not errors, errors
    finally:
        for p in folks.values():
            p.close()
