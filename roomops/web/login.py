"""The views' guard for a request without a log-in, typed (Flask-Login ships no types)."""

from __future__ import annotations

from typing import cast

from flask import current_app
from werkzeug.wrappers import Response


def unauthorized() -> Response:
    """Flask-Login's answer to a request without a log-in: a redirect to the log-in page."""
    manager = current_app.login_manager  # type: ignore[attr-defined]  # set by LoginManager(app), undeclared on Flask
    return cast(Response, manager.unauthorized())
