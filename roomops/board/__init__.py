"""The public board: games, seats and lists for players (no login)."""

from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect


def install(app: Flask, csrf: CSRFProtect) -> None:
    from roomops.board.render import FragmentCache
    from roomops.board.views import CACHE, bp

    app.register_blueprint(bp)
    # One cache per app: each game's rendered HTML, shared by the server's threads.
    app.extensions[CACHE] = FragmentCache()
