"""Every refusal is a 4xx naming the problem and the rule: JSON for the API, a message on forms."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from flask import Flask, g, jsonify, render_template, request
from flask_login import current_user
from flask_wtf.csrf import CSRFError
from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from roomops.errors import RoomopsError
from roomops.schemas import SCHEDULE_RULES
from roomops.security_log import security_event
from roomops.web.money import room_money

# the security log's event for a refusal, by status: someone kept out, someone slowed down
EVENTS = {401: "access.refused", 403: "access.refused", 429: "throttled", 503: "database.busy"}
BUSY = "The database is busy: nothing was changed, try again in a moment."
RETRY_SECONDS = 2  # a busy SQLite frees its write lock within its busy timeout; ask again soon
# SQLite's words for a lock it waited for in vain; PostgreSQL's busy states (SQLSTATE): lock not
# available, deadlock, serialization failure, statement timeout, too many connections
SQLITE_BUSY = ("database is locked", "database table is locked", "database is busy")
PG_BUSY = frozenset({"55P03", "40P01", "40001", "57014", "53300"})
# pages that answer a failed CSRF check themselves, by endpoint, in their own words and language
# (the phone pages: the form again, with a fresh token); the others get the plain 400
CSRF_PAGES: dict[str, Callable[[], Response | None]] = {}


def wants_json() -> bool:
    """The API, a JSON body, or a page's script asking for JSON only (the dealer's rake limit)."""
    return (request.path.startswith("/api/") or request.is_json
            or request.accept_mimetypes.best == "application/json")


def describe(err: ValidationError) -> str:
    parts = []
    for e in err.errors():
        where = ".".join(str(p) for p in e["loc"]) or "body"
        parts.append(f"{where}: {e['msg']}")
    return "; ".join(parts)


def refusal(message: str, rule: str | None, status: int,
            amounts: Mapping[str, int] | None = None, extra: Mapping[str, object] | None = None,
            **logged: object) -> Response:
    """Roll back whatever the request wrote, log the refusal (with ``logged``), answer 4xx (never
    half-written). ``amounts``: those the message names, also given to the API in minor units;
    ``extra``: more the API answers with (a refusal's candidates)."""
    _roll_back()
    security_event(EVENTS.get(status, "request.refused"), status=status, rule=rule,
                   reason=message, **logged)
    if wants_json():
        resp = jsonify(error=message, rule=rule, **({"amounts": amounts} if amounts else {}),
                       **(extra or {}))
        resp.status_code = status
        return resp
    page = render_template("error.html", message=message, rule=rule, back=request.referrer)
    return Response(page, status=status, mimetype="text/html")


def busy(err: OperationalError) -> bool:
    """Whether the database failed because it is busy or out of reach (so the request may be
    tried again), not because of a fault in a statement (SQLite's "no such table" is an
    OperationalError too, and stays a 500)."""
    orig, state = err.orig, getattr(err.orig, "sqlstate", None)
    if type(orig).__module__.startswith("sqlite3"):
        return str(orig).startswith(SQLITE_BUSY)
    return state is None or state in PG_BUSY or str(state).startswith("08")  # 08: connection


def _roll_back() -> None:
    session = g.get("db")
    if session is not None:
        session.rollback()


def _retry_later() -> Response:
    """A busy database is a 503 with Retry-After (RFC 9110), JSON or a page, never a 500; the
    request wrote nothing (rolled back)."""
    resp = refusal(BUSY, None, 503)
    resp.headers["Retry-After"] = str(RETRY_SECONDS)
    return resp


def install(app: Flask) -> None:
    @app.errorhandler(RoomopsError)
    def _domain(err: RoomopsError) -> Response:
        _roll_back()  # first: the room's money may be read, not in a transaction a failure ended
        text = err.text(room_money()) if err.amounts else err.text()
        return refusal(text, err.rule, err.status, err.amounts, err.extra)

    @app.errorhandler(ValidationError)
    def _invalid(err: ValidationError) -> Response:
        first = err.errors()[0]["loc"]
        return refusal(describe(err), SCHEDULE_RULES.get(str(first[0])) if first else None, 422)

    @app.errorhandler(IntegrityError)
    def _clash(_err: IntegrityError) -> Response:
        # The database's invariants caught a race the checks before it could not see.
        return refusal("that clashed with another change made at the same moment; try again", None, 409)

    @app.errorhandler(OperationalError)
    def _busy(err: OperationalError) -> Response:
        if not busy(err):
            raise err  # a fault, not a busy database: Flask's 500 (_http), logged with its trace
        return _retry_later()

    @app.errorhandler(PoolTimeout)
    def _no_connection(_err: PoolTimeout) -> Response:
        return _retry_later()  # every pooled connection in use for the pool's whole timeout

    @app.errorhandler(HTTPException)
    def _http(err: HTTPException) -> Response:
        if wants_json():
            resp = jsonify(error=err.description, rule=None)
            resp.status_code = err.code or 500
            # what the refusal's own headers say besides its body's type: a 405's Allow (RFC 9110)
            resp.headers.extend((k, v) for k, v in err.get_headers() if k.lower() != "content-type")
            return resp
        return err.get_response()

    @app.errorhandler(CSRFError)
    def _csrf(err: CSRFError) -> Response:
        # checked before the view, so before anything loaded the staff member: load them now
        who = ({"staff_id": current_user.id, "room_id": current_user.room_id}
               if current_user.is_authenticated else {})
        security_event("csrf.failed", status=400, reason=err.description, **who)
        page = CSRF_PAGES.get(request.endpoint or "")
        answer = page() if page is not None and not wants_json() else None
        return answer if answer is not None else _http(err)
