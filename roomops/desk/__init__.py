"""The supervisor's desk screen, the cage and the audit trail."""

from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect


def install(app: Flask, csrf: CSRFProtect) -> None:
    from roomops.desk import cage_slips, fees, moves, penalties, playovers, report  # noqa: F401  (they attach routes to the blueprints)
    from roomops.desk.audit import bp as audit
    from roomops.desk.cage import bp as cage
    from roomops.desk.views import bp

    app.register_blueprint(bp)
    app.register_blueprint(cage)
    app.register_blueprint(audit)
