"""Helpers of the browser tests (tests/web/test_client.py): the server under test, its API, random clicks."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import hexarena
from tests.conftest import EXTRA_CONFIGS

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(base: str, method: str, path: str, body: dict | None = None):
    """JSON in and out; an HTTP error returns (status, body)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            raw = r.read()
            return json.loads(raw) if r.headers.get_content_type() == "application/json" else raw.decode()
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def start_server(tmp: Path, *options: str) -> tuple[str, subprocess.Popen | None]:
    """The server under test: HEXARENA_WEB_URL if set, else `hexarena serve` on a free port with SQLite in tmp
    (and ``options``)."""
    if os.environ.get("HEXARENA_WEB_URL"):
        return os.environ["HEXARENA_WEB_URL"].rstrip("/"), None
    port = free_port()
    exe = Path(sys.executable).with_name("hexarena")
    proc = subprocess.Popen([str(exe), "serve", "--port", str(port), "--db", f"sqlite:///{tmp / 'web.db'}",
                             *options], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=tmp)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"hexarena serve exited {proc.returncode}: {proc.stdout.read().decode()[-2000:]}")
        try:
            urllib.request.urlopen(base + "/api/games", timeout=2).read()
            return base, proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("hexarena serve did not answer within 60 s")


def stop_server(proc: subprocess.Popen | None) -> None:
    """Stop a server :func:`start_server` started: asked first, killed after 10 s."""
    if proc is None:
        return
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def open_match(page, base: str, game: str, options: dict, seats: list[str], record=None) -> str:
    """Create (or import) a match through the API, keep its seat in the page's storage, open it; its id."""
    body = {"record": record} if record is not None else {"game": game, "options": options}
    body["seats"] = seats
    res = call(base, "POST", "/api/matches/import" if record is not None else "/api/matches", body)
    assert isinstance(res, dict) and "id" in res, res
    open_seated(page, base, res)
    wait_ready(page)
    return res["id"]


def open_seated(page, base: str, made: dict) -> None:
    """Keep the seats of ``made`` (a match created through the API) in the page's storage, and open the match."""
    page.goto(base + "/")
    page.evaluate("([id, t, s]) => localStorage.setItem('hexarena.seat.' + id, JSON.stringify({token: t, seats: s}))",
                  [made["id"], made["token"], made["seats"]])
    page.goto(f"{base}/#/match/{made['id']}")


def board_state(page) -> dict:
    return page.eval_on_selector("#board", "b => ({...b.dataset, active: b.classList.contains('active')})")


def wait_ready(page, timeout: float = 60_000) -> dict:
    """Wait until the board is mine to play or the game is over (the AI has answered)."""
    page.wait_for_function(
        "() => { const b = document.querySelector('#board');"
        " return b && b.dataset.ply !== undefined && b.dataset.view === 'live'"
        " && (b.dataset.over === 'true' || b.classList.contains('active')); }", timeout=timeout)
    return board_state(page)


def wait_ply(page, other_than: str, timeout: float = 30_000) -> dict:
    page.wait_for_function("p => document.querySelector('#board')?.dataset.ply !== p", arg=other_than, timeout=timeout)
    return board_state(page)


def cell_target(page, cell: str, ghost: bool = False):
    kind = "ghost" if ghost else "cell"
    return page.locator(f'#board polygon.{kind}.target[data-cell="{cell}"]').first


def click_cell(page, cell: str, ghost: bool = False):
    cell_target(page, cell, ghost).click()


def click_meaning_it(page, target) -> None:
    """Click ``target``; a move marked as losing at once asks first (window.confirm): say yes."""
    one_move = "!(e.getAttribute('aria-label') || '').includes('choose')"  # (a cell of several moves: the chooser)
    if target.evaluate(f"e => e.classList.contains('loses') && {one_move}"):
        page.once("dialog", lambda d: d.accept())
    target.click()


def confirm_turn(page) -> None:
    """The turn builder: wait until the staged steps end the turn, then Confirm it."""
    page.locator("#confirm:enabled").click()


def random_click(page, rng) -> str:
    """One random legal click (a target cell, maybe a ghost, then a chooser's move, or a word button): what was
    clicked."""
    targets = page.eval_on_selector_all("#board polygon.target",
                                        "ps => ps.map(p => [p.classList.contains('ghost'), p.dataset.cell])")
    words = page.eval_on_selector_all(".words button", "bs => bs.map(b => b.dataset.move)")
    options = [("cell", t) for t in targets] + [("word", w) for w in words]
    assert options, "no legal click offered"
    kind, what = rng.choice(options)
    if kind == "word":
        page.click(f'.words button[data-move="{what}"]')
        return what
    ghost, cell = what
    click_meaning_it(page, cell_target(page, cell, ghost))
    if page.locator(".chooser").count():
        choices = page.eval_on_selector_all(".chooser .choice", "bs => bs.map(b => b.dataset.move)")
        pick = rng.choice(choices)
        click_meaning_it(page, page.locator(f'.chooser .choice[data-move="{pick}"]'))
        return pick
    return cell


def play_randomly(page, rng, limit: int = 2000) -> int:
    """Random legal clicks until the game is over; the number of clicks."""
    for n in range(limit):
        st = wait_ready(page)
        if st["over"] == "true":
            return n
        random_click(page, rng)
        wait_ply(page, st["ply"])
    raise AssertionError(f"not over after {limit} clicks")



def watch_policy(pg, violations: list[str]) -> None:
    """Collect what the browser refused under the Content-Security-Policy (it says so on the console)."""
    pg.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)


def watched_page(ctx, errors: list[str], timeout_ms: int = 20_000):  # noqa: ANN001, ANN201
    """A new page of ``ctx`` noting its page errors and policy refusals in ``errors``."""
    pg = ctx.new_page()
    pg.on("pageerror", lambda e: errors.append(str(e)))
    watch_policy(pg, errors)
    pg.set_default_timeout(timeout_ms)
    return pg


def shot(page, name: str, selector: str | None = None):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target = page.locator(selector) if selector else page
    target.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def small(game: str) -> dict:
    """The last of the game's extra test configurations (small boards), JSON-able."""
    opts = EXTRA_CONFIGS[game][-1] if game in EXTRA_CONFIGS else {}
    return {k: list(v) if isinstance(v, tuple) else v for k, v in opts.items()}


def iqishiqi_with_a_choice(seed: int = 0, size: int = 4):
    """A record of Iqishiqi (size 4 unless said) where some cell plays several moves, and that cell's moves."""
    game = hexarena.load("iqishiqi", size=size)
    rng = random.Random(seed)
    for _ in range(200):
        state = game.new_state()
        while not state.is_over():
            by_cell: dict[int, list[str]] = {}
            for a, name in zip(state.legal_actions(), state.legal_moves(), strict=True):
                c = game.move_target(state.array, a)
                if c is not None:
                    by_cell.setdefault(c, []).append(name)
            several = {game.topology.name(c): ms for c, ms in by_cell.items() if len(ms) > 1}
            if several:
                cell = sorted(several)[0]
                return state.record(), cell, several[cell]
            state.play(rng.choice(state.legal_moves()))
    raise AssertionError("no Iqishiqi position with a choice found")
