"""Accessibility in a real browser: axe finds no serious or critical violation on the pages, and a whole game is
played from the lobby with the keyboard alone (the board one tab stop, arrows between cells, Enter plays)."""

from __future__ import annotations

import random

import pytest

import hexarena
from tests.web.helpers import iqishiqi_with_a_choice, shot
from tests.web.helpers import board_state, call, open_match, wait_ply, wait_ready

axe_api = pytest.importorskip("axe_playwright_python.sync_playwright")
GAME, OPTIONS = "projective-hex", {"size": 2, "opening": "none"}


def violations(pg) -> list[str]:
    """axe's serious and critical violations on the page, one line each: rule, impact, help, where."""
    found = axe_api.Axe().run(pg).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
            for v in found if v["impact"] in ("serious", "critical")]


def finished_record() -> dict:
    state = hexarena.load(GAME, **OPTIONS).new_state()
    rng = random.Random(3)
    while not state.is_over():
        state.play(rng.choice(state.legal_moves()))
    return state.record()


def axe_on_every_page(pg, server, shoot=None) -> dict[str, list[str]]:
    """axe's serious findings on the lobby, a match, a replay, a lesson and the reports page; shoot(name) after
    each (a screenshot, say)."""
    found = {}
    pg.goto(server + "/")
    pg.wait_for_selector(".gametabs .tab")
    found["lobby"] = violations(pg)
    open_match(pg, server, GAME, OPTIONS, ["me", "me"])
    found["match"] = violations(pg)
    if shoot:
        shoot("match")
    open_match(pg, server, GAME, OPTIONS, ["me", "me"], record=finished_record())
    pg.locator("#moves .mv").first.click()
    pg.wait_for_function("() => document.querySelector('#board').dataset.view === '1'")
    found["replay"] = violations(pg)
    pg.goto(f"{server}/#/learn/{GAME}")
    pg.wait_for_selector(".learn svg")
    found["lesson"] = violations(pg)
    pg.goto(server + "/reports")
    found["reports"] = violations(pg)
    return found


def test_axe_finds_nothing_serious(page, server):
    found = axe_on_every_page(page, server)
    assert not any(found.values()), found


def test_axe_finds_nothing_serious_in_the_dark(browser, server):
    """The dark theme (the system's preference): the page's colours switch, the boards keep theirs, and the
    contrast still passes."""
    from tests.web.test_phone import phone_shot

    ctx = browser.new_context(viewport={"width": 1100, "height": 800}, color_scheme="dark")
    try:
        pg = ctx.new_page()
        pg.goto(server + "/")
        pg.wait_for_selector(".gametabs .tab")
        background = "() => getComputedStyle(document.documentElement).backgroundColor"
        assert pg.evaluate(background) == "rgb(22, 24, 27)"
        phone_shot(pg, "dark-lobby")
        found = axe_on_every_page(pg, server, lambda name: phone_shot(pg, f"dark-{name}"))
        assert pg.evaluate("() => getComputedStyle(document.body).backgroundColor") == "rgb(22, 24, 27)"  # reports
        assert not any(found.values()), found
    finally:
        ctx.close()


def focused(pg, selector: str) -> bool:
    return pg.evaluate("s => !!document.activeElement?.matches(s)", selector)


def tab_to(pg, selector: str, limit: int = 300) -> None:
    """Press Tab until the focus is on ``selector``."""
    for _ in range(limit):
        if focused(pg, selector):
            return
        pg.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def cell_focused(pg) -> str | None:
    return pg.evaluate("() => document.activeElement?.closest?.('#board polygon.cell')?.dataset.cell ?? null")


def key_to_target(pg) -> None:
    """From the focused cell, arrow keys in a snake (along a row, down, back) until a target cell has the focus."""
    pg.keyboard.press("Home")
    along = "ArrowRight"
    for _ in range(500):
        if focused(pg, "#board polygon.cell.target"):
            return
        here = cell_focused(pg)
        pg.keyboard.press(along)
        if cell_focused(pg) == here:
            pg.keyboard.press("ArrowDown")
            assert cell_focused(pg) != here, f"the arrows found no target from {here}"
            along = "ArrowLeft" if along == "ArrowRight" else "ArrowRight"
    raise AssertionError("no target reached")


def test_a_game_played_by_keyboard_alone(page, server):
    page.on("dialog", lambda d: d.accept())  # a move that loses at once asks first
    page.goto(server + "/")
    page.wait_for_selector(".gametabs .tab")
    tab_to(page, f'.tab[data-game="{GAME}"]')
    page.keyboard.press("Enter")
    tab_to(page, "#opt-size")
    page.keyboard.press("Control+A")
    page.keyboard.type(str(OPTIONS["size"]))
    tab_to(page, "#opt-opening")
    page.keyboard.type(OPTIONS["opening"])
    tab_to(page, 'input[name="new-mode"]:checked')
    page.keyboard.press("ArrowDown")  # hot-seat
    assert focused(page, 'input[value="hotseat"]:checked')
    tab_to(page, "#create")
    page.keyboard.press("Enter")
    st = wait_ready(page)
    tab_to(page, "#board polygon.cell")
    assert page.locator('#board polygon.cell[tabindex="0"]').count() == 1  # one tab stop
    name = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert name.startswith(f"{cell_focused(page)}, empty, legal: ")
    shot(page, "keyboard-focus", "#board")
    while st["over"] != "true":
        key_to_target(page)
        page.keyboard.press("Enter")
        st = wait_ply(page, st["ply"])
        st = wait_ready(page)
        assert cell_focused(page), "the focus left the board"
        assert "Played" in page.locator("#news").inner_text()
    assert page.locator("#result").is_visible()
    shot(page, "keyboard-end", "#board")


def test_the_replay_keys_wait_while_the_board_has_the_focus(page, server):
    open_match(page, server, GAME, OPTIONS, ["me", "me"], record=finished_record())
    page.locator("#moves .mv").first.click()
    page.wait_for_function("() => document.querySelector('#board').dataset.view === '1'")
    tab_to(page, "#board polygon.cell")
    before = cell_focused(page)
    page.keyboard.press("ArrowRight")
    assert cell_focused(page) != before and board_state(page)["view"] == "1"
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('#board').dataset.view === '2'")


def test_the_share_link_is_copied(page, server, context):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_match(page, server, GAME, OPTIONS, ["me", "open"])
    page.click("#copy-share")
    page.wait_for_function("() => document.querySelector('#copied').textContent === 'Copied'")
    assert page.evaluate("navigator.clipboard.readText()") == page.input_value("#share")
    shot(page, "share-copied")


def test_the_chooser_by_keyboard_gives_the_focus_back(page, server):
    page.on("dialog", lambda d: d.accept())  # a move that loses at once asks first
    record, cell, moves = iqishiqi_with_a_choice()
    mid = open_match(page, server, "iqishiqi", {}, ["me", "me"], record=record)
    st = board_state(page)
    page.locator(f'#board polygon.cell[data-cell="{cell}"]').focus()
    assert "legal: choose" in page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Enter")
    assert focused(page, ".chooser .choice")
    page.keyboard.press("Escape")
    assert page.locator(".chooser").count() == 0 and cell_focused(page) == cell
    page.keyboard.press(" ")
    page.keyboard.press("ArrowLeft")  # from the first button round to the last: Cancel
    assert focused(page, ".chooser .cancel") and board_state(page)["view"] == "live"
    page.keyboard.press("ArrowLeft")
    assert focused(page, f'.chooser .choice[data-move="{moves[-1]}"]')
    chat_from_elsewhere(page, server, mid, "a line that redraws the page")
    assert focused(page, f'.chooser .choice[data-move="{moves[-1]}"]')  # the redraw kept the chooser and its focus
    page.keyboard.press("Enter")
    wait_ply(page, st["ply"])
    assert cell_focused(page) == cell


def chat_from_elsewhere(page, server, mid: str, text: str) -> None:
    """A chat line sent through the API with the page's seat; returns when the page shows it (and has redrawn)."""
    token = page.evaluate("id => JSON.parse(localStorage.getItem('hexarena.seat.' + id)).token", mid)
    assert "chat" in call(server, "POST", f"/api/matches/{mid}/chat", {"text": text, "token": token})
    page.wait_for_function("t => document.querySelector('#chat-lines')?.textContent.includes(t)", arg=text)


def test_the_share_link_is_selected_where_the_clipboard_is_refused(page, server):
    open_match(page, server, GAME, OPTIONS, ["me", "open"])
    page.evaluate("() => { navigator.clipboard.writeText = () => Promise.reject(new Error('refused')); }")
    page.click("#copy-share")
    page.wait_for_function("() => document.querySelector('#copied').textContent.startsWith('Selected')")
    assert focused(page, "#share")
    assert page.evaluate("() => { const f = document.activeElement; return f.selectionEnd - f.selectionStart; }") \
        == len(page.input_value("#share"))


def test_the_arrows_reach_the_next_row_from_every_cell(page, server):
    """On a hexhex board: Down from every cell but the bottom row's goes a row down (Up: up), Left and Right stay
    in the row; Up undoes Down where the cell below on the left exists."""
    open_match(page, server, "hex-pushpin", {}, ["me", "me"])
    rows = dict(page.eval_on_selector_all("#board polygon.cell", "ps => ps.map(p => [p.dataset.cell, "
                                          "Math.round(p.getBBox().y)])"))
    top, bottom = min(rows.values()), max(rows.values())
    for cell, y in rows.items():
        for key, edge, sign in (("ArrowDown", bottom, 1), ("ArrowUp", top, -1)):
            page.locator(f'#board polygon.cell[data-cell="{cell}"]').focus()
            page.keyboard.press(key)
            to = cell_focused(page)
            assert (to == cell) == (y == edge) and (to == cell or (rows[to] - y) * sign > 0), (cell, key, to)
        page.keyboard.press("ArrowRight")
        assert rows[cell_focused(page)] == rows[to]
    page.locator("#board polygon.cell").nth(5).focus()
    start = cell_focused(page)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    assert cell_focused(page) == start
