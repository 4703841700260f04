"""hexarena's web app: ``hexarena serve`` (docs/server.md).

``create_app(db_url)`` builds the FastAPI app on a database (an SQLAlchemy
URL: SQLite, or PostgreSQL for several processes).
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
