"""What the server's tests share: the test PostgreSQL (a fresh schema per test), a small board, and the
requests most tests make."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from hexarena.server.schema import matches, moves

PG = os.environ.get("HEXARENA_TEST_PG")
SMALL = {"size": 2, "opening": "none"}


def pg_schema_url(base: str) -> tuple[str, str]:
    """A fresh schema on the test PostgreSQL: (its name, a URL whose connections use it)."""
    import psycopg
    from sqlalchemy.engine import make_url

    schema = "t_" + secrets.token_hex(6)
    conninfo = make_url(base).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    return schema, f"{base}?options={quote(f'-csearch_path={schema}')}"


def drop_schema(base: str, schema: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    conninfo = make_url(base).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@contextmanager
def fresh_pg() -> Iterator[str]:
    """A URL of the test PostgreSQL in a schema of its own, dropped afterwards (skip without one)."""
    if not PG:
        pytest.skip("HEXARENA_TEST_PG is not set (./dev test sets it)")
    schema, url = pg_schema_url(PG)
    try:
        yield url
    finally:
        drop_schema(PG, schema)


def create(client: TestClient, seats: list[str], game: str = "projective-hex", options: dict | None = None) -> dict:
    r = client.post("/api/matches", json={"game": game, "options": SMALL if options is None else options,
                                          "seats": seats})
    assert r.status_code == 200, r.text
    return r.json()


def get(client: TestClient, match_id: str) -> dict:
    r = client.get(f"/api/matches/{match_id}")
    assert r.status_code == 200, r.text
    return r.json()


def play(client: TestClient, match_id: str, token: str, move: str, ply: int) -> dict:
    r = client.post(f"/api/matches/{match_id}/moves", json={"move": move, "token": token, "ply": ply})
    assert r.status_code == 200, r.text
    return r.json()


def settled(client: TestClient, match_id: str, timeout: float = 60) -> dict:
    """The match once its AI is done thinking."""
    deadline = time.monotonic() + timeout
    while True:
        obj = get(client, match_id)
        if not obj["thinking"]:
            return obj
        assert time.monotonic() < deadline, "the AI never moved"
        time.sleep(0.02)


def rows(client: TestClient, match_id: str) -> tuple[list, list]:
    """The stored rows of a match."""
    store = client.app.state.server.store
    with store.db.engine.connect() as conn:
        m = [tuple(r) for r in conn.execute(select(matches).where(matches.c.id == match_id))]
        mv = [tuple(r) for r in conn.execute(select(moves).where(moves.c.match_id == match_id).order_by(moves.c.ply))]
    return m, mv


# the contract --------------------------------------------------------------------
