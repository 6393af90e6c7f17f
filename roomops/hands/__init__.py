"""Hands recorded at the table: the button, the blinds and every seat's missed-blind buttons
(R33-R36, R40), kept by the pure engine in ``roomops.blinds``; the dealer's table screen."""

from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect


def install(app: Flask, csrf: CSRFProtect) -> None:
    from roomops.hands.views import bp

    app.register_blueprint(bp)
