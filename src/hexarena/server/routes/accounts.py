"""/api/account: register, log in and out, the signed-in account, its password, deleting it."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from .. import lists, rating
from ..accounts import Account, Accounts
from ..core import Server
from ..deps import CSRF, SESSION, AccountDep, ClientDep, ServerDep, SignedIn
from ..http import reply
from ..models import Empty, MatchSummary, Me, MyMatches, Named
from ..store.notify import account_topic
from .bodies import PasswordChange, PasswordCheck, SignIn
from .matches import push, refuse

router = APIRouter(prefix="/api/account", tags=["accounts"])
SESSION_DAYS = 30
FEED_SETTLE = 0.25  # the account socket reads once the changes of a quarter second are in (a busy player's feed)


def signed_in(server: Server, account: Account, body: SignIn) -> Response:
    """The answer to a register or login: the account's name, its cookies set, the browser's guest seats given
    to it."""
    server.accounts.adopt(account, [(s.match, s.token) for s in body.seats])
    cookie, csrf = server.accounts.open_session(account)
    answer = reply({"name": account.name})
    secure, age = server.limits.secure_cookies, SESSION_DAYS * 86400
    answer.set_cookie(SESSION, cookie, max_age=age, path="/", secure=secure, httponly=True, samesite="lax")
    answer.set_cookie(CSRF, csrf, max_age=age, path="/", secure=secure, httponly=False, samesite="lax")
    return answer


async def hashing(accounts: Accounts, client: str, work: Any, *args: Any) -> Any:
    """``work`` (which hashes a password) in a thread, in ``client``'s turn at hashing: one hash in flight per
    address, the addresses served in turn, the waiting done on the event loop (it holds no thread)."""
    async with accounts.hashing.turn(client):
        return await run_in_threadpool(work, *args)


@router.post("/register", response_model=Named)
async def register(body: SignIn, server: ServerDep, client: ClientDep) -> Response:
    account = await hashing(server.accounts, client, server.accounts.register, body.name, body.password, client)
    return await server.call(signed_in, server, account, body)


@router.post("/login", response_model=Named)
async def login(body: SignIn, server: ServerDep, client: ClientDep) -> Response:
    server.accounts.check_failures(body.name, client)
    account = await hashing(server.accounts, client, server.accounts.login, body.name, body.password, client)
    return await server.call(signed_in, server, account, body)


@router.post("/logout", response_model=Empty)
def logout(request: Request, server: ServerDep, _account: SignedIn) -> Response:
    server.accounts.close_session(request.cookies[SESSION])
    answer = reply({})
    answer.delete_cookie(SESSION, path="/")
    answer.delete_cookie(CSRF, path="/")
    return answer


@router.get("", response_model=Me)
def me(server: ServerDep, account: SignedIn) -> Response:
    with server.store.db.engine.connect() as conn:
        ratings = rating.account_ratings(conn, account.id)
    return reply({"name": account.name, "ratings": ratings, **server.mailer.address(account.id)})


@router.get("/turn", response_model=list[MatchSummary])
async def turn(server: ServerDep, account: SignedIn) -> Response:
    return reply(await server.call(lists.turn, server.store, account.id))


@router.get("/matches", response_model=MyMatches)
async def my_matches(server: ServerDep, account: SignedIn) -> Response:
    return reply(await server.call(lists.my_matches, server.store, account.id))


def same_origin(ws: WebSocket) -> bool:
    """Whether the socket's ``Origin`` (sent by every browser) names the host it connects to: a page of another
    site may not open a signed-in player's socket (no Origin: not a browser, allowed)."""
    origin = ws.headers.get("origin")
    return origin is None or urlsplit(origin).netloc.lower() == ws.headers.get("host", "").lower()


@router.websocket("/live")
async def live(ws: WebSocket, server: ServerDep, client: ClientDep, account: AccountDep) -> None:
    """The signed-in player's own feed: :meth:`Server.live_state` now and after every change of theirs."""
    await ws.accept()
    if not same_origin(ws):
        return await refuse(ws, 4403, "another site's page")
    if account is None:
        return await refuse(ws, 4401, "sign in first")
    if not server.sockets.open(client):
        return await refuse(ws, 4429, f"too many live connections from your address (at most {server.sockets.most})")
    watch = server.hub.watch(account_topic(account.id))
    try:
        await push(ws, server.hub, watch, lambda: server.call(server.live_state, account.id), settle=FEED_SETTLE)
    except WebSocketDisconnect:
        pass
    finally:
        server.hub.unwatch(watch)
        server.sockets.close(client)


@router.post("/password", response_model=Empty)
async def password(body: PasswordChange, server: ServerDep, account: SignedIn, client: ClientDep) -> Response:
    await hashing(server.accounts, client, server.accounts.change_password, account, body.old, body.new)
    return reply({})


@router.delete("", response_model=Empty)
async def delete(body: PasswordCheck, server: ServerDep, account: SignedIn, client: ClientDep) -> Response:
    await hashing(server.accounts, client, server.accounts.delete, account, body.password)
    answer = reply({})
    answer.delete_cookie(SESSION, path="/")
    answer.delete_cookie(CSRF, path="/")
    return answer
