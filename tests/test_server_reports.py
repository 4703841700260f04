"""The web app's analysis reports: GET /api/reports, /api/reports/{name},
/reports and /reports/{name} over a directory of ``hexarena analyze`` runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hexarena.analysis import lab
from hexarena.server import create_app


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("reports")
    lab.analyze("projective-hex", {"size": "2"}, ["opening=none,swap"], 2, lab.parse_agents("random"), 1,
                root / "ph-openings", workers=1)
    (root / "half-done").mkdir()  # a run directory without a report yet
    (root / "half-done" / "run.json").write_text("{}")
    return root


@pytest.fixture
def client(reports, tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite'}", reports_dir=reports)) as c:
        yield c


def test_reports_are_listed_and_shown(client):
    listed = client.get("/api/reports")
    assert listed.status_code == 200
    [entry] = listed.json()
    assert entry["name"] == "ph-openings" and entry["game"] == "projective-hex" and entry["games"] == 2
    assert entry["sets"] == ["opening=none", "opening=swap"] and entry["html"] == "/reports/ph-openings"
    page = client.get(entry["html"])
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "opening=swap" in page.text and "data:image/png;base64," in page.text
    numbers = client.get(entry["json"]).json()
    assert numbers["sets"][1]["metrics"]["outcomes"]["games"] == 2
    index = client.get("/reports")
    assert index.status_code == 200 and "/reports/ph-openings" in index.text


@pytest.mark.parametrize("path", ["/reports/half-done", "/reports/nothing", "/api/reports/..",
                                  "/api/reports/.hidden", "/reports/%2e%2e%2fetc"])
def test_unknown_reports_are_404(client, path):
    answer = client.get(path)
    assert answer.status_code == 404 and "error" in answer.json()


def test_no_reports_directory(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite'}", reports_dir=tmp_path / "none")) as c:
        assert c.get("/api/reports").json() == []
        assert "No reports" in c.get("/reports").text
