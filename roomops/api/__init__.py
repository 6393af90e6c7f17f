"""The JSON API, described by an OpenAPI 3 document."""

from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect


def install(app: Flask, csrf: CSRFProtect) -> None:
    from roomops.api import (  # noqa: F401  (they attach to the blueprint)
        auth,
        dealers,
        feed,
        figures,
        hands,
        jackpots,
        ledger,
        moves,
        openapi,
        penalties,
        phone,
        playovers,
        tokes,
    )
    from roomops.api.views import bp

    # Token callers have no CSRF token: roomops.api.auth checks CSRF itself for session callers.
    csrf.exempt(bp)
    app.register_blueprint(bp)
