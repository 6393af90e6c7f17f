"""The JSON API, described by an OpenAPI 3 document."""

from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect


def install(app: Flask, csrf: CSRFProtect) -> None:
    from roomops.api.views import bp

    app.register_blueprint(bp)
