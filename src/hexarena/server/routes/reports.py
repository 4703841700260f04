"""The analysis reports: listed (JSON and HTML) and shown (docs/server.md, "Analysis reports")."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response

from hexarena.games.options import shown

from .. import reports
from ..http import reply
from ..models import ReportListed
from ..errors import Refused


def reports_router(root: Path) -> APIRouter:
    """The routes of the reports kept under ``root``."""
    router = APIRouter(tags=["reports"])

    def found(name: str) -> Path:
        path = reports.report_dir(root, name)
        if path is None:
            raise Refused(404, f"no report {shown(name)}")
        return path

    @router.get("/api/reports", response_model=list[ReportListed])
    def report_list() -> Response:
        return reply(reports.listing(root))

    @router.get("/api/reports/{name}")
    def report_json(name: str) -> FileResponse:
        return FileResponse(found(name) / "report.json", media_type="application/json")

    @router.get("/reports", include_in_schema=False)
    def report_index() -> HTMLResponse:
        return HTMLResponse(reports.index_page(root))

    @router.get("/reports/{name}", include_in_schema=False)
    def report_page(name: str) -> FileResponse:
        page = found(name) / "report.html"
        return FileResponse(page, media_type="text/html",
                            headers={"Content-Security-Policy": reports.page_policy(page)})

    return router
