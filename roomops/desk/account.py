"""A staff member's own account (R61): the rooms and roles they have, and their password."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import current_user
from werkzeug.wrappers import Response

from roomops.auth import throttle
from roomops.auth.current import rooms_of
from roomops.auth.views import renew
from roomops.rooms.roles import roles_in
from roomops.rooms.staff import change_password
from roomops.web.uow import db, run

bp = Blueprint("account", __name__)


@bp.get("/account")
def index() -> str:
    session = db()
    staff = current_user.staff
    rooms = [(room, sorted(roles_in(session, staff.id, room.id)))
             for room in rooms_of(session, staff.id)]
    return render_template("account.html", staff=staff, rooms=rooms)


@bp.post("/account/password")
@throttle.password_limits
def password() -> Response:
    """Every other log-in of theirs ends; this one goes on under the new session version."""
    form = request.form
    if form.get("new", "") != form.get("repeat", ""):
        flash("The new password and its repeat differ: nothing was changed (R61).", "error")
        return redirect(url_for("account.index"), code=303)
    renew(run(change_password, form.get("current", ""), form.get("new", "")))
    flash("Password changed: your other log-ins ended (audited).", "ok")
    return redirect(url_for("account.index"), code=303)
