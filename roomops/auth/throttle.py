"""Failed log-ins and wrong approvals are throttled (R61, R28, ASVS V2.2.1; docs/security.md,
"Logins") per (typed username, address) and per address, on the app's clock, in the database
(``roomops.lockouts``): a growing delay for everyone, and a lockout from an address the account
has not used before, so guesses from one address never lock the right person out from another,
nor from their own desk for longer than the delay. An admin sees and clears lockouts (the staff
screen). The gate and the password's check run apart, with no write transaction open.

Flask-Limiter keeps what it does well, where nothing needs listing or clearing: wrong current
passwords of a log-in (per log-in) and joins from the phone page (per address), in a moving
window whose counts are kept where ``ROOMOPS_RATELIMIT_STORAGE_URI`` says (Redis for several
workers). Its windows count real time, not the app's clock."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta
from math import ceil
from typing import TypeVar, cast

from flask import Flask, current_app, render_template, request
from flask_limiter import Limiter, RateLimitExceeded, RouteLimit
from flask_limiter.util import get_remote_address
from flask_login import current_user
from limits import parse
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from roomops.auth import approval
from roomops.lockouts import services as lockouts
from roomops.lockouts.models import ADDRESS_MAX, Kind
from roomops.lockouts.rules import Limits, Wait, in_words, typed, wait

__all__ = ["typed"]  # the views key log lines by it too
from roomops.lockouts.services import counted
from roomops.rooms.models import Staff
from roomops.runtime import ext
from roomops.security_log import security_event
from roomops.web.errors import refusal, wants_json
from roomops.web.uow import apart, db, now

LOGIN = "auth.login"
PASSWORD = "account.password"

# One per process, as the app's CSRFProtect: the decorators below are bound to it at import,
# each app (``install``) gives it its storage.
limiter = Limiter(get_remote_address, strategy="moving-window", headers_enabled=True,
                  in_memory_fallback_enabled=True, key_prefix="roomops")
_VIEWS: set[Callable[..., object]] = set()  # the views that carry limits
V = TypeVar("V", bound=Callable[..., object])
T = TypeVar("T")


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


def _per_account() -> str:
    return ext().settings.login_limit_per_account


def limits() -> Limits:
    """The settings' limits as the rules count them: one window, the longer of the two."""
    settings = ext().settings
    pair, address = (parse(settings.login_limit_per_account),
                     parse(settings.login_limit_per_address))
    window = timedelta(seconds=max(pair.get_expiry(), address.get_expiry()))
    return Limits(pair.amount, address.amount, window)


def _address() -> str:
    return (request.remote_addr or "unknown")[:ADDRESS_MAX]


class Throttled(Exception):
    """A try refused before its password is checked: it must wait (429, with Retry-After)."""

    def __init__(self, kind: Kind, username: str, waiting: Wait, at: datetime) -> None:
        super().__init__(kind)
        self.kind, self.username, self.waiting = kind, typed(username), waiting
        self.left = waiting.until - at

    @property
    def message(self) -> str:
        words, when = WORDS[self.kind], in_words(self.left)
        if not self.waiting.locked:
            return f"Several {words[0]} for this {words[1]}: wait {when} before trying again."
        whom = "" if self.waiting.whole_address else f" for this {words[1]}"
        return f"Too many {words[0]}{whom} from this address: try again in {when}."


WORDS = {"login": ("failed log-ins", "username"), "approval": ("wrong approvals", "supervisor")}


def checked(kind: Kind, username: str, check: Callable[[Session], T]) -> T:
    """``check(session)`` (a password's), apart from the request's write transaction, unless
    the try must wait (``Throttled``, the password not even checked)."""
    at, counts = now(), limits()
    with apart() as reading:
        waiting = wait(counted(reading, kind, username, _address(), at, counts), at, counts)
        if waiting is None:
            return check(reading)
    raise Throttled(kind, username, waiting, at)


def failed(kind: Kind, username: str) -> None:
    """Count a wrong password, in a transaction of its own, committed now: the refusal that
    follows rolls the request back."""
    with ext().unit_of_work(db(), None, now()) as uow:
        lockouts.failed(db(), now(), kind, username, _address(), limits())
        uow.commit()


def succeeded(kind: Kind, staff_id: int, username: str) -> None:
    """The right password: in the request's transaction, committed with its change."""
    lockouts.succeeded(db(), now(), kind, staff_id, username, _address())


def approver(room_id: int, username: str, password: str, rule: str) -> Staff:
    """``roomops.auth.approval.approver``, throttled per (approver, address) and per address.
    The password is checked apart, with no write transaction open (on SQLite none holds the
    write lock for the ~0.1 s of Argon2); the approver is handed back from the request's
    session."""
    found = checked("approval", username,
                    lambda reading: approval.approver_id(reading, room_id, username, password))
    if found is None:
        failed("approval", username)
    else:
        succeeded("approval", found, username)
    return approval.approver(db(), found, username, rule)


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
    minutes = _wait()
    message = f"{err.description}: try again in {minutes} minute{'s' if minutes > 1 else ''}."
    if err.description == JOIN_REFUSED:
        own = None if wants_json() else PAGES.get(request.endpoint or "")
        page = own(minutes) if own is not None else None
        if page is not None:
            security_event("throttled", status=429, reason=message)
            return page, 429
        return refusal(message, "R12", 429)
    return refusal(message, "R61", 429, username=current_user.username)  # a current password


def _waiting(err: Throttled) -> Response:
    """A try that must wait: the log-in page again with the reason, or the JSON-or-page refusal
    (an approval at the cage or through the API, a log-in asking for JSON); Retry-After."""
    login = err.kind == "login"
    if login and not wants_json():
        security_event("throttled", status=429, username=err.username, reason=err.message)
        resp = Response(render_template("login.html", error=err.message), 429)
    else:
        resp = refusal(err.message, "R61" if login else "R28", 429, username=err.username)
    resp.headers["Retry-After"] = str(max(1, ceil(err.left.total_seconds())))
    return resp


def install(app: Flask) -> None:
    app.config["RATELIMIT_STORAGE_URI"] = ext(app).settings.ratelimit_storage_uri
    limiter.init_app(app)
    app.register_error_handler(RateLimitExceeded, _throttled)
    app.register_error_handler(Throttled, _waiting)


def renew(app: Flask) -> None:
    """The limiter's windows emptied, as a new process's memory starts (``roomops.factory.renew``;
    kept in Redis, they are emptied there too)."""
    limiter.reset()
