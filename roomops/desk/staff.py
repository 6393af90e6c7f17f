"""The admin's staff screen (R61): who works in this room with which roles; create a log-in, give
and take roles (someone from another room of the deployment may join), reset a password,
deactivate a leaver, see who is locked out by wrong passwords and clear it. Every change is
audited (R60); the services end the person's log-ins."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from roomops.auth.throttle import limits
from roomops.errors import Invalid
from roomops.lockouts.models import Kind
from roomops.lockouts.services import clear, lockouts
from roomops.rooms.models import ROLES, Room
from roomops.rooms.roles import room_staff
from roomops.rooms.staff import create_staff, reset_password, set_active, set_roles
from roomops.web.uow import actor, db, now, run

bp = Blueprint("staff", __name__)


def _roles() -> list[str]:
    return [role for role in request.form.getlist("role") if role]


def _done(message: str) -> Response:
    flash(message, "ok")
    return redirect(url_for("staff.index"), code=303)


@bp.get("/staff")
def index() -> str:
    session = db()
    me = actor()
    return render_template("staff/index.html", room=session.get_one(Room, me.room_id),
                           people=room_staff(session, me.room_id), roles=ROLES, me=me.staff_id,
                           lockouts=lockouts(session, me.room_id, now(), limits()))


@bp.post("/staff")
def create() -> Response:
    form = request.form
    person = run(create_staff, username=form.get("username", ""), password=form.get("password", ""),
                 roles=_roles(), display_name=form.get("display_name", "").strip() or None)
    return _done(f"{person.display_name} can log in as {person.username} (audited).")


@bp.post("/staff/roles")
def roles() -> Response:
    """The roles of one person here: the checkboxes of their row, or a person from another room
    named by username with the roles they take on here."""
    username = request.form.get("username", "").strip()
    if not username:
        raise Invalid("username: whose roles?", "R61")
    chosen = _roles()
    run(set_roles, username, chosen)
    return _done(f"{username}: {', '.join(chosen) or 'no longer works in this room'} "
                 "(their log-ins ended; audited).")


@bp.post("/staff/<int:staff_id>/password")
def password(staff_id: int) -> Response:
    person = run(reset_password, staff_id, request.form.get("password", ""))
    return _done(f"New password set for {person.display_name}: tell them; their log-ins ended "
                 "(audited).")


@bp.post("/staff/<int:staff_id>/active")
def active(staff_id: int) -> Response:
    on = request.form.get("active") == "1"
    person = run(set_active, staff_id, on, request.form.get("reason", ""))
    done = "can log in again" if on else "is deactivated: every log-in ended"
    return _done(f"{person.display_name} {done} (audited).")


KINDS: dict[str, Kind] = {"login": "login", "approval": "approval"}


@bp.post("/staff/lockouts/clear")
def clear_lockout() -> Response:
    """R61: an admin lets a locked-out username (or a whole address) try again now (audited)."""
    form = request.form
    kind = KINDS.get(form.get("kind", ""))
    if kind is None:
        raise Invalid("kind: a log-in or an approval", "R61")
    username = form.get("username") or None
    address = form.get("address", "")
    run(clear, kind, address, username, limits())
    whom = f"{username} from {address}" if username else f"every username from {address}"
    return _done(f"Lockout cleared: {whom} may try again now (audited).")
