"""The supervisor's desk screen."""

from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect


def install(app: Flask, csrf: CSRFProtect) -> None:
    from roomops.desk import moves  # noqa: F401  (attaches to the blueprint)
    from roomops.desk.views import bp

    app.register_blueprint(bp)
