"""The server database's schema changes, as Alembic migrations (docs/server.md, "Storage").

The store brings its database to the newest revision at start (:func:`upgrade`); a database made before
migrations (no ``alembic_version`` table) is recognised by its tables and stamped first.  The revisions are in
``versions/``; ``python -m hexarena.server.migrations`` runs Alembic's commands with this package's configuration
(no ``alembic.ini``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, inspect, text

HERE = Path(__file__).parent
SCHEMA_LOCK = "SELECT pg_advisory_xact_lock(hashtext('hexarena:schema'))"

# The tables the revisions made before migrations existed add, in order (frozen: later revisions are not
# listed): a database made then is stamped as the last revision whose tables (and all earlier ones') it has.
REVISION_TABLES = (("0001", ("matches", "moves")), ("0002", ("match_clients",)), ("0003", ("finals",)))


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for this package: its scripts, and the ``connection`` to migrate (None: the
    command line's ``-x db=URL``)."""
    config = Config(stdout=sys.stdout)  # the stream of now (Config's default is the one at its import)
    config.set_main_option("script_location", str(HERE))
    config.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    config.attributes["connection"] = connection
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring ``engine``'s database to ``revision`` in one transaction: stamped first if made before migrations.
    Stores starting at once take turns (the schema's advisory lock on PostgreSQL, BEGIN IMMEDIATE on SQLite), so
    one migrates and the others find it done; that also keeps Alembic's module-level ``context`` and ``op``
    proxies to one migration at a time in a process."""
    with migrating(engine) as conn:
        stamp_legacy(conn)
        command.upgrade(alembic_config(conn), revision)


def downgrade(engine: Engine, revision: str) -> None:
    """Take ``engine``'s database back to ``revision`` ("base": no tables), in one transaction."""
    with migrating(engine) as conn:
        command.downgrade(alembic_config(conn), revision)


@contextmanager
def migrating(engine: Engine) -> Iterator[Connection]:
    """A transaction for schema changes.  PostgreSQL: the schema's advisory lock held until commit.  SQLite:
    foreign keys off meanwhile (a batch migration copies a table, and dropping the old copy must not cascade to
    the rows that refer to it), checked before commit, and on again afterwards; BEGIN IMMEDIATE."""
    with engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            with conn.begin():
                conn.execute(text(SCHEMA_LOCK))
                yield conn
            return
        raw = conn.connection.dbapi_connection  # not through SQLAlchemy, which would BEGIN first
        assert raw is not None
        raw.execute("PRAGMA foreign_keys=OFF")  # a no-op inside a transaction: set before BEGIN
        try:
            with conn.execution_options(write=True).begin():
                yield conn
                broken = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
                if broken:
                    raise RuntimeError(f"a migration broke {len(broken)} foreign keys, first {tuple(broken[0])}")
        finally:
            raw.execute("PRAGMA foreign_keys=ON")


def stamp_legacy(conn: Connection) -> str | None:
    """Stamp a database made before migrations (no ``alembic_version``, but ``matches``) as the revision its
    tables show; the revision stamped, or None (an empty or already versioned database)."""
    tables = set(inspect(conn).get_table_names())
    if "alembic_version" in tables or "matches" not in tables:
        return None
    revision = None
    for rev, needed in REVISION_TABLES:
        if not tables.issuperset(needed):
            break
        revision = rev
    assert revision is not None
    command.stamp(alembic_config(conn), revision)
    return revision


def run_env(config: Config) -> None:
    """What ``env.py`` does: run the migrations on the connection in ``config.attributes`` (the store's), or
    on one to ``-x db=URL`` (the command line)."""
    from alembic import context

    if context.is_offline_mode():
        raise SystemExit("offline (--sql) migrations are not supported: a revision reads rows (the backfill)")
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(context, connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("db")
    if not url:
        raise SystemExit("name the database: python -m hexarena.server.migrations -x db=URL COMMAND ...")
    from hexarena.server.schema import make_engine

    engine = make_engine(url)
    try:
        with migrating(engine) as conn:
            _run(context, conn)
    finally:
        engine.dispose()


def _run(context: Any, connection: Connection) -> None:
    from hexarena.server.schema import metadata

    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
