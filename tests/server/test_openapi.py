"""The HTTP contract as OpenAPI: served at /api/openapi.json, and equal to the snapshot in
tests/data/openapi.json, so that a change to the contract shows as a diff in review.

After an intended change: HEXARENA_UPDATE_OPENAPI=1 .venv/bin/python -m pytest tests/server/test_openapi.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from fastapi.testclient import TestClient

from hexarena.server import create_app

SNAPSHOT = Path(__file__).parents[1] / "data" / "openapi.json"


def test_openapi_is_served_and_matches_the_snapshot(tmp_path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'hexarena.db'}")) as client:
        r = client.get("/api/openapi.json")
    assert r.status_code == 200
    spec = r.json()
    text = json.dumps(spec, indent=1, sort_keys=True) + "\n"
    if os.environ.get("HEXARENA_UPDATE_OPENAPI"):
        SNAPSHOT.write_text(text)
    assert text == SNAPSHOT.read_text(), ("the HTTP contract changed: if that is intended, update the snapshot "
                                          "(HEXARENA_UPDATE_OPENAPI=1, see this module's docstring) and say so in "
                                          "docs/server.md")
    paths = set(spec["paths"])
    assert {"/api/matches", "/api/matches/{match_id}/moves", "/api/account/login", "/api/games"} <= paths
    assert not any(p.startswith("/static") or p == "/" for p in paths)
