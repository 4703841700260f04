"""The server database's schema as Alembic migrations (docs/server.md, "Storage"), on SQLite and PostgreSQL:
an empty database brought to head, a database made before migrations recognised and upgraded with its
matches kept, downgrade and upgrade again, stores starting at once, and the package's command line."""

from __future__ import annotations

import fnmatch
import sqlite3
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.operations import Operations
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

import hexarena
from hexarena.server import migrations
from hexarena.server.schema import _write_ahead_log, finals, make_engine, match_clients, matches, metadata, moves
from hexarena.server.store import Store
from tests.server.helpers import SMALL, fresh_pg

HEAD = ScriptDirectory.from_config(migrations.alembic_config()).get_current_head()
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def engine(db_url: str) -> Iterator[sa.Engine]:
    e = make_engine(db_url)
    yield e
    e.dispose()


def differences(engine: sa.Engine) -> list:
    """What autogenerate finds between the database and the tables the store declares."""
    with engine.connect() as conn:
        return compare_metadata(MigrationContext.configure(conn), metadata)


def revision(engine: sa.Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def tables(engine: sa.Engine) -> set[str]:
    with engine.connect() as conn:
        return set(sa.inspect(conn).get_table_names())


# The tables as servers made them before migrations (create_all), frozen here: the baseline of 0b61bcb, then
# match_clients and finals as issue 28 added them.
LEGACY = sa.MetaData()
legacy_matches = sa.Table(
    "matches", LEGACY,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("tokens", sa.JSON, nullable=False),
    sa.Column("resigned", sa.Integer),
    sa.Column("ply", sa.Integer, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("over", sa.Boolean, nullable=False),
    sa.Column("winner", sa.Integer),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("created", sa.String(32), nullable=False),
    sa.Column("updated", sa.String(32), nullable=False, index=True),
)
legacy_moves = sa.Table(
    "moves", LEGACY,
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    sa.Column("ply", sa.Integer, nullable=False),
    sa.Column("move", sa.String(64), nullable=False),
    sa.Column("time", sa.String(32), nullable=False),
    sa.UniqueConstraint("match_id", "ply", name="moves_match_ply"),
)
sa.Table(
    "match_clients", LEGACY,
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("client", sa.String(64), nullable=False, index=True),
    sa.Column("waiting", sa.Boolean, nullable=False),
    sa.Column("created", sa.String(32), nullable=False, index=True),
)
sa.Table(
    "finals", LEGACY,
    sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("digest", sa.String(64), nullable=False),
    sa.Column("fields", sa.JSON, nullable=False),
)


def made_before_migrations(engine: sa.Engine, names: tuple[str, ...]) -> None:
    """The tables ``names`` as an older server made them: create_all, no alembic_version."""
    with engine.begin() as conn:
        LEGACY.create_all(conn, tables=[LEGACY.tables[n] for n in names])


def legacy_rows(engine: sa.Engine) -> tuple[list, list]:
    """The rows of matches and moves, the baseline's columns."""
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(sa.select(legacy_matches).order_by(legacy_matches.c.id))], \
            [tuple(r) for r in conn.execute(sa.select(legacy_moves).order_by(legacy_moves.c.match_id,
                                                                              legacy_moves.c.ply))]


def old_matches(engine: sa.Engine) -> dict[str, list[str]]:
    """Three matches stored as the baseline server stored them (two with moves, one with an open seat):
    their ids and moves."""
    stored: dict[str, list[str]] = {}
    with engine.begin() as conn:
        for n, seats in enumerate([["human", "open"], ["human", "human"], ["human", "ai:1"]]):
            state = hexarena.load("projective-hex", **SMALL).new_state()
            for _ in range(n):
                state.play(state.legal_moves()[0])
            stamp = f"2026-11-0{n + 1}T10:00:00.000+00:00"
            conn.execute(sa.insert(legacy_matches).values(
                id=f"old{n}", game="projective-hex", options=SMALL, seats=seats, tokens=["x" * 64, None],
                resigned=None, ply=n, version=n, over=False, winner=None, status="", created=stamp, updated=stamp))
            if n:
                conn.execute(sa.insert(legacy_moves), [{"match_id": f"old{n}", "ply": i, "move": m, "time": stamp}
                                                for i, m in enumerate(state.moves())])
            stored[f"old{n}"] = state.moves()
    return stored


def test_an_empty_database_upgrades_to_the_declared_schema(engine: sa.Engine) -> None:
    migrations.upgrade(engine)
    assert revision(engine) == HEAD
    assert tables(engine) == set(metadata.tables) | {"alembic_version"}
    assert differences(engine) == []


def test_a_baseline_database_keeps_its_matches_and_gains_their_creators(db_url: str) -> None:
    engine = make_engine(db_url)
    made_before_migrations(engine, ("matches", "moves"))
    stored = old_matches(engine)
    before = legacy_rows(engine)
    engine.dispose()
    store = Store(db_url)
    try:
        assert revision(store.db.engine) == HEAD and differences(store.db.engine) == []
        after = legacy_rows(store.db.engine)
        with store.db.engine.connect() as conn:
            clients = [tuple(r) for r in conn.execute(sa.select(
                match_clients.c.match_id, match_clients.c.client, match_clients.c.waiting, match_clients.c.created,
            ).order_by(match_clients.c.match_id))]
        assert after == before and len(before[1]) == 3
        assert clients == [("old0", "", True, "2026-11-01T10:00:00.000+00:00"),
                           ("old1", "", False, "2026-11-02T10:00:00.000+00:00"),
                           ("old2", "", False, "2026-11-03T10:00:00.000+00:00")]
        for match_id, texts in stored.items():
            assert store.matches.get(match_id).state.moves() == texts
        assert [m["id"] for m in store.lookups.listing("open")] == ["old0"]
    finally:
        store.close()


def test_a_database_of_the_last_release_upgrades_in_place_and_keeps_every_match(db_url: str) -> None:
    """A database as the server before the arena left it (revision 0003, with matches and moves) upgrades on
    start: every match and move is found, as casual matches without a clock and without accounts."""
    engine = make_engine(db_url)
    migrations.upgrade(engine, "0003")
    stored = old_matches(engine)
    before = legacy_rows(engine)
    engine.dispose()
    store = Store(db_url)
    try:
        assert revision(store.db.engine) == HEAD and differences(store.db.engine) == []
        assert legacy_rows(store.db.engine) == before
        with store.db.engine.connect() as conn:
            assert [tuple(r) for r in conn.execute(sa.select(matches.c.rated, matches.c.clock, matches.c.deadline)
                                                   )] == [(False, None, None)] * 3
        for match_id, texts in stored.items():
            match = store.matches.get(match_id)
            assert match.state.moves() == texts and match.players == [None, None]
    finally:
        store.close()


@pytest.mark.parametrize("names, stamped", [(("matches", "moves"), "0001"),
                                            (("matches", "moves", "match_clients"), "0002"),
                                            (("matches", "moves", "match_clients", "finals"), "0003")])
def test_a_database_made_before_migrations_is_stamped_by_its_tables(
        engine: sa.Engine, names: tuple[str, ...], stamped: str) -> None:
    made_before_migrations(engine, names)
    with migrations.migrating(engine) as conn:
        assert migrations.stamp_legacy(conn) == stamped
    assert revision(engine) == stamped
    migrations.upgrade(engine)
    assert revision(engine) == HEAD and differences(engine) == []


def test_an_empty_or_versioned_database_is_not_stamped(engine: sa.Engine) -> None:
    with migrations.migrating(engine) as conn:
        assert migrations.stamp_legacy(conn) is None
    migrations.upgrade(engine, "0001")
    with migrations.migrating(engine) as conn:
        assert migrations.stamp_legacy(conn) is None
    assert revision(engine) == "0001"


def test_downgrade_to_base_and_upgrade_again(engine: sa.Engine) -> None:
    migrations.upgrade(engine)
    migrations.downgrade(engine, "0001")
    assert tables(engine) == {"alembic_version", "matches", "moves"} and revision(engine) == "0001"
    migrations.downgrade(engine, "base")
    assert tables(engine) == {"alembic_version"} and revision(engine) is None
    migrations.upgrade(engine)
    assert revision(engine) == HEAD and differences(engine) == []
    with engine.begin() as conn:  # the tables work: a match, its move, its creator, its final
        conn.execute(sa.insert(matches).values(
            id="m", game="projective-hex", options=SMALL, seats=["human", "human"], tokens=[None, None], ply=1,
            version=1, over=True, status="", created="t", updated="t"))
        conn.execute(sa.insert(moves).values(match_id="m", ply=0, move="a1", time="t"))
        conn.execute(sa.insert(match_clients).values(match_id="m", client="", waiting=False, created="t"))
        conn.execute(sa.insert(finals).values(match_id="m", ply=1, digest="d", fields={}))


def open_stores(url: str, n: int) -> tuple[list[Store], list[BaseException], list[threading.Thread]]:
    """``n`` stores of ``url`` opened by threads released at once: (the stores, the errors, threads still busy
    after 60 s)."""
    start = threading.Barrier(n)
    stores: list[Store] = []
    errors: list[BaseException] = []

    def open_store() -> None:
        start.wait()
        try:
            stores.append(Store(url))
        except BaseException as e:  # reported by the caller
            errors.append(e)

    threads = [threading.Thread(target=open_store, daemon=True) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return stores, errors, [t for t in threads if t.is_alive()]


def test_stores_starting_at_once_on_one_database_all_come_up(db_url: str) -> None:
    stores, errors, stuck = open_stores(db_url, 3)
    try:
        assert errors == [] and stuck == [] and len(stores) == 3
        with stores[0].db.engine.connect() as conn:
            assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all() == [HEAD]
        assert differences(stores[1].db.engine) == []
    finally:
        for s in stores:
            s.close()


def test_a_connection_waits_its_turn_to_switch_a_new_database_to_wal(tmp_path: Path) -> None:
    """Stores opening a new SQLite database at once race to switch it to WAL; the loser was told "database is
    locked" at once (a store failed to start in about 4% of three-store starts); it now tries again."""
    path = tmp_path / "new.db"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    late = sqlite3.connect(path, isolation_level=None, timeout=0.01)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        late.execute("PRAGMA journal_mode=WAL")
    release = threading.Timer(0.2, lambda: holder.execute("COMMIT"))
    release.start()
    _write_ahead_log(late)
    release.join()
    assert late.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    holder.close()
    late.close()


def test_on_postgresql_a_store_migrates_only_under_the_schema_lock() -> None:
    """Processes starting at once (serve --workers N) take turns: while another holds the lock, a store waits."""
    with fresh_pg() as url:
        other = make_engine(url)
        stores: list[Store] = []
        opening = threading.Thread(target=lambda: stores.append(Store(url)), daemon=True)
        try:
            with other.connect() as conn:
                with conn.begin():
                    conn.execute(sa.text(migrations.SCHEMA_LOCK))
                    opening.start()
                    opening.join(timeout=0.5)
                    assert opening.is_alive() and stores == []
                    assert tables(other) == set()  # nothing created meanwhile
                opening.join(timeout=60)  # the lock released at commit
            assert stores and revision(other) == HEAD and differences(other) == []
        finally:
            for s in stores:
                s.close()
            other.dispose()


def test_a_batch_migration_on_sqlite_keeps_the_rows_that_refer_to_the_table(tmp_path: Path) -> None:
    """Batch mode copies a table and drops the old one: with foreign keys on, that drop would cascade."""
    engine = make_engine(f"sqlite:///{tmp_path / 'batch.db'}")
    migrations.upgrade(engine)
    old_matches(engine)
    with migrations.migrating(engine) as conn:
        ops = Operations(MigrationContext.configure(conn, opts={"render_as_batch": True}))
        with ops.batch_alter_table("matches", recreate="always") as batch:
            batch.add_column(sa.Column("note", sa.Text()))
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(moves)).scalar() == 3
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1  # on again for the store
    engine.dispose()


def test_a_migration_that_breaks_a_foreign_key_on_sqlite_is_rolled_back(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'broken.db'}")
    migrations.upgrade(engine)
    with pytest.raises(RuntimeError, match="a migration broke 1 foreign keys"), \
            migrations.migrating(engine) as conn:
        conn.execute(sa.insert(moves).values(match_id="nowhere", ply=0, move="a1", time="t"))
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(moves)).scalar() == 0
    engine.dispose()


def test_the_command_line_runs_alembic_with_the_package_config(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from hexarena.server.migrations.__main__ import main

    url = f"sqlite:///{tmp_path / 'cli.db'}"
    main(["heads"])
    assert capsys.readouterr().out.strip() == f"{HEAD} (head)"
    main(["-x", f"db={url}", "upgrade", "0002"])
    main(["-x", f"db={url}", "current"])
    assert capsys.readouterr().out.strip() == "0002"
    with pytest.raises(SystemExit, match="name the database"):
        main(["current"])


def test_an_installed_package_ships_the_migrations() -> None:
    """Every file under migrations/ is in a package (its directory has __init__.py) or in package-data."""
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["hexarena"]
    package = ROOT / "src" / "hexarena"
    files = [p for p in (package / "server" / "migrations").rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert {p.name for p in files} >= {"env.py", "script.py.mako", "0001_baseline.py", "0003_finals.py"}
    for p in files:
        name = p.relative_to(package).as_posix()
        assert (p.suffix == ".py" and (p.parent / "__init__.py").exists()) or \
            any(fnmatch.fnmatch(name, g) for g in globs), f"{name} would be missing from an installed package"


def test_the_tournament_tables_come_with_0010_and_go_with_its_downgrade(engine: sa.Engine) -> None:
    """0010 adds the tournaments, their players and games and the championships' sign-ups; down to 0009 drops
    them (and nothing else), up again brings them back as declared."""
    event_tables = {"tournaments", "tournament_players", "tournament_games", "championship_entries"}
    migrations.upgrade(engine)
    assert event_tables <= tables(engine)
    migrations.downgrade(engine, "0009")
    assert not event_tables & tables(engine) and "matches" in tables(engine) and revision(engine) == "0009"
    migrations.upgrade(engine)
    assert event_tables <= tables(engine) and differences(engine) == []
