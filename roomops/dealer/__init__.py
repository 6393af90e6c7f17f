"""The dealer's table screen: a tablet at the table recording hands through ``roomops.hands``."""

from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect


def install(app: Flask, csrf: CSRFProtect) -> None:
    from roomops.dealer import rake_limit  # noqa: F401  (its route joins the blueprint)
    from roomops.dealer.views import bp

    app.register_blueprint(bp)
