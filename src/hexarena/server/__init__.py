"""hexarena's web app: ``hexarena serve`` (docs/server.md).

``create_app(db_url)`` builds the FastAPI app on a database (an SQLAlchemy
URL: SQLite, or PostgreSQL for several processes).  It is imported on first
use, so the command line reads ``serve``'s options (:mod:`.limits`) without
loading the web framework.  It needs the ``server`` extra
(``pip install 'hexarena[server]'``); without it, importing any part of it
says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..extras import require

require("server", __name__)

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
