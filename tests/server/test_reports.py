"""The web app's analysis reports: GET /api/reports, /api/reports/{name},
/reports and /reports/{name} over a directory of ``hexarena analyze`` runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from hexarena.analysis import lab
from hexarena.server import create_app, models


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
    TypeAdapter(list[models.ReportListed]).validate_python(listed.json())  # as its response model names it
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
                                  "/api/reports/.hidden", "/reports/%2e%2e%2fetc", "/api/reports/" + "a" * 5000,
                                  "/reports/" + "a" * 5000, "/api/reports/" + "a" * 255, "/reports/a%00b"])
def test_unknown_reports_are_404(client, path):
    answer = client.get(path)
    assert answer.status_code == 404 and "error" in answer.json()
    assert len(answer.json()["error"]) < 300


def test_a_report_page_may_use_its_own_styles_and_no_script(client):
    """The report's self-contained page: its <style> allowed by hash, embedded images, no script at all."""
    page = client.get("/reports/ph-openings")
    policy = page.headers["Content-Security-Policy"]
    assert "script-src 'none'" in policy and "frame-ancestors 'none'" in policy and "img-src 'self' data:" in policy
    assert "unsafe-inline" not in policy and re.search(r"style-src 'sha256-[A-Za-z0-9+/=]{44}'", policy)
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    index = client.get("/reports")
    assert "<style" not in index.text and "/static/reports.css" in index.text
    assert client.get("/static/reports.css").status_code == 200


def test_no_reports_directory(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite'}", reports_dir=tmp_path / "none")) as c:
        assert c.get("/api/reports").json() == []
        assert "No reports" in c.get("/reports").text
