"""Staff accounts (R61): who works in which room with which roles, their passwords, and the
end of their log-ins. An admin manages the staff of the rooms they are admin in; every change is
audited (R60) and ends the person's log-ins and API token where it changes what they may do.
Services never commit."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.errors import Conflict, Forbidden, Invalid, NotFound
from roomops.floor.unit import UnitOfWork
from roomops.rooms.models import ROLES, Staff, StaffRole
from roomops.rooms.passwords import check_policy, hash_password, needs_rehash, verify_password
from roomops.rooms.roles import roles_in, staff_of_room
from roomops.security_log import security_event
from roomops.text import check_shown, typed_name

RULE = "R61"


def check_roles(roles: Iterable[str]) -> frozenset[str]:
    chosen = frozenset(roles)
    if unknown := chosen - set(ROLES):
        raise Invalid(f"no role called {', '.join(sorted(unknown))} (roles: {', '.join(ROLES)})",
                      RULE)
    return chosen


def _name(text: str, field: str) -> str:
    text = text.strip()
    if not text:
        raise Invalid(f"{field} is required", RULE)
    try:
        return check_shown(text)
    except ValueError as err:
        raise Invalid(f"{field}: {err}", RULE) from None


def end_all(staff: Staff) -> None:
    """Every log-in of ``staff`` ends at its next request, on every device, and their API token
    stops working (the user loader compares the session's version with the row's)."""
    staff.session_version = Staff.session_version + 1  # in SQL: two changes at once both count
    staff.api_token_hash = staff.api_token_room_id = None


def _grant(session: Session, staff: Staff, room_id: int, roles: frozenset[str],
           now: datetime) -> None:
    session.add_all(StaffRole(staff_id=staff.id, room_id=room_id, role=role, granted_at=now)
                    for role in sorted(roles))


def create_staff(unit: UnitOfWork, *, username: str, password: str,
                 roles: Iterable[str], display_name: str | None = None) -> Staff:
    """R61: an admin creates a log-in with its roles in the admin's room."""
    unit.actor.require("staff")
    chosen = check_roles(roles)
    if not chosen:
        raise Invalid("a staff member needs at least one role", RULE)
    username = _name(username, "username")
    if " " in username:
        raise Invalid("a username has no spaces", RULE)
    if unit.session.scalar(select(Staff.id).where(Staff.username == username)):
        raise Conflict(f"the username {username} is taken", RULE)
    check_policy(password, username)
    staff = Staff(username=username, display_name=_name(display_name or username, "display_name"),
                  password_hash=hash_password(password), created_at=unit.now)
    unit.session.add(staff)
    unit.session.flush()
    _grant(unit.session, staff, unit.actor.room_id, chosen, unit.now)
    _changed(unit, "staff.created", staff, username=username,
           roles=sorted(chosen))
    return staff


def set_roles(unit: UnitOfWork, username: str,
              roles: Iterable[str]) -> Staff:
    """R61: an admin gives ``username`` exactly ``roles`` in the admin's room: a person from
    another room of the deployment joins it, none leaves it. What they may do changes, so their
    log-ins and API token end. An admin cannot change their own roles (another admin does)."""
    unit.actor.require("staff")
    chosen = check_roles(roles)
    staff = unit.session.scalar(select(Staff).where(Staff.username == typed_name(username)))
    if staff is None:
        raise NotFound(f"no staff member {username.strip()}", RULE)
    if staff.id == unit.actor.staff_id:
        raise Forbidden("an admin's own roles are changed by another admin", RULE)
    before = roles_in(unit.session, staff.id, unit.actor.room_id)
    if before == chosen:
        return staff
    if not before and not staff.active:
        raise Conflict(f"{staff.display_name} is deactivated", RULE)
    unit.session.execute(delete(StaffRole).where(StaffRole.staff_id == staff.id,
                                                 StaffRole.room_id == unit.actor.room_id,
                                                 StaffRole.role.not_in(chosen)))
    _grant(unit.session, staff, unit.actor.room_id, chosen - before, unit.now)
    end_all(staff)
    _changed(unit, "staff.roles_changed", staff,
           before=sorted(before), after=sorted(chosen))
    return staff


def reset_password(unit: UnitOfWork, staff_id: int,
                   password: str) -> Staff:
    """R61: an admin sets a new password for someone of their room who forgot theirs; their
    log-ins end. The admin tells them the password; they can change it on their account page
    (nothing makes them: docs/security.md, V2.3.1)."""
    unit.actor.require("staff")
    staff = staff_of_room(unit.session, staff_id, unit.actor.room_id, RULE)
    _set_password(unit, staff, password, "staff.password_reset")
    return staff


def change_password(unit: UnitOfWork, current: str,
                    new: str) -> Staff:
    """R61: staff change their own password, proving the current one; every log-in of theirs
    ends (the caller begins a new one for the screen it was changed on)."""
    staff = _own(unit.session, unit.actor)
    if not verify_password(staff.password_hash, current):
        raise Forbidden("the current password is wrong", RULE)
    if new == current:
        raise Invalid("the new password is the current one", RULE)
    _set_password(unit, staff, new, "staff.password_changed")
    return staff


def _set_password(unit: UnitOfWork, staff: Staff, password: str,
                  action: str) -> None:
    """A new password that meets the policy; every log-in of the person ends."""
    check_policy(password, staff.username)
    staff.password_hash = hash_password(password)
    end_all(staff)
    _changed(unit, action, staff)


def set_active(unit: UnitOfWork, staff_id: int, active: bool,
               reason: str = "") -> Staff:
    """R61: an admin deactivates a leaver (every log-in and the API token end at once, in every
    room they worked in; the rows they recorded keep their name) or reactivates them. Not
    themselves: another admin does."""
    unit.actor.require("staff")
    staff = staff_of_room(unit.session, staff_id, unit.actor.room_id, RULE)
    if staff.id == unit.actor.staff_id:
        raise Forbidden("an admin is deactivated by another admin", RULE)
    if active == staff.active:
        return staff
    if not active and not reason.strip():
        raise Invalid("deactivating a staff member needs a reason (they left, say)", RULE)
    staff.active = active
    end_all(staff)
    _changed(unit, "staff.activated" if active else "staff.deactivated", staff,
             reason=reason.strip() or None)
    return staff


def end_sessions(unit: UnitOfWork) -> None:
    """R61: log-out ends every log-in of the acting staff member, on every device, and their API
    token (docs/security.md, "Sessions")."""
    staff = _own(unit.session, unit.actor)
    end_all(staff)
    unit.session.flush()
    unit.audit("staff.sessions_ended", ("staff", staff.id),
               session_version=staff.session_version)


def logged_in(unit: UnitOfWork, password: str,
              address: str | None) -> None:
    """R60, R61: the acting staff member has just logged in with ``password`` (checked): audited;
    a password hashed the old way, or with other Argon2 parameters than today's, is hashed again
    in the same transaction (docs/security.md, "Logins")."""
    staff = _own(unit.session, unit.actor)
    rehashed = needs_rehash(staff.password_hash)
    if rehashed:
        staff.password_hash = hash_password(password)
        security_event("password.rehashed", staff_id=staff.id, room_id=unit.actor.room_id)
    unit.audit("staff.logged_in", ("staff", staff.id), address=address,
               password_rehashed=rehashed)


def login_failed(unit: UnitOfWork, staff_id: int,
                 address: str | None) -> None:
    """R60: a wrong password for ``staff_id``, audited in the actor's room (the actor: whoever
    typed it, unknown). A username no one has is in the security log only: it names no room."""
    unit.audit("staff.login_failed", ("staff", staff_id), address=address)


def _changed(unit: UnitOfWork, action: str, staff: Staff,
             reason: str | None = None, **detail: object) -> None:
    """A change to a person's log-in: audited (R60) and, once committed, a security event (ASVS
    V7: role and password changes); ``detail`` never holds a password."""
    unit.audit(action, ("staff", staff.id), reason, **detail)
    staff_id, by, room_id = staff.id, unit.actor.label, unit.actor.room_id
    unit.after_commit(lambda: security_event(action, staff_id=staff_id, by=by,
                                             room_id=room_id, **detail))


def _own(session: Session, actor: Actor) -> Staff:
    if actor.staff_id is None:  # the sweep, the console: no log-in of their own
        raise Forbidden("only a staff member's own log-in can be changed", RULE)
    return session.get_one(Staff, actor.staff_id)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_api_token(session: Session, staff: Staff, room_id: int) -> str:
    """R61: a new API token for ``staff`` to act in ``room_id`` with their roles there; only its
    hash is stored, the old token stops working."""
    if not roles_in(session, staff.id, room_id):
        raise NotFound(f"{staff.username} does not work in that room", RULE)
    if not staff.active:
        raise Conflict(f"{staff.username} is deactivated", RULE)
    token = secrets.token_urlsafe(32)
    staff.api_token_hash, staff.api_token_room_id = hash_token(token), room_id
    return token
