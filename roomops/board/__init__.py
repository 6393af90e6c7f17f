"""The public board: games, seats and lists for players (no login)."""

from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect


def install(app: Flask, csrf: CSRFProtect) -> None:
    from roomops.board.views import bp

    app.register_blueprint(bp)
