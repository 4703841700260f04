"""E-mail (docs/server.md, "E-mail") against a local SMTP server (aiosmtpd): addresses verified by a link, "your
move" and "challenge received" at most once an hour, nothing attempted without --smtp, moves unharmed by an
SMTP server that is down, refusals changing no row, and serve's options."""

from __future__ import annotations

import argparse
import email
import logging
import smtplib
import ssl
import subprocess
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import default
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, update

from hexarena.server import create_app
from hexarena.server.mail import MailSettings, Smtp, add_mail_arguments, mail_from, message, parse_smtp, send
from hexarena.server.schema import accounts, notices
from hexarena.server.store.seats import token_hash
from tests.server.helpers import SMALL
from tests.server.test_accounts import csrf, play_online, register
from tests.server.test_processes import free_port

SITE = "http://testserver"


class Inbox:
    """aiosmtpd's handler: every mail received, parsed."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        self.mails.append(email.message_from_bytes(envelope.content, policy=default))
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.mails if m["To"] == address]


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox, port = Inbox(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    yield inbox, port
    controller.stop()


@pytest.fixture
def mailing(smtp, db_url: str) -> Iterator[tuple[TestClient, Inbox, str]]:
    inbox, port = smtp
    inbox.mails.clear()
    settings = MailSettings(f"smtp://127.0.0.1:{port}", "arena@example.org", SITE)
    with TestClient(create_app(db_url, mail=settings)) as client:
        yield client, inbox, db_url


def flush(client: TestClient) -> None:
    assert client.app.state.server.mailer.flush()


def body(mail: EmailMessage) -> str:
    part = mail.get_body()
    assert part is not None
    return str(part.get_content())


def verify(client: TestClient, inbox: Inbox, address: str) -> None:
    """Give the signed-in ``client`` the verified ``address``, through the mailed link."""
    r = client.post("/api/account/email", json={"email": address}, headers=csrf(client))
    assert r.json() == {"email": address, "email_verified": False, "verification_sent": True}, r.text
    flush(client)
    link = next(line for line in body(inbox.to(address)[-1]).splitlines() if line.startswith(SITE))
    page = client.get(link[len(SITE):])
    assert page.status_code == 200 and f"The address {address} is verified" in page.text
    assert f'href="{SITE}/"' in page.text


def test_the_verification_link_arrives_and_works(mailing) -> None:
    client, inbox, _ = mailing
    register(client, "vera")
    verify(client, inbox, "vera@example.org")
    (mail,) = inbox.mails
    assert mail["From"] == "arena@example.org" and "verify" in mail["Subject"] and "vera" in body(mail)
    assert client.get("/api/account").json() == {"name": "vera", "ratings": {}, "email": "vera@example.org",
                                                 "email_verified": True}
    link = next(line for line in body(mail).splitlines() if line.startswith(SITE))
    again = client.get(link[len(SITE):])
    assert again.status_code == 404 and set(again.json()) == {"error"}
    # the same address again: still verified, no mail; clearing it
    r = client.post("/api/account/email", json={"email": "vera@example.org"}, headers=csrf(client))
    assert r.json()["email_verified"] is True and not r.json()["verification_sent"]
    assert client.post("/api/account/email", json={"email": None}, headers=csrf(client)).json() == {
        "email": None, "email_verified": False, "verification_sent": False}
    flush(client)
    assert len(inbox.mails) == 1


def test_a_move_mails_the_opponent_once_an_hour(mailing) -> None:
    client, inbox, _ = mailing
    client, other, match_id = play_online((client, None))
    verify(client, inbox, "first@example.org")
    verify(other, inbox, "second@example.org")
    inbox.mails.clear()

    def move(who: TestClient, ply: int) -> None:
        m = who.get(f"/api/matches/{match_id}").json()
        r = who.post(f"/api/matches/{match_id}/moves", json={"move": m["legal_moves"][0], "ply": ply},
                     headers=csrf(who))
        assert r.status_code == 200, r.text

    move(client, 0)
    flush(client)
    (mail,) = inbox.to("second@example.org")
    assert mail["Subject"] == "hexarena: your move in projective-hex against first"
    assert f"{SITE}/#/match/{match_id}" in body(mail)
    move(other, 1)
    move(client, 2)  # within the hour: the second player is not mailed again
    flush(client)
    assert len(inbox.to("second@example.org")) == 1 and len(inbox.to("first@example.org")) == 1


def test_a_turn_of_several_steps_mails_at_its_end(mailing) -> None:
    client, inbox, _ = mailing
    first, second = client, TestClient(client.app)
    register(first, "tiles1")
    register(second, "tiles2")
    verify(first, inbox, "tiles1@example.org")
    verify(second, inbox, "tiles2@example.org")
    client.app.state.server.mailer.every = 0  # every notice goes out: only the turn's end decides
    inbox.mails.clear()
    made = first.post("/api/matches", json={"game": "palago", "seats": ["me", "open"]}, headers=csrf(first)).json()
    second.post(f"/api/matches/{made['id']}/join", headers=csrf(second))
    mailed = []
    for ply, who in enumerate((first, second, second)):  # Palago: one tile, then two a turn
        move = who.get(f"/api/matches/{made['id']}").json()["legal_moves"][0]
        r = who.post(f"/api/matches/{made['id']}/moves", json={"move": move, "ply": ply}, headers=csrf(who))
        assert r.status_code == 200, r.text
        flush(client)
        mailed.append([m["To"] for m in inbox.mails])
        inbox.mails.clear()
    assert mailed == [["tiles2@example.org"], [], ["tiles1@example.org"]]


def test_no_mail_for_ai_guests_or_unverified_addresses(mailing) -> None:
    client, inbox, _ = mailing
    register(client, "solo")
    verify(client, inbox, "solo@example.org")
    against_ai = client.post("/api/matches", json={"game": "projective-hex", "options": SMALL,
                                                   "seats": ["me", "ai:1"]}, headers=csrf(client)).json()
    guest = TestClient(client.app)
    with_guest = client.post("/api/matches", json={"game": "projective-hex", "options": SMALL,
                                                   "seats": ["open", "me"]}, headers=csrf(client)).json()
    token = guest.post(f"/api/matches/{with_guest['id']}/join").json()["token"]
    move = guest.get(f"/api/matches/{with_guest['id']}").json()["legal_moves"][0]
    assert guest.post(f"/api/matches/{with_guest['id']}/moves", json={"move": move, "ply": 0, "token": token}
                      ).status_code == 200
    flush(client)
    (mail,) = inbox.to("solo@example.org")[1:]  # the guest's move reached a verified account
    assert "against guest (first)" in mail["Subject"]
    move = client.get(f"/api/matches/{against_ai['id']}").json()["legal_moves"][0]
    assert client.post(f"/api/matches/{against_ai['id']}/moves", json={"move": move, "ply": 0},
                       headers=csrf(client)).status_code == 200
    flush(client)
    inbox.mails.clear()
    first, second, match_id = play_online((TestClient(client.app), None))
    second.post("/api/account/email", json={"email": "second@example.org"}, headers=csrf(second))  # unverified
    move = first.get(f"/api/matches/{match_id}").json()["legal_moves"][0]
    assert first.post(f"/api/matches/{match_id}/moves", json={"move": move, "ply": 0},
                      headers=csrf(first)).status_code == 200
    flush(client)
    # solo's link and its one notice, then second's link; no "your move" to the unverified address
    assert [m["To"] for m in inbox.mails] == ["second@example.org"] and "verify" in inbox.mails[0]["Subject"]
    assert client.app.state.server.mailer.sent == 3


def test_a_challenge_is_mailed_once_an_hour_per_challenger(mailing) -> None:
    client, inbox, _ = mailing
    register(client, "champ")
    verify(client, inbox, "champ@example.org")
    mailer, me = client.app.state.server.mailer, client.app.state.server.accounts.profile("champ")["id"]
    mailer.challenge(me, "Rival", "havannah")
    mailer.challenge(me, "rival", "hex")
    mailer.challenge(me, "other", "hex")
    flush(client)
    assert [m["Subject"] for m in inbox.to("champ@example.org")[1:]] == [
        "hexarena: Rival challenges you to havannah", "hexarena: other challenges you to hex"]
    assert f"{SITE}/" in body(inbox.mails[-1])


def counts(url: str) -> list[tuple]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(select(accounts.c.email, accounts.c.email_verified,
                                                          accounts.c.email_token))] + \
                [tuple(r) for r in conn.execute(select(notices))]
    finally:
        engine.dispose()


def test_refusals_change_no_row(mailing) -> None:
    client, inbox, url = mailing
    register(client, "rita")
    assert client.post("/api/account/email", json={"email": "rita@example.org"}, headers=csrf(client)
                       ).status_code == 200
    engine = create_engine(url)
    with engine.begin() as conn:  # a second account whose link has expired
        conn.execute(update(accounts).where(accounts.c.name == "rita").values(email_token=token_hash("1.old")))
    engine.dispose()
    before = counts(url)
    fresh = TestClient(client.app)
    post = "/api/account/email"
    cases = [
        (client.post(post, json={"email": "not an address"}, headers=csrf(client)), 400, "an address such as"),
        (client.post(post, json={"email": "a@b"}, headers=csrf(client)), 400, "an address such as"),
        (client.post(post, json={"email": "x" * 63 + "@" + "y" * 179 + ".example.org"}, headers=csrf(client)), 400,
         "254"),
        (client.post(post, json={"email": "x" * 65 + "@example.org"}, headers=csrf(client)), 400, "64"),
        (client.post(post, json={"email": "a,victim@example.org"}, headers=csrf(client)), 400, "comma"),
        (client.post(post, json={"email": "<a>@example.org"}, headers=csrf(client)), 400, "an address such as"),
        (client.post(post, json={"email": "a@-example.org"}, headers=csrf(client)), 400, "an address such as"),
        (client.post(post, json={"email": 7}, headers=csrf(client)), 400, "email"),
        (client.post(post, json={"email": "other@example.org"}, headers=csrf(client)), 429, "retry in"),
        (client.post(post, json={"email": "rita@example.org"}), 403, "X-CSRF-Token"),
        (fresh.post(post, json={"email": "rita@example.org"}), 401, "sign in"),
        (fresh.get("/api/account/email/verify?token=guessed"), 404, "no such verification link"),
        (fresh.get("/api/account/email/verify"), 404, "no such verification link"),
        (fresh.get("/api/account/email/verify?token=1.old"), 400, "expired"),
    ]
    for response, status, words in cases:
        assert response.status_code == status, response.text
        assert set(response.json()) == {"error"} and words in response.json()["error"], response.text
    assert "Retry-After" in next(r for r, status, _ in cases if status == 429).headers
    assert counts(url) == before
    flush(client)
    assert len(inbox.mails) == 1


def test_without_smtp_nothing_is_sent_and_nothing_breaks(tmp_path, monkeypatch) -> None:
    def refuse(*_args: Any, **_kwargs: Any) -> None:
        raise AssertionError("no SMTP connection without --smtp")

    monkeypatch.setattr(smtplib, "SMTP", refuse)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}")) as client:
        client, other, match_id = play_online((client, None))
        r = client.post("/api/account/email", json={"email": "first@example.org"}, headers=csrf(client))
        assert r.json() == {"email": "first@example.org", "email_verified": False, "verification_sent": False}
        assert client.get("/api/account").json()["email"] == "first@example.org"
        move = other.get(f"/api/matches/{match_id}").json()["legal_moves"][0]
        assert client.post(f"/api/matches/{match_id}/moves", json={"move": move, "ply": 0},
                           headers=csrf(client)).status_code == 200
        mailer = client.app.state.server.mailer
        mailer.challenge(1, "someone", "hex")
        assert not mailer.enabled and mailer._thread is None and mailer.sent == 0


def test_an_smtp_server_that_is_down_breaks_no_move(tmp_path, caplog) -> None:
    settings = MailSettings(f"smtp://127.0.0.1:{free_port()}", "arena@example.org", SITE)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'h.db'}", mail=settings)) as client:
        client, other, match_id = play_online((client, None))
        engine = create_engine(f"sqlite:///{tmp_path / 'h.db'}")
        with engine.begin() as conn:
            conn.execute(update(accounts).values(email="x@example.org", email_verified=True))
        engine.dispose()
        with caplog.at_level(logging.WARNING, logger="hexarena.server"):
            for ply, who in enumerate((client, other, client)):
                move = who.get(f"/api/matches/{match_id}").json()["legal_moves"][0]
                r = who.post(f"/api/matches/{match_id}/moves", json={"move": move, "ply": ply}, headers=csrf(who))
                assert r.status_code == 200, r.text
            flush(client)
        assert client.app.state.server.mailer.sent == 0
        assert sum("an e-mail was not sent" in r.getMessage() for r in caplog.records) == 2


def test_the_smtp_url_and_serve_options() -> None:
    assert parse_smtp("smtp://mail.example.org") == Smtp("mail.example.org", 25, "plain")
    assert parse_smtp("smtp+starttls://me%40x:p%3Ass@mail.example.org") == \
        Smtp("mail.example.org", 587, "starttls", "me@x", "p:ss")
    assert parse_smtp("smtps://u:p@[::1]:2465") == Smtp("::1", 2465, "tls", "u", "p")
    for bad, words in (("http://mail", "the scheme is one of"), ("smtp://mail:99999", "port"),
                       ("smtp://", "host"), ("smtp://mail/path", "nothing after the port")):
        with pytest.raises(ValueError, match=words):
            parse_smtp(bad)
    parser = argparse.ArgumentParser(exit_on_error=False)
    add_mail_arguments(parser)
    assert mail_from(parser.parse_args([])) == MailSettings()
    settings = mail_from(parser.parse_args(["--smtp", "smtp://m", "--public-url", "https://hex.example.org/"]))
    assert settings == MailSettings("smtp://m", "hexarena@hex.example.org", "https://hex.example.org")
    assert MailSettings.from_json(settings.to_json()) == settings
    with pytest.raises(ValueError, match="--smtp needs --public-url"):
        mail_from(parser.parse_args(["--smtp", "smtp://m"]))
    with pytest.raises(argparse.ArgumentError, match="the scheme is one of"):
        parser.parse_args(["--smtp", "ftp://m"])
    with pytest.raises(argparse.ArgumentError, match="an address such as"):
        parser.parse_args(["--mail-from", "nobody"])


def test_serve_refuses_smtp_without_a_public_url(capsys) -> None:
    from hexarena.cli import main

    assert main(["serve", "--smtp", "smtp://mail.example.org"]) == 2
    assert "--smtp needs --public-url" in capsys.readouterr().err


def test_the_settings_reach_worker_processes_through_the_environment(tmp_path, monkeypatch) -> None:
    from hexarena.server.app import DB_ENV, MAIL_ENV, app_from_env

    settings = MailSettings("smtps://u:p@mail.example.org", "arena@example.org", SITE)
    monkeypatch.setenv(DB_ENV, f"sqlite:///{tmp_path / 'h.db'}")
    monkeypatch.setenv(MAIL_ENV, settings.to_json())
    with TestClient(app_from_env()) as client:
        assert client.app.state.server.mailer.settings == settings


def test_starttls_and_smtps_with_a_password(tmp_path, monkeypatch) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"],
                   check=True, capture_output=True)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the client trusts this test's certificate only
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    def password(_server: Any, _session: Any, _envelope: Any, _mechanism: str, data: Any) -> AuthResult:
        return AuthResult(success=(data.login, data.password) == (b"me@x", b"p:ss"))

    inbox = Inbox()
    # aiosmtpd offers AUTH only after STARTTLS unless told otherwise; over smtps the connection is TLS throughout
    for scheme, tls in (("smtp+starttls", {"tls_context": context, "require_starttls": True}),
                        ("smtps", {"ssl_context": context, "auth_require_tls": False})):
        port = free_port()
        controller = Controller(inbox, hostname="127.0.0.1", port=port, authenticator=password, auth_required=True,
                                server_hostname="localhost", **tls)
        controller.start()
        try:
            settings = MailSettings(f"{scheme}://me%40x:p%3Ass@localhost:{port}", "arena@example.org", SITE)
            send(settings.server(), message(settings, "to@example.org", scheme, "hello"))
        finally:
            controller.stop()
    assert [m["Subject"] for m in inbox.mails] == ["smtp+starttls", "smtps"]
