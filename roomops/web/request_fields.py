"""Who and where, on every security log line written during a request (ASVS V7.1.3;
docs/security.md, "Security logging"): the address, method, path and endpoint, and the staff
member and room when someone is logged in. A field the caller gave itself is kept."""

from __future__ import annotations

import logging

from flask import g, has_request_context, request

from roomops.security_log import log


class RequestFields(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if has_request_context():
            for key, value in _fields().items():
                record.__dict__.setdefault(key, value)
        return True


def _fields() -> dict[str, object]:
    fields: dict[str, object] = {"address": request.remote_addr, "method": request.method,
                                 "path": _path(), "endpoint": request.endpoint}
    # Flask-Login's user once loaded: ``current_user`` would run the user loader, which may be
    # what is logging this very line
    user = g.get("_login_user")
    if user is not None and user.is_authenticated:
        fields.update(staff_id=user.id, room_id=user.room_id)
    return fields


def _path() -> str:
    """The path, or its route's pattern ("/p/<token>") when it carries a personal link's token:
    tokens are never logged (R61)."""
    if request.url_rule is not None and "token" in (request.view_args or {}):
        return request.url_rule.rule
    return request.path


def install() -> None:
    """Once per process: the logger is."""
    if not any(isinstance(f, RequestFields) for f in log.filters):
        log.addFilter(RequestFields())
