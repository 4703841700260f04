"""E-mail settings and sending (docs/server.md, "E-mail"): ``hexarena serve``'s ``--smtp URL``, ``--mail-from``
and ``--public-url``, the SMTP URL read, and one message sent.

No database and no web framework here (the command line builds its parser from this module);
:mod:`.notices` decides what is sent to whom.
"""

from __future__ import annotations

import argparse
import json
import re
import smtplib
import ssl
from collections.abc import Callable
from dataclasses import asdict, dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import unquote, urlsplit

SCHEMES = {"smtp": ("plain", 25), "smtp+starttls": ("starttls", 587), "smtps": ("tls", 465)}
# RFC 5322's dot-atom on both sides, ASCII (an international domain in its xn-- form): no quoting, comma,
# angle bracket or space that a header could read as a second address
ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
                     r"@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+")
LOCAL_LENGTH = 64
ADDRESS_LENGTH = 254
SEND_SECONDS = 20.0  # the longest an SMTP conversation may take before the send is given up


@dataclass(frozen=True)
class Smtp:
    """Where mail goes: ``security`` is "plain", "starttls" or "tls"."""

    host: str
    port: int
    security: str
    user: str | None = None
    password: str | None = None


@dataclass(frozen=True)
class MailSettings:
    """``serve``'s e-mail options; ``smtp`` None: no mail at all."""

    smtp: str | None = None        # smtp://, smtp+starttls:// or smtps://[user[:password]@]host[:port]
    mail_from: str | None = None   # the sender's address
    public_url: str | None = None  # the site's address as players reach it, for links in mails (no trailing /)

    @property
    def enabled(self) -> bool:
        return self.smtp is not None

    def server(self) -> Smtp:
        """The SMTP server of ``smtp`` (ValueError without one)."""
        if self.smtp is None:
            raise ValueError("no SMTP server configured")
        return parse_smtp(self.smtp)

    def to_json(self) -> str:
        """The settings as JSON (passed to ``uvicorn --workers`` processes through the environment)."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> MailSettings:
        return cls(**json.loads(text))


def parse_smtp(url: str) -> Smtp:
    """``url`` as an :class:`Smtp`; ValueError naming what is wrong."""
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES:
        raise ValueError(f"--smtp: the scheme is one of {', '.join(s + '://' for s in SCHEMES)} "
                         f"(e.g. smtp+starttls://user:password@mail.example.org:587)")
    try:
        port = parts.port
    except ValueError:
        raise ValueError("--smtp: the port is a number 1..65535") from None
    if not parts.hostname or parts.path not in ("", "/") or parts.query:
        raise ValueError(f"--smtp: give {parts.scheme}://[user[:password]@]host[:port], nothing after the port")
    security, default_port = SCHEMES[parts.scheme]
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password is not None else None
    return Smtp(parts.hostname, port or default_port, security, user, password)


def parse_public_url(url: str) -> str:
    """``url`` (http:// or https://, a host, maybe a path) without its trailing slash; ValueError otherwise."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(f"--public-url {url!r}: give the site's address, e.g. https://hex.example.org")
    return url.rstrip("/")


def check_address(address: str) -> str:
    """``address`` if it looks like an e-mail address (at most 254 characters); ValueError otherwise."""
    if len(address) > ADDRESS_LENGTH or not ADDRESS.fullmatch(address) \
            or len(address.rpartition("@")[0]) > LOCAL_LENGTH:
        raise ValueError(f"email: an address such as name@example.org (ASCII, no space, comma or quotes; at most "
                         f"{LOCAL_LENGTH} characters before the @, {ADDRESS_LENGTH} in all)")
    return address


def add_mail_arguments(sp: argparse.ArgumentParser) -> None:
    """``hexarena serve``'s e-mail options (docs/server.md "E-mail")."""
    sp.add_argument("--smtp", type=checked(parse_smtp), default=None, metavar="URL",
                    help="send e-mail notices through this SMTP server: smtp://, smtp+starttls:// or "
                         "smtps://[user[:password]@]host[:port] (default: no e-mail); needs --public-url")
    sp.add_argument("--mail-from", type=checked(check_address), default=None, metavar="ADDRESS",
                    help="the notices' sender (default: hexarena@ the host of --public-url)")
    sp.add_argument("--public-url", type=checked(parse_public_url), default=None, metavar="URL",
                    help="the site's address as players reach it (behind a proxy: its https:// address), for the "
                         "links in mails")


def mail_from(args: argparse.Namespace) -> MailSettings:
    """The e-mail settings ``serve``'s options give; ValueError for --smtp without --public-url."""
    if args.smtp is None:
        return MailSettings()
    if args.public_url is None:
        raise ValueError("--smtp needs --public-url (the site's address, for the links in mails)")
    sender = args.mail_from or f"hexarena@{urlsplit(args.public_url).hostname}"
    return MailSettings(args.smtp, sender, parse_public_url(args.public_url))


def checked(parse: Callable[[str], object]) -> Callable[[str], str]:
    """argparse type: ``parse``'s ValueError as an argparse error; the text as given."""
    def check(text: str) -> str:
        try:
            parse(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
        return text
    return check


def message(settings: MailSettings, to: str, subject: str, body: str) -> EmailMessage:
    """A plain-text mail from the settings' sender."""
    msg = EmailMessage()
    msg["From"] = settings.mail_from or "hexarena@localhost"
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=(settings.mail_from or "@localhost").rpartition("@")[2])
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content(body)
    return msg


def send(smtp: Smtp, msg: EmailMessage, timeout: float = SEND_SECONDS) -> None:
    """Send ``msg`` through ``smtp`` (OSError or smtplib.SMTPException when it fails)."""
    context = ssl.create_default_context()
    server = smtplib.SMTP_SSL(smtp.host, smtp.port, timeout=timeout, context=context) if smtp.security == "tls" \
        else smtplib.SMTP(smtp.host, smtp.port, timeout=timeout)
    with server:
        if smtp.security == "starttls":
            server.starttls(context=context)
        if smtp.user is not None:
            server.login(smtp.user, smtp.password or "")
        server.send_message(msg)
