"""The server's fixtures: each database the tests run on (SQLite, and PostgreSQL when HEXARENA_TEST_PG names
one), and a test client of the app on it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from hexarena.server import create_app
from tests.server.helpers import fresh_pg


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'hexarena.db'}"
        return
    with fresh_pg() as url:
        yield url


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url)) as c:
        yield c
