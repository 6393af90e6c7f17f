"""Security events as structured JSON lines (ASVS V7; docs/security.md, "Security logging"): log-ins,
failed log-ins, log-outs, throttling, refusals, CSRF failures, approvals, and the staff changes
the services report. No Flask: the web layer adds the request's address, route and staff member
to every line (``roomops.web.request_fields``).

Nothing secret is ever passed here: no password, token, cookie or hash, only what identifies who
did what from where."""

from __future__ import annotations

import logging
import sys
from logging.handlers import WatchedFileHandler
from typing import TextIO

from pythonjsonlogger.json import JsonFormatter

log = logging.getLogger("roomops.security")
HANDLER = "roomops.security"  # the name of the handler ``configure`` adds, to replace it

# an attempt on someone else's account or a refusal of access: WARNING; the rest INFO
WARNINGS = frozenset({"login.failed", "throttled", "approval.refused", "access.refused",
                      "csrf.failed", "api_token.refused"})


def security_event(event: str, **fields: object) -> None:
    """One line: ``event`` (e.g. "login.failed") and ``fields``, whose names may not be those of
    a ``logging.LogRecord``'s attributes (``name``, ``msg``, ``module``...)."""
    log.log(logging.WARNING if event in WARNINGS else logging.INFO, event, extra=fields)


def formatter() -> JsonFormatter:
    """A line is one JSON object: time (UTC, ISO 8601), level, event, then the fields."""
    return JsonFormatter(["levelname", "message"], timestamp="at",
                         rename_fields={"levelname": "level", "message": "event"})


class _Stderr(logging.StreamHandler[TextIO]):
    """stderr as it is when each line is written (a test runner swaps it for its own)."""

    @property  # read at each line, not kept as StreamHandler keeps the stream given
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _value: TextIO) -> None:
        pass


def configure(destination: str) -> None:
    """Send the lines to ``destination``: "stderr", or a file's path (appended to; reopened when
    log rotation moves it). Only there: not also through the root logger, which prints text."""
    handler: logging.Handler = (_Stderr() if destination == "stderr"
                                else WatchedFileHandler(destination, encoding="utf-8"))
    handler.set_name(HANDLER)
    handler.setFormatter(formatter())
    for old in [h for h in log.handlers if h.get_name() == HANDLER]:
        log.removeHandler(old)
        old.close()
    log.addHandler(handler)
    log.propagate = False
