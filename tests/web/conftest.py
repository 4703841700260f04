"""The browser tests' fixtures: Debian's chromium under Playwright, a `hexarena serve` for the session (or
HEXARENA_WEB_URL), a browser context per test and its page, which fails the test on a page error or a refusal
under the security policy."""

from __future__ import annotations

import pytest

from tests.web.helpers import start_server, stop_server, watched_page


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium under Playwright, one per test process (its sync API runs one event loop per thread, so
    every browser test shares this one: tests/web/test_client.py, tests/web/test_arena.py)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from tests.web.helpers import CHROMIUM, CHROMIUM_ARGS

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    base, proc = start_server(tmp_path_factory.mktemp("web"))
    yield base
    stop_server(proc)


@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport={"width": 1100, "height": 800}, accept_downloads=True)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context, server):
    errors: list[str] = []
    yield watched_page(context, errors)
    assert not errors, errors
