"""/api/account: register, log in and out, the signed-in account, its password, deleting it."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..accounts import Account
from ..core import Server
from ..deps import CSRF, SESSION, ServerDep, SignedIn
from ..http import reply
from .bodies import PasswordChange, PasswordCheck, SignIn

router = APIRouter(prefix="/api/account", tags=["accounts"])
SESSION_DAYS = 30


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


@router.post("/register")
def register(body: SignIn, server: ServerDep) -> Response:
    return signed_in(server, server.accounts.register(body.name, body.password), body)


@router.post("/login")
def login(body: SignIn, server: ServerDep) -> Response:
    return signed_in(server, server.accounts.login(body.name, body.password), body)


@router.post("/logout")
def logout(request: Request, server: ServerDep, _account: SignedIn) -> Response:
    server.accounts.close_session(request.cookies[SESSION])
    answer = reply({})
    answer.delete_cookie(SESSION, path="/")
    answer.delete_cookie(CSRF, path="/")
    return answer


@router.get("")
def me(server: ServerDep, account: SignedIn) -> Response:
    return reply({"name": account.name, "ratings": {}, **server.mailer.address(account.id)})


@router.post("/password")
def password(body: PasswordChange, server: ServerDep, account: SignedIn) -> Response:
    server.accounts.change_password(account, body.old, body.new)
    return reply({})


@router.delete("")
def delete(body: PasswordCheck, server: ServerDep, account: SignedIn) -> Response:
    server.accounts.delete(account, body.password)
    answer = reply({})
    answer.delete_cookie(SESSION, path="/")
    answer.delete_cookie(CSRF, path="/")
    return answer
