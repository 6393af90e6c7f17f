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
from roomops.rooms.staff import roles_in
from roomops.security_log import security_event


def approver(session: Session, room_id: int, username: str, password: str, rule: str) -> Staff:
    """The staff member of the room whose credentials these are; refused (403 naming ``rule``)
    when they are wrong, as a failed log-in is, and logged the same way. The password is checked
    once whoever the username names (no one, someone inactive or of another room): a refusal
    takes the same time either way."""
    staff = session.scalar(select(Staff).where(Staff.username == username.strip()))
    usable = (staff if staff is not None and staff.active and roles_in(session, staff.id, room_id)
              else None)
    matches = verify_password(usable.password_hash if usable else dummy_hash(), password)
    if usable is None or not matches:
        security_event("approval.refused", username=username.strip()[:100], rule=rule)
        raise Forbidden("the approving supervisor's username or password is wrong", rule)
    security_event("approval.ok", approver_id=usable.id, rule=rule)
    return usable
