"""A second person's approval given on another staff member's screen (R28, R61): the approver
types their own username and password, as a supervisor signs a cage slip. No Flask: the cage
page and the API both call it before the service that needs the approval."""

from __future__ import annotations

import logging

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.errors import Forbidden
from roomops.rooms.models import Staff
from roomops.rooms.passwords import verify_password
from roomops.rooms.staff import roles_in

log = logging.getLogger("roomops.security")


def approver(session: Session, room_id: int, username: str, password: str, rule: str) -> Staff:
    """The staff member of the room whose credentials these are; refused (403 naming ``rule``)
    when they are wrong, as a failed log-in is, and logged the same way."""
    staff = session.scalar(select(Staff).where(Staff.username == username.strip()))
    if staff is None or not roles_in(session, staff.id, room_id) or not staff.active or not (
            verify_password(staff.password_hash, password)):
        log.warning("approval refused: %r", username)
        raise Forbidden("the approving supervisor's username or password is wrong", rule)
    return staff
