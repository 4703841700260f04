"""The web client on a phone and beyond (issue: phone): big boards zoom (buttons, a pinch) with taps and keys still
playing; choosers and hover previews kept off the board; sounds by the setting; the AI's thinking line; every
cell (Palago's tiles too) reached by the arrows; a built turn titled with its own player.

Screenshots go to test-artifacts/web/, and the ones to look at on a phone also to /tmp/phone-shots/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import hexarena
from tests.web.helpers import iqishiqi_with_a_choice, shot, watched_page
from tests.web.helpers import board_state, open_match, wait_ply, wait_ready

sync_api = pytest.importorskip("playwright.sync_api")
PHONE_SHOTS = Path("/tmp/phone-shots")


def phone_shot(pg, name: str, selector: str | None = None) -> None:
    """A screenshot kept with the others and in /tmp/phone-shots/."""
    shot(pg, name, selector)
    PHONE_SHOTS.mkdir(parents=True, exist_ok=True)
    (pg.locator(selector) if selector else pg).screenshot(path=str(PHONE_SHOTS / f"{name}.png"))


@pytest.fixture
def phone(browser, server):
    """A phone: 390x844, two device pixels a CSS pixel, touch; the test fails on a page error."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, has_touch=True,
                              is_mobile=True)
    errors: list[str] = []
    yield watched_page(ctx, errors)
    ctx.close()
    assert not errors, errors


def settled(pg, first: str) -> None:
    """Wait until the match page has its live socket and the game's player names (``first``: the first seat's
    words), so that no redraw comes between two taps."""
    pg.wait_for_function("w => { const p = document.querySelector('#panel'); return p && !p.textContent.includes("
                         "'reconnecting') && p.querySelector('.seat0')?.textContent.includes(w); }", arg=first)


def box(pg, selector: str) -> dict:
    return pg.locator(selector).first.bounding_box()


def overlaps(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def cell_size(pg, cell: str) -> tuple[float, float]:
    b = box(pg, f'#board polygon.cell[data-cell="{cell}"]')
    return b["width"], b["height"]


def visible_targets(pg) -> list[str]:
    """The target cells wholly inside the board's box (as it is scrolled)."""
    return pg.evaluate("""() => { const b = document.querySelector('#board').getBoundingClientRect();
        return [...document.querySelectorAll('#board polygon.cell.target')].filter((p) => {
          const r = p.getBoundingClientRect();
          return r.left >= b.left && r.right <= b.right && r.top >= b.top && r.bottom <= b.bottom
            && r.bottom <= innerHeight; }).map((p) => p.dataset.cell); }""")


def pinch(pg, cdp, spread_from: float, spread_to: float) -> None:
    """Two fingers on the board's middle, moved apart (or together) horizontally: real touches (CDP)."""
    b = box(pg, "#board")
    top, bottom = max(b["y"], 0), min(b["y"] + b["height"], pg.viewport_size["height"])  # its part on the screen
    x, y = b["x"] + b["width"] / 2, (top + bottom) / 2

    def touch(kind: str, spread: float) -> None:
        fingers = [{"x": x - spread / 2, "y": y, "id": 0}, {"x": x + spread / 2, "y": y, "id": 1}]
        points = [] if kind == "touchEnd" else fingers
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", spread_from)
    for k in range(1, 9):
        touch("touchMove", spread_from + (spread_to - spread_from) * k / 8)
    touch("touchEnd", spread_to)


def test_a_big_board_zooms_on_a_phone_and_taps_and_keys_still_play(phone, server):
    open_match(phone, server, "lisbon", {}, ["me", "me"])  # 192 cells
    settled(phone, "black")
    assert phone.locator("#board polygon.cell").count() == 192
    zoom_in, zoom_out, fit = (phone.locator(f'.zoom-controls button[aria-label="{name}"]')
                              for name in ("Zoom in", "Zoom out", "Fit"))
    assert zoom_in.is_visible() and zoom_out.is_visible() and fit.is_visible()
    assert min(cell_size(phone, "f5")) < 32  # at fit, too small for a fingertip
    zoom_in.tap()
    phone.wait_for_function("() => Number(document.querySelector('#board').dataset.zoom) > 1")
    width, height = cell_size(phone, "f5")
    assert width >= 32 and height >= 32, (width, height)
    assert box(phone, "#board")["width"] <= 390  # the board's box pans; the page does not widen
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    cell = visible_targets(phone)[len(visible_targets(phone)) // 2]
    target = phone.locator(f'#board polygon.cell[data-cell="{cell}"]')
    target.tap()  # a first tap previews the move (under the board on a phone)...
    phone.wait_for_selector("#peek:not([hidden]) svg")
    assert phone.locator("#peek").get_attribute("data-move") == cell
    assert not overlaps(box(phone, "#peek"), box(phone, "#board"))
    phone_shot(phone, "lisbon-phone-zoomed")
    target.tap()  # ...a second plays it
    wait_ply(phone, "0")
    assert phone.locator(f'#board polygon.cell[data-cell="{cell}"]').get_attribute("data-content") == "black stone"
    width, height = cell_size(phone, cell)
    assert width >= 32 and height >= 32  # the zoom kept across the redraw
    # the keys at this zoom: the focused cell scrolled into view, Enter plays it
    phone.locator("#board polygon.cell").first.focus()
    phone.keyboard.press("End")
    last = phone.evaluate("() => document.activeElement.dataset.cell")
    b, c = box(phone, "#board"), box(phone, f'#board polygon.cell[data-cell="{last}"]')
    assert b["x"] - 1 <= c["x"] and c["x"] + c["width"] <= b["x"] + b["width"] + 1
    assert b["y"] - 1 <= c["y"] and c["y"] + c["height"] <= b["y"] + b["height"] + 1
    phone.keyboard.press("Enter")
    wait_ply(phone, "1")
    assert phone.locator(f'#board polygon.cell[data-cell="{last}"]').get_attribute("data-content") == "white stone"
    # a pinch zooms the board, not the page; Fit goes back
    cdp = phone.context.new_cdp_session(phone)
    before = float(board_state(phone)["zoom"])
    pinch(phone, cdp, 60, 200)
    after = float(board_state(phone)["zoom"])
    assert after > before * 1.3 and phone.evaluate("visualViewport.scale") == 1, (before, after)
    pinch(phone, cdp, 240, 60)
    assert float(board_state(phone)["zoom"]) < after
    fit.tap()
    phone.wait_for_function("() => document.querySelector('#board').dataset.zoom === '1.00'")
    assert min(cell_size(phone, "f5")) < 32
    assert zoom_out.get_attribute("aria-disabled") == "true"


def test_a_small_board_has_no_zoom(page, server):
    open_match(page, server, "hex-pushpin", {}, ["me", "me"])  # 37 cells
    assert page.locator(".zoom-controls").count() == 0
    assert "zoomable" not in page.locator("#board").get_attribute("class")


def test_choosers_and_previews_stay_off_the_board_on_a_phone(phone, server):
    open_match(phone, server, "palago", {"tiles": 8}, ["me", "me"])
    settled(phone, "light")
    cell = phone.eval_on_selector("#board polygon.cell.target", "p => p.dataset.cell")
    phone.locator(f'#board polygon.cell[data-cell="{cell}"]').tap()
    phone.wait_for_selector(".chooser .choice")
    assert not overlaps(box(phone, ".chooser"), box(phone, "#board svg"))
    assert phone.evaluate("() => document.activeElement.matches('.chooser .choice')")
    phone_shot(phone, "palago-chooser-phone")
    choice = phone.locator(f'.chooser .choice[data-move="{cell}:1"]')
    choice.tap()  # a first tap previews the orientation (under the board), a second plays it
    phone.wait_for_selector("#peek:not([hidden]) svg")
    assert phone.locator("#peek").get_attribute("data-move") == f"{cell}:1"
    assert not overlaps(box(phone, "#peek"), box(phone, "#board svg"))
    choice.tap()
    wait_ply(phone, "0")
    assert phone.locator(".chooser").count() == 0
    # a zoomable board's chooser (several ball directions from one cell) goes under its box too
    record, cell, moves = iqishiqi_with_a_choice(size=8)  # 169 cells
    open_match(phone, server, "iqishiqi", {}, ["me", "me"], record=record)
    assert phone.locator(".zoom-controls").count() == 1
    settled(phone, "North")
    phone.locator(f'#board polygon.cell[data-cell="{cell}"]').tap()
    phone.wait_for_selector(".chooser .choice")
    assert phone.eval_on_selector_all(".chooser .choice", "bs => bs.map(b => b.dataset.move)") == moves
    assert not overlaps(box(phone, ".chooser"), box(phone, "#board"))


def test_the_preview_leaves_the_board_title_free(page, server):
    open_match(page, server, "lhexus", {}, ["me", "me"])  # a long title
    cell = page.eval_on_selector_all("#board polygon.cell.target", "ps => ps.map(p => p.dataset.cell)")[5]
    page.hover(f'#board polygon.cell[data-cell="{cell}"]')
    page.wait_for_selector("#peek:not([hidden]) svg")
    title = box(page, "#board svg > text")
    assert title["width"] > 300 and not overlaps(box(page, "#peek"), title)
    assert not overlaps(box(page, "#peek"), box(page, ".zoom-controls"))
    shot(page, "peek-under-the-title")


def sounds(pg) -> dict:
    return pg.evaluate("({...window.hexarenaSounds})")


def test_sounds_only_when_the_setting_is_on(page, server):
    options = {"size": 2, "opening": "none"}
    open_match(page, server, "projective-hex", options, ["me", "me"])
    assert not page.locator("#sound-setting").is_checked()  # off by default
    before = sounds(page)
    st = board_state(page)
    page.locator("#board polygon.cell.target").first.click()
    wait_ply(page, st["ply"])
    assert sounds(page) == before  # off: none
    page.check("#sound-setting")
    assert page.evaluate("localStorage.getItem('hexarena.sounds')") == "on"
    st = wait_ready(page)
    page.locator("#board polygon.cell.target").first.click()
    wait_ply(page, st["ply"])
    assert sounds(page)["move"] == before["move"] + 1 and sounds(page)["turn"] == before["turn"]  # (hot-seat: no wait)
    # against the AI: my move, its move, then my turn
    open_match(page, server, "projective-hex", options, ["me", "ai:1"])
    assert page.locator("#sound-setting").is_checked()  # kept
    before = sounds(page)
    page.locator("#board polygon.cell.target").first.click()
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '2'")
    wait_ready(page)
    heard = sounds(page)
    assert heard["move"] in (before["move"] + 1, before["move"] + 2) and heard["turn"] == before["turn"] + 1
    page.uncheck("#sound-setting")
    st = wait_ready(page)
    page.locator("#board polygon.cell.target").first.click()
    wait_ply(page, st["ply"])
    wait_ready(page)
    assert sounds(page) == heard


def test_the_thinking_line_counts_seconds_and_steps(page, server):
    open_match(page, server, "lisbon", {}, ["me", "ai:10"])  # its turns: at most 7 s, 2 stones after the first
    page.evaluate("""() => { window.thought = []; const panel = document.querySelector('#panel');
        new MutationObserver(() => { const el = document.querySelector('#thinking'), t = el?.textContent;
          const live = '[aria-live], [role="status"], [role="timer"], [role="log"], [role="alert"]';
          if (el?.closest(live)) window.thinkingAnnounced = true;
          if (t && t !== window.thought[window.thought.length - 1]) window.thought.push(t); })
          .observe(panel, {subtree: true, childList: true, characterData: true});
        const news = document.querySelector('#news'); window.said = [];
        new MutationObserver(() => window.said.push(news.textContent))
          .observe(news, {subtree: true, childList: true, characterData: true}); }""")
    page.locator("#board polygon.cell.target").first.click()
    page.wait_for_function("() => document.querySelector('#thinking')?.textContent"
                           ".includes('· 1 step of this turn played')")
    phone_shot(page, "thinking-line", "#panel")
    wait_ready(page)
    assert board_state(page)["ply"] == "3"
    thought = page.evaluate("window.thought")
    line = re.compile(r"^AI level 10 is thinking… (\d+) s \(at most 7 s\)( · 1 step of this turn played)?$")
    assert all(line.match(t) for t in thought), thought
    assert line.match(thought[0]).group(2) is None  # the steps said only once there are some
    seconds = [int(line.match(t).group(1)) for t in thought]
    # counted on across the turn's steps, never back to 0 (how far depends on the AI's speed: the next test
    # ticks the seconds on a clock of its own)
    assert seconds == sorted(seconds), thought
    assert "".join(page.evaluate("window.said")).count("AI level 10 is thinking.") == 1  # announced once
    assert page.evaluate("window.thinkingAnnounced") is None  # and not every second
    assert page.locator("#thinking").count() == 0


def test_the_thinking_seconds_tick_and_restart_with_the_next_ai_turn(page, server):
    """The counter on a clock of the test's own: a second at a time, across the steps of a turn, from 0 again at
    the next turn (whatever the AI's speed)."""
    page.clock.install()
    page.goto(server + "/")
    page.wait_for_selector(".gametabs .tab")
    page.wait_for_load_state("networkidle")  # the lobby's answers in: a late one would reset the server time's offset
    line = """async (m) => { const t = await import('/static/thinking.js');
        const old = document.querySelector('#thinking'); const el = t.thinkingLine(m);
        old ? old.replaceWith(el) : document.body.append(el); return [el.textContent, t.said(m)]; }"""
    turn = {"id": "x", "thinking": True, "seats": ["me", "ai:10"], "to_move": 1, "turn": 4, "step": 0,
            "thinking_seconds": 7, "updated": None,
            "seat_info": [{"kind": "human", "level": None, "name": None}, {"kind": "ai", "level": 10, "name": "ai-10"}]}
    assert page.evaluate(line, turn) == ["AI level 10 is thinking… 0 s (at most 7 s)", "AI level 10 is thinking."]
    for k in (1, 2, 3):
        page.clock.run_for(1000)
        page.evaluate("() => import('/static/thinking.js').then((t) => t.tick(document.body))")
        assert page.locator("#thinking-seconds").inner_text() == f"{k} s"
    assert page.evaluate(line, {**turn, "step": 2}) == [
        "AI level 10 is thinking… 3 s (at most 7 s) · 2 steps of this turn played", ""]  # the same turn: said once
    page.clock.run_for(1000)
    assert page.evaluate(line, {**turn, "turn": 6, "thinking_seconds": 1.5}) == [
        "AI level 10 is thinking… 0 s (at most 1.5 s)", "AI level 10 is thinking."]


def test_every_palago_tile_is_reached_by_the_arrows(page, server):
    state = hexarena.load("palago", tiles=12).new_state()
    for k in range(7):
        moves = state.legal_moves()
        state.play(moves[(5 * k) % len(moves)])
    open_match(page, server, "palago", {"tiles": 12}, ["me", "me"], record=state.record())
    cells = page.eval_on_selector_all("#board polygon.cell", "ps => ps.map(p => [p.dataset.cell, p.dataset.content])")
    tiles = {c for c, content in cells if content.startswith("tile")}
    assert len(tiles) == 8  # the first tile, and 7 placed
    name = page.get_attribute(f'#board polygon.cell[data-cell="{sorted(tiles)[0]}"]', "aria-label")
    assert re.match(r"^-?\d+,-?\d+, tile [0-2], legal: no$", name), name
    # every cell's arrows, followed from the first: all cells reached
    steps = page.evaluate("""() => { const out = {};
        for (const p of document.querySelectorAll('#board polygon.cell')) {
          out[p.dataset.cell] = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].map((key) => {
            p.focus();
            p.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true}));
            return document.activeElement.dataset.cell; });
        } return out; }""")
    reached, todo = set(), [cells[0][0]]
    while todo:
        c = todo.pop()
        if c not in reached:
            reached.add(c)
            todo += steps[c]
    assert reached == {c for c, _ in cells}, {c for c, _ in cells} - reached
    page.locator(f'#board polygon.cell[data-cell="{sorted(tiles)[0]}"]').focus()
    page.keyboard.press("ArrowRight")  # and by the real keys
    assert page.evaluate("() => document.activeElement.dataset.cell") == steps[sorted(tiles)[0]][1]


def test_a_built_turn_is_titled_with_its_own_player(page, server):
    open_match(page, server, "lisbon", {"size": [4, 3]}, ["me", "me"])
    page.check("#builder-setting")
    page.wait_for_selector("#staged")
    cell = page.eval_on_selector("#board polygon.cell.target", "p => p.dataset.cell")
    page.locator(f'#board polygon.cell[data-cell="{cell}"]').click()  # turn 1: one stone, the turn complete
    page.wait_for_function("() => document.querySelector('#board').dataset.staged === '1'")
    page.wait_for_selector("#confirm:enabled")
    title = page.locator("#board svg > text").first.text_content()
    status = page.locator("#status").inner_text()
    assert title.startswith("black (first) to move") and "white" not in title, title
    assert status.startswith("Black (first) to move") and "Confirm" in status, status
    shot(page, "built-turn-title")
    page.click("#confirm")
    wait_ply(page, "0")
    assert page.locator("#board svg > text").first.text_content().startswith("white to move")
