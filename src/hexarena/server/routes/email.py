"""/api/account/email: the signed-in account's e-mail address and its verification link (docs/server.md,
"E-mail")."""

from __future__ import annotations

from html import escape

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from ..deps import ServerDep, SignedIn
from ..http import reply
from ..models import EmailAddress
from .bodies import EmailSet

router = APIRouter(prefix="/api/account/email", tags=["accounts"])


@router.post("", response_model=EmailAddress)
def set_email(body: EmailSet, server: ServerDep, account: SignedIn) -> Response:
    return reply(server.mailer.set_address(account.id, account.name, body.email))


@router.get("/verify", response_class=HTMLResponse)
def verify(server: ServerDep, token: str = "") -> HTMLResponse:
    address = server.mailer.verify(token)
    site = f"{server.mailer.settings.public_url or ''}/"
    return HTMLResponse(
        "<!doctype html><meta charset=utf-8><title>hexarena: address verified</title>"
        f"<p>The address {escape(address)} is verified: hexarena's notices will go there.</p>"
        f'<p><a href="{escape(site)}">Back to hexarena</a></p>')
