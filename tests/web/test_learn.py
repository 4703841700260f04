"""The learn pages in a real browser: every game's lessons completed by clicking their answers, samples stepped."""

from __future__ import annotations

import pytest

import hexarena
from hexarena.learn import course, position
from hexarena.server.view import targets

from tests.web.helpers import shot
from tests.web.helpers import click_cell

sync_api = pytest.importorskip("playwright.sync_api")


def click_answer(pg, state, move: str) -> None:
    """Play ``move`` as a player would: its cell (and the chooser's button where the cell has several moves), or
    its word button."""
    cells = {t["move"]: t["cell"] for t in targets(state)[0]}
    if cells[move] is None:
        pg.click(f'.words button[data-move="{move}"]')
        return
    click_cell(pg, cells[move])
    if sum(c == cells[move] for c in cells.values()) > 1:
        pg.click(f'.chooser button[data-move="{move}"]')


@pytest.mark.parametrize("game", hexarena.GAMES)
def test_every_lesson_is_completed_by_clicking_its_answer(page, server, game):
    page.goto(f"{server}/#/learn/{game}")
    for i, lesson in enumerate(course(game).lessons):
        page.wait_for_selector(f'#board[data-lesson="{lesson.id}"] svg')
        if lesson.kind == "yesno":
            page.click(f'.words button[data-move="{lesson.answer[0]}"]')
        else:
            state = position(lesson)
            for k, move in enumerate(lesson.answer):
                if k:
                    page.wait_for_function("n => document.querySelectorAll('#verdict').length === n", arg=1)
                click_answer(page, state, move)
                state.play(move)
        page.wait_for_selector("#verdict.right")
        if i + 1 < len(course(game).lessons):
            page.click("#lesson-next")
    if game in ("lisbon", "palago"):
        shot(page, f"learn-{game}", ".learn")


def test_the_index_marks_the_first_game_and_samples_step_by_keys(page, server):
    page.goto(f"{server}/")
    page.wait_for_selector(".game-intro .card-picture svg")  # the lobby: the game's picture and character
    first = next(g for g in hexarena.GAMES if course(g).first)
    assert page.inner_text(f'.gametabs [data-game="{first}"] .tab-first').strip() == "start here"
    assert course(hexarena.GAMES[0]).tagline in page.inner_text(".game-intro p")
    shot(page, "lobby-intro")
    page.click("a.howto")  # the lobby's link to its game's page
    page.wait_for_selector("#lessons h2")
    page.click("a.learn-link")  # the header's
    page.wait_for_selector(".game-card")
    assert page.eval_on_selector_all(".game-card", "cs => cs.length") == len(hexarena.GAMES)
    first = page.eval_on_selector_all(".game-card.first", "cs => cs.map(c => c.dataset.game)")
    assert first == [g for g in hexarena.GAMES if course(g).first]
    shot(page, "learn-index")
    page.click('.game-card[data-game="hex-pushpin"] a')
    page.wait_for_selector("#sample-board svg")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#sample-board[data-ply="1"]')
    assert "pin on k4" in page.inner_text("#sample-status")
    page.click("#sample-last")
    page.wait_for_selector('#sample-board[data-ply="13"]')
    shot(page, "learn-hex-pushpin", ".learn")
