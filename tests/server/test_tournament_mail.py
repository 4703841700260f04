"""The round notices (docs/server.md, "E-mail"): when a round is paired, each person in it is mailed "round R of
EVENT has started: your game against X", once per account, event and round."""

from __future__ import annotations

from fastapi.testclient import TestClient

from hexarena.server import create_app
from hexarena.server.mail import MailSettings
from tests.server.test_accounts import register
from tests.server.test_mail import SITE, body, flush, smtp, verify
from tests.server.tournament_helpers import entered, event_limits

__all__ = ["smtp"]  # the fixture


def test_a_paired_round_mails_each_player_once(smtp, tmp_path) -> None:  # noqa: F811
    inbox, port = smtp
    inbox.mails.clear()
    settings = MailSettings(f"smtp://127.0.0.1:{port}", "arena@example.org", SITE)
    app = create_app(f"sqlite:///{tmp_path / 'h.db'}", mail=settings, limits=event_limits())
    with TestClient(app) as ann, TestClient(app) as bob:
        for client, name in ((ann, "ann"), (bob, "bob")):
            register(client, name)
            verify(client, inbox, f"{name}@example.org")
        inbox.mails.clear()
        obj = entered({"ann": ann, "bob": bob}, "ann")
        flush(ann)
        match = obj["pairings"][0]["games"][0]["match"]
        for name, other in (("ann", "bob"), ("bob", "ann")):
            (mail,) = inbox.to(f"{name}@example.org")
            assert mail["Subject"] == f"hexarena: round 1 of Autumn cup has started: your game against {other}"
            assert f"{SITE}/#/match/{match}" in body(mail)
        server = ann.app.state.server
        server.mailer.round_started(server.accounts.profile("ann")["id"], obj, 1, "bob", match)  # the same again
        server.judge()
        flush(ann)
        assert len(inbox.mails) == 2
