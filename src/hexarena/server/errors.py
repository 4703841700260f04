"""The server's refusal: an HTTP status and one line, raised anywhere below a route and answered as
``{"error": ...}`` by the app (:func:`.app.add_errors`)."""

from __future__ import annotations


class Refused(Exception):
    """A request refused with an HTTP status and one line (and for a 429, the seconds to wait); nothing changed."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.retry_after = status, message, retry_after
