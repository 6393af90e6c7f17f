"""The supervisor's desk screen, the cage, the dealers' roster, the audit trail, the staff screen and
one's account."""

from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect


def install(app: Flask, csrf: CSRFProtect) -> None:
    from roomops.desk import cage_slips, fees, moves, penalties, phones, playovers, report  # noqa: F401  (they attach routes to the blueprints)
    from roomops.desk.account import bp as account
    from roomops.desk.audit import bp as audit
    from roomops.desk.cage import bp as cage
    from roomops.desk.dealers import bp as dealers
    from roomops.desk.figures import bp as figures
    from roomops.desk.jackpots import bp as jackpots
    from roomops.desk.staff import bp as staff
    from roomops.desk.tokes import bp as tokes
    from roomops.desk.views import bp

    renew(app)
    app.register_blueprint(bp)
    app.register_blueprint(cage)
    app.register_blueprint(audit)
    app.register_blueprint(staff)
    app.register_blueprint(account)
    app.register_blueprint(dealers)
    app.register_blueprint(tokes)
    app.register_blueprint(figures)
    app.register_blueprint(jackpots)


def renew(app: Flask) -> None:
    """The desk's drawings forgotten, as a new process starts (``roomops.factory.renew``)."""
    from roomops.desk.shared import KEY, Drawings

    app.extensions[KEY] = Drawings()
