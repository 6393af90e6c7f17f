"""Log-in, the room a person works in now, and log-out; every log-in, failed log-in and log-out
is in the security log, log-ins and failed log-ins of a known username in the audit trail too
(docs/security.md, "Logins" and "Security logging"). Failed log-ins are throttled
(``roomops.auth.throttle``). A log-in ends on the server (R61; docs/security.md, "Sessions"): at
log-out, after the idle timeout and after its lifetime, and when the person's password, roles or
status change."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

from flask import Blueprint, Flask, abort, redirect, render_template, request, session, url_for
from flask_login import (
    LoginManager,
    current_user,
    login_required,
    login_user,
    logout_user,
    user_unauthorized,
)
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from roomops.actors import Actor
from roomops.auth import throttle
from roomops.auth.current import Login, by_id, by_token, rooms_of
from roomops.rooms.models import Room, Staff
from roomops.rooms.passwords import dummy_hash, verify_password
from roomops.rooms.roles import roles_in
from roomops.rooms.session_rules import session_expired
from roomops.rooms.staff import end_sessions, hash_token, logged_in, login_failed
from roomops.runtime import ext
from roomops.security_log import security_event
from roomops.text import typed_name
from roomops.web.routing import parse_id
from roomops.web.uow import db, now, run

bp = Blueprint("auth", __name__)
# who typed a wrong password, in the audit trail: not known, only which staff member it was for
FORM = "log-in form"
SEEN_STEP = timedelta(minutes=1)  # how finely a session's last use is kept (idle limit, R61)
# where a log-in opens, by the first right the person holds in the room
HOME = (("floor", "desk.index"), ("cash", "cage.index"), ("deal", "dealer.index"),
        ("dealers", "dealers.index"), ("figures", "figures.index"), ("staff", "staff.index"),
        ("audit", "audit.index"))


def home(login: Login) -> str:
    """R61: the screen a person's roles in their room open on (a dealer's tablet: the table
    picker; a cashier: the cage; a manager: the figures; an admin: the staff)."""
    return url_for(next((page for right, page in HOME if login.can(right)), "account.index"))


@bp.get("/")
def root() -> Response:
    """The address alone takes a logged-in person to their screen (R61, ``home``); without a
    log-in the route matrix sends them to the log-in page first (``roomops.web.access``)."""
    return redirect(home(current_user))


@bp.route("/login", methods=["GET", "POST"])
def login() -> Response | str | tuple[str, int]:
    error = None
    if request.method == "POST":
        username = typed_name(request.form.get("username", ""))
        password = request.form.get("password", "")
        staff = _check(username, password)
        rooms = rooms_of(db(), staff.id) if staff is not None else []
        if staff is not None and rooms:
            _begin(staff, rooms[0])
            run(logged_in, password, request.remote_addr)
            security_event("login.ok", staff_id=staff.id, room_id=rooms[0].id)
            return redirect(_home_of(staff, rooms[0]))
        if staff is not None:
            security_event("login.refused", staff_id=staff.id, reason="no room")
            error = "You have no room to work in: ask an admin to give you a role (R61)."
        else:
            security_event("login.failed", username=throttle.typed(username))
            error = "Wrong username or password."
    return render_template("login.html", error=error), 401 if error else 200


def _check(username: str, password: str) -> Staff | None:
    """The active staff member whose password this is, unless this username from this address
    must wait (``throttle.checked``: 429). A wrong password is counted against the username and
    the address, and, for a known username, audited in the first room they work in; a right one
    clears the count and makes the address known to the account (committed with the log-in)."""
    found_id, matches = throttle.checked("login", username,
                                         lambda reading: _matching(reading, username, password))
    if found_id is not None and matches:
        throttle.succeeded("login", found_id, username)
        return db().get_one(Staff, found_id)
    throttle.failed("login", username)
    rooms = rooms_of(db(), found_id) if found_id is not None else []
    if found_id is not None and rooms:
        with ext().unit_of_work(db(), Actor(rooms[0].id, None, FORM, frozenset()), now()) as uow:
            uow.run(login_failed, found_id, request.remote_addr)
            uow.commit()
    return None


def _matching(reading: Session, username: str, password: str) -> tuple[int | None, bool]:
    """The id of the staff member ``username`` names (None: no one), and whether they are
    active and this is their password. The password is checked once whether the username is
    known or not (against a dummy hash when not, or when its staff member is inactive): a refusal
    takes the same time either way and does not tell which usernames exist."""
    found = reading.scalar(select(Staff).where(Staff.username == username))
    staff = found if found is not None and found.active else None
    matches = verify_password(staff.password_hash if staff else dummy_hash(), password)
    return (found.id if found is not None else None), matches and staff is not None


@bp.post("/rooms")
@login_required  # type: ignore[untyped-decorator]  # Flask-Login ships no type information
def switch_room() -> Response:
    """R1, R61: a person who works in several rooms moves to another: the session goes on with
    the roles they hold there."""
    room_id = parse_id(request.form.get("room", ""))
    staff = current_user.staff
    if room_id is None or not roles_in(db(), staff.id, room_id):
        abort(404)
    session["room"] = room_id
    return redirect(_home_of(staff, db().get_one(Room, room_id)))


@bp.post("/logout")
@login_required  # type: ignore[untyped-decorator]  # Flask-Login ships no type information
def logout() -> Response:
    run(end_sessions)  # every copy of the cookie, on every device, is refused from now on
    security_event("logout", staff_id=current_user.id, room_id=current_user.room_id)
    logout_user()
    session.clear()
    return redirect(url_for("auth.login"))


def _home_of(staff: Staff, room: Room) -> str:
    return home(Login(staff, room, roles_in(db(), staff.id, room.id)))


def _begin(staff: Staff, room: Room) -> None:
    """A new session: nothing from before the log-in survives (no fixation), and it carries a new
    id, the room, the staff member's session version and its times from the app's clock."""
    session.clear()
    login_user(Login(staff, room, frozenset()))
    stamp = now().timestamp()
    session.update(sid=secrets.token_urlsafe(16), version=staff.session_version, room=room.id,
                   logged_in=stamp, seen=stamp)


def renew(staff: Staff) -> None:
    """The session goes on under the person's new session version: after they changed their own
    password here, their other log-ins end but not this one."""
    session.update(sid=secrets.token_urlsafe(16), version=staff.session_version)


def _current(staff: Staff) -> bool:
    """Whether the request's session still stands (R61): its staff member's sessions have not
    been ended since it began, and it is neither idle too long nor too old. Marks it seen, at most
    once every ``SEEN_STEP``: a request that writes the session sends its cookie back, and a
    screen's read running beside a page that takes the session's message (the flash) would set that
    message again; a session may end up to ``SEEN_STEP`` before its idle limit."""
    at = now()
    try:
        logged_in, seen = (datetime.fromtimestamp(session[k], UTC) for k in ("logged_in", "seen"))
    except (KeyError, TypeError, ValueError, OverflowError, OSError):
        return False  # a cookie from before sessions had times
    if session.get("version") != staff.session_version or session_expired(
            ext().settings.session_limits, logged_in, seen, at):
        return False
    if at - seen >= SEEN_STEP:
        session["seen"] = at.timestamp()
    return True


def _load_staff(staff_id: str) -> Login | None:
    room = session.get("room")
    found = by_id(db(), int(staff_id), room) if isinstance(room, int) else None
    if found is not None and _current(found.staff):
        return found
    security_event("session.refused", staff_id=int(staff_id))
    session.clear()  # the browser drops the dead cookie
    return None


def _load_from_token(req: object) -> Login | None:
    """The staff member of the request's API token, in the token's room (R61)."""
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return None
    found = by_token(db(), hash_token(header[7:].strip()))
    if found is None:
        security_event("api_token.refused")
    return found


def _unauthorized(_app: Flask) -> None:
    """A page asked for without a log-in (Flask-Login redirects to the log-in page)."""
    security_event("access.refused", status=401, reason="not logged in")


def _home_url() -> str:
    return home(current_user) if current_user.is_authenticated else url_for("auth.login")


def _my_rooms() -> list[Room]:
    return rooms_of(db(), current_user.id) if current_user.is_authenticated else []


def install(app: Flask) -> None:
    user_unauthorized.connect(_unauthorized)  # once: blinker keeps one entry per receiver
    app.add_template_global(_home_url, "home_url")
    app.add_template_global(_my_rooms, "my_rooms")
    manager = LoginManager(app)
    manager.login_view = "auth.login"
    manager.user_loader(_load_staff)
    manager.request_loader(_load_from_token)
    app.register_blueprint(bp)
