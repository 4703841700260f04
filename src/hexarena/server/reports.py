"""Analysis reports (``hexarena analyze``) served from a directory: each
subdirectory holding a ``report.json`` and ``report.html`` is one report,
named by the subdirectory."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from functools import lru_cache
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")  # a directory name, shorter than any file system's limit
STYLE = re.compile(r"<style>(.*?)</style>", re.DOTALL)


def report_dir(root: Path, name: str) -> Path | None:
    """The directory of report ``name`` under ``root``, or None (a bad name, no such report, an unreadable one)."""
    if not NAME.fullmatch(name):
        return None
    path = root / name
    try:
        return path if (path / "report.json").is_file() and (path / "report.html").is_file() else None
    except OSError:  # a name the file system refuses
        return None


def page_policy(page: Path) -> str:
    """The Content-Security-Policy of a report's self-contained HTML page: no script at all, its own ``<style>``
    elements (by hash) and embedded images only."""
    stat = page.stat()
    return _page_policy(str(page), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=64)
def _page_policy(page: str, _mtime_ns: int, _size: int) -> str:
    text = Path(page).read_text(encoding="utf-8", errors="replace")
    hashes = sorted({"'sha256-" + base64.b64encode(hashlib.sha256(css.encode()).digest()).decode() + "'"
                     for css in STYLE.findall(text)})
    return ("default-src 'none'; script-src 'none'; style-src " + (" ".join(hashes) or "'none'")
            + "; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def summary(path: Path) -> dict[str, Any] | None:
    """The listing entry of the report in ``path``; None if its JSON is unreadable."""
    try:
        report = json.loads((path / "report.json").read_text())
        sets = report["sets"]
        return {"name": path.name, "title": report["title"], "game": report["game"], "agents": report["agents"],
                "games": report["games"], "sets": [s["label"] for s in sets], "seed": report["seed"],
                "updated": datetime.fromtimestamp((path / "report.json").stat().st_mtime, UTC)
                .isoformat(timespec="seconds"),
                "html": f"/reports/{path.name}", "json": f"/api/reports/{path.name}"}
    except (OSError, ValueError, KeyError, TypeError):
        return None


def listing(root: Path) -> list[dict[str, Any]]:
    """Every readable report under ``root``, by name."""
    if not root.is_dir():
        return []
    found = [summary(p) for p in sorted(root.iterdir()) if report_dir(root, p.name)]
    return [s for s in found if s is not None]


def index_page(root: Path) -> str:
    """An HTML page linking every report."""
    rows = "".join(
        f"<li><a href='{html.escape(s['html'])}'>{html.escape(s['title'])}</a> "
        f"<small>({s['games']} games a set, updated {html.escape(s['updated'])}; "
        f"<a href='{html.escape(s['json'])}'>JSON</a>)</small></li>" for s in listing(root))
    body = f"<ul>{rows}</ul>" if rows else f"<p>No reports in {html.escape(str(root))} yet: run hexarena analyze.</p>"
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>hexarena reports</title>"
            "<link rel='stylesheet' href='/static/reports.css'>"
            f"</head><body><main><h1>Analysis reports</h1>{body}<p><a href='/'>hexarena</a></p></main></body></html>")
