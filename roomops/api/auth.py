"""Who calls the API: a staff member's Bearer token, or the browser session with a CSRF token on
unsafe methods (the global CSRFProtect exempts the API blueprint, token callers have none)."""

from __future__ import annotations

from flask import current_app, jsonify, request
from flask_login import current_user
from werkzeug.wrappers import Response

from roomops.api.views import bp
from roomops.rooms.services import hash_token
from roomops.security_log import security_event

PUBLIC = {"api.openapi_json"}


def unauthorized(message: str) -> Response:
    security_event("access.refused", status=401, reason=message)
    resp = jsonify(error=message, rule="R61")
    resp.status_code = 401
    resp.headers["WWW-Authenticate"] = 'Bearer realm="roomops"'
    return resp


@bp.before_request
def authenticate() -> Response | None:
    if request.endpoint in PUBLIC:
        return None
    header = request.headers.get("Authorization")
    if header is not None:
        # A token that does not resolve is refused even if a session cookie came along with it.
        scheme, _, token = header.partition(" ")
        if (scheme != "Bearer" or not token.strip() or not current_user.is_authenticated
                or current_user.api_token_hash != hash_token(token.strip())):
            return unauthorized("the API token is not valid (or was revoked)")
        return None
    if not current_user.is_authenticated:
        return unauthorized("log in, or send Authorization: Bearer <token>")
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        current_app.extensions["csrf"].protect()  # CSRFError (400) on POST/PATCH without X-CSRFToken
    return None
