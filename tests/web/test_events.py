"""A Swiss in a real browser (issue 44): seven people and the AI at level 1 sign up for a Swiss of 3 rounds at 1+0
through the pages (the event made with the form, each person's Join, the creator's invite and Start now), the games
end by resignation as the test chooses (the AI wins its games, else the first seat wins), and the event page, live
all along, shows the pairings, standings and crosstable computed here by hand. On the way a player's "my games"
lists the new round's game with its event, the notice of the round shows, and the match page links back to the
event.  Screenshots of the running and the finished event go to test-artifacts/web/."""

from __future__ import annotations

import random

import pytest

from tests.web.event_helpers import GAME, event_server, people, round_paired, shot, table_rows
from tests.web.helpers import watched_page

sync_api = pytest.importorskip("playwright.sync_api")
__all__ = ["event_server"]  # (the fixture, used by name)

NAMES = ["ana", "ben", "cleo", "dan", "eve", "fay", "gus"]
AI = "ai-1"
EVENT = "Sunday blitz"

# The pairings the server's Swiss gives these eight with the results chosen below, (first seat, second seat) per
# board: seeds by rating, ties in the order they joined (ana 1 .. gus 7, the AI's ladder rating under 1500: 8);
# round 1 the top half against the bottom half, then score groups top-down with no repeat and seats alternating.
PAIRINGS = {
    1: [("ana", "eve"), ("fay", "ben"), ("cleo", "gus"), (AI, "dan")],
    2: [("fay", "ana"), (AI, "cleo"), ("ben", "eve"), ("dan", "gus")],
    3: [(AI, "fay"), ("ana", "dan"), ("cleo", "ben"), ("eve", "gus")],
}


def winner(seats: list[str]) -> str:
    """The result the test chooses: the AI wins its games, else the first seat wins."""
    return AI if AI in seats else seats[0]


# By hand from PAIRINGS and winner(): points; Buchholz (the opponents' points: ai-1 met dan 1, cleo 2, fay 2 = 5),
# its cut 1 (5 - 1 = 4), Sonneborn-Berger (the beaten opponents' points: 5); ranked by points, then Buchholz cut 1
# (fay 5, cleo 4, ana 3 among the 2-pointers; dan 5, ben 4, eve 3 among the 1-pointers).
# rank, name, points, Bh, Bh-1, SB, wins, games
STANDINGS = [
    ["1", AI, "3", "5", "4", "5", "3", "3"],
    ["2", "fay", "2", "6", "5", "3", "2", "3"],    # beat ben (1), ana (2); lost to ai-1 (3)
    ["3", "cleo", "2", "4", "4", "1", "2", "3"],   # beat gus (0), ben (1); lost to ai-1 (3)
    ["4", "ana", "2", "4", "3", "2", "2", "3"],    # beat eve (1), dan (1); lost to fay (2)
    ["5", "dan", "1", "5", "5", "0", "1", "3"],    # beat gus (0); lost to ai-1 (3), ana (2)
    ["6", "ben", "1", "5", "4", "1", "1", "3"],    # beat eve (1); lost to fay (2), cleo (2)
    ["7", "eve", "1", "3", "3", "0", "1", "3"],    # beat gus (0); lost to ana (2), ben (1)
    ["8", "gus", "0", "4", "3", "0", "0", "3"],    # lost to cleo (2), dan (1), eve (1)
]
# The crosstable in the same order: rank, name, a column per rank ("×" on the diagonal), byes, points.
CROSSTABLE = [
    ["1", AI, "×", "1", "1", "", "1", "", "", "", "", "3"],
    ["2", "fay", "0", "×", "", "1", "", "1", "", "", "", "2"],
    ["3", "cleo", "0", "", "×", "", "", "1", "", "1", "", "2"],
    ["4", "ana", "", "0", "", "×", "1", "", "1", "", "", "2"],
    ["5", "dan", "0", "", "", "0", "×", "", "", "1", "", "1"],
    ["6", "ben", "", "0", "0", "", "", "×", "1", "", "", "1"],
    ["7", "eve", "", "", "", "0", "", "0", "×", "1", "", "1"],
    ["8", "gus", "", "", "0", "", "0", "", "0", "×", "", "0"],
]


def create_through_the_form(page) -> str:
    page.wait_for_selector("#ev-name")
    page.fill("#ev-name", EVENT)
    page.select_option("#ev-game", GAME)
    page.fill("#opt-size", "3")
    page.select_option("#opt-opening", "none")
    page.select_option("#ev-format", "swiss")
    page.fill("#ev-rounds", "3")
    page.select_option("#ev-clock", "live")
    page.fill("#ev-minutes", "1")
    page.fill("#ev-increment", "0")
    page.click("#ev-create")
    page.wait_for_function("() => /^#\\/events\\/[^/]+$/.test(location.hash)")
    page.wait_for_selector("#event-name")
    return page.evaluate("() => decodeURIComponent(location.hash.split('/')[2])")


def sign_up(folks, event_id: str) -> None:
    """Every person opens the event's page and clicks Join (the creator first)."""
    for name in NAMES:
        page = folks[name].open(f"/#/events/{event_id}")
        page.click("#ev-join")
        page.wait_for_selector("#ev-withdraw")
        assert page.locator("#entrants").inner_text().count("\n") >= NAMES.index(name) + 1


def invite_and_start(page) -> None:
    page.fill("#ev-ai-level", "1")
    page.click("#ev-invite")
    page.wait_for_selector(f"#entrants >> text={AI}")
    page.click("#ev-start-now")
    page.wait_for_function("() => document.querySelector('#event-status')?.textContent === 'running'")


def play_a_little(folks, games: list[dict], rng: random.Random) -> None:
    """A few random moves in each game between two people (by whoever is to move), for the live boards to show."""
    for g in games:
        if AI in g["seats"]:
            continue
        for _ in range(3):
            m = folks[g["seats"][0]].api("GET", f"/api/matches/{g['match']}")
            mover = folks[m["players"][m["to_move"]]]
            move = {"move": rng.choice(m["legal_moves"]), "ply": m["ply"]}
            mover.api("POST", f"/api/matches/{g['match']}/moves", move)


def end_round(folks, games: list[dict]) -> None:
    """Every game of the round ended by its loser's resignation."""
    for g in games:
        loser = next(n for n in g["seats"] if n != winner(g["seats"]))
        folks[loser].api("POST", f"/api/matches/{g['match']}/resign", {})


def test_a_swiss_of_eight_signed_up_through_the_pages_is_played_to_the_end(browser, event_server):
    errors: list[str] = []
    folks = people(browser, event_server, NAMES, errors)
    try:
        ana = folks["ana"].open("/#/events")
        event_id = create_through_the_form(ana)
        sign_up(folks, event_id)
        ana = folks["ana"].open(f"/#/events/{event_id}")
        invite_and_start(ana)
        ben = folks["ben"].open("/#/my")
        rng = random.Random(44)
        seen: dict[int, list[tuple[str, str]]] = {}
        for number in (1, 2, 3):
            obj = round_paired(folks["ana"], event_id, number)
            games = obj["pairings"][number - 1]["games"]
            seen[number] = [(g["seats"][0], g["seats"][1]) for g in games]
            if number == 2:
                check_the_notice_and_my_games(ben, games)
            if number == 3:  # a few moves, the last board's game over first: the live boards show both
                play_a_little(folks, games, rng)
                check_the_match_page_links_the_event(folks["ben"], games, event_id)
                end_round(folks, games[-1:])
                ana.wait_for_selector(f'#live-boards .mini-board[data-match="{games[-1]["match"]}"] .mini-result')
                for g in games:
                    ana.wait_for_selector(f'#live-boards .mini-board[data-match="{g["match"]}"] svg')
                shot(ana, "events-running", full=True)
                games = games[:-1]
            end_round(folks, games)
        ana.wait_for_function("() => document.querySelector('#event-status')?.textContent === 'finished'")
        assert seen == PAIRINGS
        ana.wait_for_selector("#event-winner")
        assert table_rows(ana, "#standings") == STANDINGS
        assert table_rows(ana, "#crosstable") == CROSSTABLE
        assert the_rounds_shown(ana) == {n: [(a, "1–0" if winner([a, b]) == a else "0–1", b) for a, b in pairs]
                                         for n, pairs in PAIRINGS.items()}
        assert ana.inner_text("#event-winner") == f"Winner: {AI}"
        shot(ana, "events-finished", full=True)
        on_a_phone(browser, event_server, event_id, errors)
        profile = folks["ben"].open("/#/@/ben")
        item = profile.locator(f'#profile-events li[data-event="{event_id}"]')
        item.wait_for()
        assert item.inner_text() == f"{EVENT} {GAME} · Swiss · finished · round 3 / 3"
        assert not errors, errors
    finally:
        for p in folks.values():
            p.close()


def on_a_phone(browser, base: str, event_id: str, errors: list[str]) -> None:
    """The finished event on a phone (390x844): the standings in their sideways-scrolling box; a screenshot."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = watched_page(ctx, errors)
        page.goto(f"{base}/#/events/{event_id}")
        page.wait_for_selector("#standings")
        assert table_rows(page, "#standings") == STANDINGS
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        shot(page, "events-phone")
    finally:
        ctx.close()


def the_rounds_shown(page) -> dict[int, list[tuple[str, str, str]]]:
    """Each round's games as the page lists them: (first seat, result, second seat)."""
    rounds = page.eval_on_selector_all("#rounds table.pairings", "ts => ts.map(t => Number(t.dataset.round))")
    return {n: [(r[1], r[2], r[3]) for r in table_rows(page, f'#rounds table.pairings[data-round="{n}"]')]
            for n in rounds}


def check_the_notice_and_my_games(ben, games: list[dict]) -> None:
    """Round 2's game of ben: a notice under the header naming his opponent, and "my games" lists it with its
    event."""
    mine = next(g for g in games if "ben" in g["seats"])
    other = next(n for n in mine["seats"] if n != "ben")
    shown = "AI level 1" if other == AI else other
    ben.wait_for_selector(f'#notices .notice[data-match="{mine["match"]}"]')
    assert ben.inner_text(f'#notices .notice[data-match="{mine["match"]}"] a') == (
        f"Round 2 of {EVENT}: your game against {shown}")
    ben.wait_for_selector(f'#list-events li[data-match="{mine["match"]}"]')
    item = ben.locator(f'.match-item[data-match="{mine["match"]}"]')
    item.wait_for()
    assert item.locator(".event-line").inner_text() == f"{EVENT}, round 2"


def check_the_match_page_links_the_event(person, games: list[dict], event_id: str) -> None:
    mine = next(g for g in games if person.name in g["seats"])
    page = person.open(f"/#/match/{mine['match']}")
    link = page.locator("#event-line a")
    link.wait_for()
    assert link.inner_text() == f"{EVENT}, round 3"
    assert link.get_attribute("href") == f"#/events/{event_id}"
