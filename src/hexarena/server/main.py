"""``hexarena serve``: the web app under uvicorn."""

from __future__ import annotations

import os
from typing import TextIO

import uvicorn
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from .app import DB_ENV, LIMITS_ENV, MAIL_ENV, REPORTS, REPORTS_ENV
from .limits import Limits
from .mail import MailSettings


class ServeError(ValueError):
    """A server that cannot start: a bad database URL, workers without PostgreSQL."""


def backend(db: str) -> str:
    """The database kind of SQLAlchemy URL ``db``: "sqlite" or "postgresql"."""
    try:
        kind = make_url(db).get_backend_name()
    except ArgumentError:
        kind = ""
    if kind not in ("sqlite", "postgresql"):
        raise ServeError(f"--db {db!r}: give sqlite:///PATH or postgresql+psycopg://user:password@host/dbname")
    return kind


def serve(host: str, port: int, db: str, workers: int, out: TextIO, reports: str = REPORTS,
          limits: Limits | None = None, mail: MailSettings | None = None) -> int:
    """Serve the app on ``host:port`` (analysis reports from ``reports``, ``limits`` at every door, e-mail as
    ``mail`` says) until interrupted; the exit code."""
    if backend(db) == "sqlite" and workers > 1:
        raise ServeError("--workers needs PostgreSQL (--db postgresql+psycopg://...): SQLite serves one process")
    shown = make_url(db).render_as_string(hide_password=True)
    mailing = f"; e-mail from {mail.mail_from}" if mail is not None and mail.enabled else ""
    print(f"hexarena: serving http://{host}:{port} (database {shown}{mailing})", file=out, flush=True)
    os.environ[DB_ENV] = db
    os.environ[REPORTS_ENV] = reports
    os.environ[LIMITS_ENV] = (limits or Limits()).to_json()
    os.environ[MAIL_ENV] = (mail or MailSettings()).to_json()
    # uvicorn's own proxy headers are off (it would trust 127.0.0.1 by default): the app trusts
    # X-Forwarded-For only from --forwarded-allow-ips
    uvicorn.run("hexarena.server.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                log_level="warning", ws="websockets-sansio", proxy_headers=False)
    return 0

