"""Log-in and log-out; every log-in, failed log-in and log-out is in the security log, log-ins and
failed log-ins of a known username in the audit trail too (docs/security.md, "Logins" and
"Security logging"). Failed log-ins are throttled (``roomops.auth.throttle``). A log-in ends on
the server (R61; docs/security.md, "Sessions"): at log-out, after the idle timeout and after its
lifetime."""

from __future__ import annotations

import logging
import secrets
from datetime import UTC, datetime

from flask import Blueprint, Flask, redirect, render_template, request, session, url_for
from flask_login import LoginManager, current_user, login_required, login_user, logout_user, user_unauthorized
from sqlalchemy import Select, bindparam, select
from werkzeug.wrappers import Response

from roomops.actors import Actor
from roomops.auth import throttle
from roomops.floor.unit import unit
from roomops.rooms.models import Room, Staff
from roomops.rooms.passwords import dummy_hash, verify_password
from roomops.rooms.services import end_sessions, hash_token, logged_in, login_failed
from roomops.rooms.session_rules import session_expired
from roomops.runtime import ext
from roomops.security_log import security_event
from roomops.web.uow import db, now, run

bp = Blueprint("auth", __name__)
log = logging.getLogger("roomops.security")
# who typed a wrong password, in the audit trail: not known, only which staff member it was for
FORM = "log-in form"
HOME = {"admin": "desk.index", "supervisor": "desk.index", "cashier": "desk.index",
        "dealer": "dealer.index"}  # a dealer's tablet opens on the table picker


@bp.route("/login", methods=["GET", "POST"])
@throttle.login_limits
def login() -> Response | str | tuple[str, int]:
    error = None
    if request.method == "POST":
        username = request.form.get("username", "").strip()
        password = request.form.get("password", "")
        staff = _check(username, password)
        if staff is not None:
            _begin(staff)
            run(logged_in, password, request.remote_addr)
            security_event("login.ok", staff_id=staff.id, room_id=staff.room_id, role=staff.role)
            return redirect(url_for(HOME[staff.role]))
        security_event("login.failed", username=throttle.typed(username))
        error = "Wrong username or password."
    return render_template("login.html", error=error), 401 if error else 200


def _check(username: str, password: str) -> Staff | None:
    """The active staff member whose password this is. The password is checked once whether the
    username is known or not (against a dummy hash when not, or when its staff member is
    inactive): a refusal takes the same time either way and does not tell which usernames
    exist. A wrong password for a known username is audited in that staff member's room."""
    found = db().scalar(select(Staff).where(Staff.username == username))
    staff = found if found is not None and found.active else None
    if verify_password(staff.password_hash if staff else dummy_hash(), password) and staff:
        return staff
    if found is not None:
        with unit(db(), Actor(found.room_id, None, FORM, "none"), now()) as uow:
            uow.run(login_failed, found.id, request.remote_addr)
            uow.commit()
    return None


@bp.post("/logout")
@login_required  # type: ignore[untyped-decorator]  # Flask-Login ships no type information
def logout() -> Response:
    run(end_sessions)  # every copy of the cookie, on every device, is refused from now on
    security_event("logout", staff_id=current_user.id, room_id=current_user.room_id)
    logout_user()
    session.clear()
    return redirect(url_for("auth.login"))


def _begin(staff: Staff) -> None:
    """A new session: nothing from before the log-in survives (no fixation), and it carries a new
    id, the staff member's session version and its times from the app's clock."""
    session.clear()
    login_user(staff)
    stamp = now().timestamp()
    session.update(sid=secrets.token_urlsafe(16), version=staff.session_version,
                   logged_in=stamp, seen=stamp)


def _current(staff: Staff) -> bool:
    """Whether the request's session still stands (R61): its staff member's sessions have not
    been ended since it began, and it is neither idle too long nor too old. Marks it seen."""
    at = now()
    try:
        logged_in, seen = (datetime.fromtimestamp(session[k], UTC) for k in ("logged_in", "seen"))
    except (KeyError, TypeError, ValueError, OverflowError, OSError):
        return False  # a cookie from before sessions had times
    if session.get("version") != staff.session_version or session_expired(
            ext().settings.session_limits, logged_in, seen, at):
        return False
    session["seen"] = at.timestamp()
    return True


# Built once: every request with a log-in or a token runs one. The staff member's room comes in
# the same statement: nearly every request reads it next (its policies, its clock, R1).
_STAFF = select(Staff, Room).join(Room, Room.id == Staff.room_id)
_BY_ID = _STAFF.where(Staff.id == bindparam("id"))
_BY_TOKEN = _STAFF.where(Staff.api_token_hash == bindparam("hash"))


def _active(stmt: Select[tuple[Staff, Room]], params: dict[str, object]) -> Staff | None:
    row = db().execute(stmt, params).first()
    return row[0] if row is not None and row[0].active else None


def _load_staff(staff_id: str) -> Staff | None:
    staff = _active(_BY_ID, {"id": int(staff_id)})
    if staff is not None and _current(staff):
        return staff
    log.info("session refused: staff %s from %s", staff_id, request.remote_addr)
    session.clear()  # the browser drops the dead cookie
    return None


def _load_from_token(req: object) -> Staff | None:
    """The staff member of the request's API token (R61)."""
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return None
    staff = _active(_BY_TOKEN, {"hash": hash_token(header[7:].strip())})
    if staff is None:
        security_event("api_token.refused")
    return staff


def _unauthorized(_app: Flask) -> None:
    """A page asked for without a log-in (Flask-Login redirects to the log-in page)."""
    security_event("access.refused", status=401, reason="not logged in")


def install(app: Flask) -> None:
    user_unauthorized.connect(_unauthorized)  # once: blinker keeps one entry per receiver
    manager = LoginManager(app)
    manager.login_view = "auth.login"
    manager.user_loader(_load_staff)
    manager.request_loader(_load_from_token)
    app.register_blueprint(bp)
