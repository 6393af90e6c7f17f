"""Log-in and log-out; every log-in and failed log-in is logged. A log-in ends on the server
(R61; docs/security.md, "Sessions"): at log-out, after the idle timeout and after its lifetime."""

from __future__ import annotations

import logging
import secrets
from datetime import UTC, datetime

from flask import Blueprint, Flask, redirect, render_template, request, session, url_for
from flask_login import LoginManager, login_required, login_user, logout_user
from sqlalchemy import Select, bindparam, select
from werkzeug.security import check_password_hash
from werkzeug.wrappers import Response

from roomops.rooms.models import Room, Staff
from roomops.rooms.services import end_sessions, hash_token
from roomops.rooms.session_rules import session_expired
from roomops.runtime import ext
from roomops.web.uow import db, now, run

bp = Blueprint("auth", __name__)
log = logging.getLogger("roomops.security")
HOME = {"admin": "desk.index", "supervisor": "desk.index", "cashier": "desk.index",
        "dealer": "dealer.index"}  # a dealer's tablet opens on the table picker


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | str | tuple[str, int]:
    error = None
    if request.method == "POST":
        username = request.form.get("username", "").strip()
        staff = db().scalar(select(Staff).where(Staff.username == username))
        if staff and staff.active and check_password_hash(staff.password_hash,
                                                          request.form.get("password", "")):
            _begin(staff)
            log.info("login ok: %s (%s) from %s", username, staff.role, request.remote_addr)
            return redirect(url_for(HOME[staff.role]))
        log.warning("login failed: %r from %s", username, request.remote_addr)
        error = "Wrong username or password."
    return render_template("login.html", error=error), 401 if error else 200


@bp.post("/logout")
@login_required  # type: ignore[untyped-decorator]  # Flask-Login ships no type information
def logout() -> Response:
    run(end_sessions)  # every copy of the cookie, on every device, is refused from now on
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
        log.warning("bad API token from %s", request.remote_addr)
    return staff


def install(app: Flask) -> None:
    manager = LoginManager(app)
    manager.login_view = "auth.login"
    manager.user_loader(_load_staff)
    manager.request_loader(_load_from_token)
    app.register_blueprint(bp)
