"""The routes' dependencies: the server's parts, the caller's address and the signed-in account."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from .accounts import Account
from .core import Server
from .guards import client_address
from .errors import Refused


async def get_server(conn: HTTPConnection) -> Server:
    """The app's :class:`Server` (its store, hub, AI and scorer)."""
    server: Server = conn.app.state.server
    return server


async def get_client(conn: HTTPConnection) -> str:
    """The caller's address (from a trusted proxy's X-Forwarded-For, else the socket's)."""
    return client_address(conn.scope)


ServerDep = Annotated[Server, Depends(get_server)]
ClientDep = Annotated[str, Depends(get_client)]


SESSION, CSRF = "session", "csrf"  # the cookies (docs/server.md, "Accounts")
CSRF_HEADER = "x-csrf-token"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


async def get_account(conn: HTTPConnection, server: ServerDep) -> Account | None:
    """The account the ``session`` cookie signs in, or None.  A change (POST, PUT, PATCH, DELETE) made with a
    session must carry ``X-CSRF-Token`` equal to its ``csrf`` cookie: 403 otherwise.  (The dependencies are
    coroutines: FastAPI runs a plain function's in a thread, a hop that costs more than the work here.)"""
    cookie = conn.cookies.get(SESSION)
    account = await server.call(server.accounts.session, cookie) if cookie else None
    if account is not None and conn.scope.get("method") in UNSAFE:
        sent = conn.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), account.csrf.encode()):
            raise Refused(403, "a change made with a session needs the X-CSRF-Token header equal to the csrf "
                               "cookie")
    return account


AccountDep = Annotated[Account | None, Depends(get_account)]


async def require_account(account: AccountDep) -> Account:
    """The signed-in account; 401 when signed out."""
    if account is None:
        raise Refused(401, "sign in first")
    return account


SignedIn = Annotated[Account, Depends(require_account)]
