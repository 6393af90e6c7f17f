"""A second person's approval given on another staff member's screen (R28, R61): the approver
types their own username and password, as a supervisor signs a cage slip. No Flask: the cage
page and the API both call it (through ``roomops.auth.throttle``, which counts the refusals)
before the service that needs the approval."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.errors import Forbidden
from roomops.rooms.models import Staff
from roomops.rooms.passwords import dummy_hash, verify_password
from roomops.rooms.roles import roles_in
from roomops.security_log import security_event
from roomops.text import typed_name


def approver_id(session: Session, room_id: int, username: str, password: str) -> int | None:
    """The id of the staff member of the room whose credentials these are, or None. The password
    is checked once whoever the username names (no one, someone inactive or of another room): a
    refusal takes the same time either way. Nothing else is done here (no log line, which reads
    the logged-in person): the caller runs it apart, in a session of its own."""
    staff = session.scalar(select(Staff).where(Staff.username == typed_name(username)))
    usable = (staff if staff is not None and staff.active and roles_in(session, staff.id, room_id)
              else None)
    matches = verify_password(usable.password_hash if usable else dummy_hash(), password)
    return usable.id if usable is not None and matches else None


def approver(session: Session, found: int | None, username: str, rule: str) -> Staff:
    """The approver ``approver_id`` found, from ``session``; refused (403 naming ``rule``) when
    none was, as a failed log-in is, and logged the same way."""
    if found is None:
        security_event("approval.refused", username=username.strip()[:100], rule=rule)
        raise Forbidden("the approving supervisor's username or password is wrong", rule)
    security_event("approval.ok", approver_id=found, rule=rule)
    return session.get_one(Staff, found)
