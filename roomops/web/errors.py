"""Every refusal is a 4xx naming the problem and the rule: JSON for the API, a message on forms."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from flask import Flask, g, jsonify, render_template, request
from flask_login import current_user
from flask_wtf.csrf import CSRFError
from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from roomops.errors import RoomopsError
from roomops.schemas import SCHEDULE_RULES
from roomops.security_log import security_event
from roomops.web.money import room_money

# the security log's event for a refusal, by status: someone kept out, someone slowed down
EVENTS = {401: "access.refused", 403: "access.refused", 429: "throttled"}
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


def _roll_back() -> None:
    session = g.get("db")
    if session is not None:
        session.rollback()


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
