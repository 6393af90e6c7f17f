"""The audit trail (R60): append-only, written in the same transaction as the change it records."""

from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect


def install(app: Flask, csrf: CSRFProtect) -> None:
    from roomops.audit.views import bp

    app.register_blueprint(bp)
