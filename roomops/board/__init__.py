"""The public board: games, seats and lists for players (no login)."""

from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect


def install(app: Flask, csrf: CSRFProtect) -> None:
    from roomops.board import phone  # noqa: F401  (attaches the phone pages to the blueprint)
    from roomops.board.views import bp

    app.register_blueprint(bp)
    renew(app)


def renew(app: Flask) -> None:
    """The board's caches emptied, as a new process starts (``roomops.factory.renew``)."""
    from roomops.board.render import FragmentCache
    from roomops.board.rows import RowsCache
    from roomops.board.views import CACHE, ROWS, WAITS
    from roomops.kept import Tally

    # One of each per app, shared by the server's threads: each game's rows, and its drawn HTML.
    # Both sized for the open games of every room the board has read (``roomops.kept.Tally``).
    games = Tally()
    app.extensions[ROWS] = RowsCache(tally=games)
    app.extensions[CACHE] = FragmentCache(tally=games)
    app.extensions[WAITS].clear()  # each room's fitted history (issue 21; roomops.factory)
