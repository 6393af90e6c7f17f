"""Who calls the API: a staff member's Bearer token, or the browser session with a CSRF token on
unsafe methods (the global CSRFProtect exempts the API blueprint, token callers have none). The
log-in itself and the route's right are checked first, for every route (``roomops.web.access``)."""

from __future__ import annotations

from flask import current_app, request
from flask_login import current_user
from werkzeug.wrappers import Response

from roomops.api.views import bp
from roomops.rooms.staff import hash_token
from roomops.web.access import PUBLIC, api_unauthorized


@bp.before_request
def authenticate() -> Response | None:
    if request.endpoint in PUBLIC:
        return None
    header = request.headers.get("Authorization")
    if header is not None:
        # A token that does not resolve is refused even if a session cookie came along with it.
        scheme, _, token = header.partition(" ")
        if (scheme != "Bearer" or not token.strip()
                or current_user.staff.api_token_hash != hash_token(token.strip())):
            return api_unauthorized("the API token is not valid (or was revoked)")
        return None
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        current_app.extensions["csrf"].protect()  # CSRFError (400) on POST/PATCH without X-CSRFToken
    return None
