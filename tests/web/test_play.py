"""Playing feels right (issue 31) in a real browser: the turn builder (steps staged, taken back, confirmed; the
server's ply unchanged until Confirm), the reason a click is refused, moves that lose at once marked, hover
previews, and a finished match reviewed with the AI (the win-rate graph, a scratch line tried from it).
Screenshots go to test-artifacts/web/."""

from __future__ import annotations

import pytest

import hexarena
from tests.web.helpers import shot, watched_page
from tests.web.helpers import board_state, call, click_cell, open_match, wait_ply, wait_ready

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture
def players(browser, server):
    """Two browsers (two contexts) of two people, each failing the test on a page error or a policy refusal."""
    ctxs = [browser.new_context(viewport={"width": 1100, "height": 800}) for _ in range(2)]
    errors: list[str] = []
    yield [watched_page(ctx, errors, 30_000) for ctx in ctxs]
    for ctx in ctxs:
        ctx.close()
    assert not errors, errors


def seat_both(pages, base, game: str, options: dict) -> str:
    """An online match: the first page created it (the first seat), the second joined; its id."""
    first, second = pages
    mid = open_match(first, base, game, options, ["me", "open"])
    joined = call(base, "POST", f"/api/matches/{mid}/join", {})
    second.goto(base + "/")
    keep = "([id, t, s]) => localStorage.setItem('hexarena.seat.' + id, JSON.stringify({token: t, seats: [s]}))"
    second.evaluate(keep, [mid, joined["token"], joined["seat"]])
    second.goto(f"{base}/#/match/{mid}")
    second.wait_for_selector("#board svg")
    return mid


def ply_of(base, mid: str) -> int:
    return call(base, "GET", f"/api/matches/{mid}")["ply"]


def staged(pg) -> int:
    return int(board_state(pg)["staged"])


def stage(pg, cell: str, choice: str | None = None) -> None:
    """Click a target (and the chooser's choice); wait until the step is staged."""
    before = staged(pg)
    click_cell(pg, cell)
    if choice:
        pg.click(f'.chooser .choice[data-move="{choice}"]')
    pg.wait_for_function("n => document.querySelector('#board').dataset.staged === String(n)", arg=before + 1)


def staged_moves(pg) -> list[str]:
    return pg.eval_on_selector_all("#staged-steps li", "ls => ls.map(l => l.dataset.move)")


def targets(pg) -> list[str]:
    return pg.eval_on_selector_all("#board polygon.cell.target", "ps => ps.map(p => p.dataset.cell)")


def confirm(pages, ply: int) -> None:
    """The mover confirms; every page shows the match at ``ply``."""
    pages[0].click("#confirm:enabled")
    for pg in pages:
        pg.wait_for_function("p => document.querySelector('#board').dataset.ply === String(p)", arg=ply)


def refusal(game: str, options: dict, moves: list[str], kind: str) -> tuple[str, str]:
    """A cell refused after ``moves`` whose reason says ``kind``, and that reason (the library's)."""
    state = hexarena.load(game, **options).new_state()
    for mv in moves:
        state.play(mv)
    for cell in state.game.topology.names:
        try:
            state.copy().play(cell)
        except ValueError as e:
            if kind in str(e):
                return cell, str(e)
    raise AssertionError(f"no cell refused with {kind!r}")


def test_online_lisbon_turn_staged_taken_back_and_confirmed(players, server):
    a, b = players
    options = {"size": [4, 3]}
    mid = seat_both(players, server, "lisbon", options)
    assert a.locator("#builder-setting").count() == 0  # online the builder is always on
    first = targets(a)[0]
    stage(a, first)  # turn 1: one stone, confirmed too (a misclick never reaches the server)
    assert staged_moves(a) == [first] and ply_of(server, mid) == 0
    confirm([a, b], 1)
    wait_ready(b)
    x = targets(b)[0]
    stage(b, x)
    assert b.locator("#confirm").is_disabled()  # the turn has two stones
    cell, why = refusal("lisbon", options, [first, x], "would join")
    b.locator(f'#board polygon.cell[data-cell="{cell}"]').click()
    b.wait_for_function("t => document.querySelector('#reason').textContent === t", arg=why)
    y = targets(b)[0]  # a target after x (the cells next to it are not)
    stage(b, y)
    assert b.locator("#confirm").is_enabled() and ply_of(server, mid) == 1
    shot(b, "play-lisbon-staged")
    b.click(f'#staged-steps button[aria-label="take back {x}"]')  # any step, not only the last
    b.wait_for_function("() => document.querySelector('#board').dataset.staged === '1'")
    assert staged_moves(b) == [y] and b.locator("#confirm").is_disabled()
    z = next(c for c in targets(b) if c != x)
    stage(b, z)
    assert ply_of(server, mid) == 1
    confirm([b, a], 3)
    assert call(server, "GET", f"/api/matches/{mid}")["moves"] == [first, y, z]
    assert a.locator("#board").get_attribute("data-staged") == "0"


def test_online_palago_turn_of_two_tiles(players, server):
    a, b = players
    mid = seat_both(players, server, "palago", {"tiles": 8})
    cell = targets(a)[0]
    stage(a, cell, f"{cell}:0")
    confirm([a, b], 1)
    wait_ready(b)
    played = []
    while b.locator("#confirm:enabled").count() == 0:
        cell = targets(b)[0]
        stage(b, cell, f"{cell}:1")
        played.append(f"{cell}:1")
        assert ply_of(server, mid) == 1
    assert len(played) == 2  # the second turn has two tiles
    shot(b, "play-palago-staged")
    confirm([b, a], 3)
    assert call(server, "GET", f"/api/matches/{mid}")["moves"][1:] == played


def test_push_and_pull_turn_built_in_hot_seat_by_the_setting(page, server):
    mid = open_match(page, server, "push-and-pull", {"size": 5}, ["me", "me"])
    assert page.locator("#staged").count() == 0  # hot-seat: immediate moves by default
    page.check("#builder-setting")
    page.wait_for_selector("#staged")
    steps = 0
    while page.locator("#confirm:enabled").count() == 0:
        before = page.locator("#board svg").inner_html()
        stage(page, targets(page)[0])
        steps += 1
        assert page.locator("#board svg").inner_html() != before  # the staged step drawn
        assert ply_of(server, mid) == 0
    assert steps == 3  # a placement and both markers' steps
    page.click("#staged-steps li:last-child button.remove")  # the last step taken back
    page.wait_for_function("() => document.querySelector('#board').dataset.staged === '2'")
    stage(page, targets(page)[-1])
    shot(page, "play-push-and-pull-staged")
    page.click("#confirm")
    wait_ply(page, "0")
    obj = call(server, "GET", f"/api/matches/{mid}")
    assert obj["ply"] == 3 and obj["to_move"] == 1
    page.uncheck("#builder-setting")
    page.wait_for_selector("#staged", state="detached")


def test_weituweiqi_edge_drops_marked_and_previews_on_hover(page, server):
    state = hexarena.load("weituweiqi", size=3).new_state()
    state.play("d2")  # the auction: now some drops lose at once
    losing = {"h2", "g3", "b4", "d4"}
    mid = open_match(page, server, "weituweiqi", {}, ["me", "me"], record=state.record())
    marked = page.eval_on_selector_all("#board polygon.target.loses", "ps => ps.map(p => p.dataset.cell)")
    assert set(marked) == losing
    assert page.locator('#board polygon.loses[data-cell="h2"] title').text_content() == "h2 loses at once"
    safe = next(c for c in targets(page) if c not in losing)
    page.hover(f'#board polygon.target[data-cell="{safe}"]')
    page.wait_for_selector("#peek:not([hidden]) svg")
    assert page.locator("#peek").get_attribute("data-move") == safe
    shot(page, "play-weituweiqi-loses-and-peek")
    asked: list[str] = []

    def answer(dialog, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda d: answer(d, False))
    click_cell(page, "h2")
    page.wait_for_timeout(500)
    assert asked == ["h2 loses the game at once. Play it anyway?"] and ply_of(server, mid) == 1
    page.once("dialog", lambda d: answer(d, True))
    click_cell(page, "h2")
    page.wait_for_selector("#result")
    assert call(server, "GET", f"/api/matches/{mid}")["over"]


def test_review_graph_and_a_scratch_line(page, server):
    state = hexarena.load("projective-hex", size=2, opening="none").new_state()
    while not state.is_over():
        state.play(state.legal_moves()[-1])
    mid = open_match(page, server, "projective-hex", {}, ["me", "me"], record=state.record())
    before = call(server, "GET", f"/api/matches/{mid}")
    page.click("#review-btn")
    page.wait_for_selector("#rate-graph", timeout=180_000)
    assert page.locator("#review-progress").count() == 0
    plies = call(server, "GET", f"/api/matches/{mid}/analysis")["plies"]
    assert page.locator("#rate-graph circle.flag").count() == sum(p["flagged"] for p in plies)
    assert page.locator("#moves .mv.flagged").count() == sum(p["flagged"] for p in plies)  # one atomic move each
    box = page.locator("#rate-graph").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.06 + 2, box["y"] + box["height"] / 2)  # near the start
    page.wait_for_function("() => !['live', ''].includes(document.querySelector('#board').dataset.view)")
    view = int(board_state(page)["view"])
    assert 0 <= view < before["ply"]
    shot(page, "play-review")
    shot(page, "play-review-graph", "#review-graph")
    page.click("#try-line")
    page.wait_for_function("() => document.querySelector('#board').dataset.view === 'scratch'")
    drawn = page.locator("#board svg").inner_html()
    cell = targets(page)[0]
    click_cell(page, cell)
    page.wait_for_function("c => document.querySelector('#scratch-line').textContent === c", arg=cell)
    assert page.locator("#board svg").inner_html() != drawn
    page.click("#scratch-hint")
    page.wait_for_selector("#hint", timeout=60_000)
    shot(page, "play-scratch-line")
    assert call(server, "GET", f"/api/matches/{mid}") == before  # the match untouched
    page.click("#scratch-exit")
    page.wait_for_function("v => document.querySelector('#board').dataset.view === String(v)", arg=view)


SLOW_MOVES = """(() => { const f = window.fetch;
  window.fetch = async (...a) => { const r = await f(...a);
    if (String(a[0]).endsWith('/moves')) await new Promise((done) => setTimeout(done, 1500));
    return r; }; })()"""


def test_no_click_is_dropped_while_a_move_is_in_flight(page, server):
    """The live socket shows a move before its POST answers: the board takes no click until the answer (a click
    meanwhile was dropped in silence, and a quick player's next move was lost), then the next move plays."""
    page.add_init_script(SLOW_MOVES)
    open_match(page, server, "projective-hex", {"size": 3}, ["me", "me"])
    st = wait_ready(page)
    click_cell(page, page.eval_on_selector("#board polygon.target", "p => p.dataset.cell"))
    st = wait_ply(page, st["ply"])  # from the socket, while the POST's answer is held back
    assert st["active"] is False, "the board took clicks while the move was in flight"
    st = wait_ready(page)
    click_cell(page, page.eval_on_selector("#board polygon.target", "p => p.dataset.cell"))
    assert wait_ply(page, st["ply"])["ply"] == "2"
