"""Failed log-ins and wrong approvals are throttled (R61, ASVS V2.2.1; docs/security.md, "Logins"),
with Flask-Limiter: per typed username and per address, counting only the failures
(``deduct_when``), in a moving window whose counts are kept where
``ROOMOPS_RATELIMIT_STORAGE_URI`` says (Redis for several workers). Past a limit the request is
refused with 429 before the password is even checked, and logged.

The windows count real time, not the app's clock: the counts are kept by the storage, outside
the app (and the tests never wait for a window to pass)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar, cast

from flask import Flask, current_app, g, render_template, request
from flask_limiter import Limiter, RateLimitExceeded, RouteLimit
from flask_limiter.util import get_remote_address
from flask_login import current_user
from werkzeug.wrappers import Response

from roomops.auth import approval
from roomops.errors import Forbidden
from roomops.rooms.models import Staff
from roomops.runtime import ext
from roomops.security_log import security_event
from roomops.web.errors import refusal, wants_json
from roomops.web.uow import apart, db

TYPED_MAX = 100  # characters of a typed username kept as a key (and logged)
LOGIN = "auth.login"
PASSWORD = "account.password"

# One per process, as the app's CSRFProtect: the decorators below are bound to it at import,
# each app (``install``) gives it its storage.
limiter = Limiter(get_remote_address, strategy="moving-window", headers_enabled=True,
                  in_memory_fallback_enabled=True, key_prefix="roomops")
_VIEWS: set[Callable[..., object]] = set()  # the views that carry limits
V = TypeVar("V", bound=Callable[..., object])


@limiter.request_filter
def _elsewhere() -> bool:
    """Any other view skips the limiter: its look-ups cost ~0.1 ms a request."""
    return current_app.view_functions.get(request.endpoint or "") not in _VIEWS


def _throttle(*limits: RouteLimit) -> Callable[[V], V]:
    def decorate(view: V) -> V:
        for limit in limits:
            view = cast(V, limit(view))  # Flask-Limiter's wrapper keeps the signature
        _VIEWS.add(view)
        return view

    return decorate


def typed(name: object) -> str:
    """A typed username as the limits count it: trimmed, case folded, bounded."""
    return str(name or "").strip().casefold()[:TYPED_MAX]


def _per_account() -> str:
    return ext().settings.login_limit_per_account


def _per_address() -> str:
    return ext().settings.login_limit_per_address


def _login_username() -> str:
    return typed(request.form.get("username"))


def _failed_login(response: Response) -> bool:
    return response.status_code == 401


login_limits = _throttle(
    limiter.limit(_per_account, key_func=_login_username, methods=["POST"],
                  deduct_when=_failed_login, error_message="Too many failed log-ins for this username"),
    limiter.limit(_per_address, methods=["POST"], deduct_when=_failed_login,
                  error_message="Too many failed log-ins from this address"))


def _approver_username() -> str:
    """The approving supervisor's username typed into the cage's form or the API's body."""
    body = request.get_json(silent=True)
    given = body.get("approval") if isinstance(body, dict) else None
    return typed(given.get("username") if isinstance(given, dict) else request.form.get("approver"))


def _no_approval() -> bool:
    return not _approver_username()


def _approval_refused(_response: Response) -> bool:
    return bool(g.get("approval_refused"))


# shared: a wrong approval at the cage's page and one through the API count together
approval_limits = _throttle(
    limiter.shared_limit(_per_account, "approval", key_func=_approver_username,
                         deduct_when=_approval_refused, exempt_when=_no_approval,
                         error_message="Too many wrong approvals for this supervisor"),
    limiter.shared_limit(_per_address, "approval", deduct_when=_approval_refused,
                         exempt_when=_no_approval,
                         error_message="Too many wrong approvals from this address"))


def approver(room_id: int, username: str, password: str, rule: str) -> Staff:
    """``roomops.auth.approval.approver``, a refusal counted against the approval limits. The
    password is checked apart, with no write transaction open (on SQLite none holds the write
    lock for the ~0.1 s of Argon2); the approver is handed back from the request's session."""
    with apart() as reading:
        found = approval.approver_id(reading, room_id, username, password)
    try:
        return approval.approver(db(), found, username, rule)
    except Forbidden:
        g.approval_refused = True
        raise


def _own_account() -> str:
    return f"staff:{current_user.id}"


def _wrong_password(response: Response) -> bool:
    return response.status_code == 403


# a desk left logged in: whoever sits at it cannot try current passwords without end (ASVS V2.2.1)
password_limits = _throttle(
    limiter.limit(_per_account, key_func=_own_account, methods=["POST"],
                  deduct_when=_wrong_password,
                  error_message="Too many wrong current passwords for this log-in"))


def _per_address_joins() -> str:
    return ext().settings.join_limit_per_address


JOIN_REFUSED = "Too many tries to join a list from this address"
# R12: joining lists from the phone page (the page and the API), every attempt counted per address
join_limits = _throttle(limiter.shared_limit(
    _per_address_joins, "join", methods=["POST"], error_message=JOIN_REFUSED))
# a page that shows its own refusal, in its own words and language, with what was typed (the
# phone page's join form): given the whole minutes to wait; None: the JSON-or-page refusal
PAGES: dict[str, Callable[[int], str | None]] = {}


def _wait() -> int:
    """Whole minutes until the limit that was hit lets one more through."""
    hit = limiter.current_limit
    seconds = hit.reset_at - time.time() if hit is not None else 60
    return max(1, round(seconds / 60))  # the storage keeps whole seconds: 900.4 s is "15"


def _throttled(err: RateLimitExceeded) -> Response | tuple[str, int]:
    login = request.endpoint == LOGIN
    minutes = _wait()
    message = f"{err.description}: try again in {minutes} minute{'s' if minutes > 1 else ''}."
    if err.description == JOIN_REFUSED:
        own = None if wants_json() else PAGES.get(request.endpoint or "")
        page = own(minutes) if own is not None else None
        if page is not None:
            security_event("throttled", status=429, reason=message)
            return page, 429
        return refusal(message, "R12", 429)
    if login and not wants_json():
        security_event("throttled", status=429, username=_login_username(), reason=message)
        return render_template("login.html", error=message), 429
    if request.endpoint == PASSWORD:
        return refusal(message, "R61", 429, username=current_user.username)
    # a log-in asking for JSON, or an approval at the cage or through the API
    return refusal(message, "R61" if login else "R28", 429,
                   username=_login_username() if login else _approver_username())


def install(app: Flask) -> None:
    app.config["RATELIMIT_STORAGE_URI"] = ext(app).settings.ratelimit_storage_uri
    limiter.init_app(app)
    app.register_error_handler(RateLimitExceeded, _throttled)
