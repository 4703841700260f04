"""Alembic runs this file (see ``hexarena.server.migrations``); merely imported (pytest's doctest collection),
it does nothing."""

from alembic import context

from hexarena.server.migrations import run_env

if hasattr(context, "config"):
    run_env(context.config)
