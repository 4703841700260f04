"""``hexarena serve``: the web app under uvicorn."""

from __future__ import annotations

import argparse
import os
from typing import TextIO

import uvicorn
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from .app import AI_PER_CLIENT_ENV, AI_VS_AI_ENV, DB_ENV, REPORTS, REPORTS_ENV, SCORING_SECONDS_ENV


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


def fair_settings(args: argparse.Namespace) -> dict[str, str]:
    """The app's settings of AI caps and scoring from ``hexarena serve``'s arguments (as environment variables)."""
    return {AI_VS_AI_ENV: str(args.max_ai_vs_ai), AI_PER_CLIENT_ENV: str(args.max_ai_per_client),
            SCORING_SECONDS_ENV: str(args.scoring_seconds)}


def serve(host: str, port: int, db: str, workers: int, out: TextIO, reports: str = REPORTS,
          settings: dict[str, str] | None = None) -> int:
    """Serve the app on ``host:port`` (analysis reports from ``reports``, ``settings`` from :func:`fair_settings`)
    until interrupted; the exit code."""
    if backend(db) == "sqlite" and workers > 1:
        raise ServeError("--workers needs PostgreSQL (--db postgresql+psycopg://...): SQLite serves one process")
    shown = make_url(db).render_as_string(hide_password=True)
    print(f"hexarena: serving http://{host}:{port} (database {shown})", file=out, flush=True)
    os.environ[DB_ENV] = db
    os.environ[REPORTS_ENV] = reports
    os.environ.update(settings or {})
    uvicorn.run("hexarena.server.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                log_level="warning", ws="websockets-sansio")
    return 0
