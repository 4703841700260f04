"""The server's answers: JSON serialized once, the one-line errors, downloads."""

from __future__ import annotations

import json
from typing import Any

from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def reply(value: Any) -> Response:
    """A JSON answer, serialized once (no response model: the objects are built by the server)."""
    return Response(dumps(value), media_type="application/json")


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def validation_message(exc: RequestValidationError) -> str:
    """One line for a request FastAPI could not read (malformed JSON, a missing or mistyped field)."""
    first = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    if first.get("type") == "json_invalid":
        return "malformed JSON"
    message = first.get("msg", "malformed request")
    return f"{where}: {message}" if where else message


def download(body: str, media_type: str, name: str) -> Response:
    """``body`` sent as the file ``name``."""
    return Response(body, media_type=media_type, headers={"Content-Disposition": f'attachment; filename="{name}"'})
