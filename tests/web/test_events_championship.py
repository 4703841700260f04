"""A championship in a real browser (issue 44): four people sign up for a game's championship from the championships
page; with no wait (--championship-wait 0) the judge starts its first cycle (one division, a correspondence round
robin), and each player's "my games" lists the first round's game with its event line, one of them told by the
notice under the header; the championships page links the division's event, whose page names its championship."""

from __future__ import annotations

import pytest

from tests.web.event_helpers import GAME, event_of, event_server, people, shot, wait_for

sync_api = pytest.importorskip("playwright.sync_api")
__all__ = ["event_server"]  # (the fixture, used by name)

NAMES = ["hana", "ivan", "jon", "kim"]


def sign_up(person) -> None:
    page = person.open("/#/championships")
    page.click(f'button[data-join="{GAME}"]')
    page.wait_for_selector(f'button[data-leave="{GAME}"]')


def division_event(person) -> str:
    """The event of the championship's first division, once the judge has started the cycle."""
    def started():
        shown = person.api("GET", f"/api/championships/{GAME}")
        return shown["divisions"][0]["tournament"] if shown["cycle"] == 1 and shown["divisions"] else None
    return wait_for("the championship's first cycle", started)


def test_a_championship_starts_and_its_first_round_shows_in_my_games(browser, event_server):
    errors: list[str] = []
    folks = people(browser, event_server, NAMES, errors)
    try:
        for person in folks.values():
            sign_up(person)
            if person.name != NAMES[-1]:
                person.open("/#/my")  # (the last sign-up starts the cycle: the others wait on "my games")
        event_id = division_event(folks["hana"])
        obj = wait_for("round 1", lambda: (lambda e: e if e["round"] == 1 else None)(event_of(folks["hana"], event_id)))
        assert obj["championship"] == {"game": GAME, "cycle": 1, "division": "1"}
        line = f"{obj['name']}, round 1"
        games = obj["pairings"][0]["games"]
        assert len(games) == 2 and sorted(n for g in games for n in g["seats"]) == NAMES
        the_notice_tells_of_the_game(folks["hana"].page, obj)
        for g in games:
            for name in g["seats"]:
                page = folks[name].open("/#/my")
                item = page.locator(f'.match-item[data-match="{g["match"]}"]')
                item.wait_for()
                assert item.locator(".event-line").inner_text() == line
                assert item.locator(".event-line a").get_attribute("href") == f"#/events/{event_id}"
        the_championship_pages_link_the_division(folks["hana"], event_id)
        assert not errors, errors
    finally:
        for p in folks.values():
            p.close()


def the_notice_tells_of_the_game(page, obj: dict) -> None:
    """hana waited on "my games" since she signed up: the round's game is told under the header."""
    mine = next(g for g in obj["pairings"][0]["games"] if "hana" in g["seats"])
    other = next(n for n in mine["seats"] if n != "hana")
    notice = page.locator(f'#notices .notice[data-match="{mine["match"]}"] a')
    notice.wait_for()
    assert notice.inner_text() == f"Round 1 of {obj['name']}: your game against {other}"
    assert notice.get_attribute("href") == f"#/match/{mine['match']}"
    page.wait_for_selector(f'#list-events li[data-match="{mine["match"]}"]')


def the_championship_pages_link_the_division(person, event_id: str) -> None:
    page = person.open("/#/championships")
    link = page.locator(f'tr[data-game="{GAME}"] .divisions a')
    link.wait_for()
    assert link.inner_text() == "Division 1" and link.get_attribute("href") == f"#/events/{event_id}"
    shot(page, "events-championships-running")
    link.click()
    page.wait_for_selector("#event-championship .divisions a[aria-current=page]")
    assert page.inner_text("#event-championship h3") == f"Championship of {GAME}, cycle 1: division 1"
