"""Who works in a room (R61): the roles and rights a staff member holds there, read by the
services of every package that asks (staff accounts themselves are ``roomops.rooms.staff``)."""

from __future__ import annotations

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from roomops.actors import ROLE_RIGHTS, rights_of
from roomops.db import INT_MAX
from roomops.errors import NotFound
from roomops.rooms.models import ROLES, Staff, StaffRole


def roles_in(session: Session, staff_id: int, room_id: int) -> frozenset[str]:
    """The roles ``staff_id`` holds in ``room_id`` (none: they do not work there)."""
    return frozenset(session.scalars(select(StaffRole.role).where(
        StaffRole.staff_id == staff_id, StaffRole.room_id == room_id)))


def rights_in(session: Session, staff_id: int, room_id: int) -> frozenset[str]:
    """The rights ``staff_id`` holds in ``room_id`` through their roles there."""
    return rights_of(roles_in(session, staff_id, room_id))


def holding(room_id: int, right: str) -> ColumnElement[bool]:
    """A condition on ``Staff``: they hold a role carrying ``right`` in ``room_id``."""
    roles = [role for role in ROLES if right in ROLE_RIGHTS[role]]
    return Staff.id.in_(select(StaffRole.staff_id).where(StaffRole.room_id == room_id,
                                                         StaffRole.role.in_(roles)))


def room_staff(session: Session, room_id: int) -> list[tuple[Staff, list[str]]]:
    """Everyone who works in ``room_id``, by name, with their roles there (R61)."""
    rows = session.execute(select(Staff, StaffRole.role).join(
        StaffRole, StaffRole.staff_id == Staff.id).where(StaffRole.room_id == room_id)
        .order_by(Staff.display_name, Staff.id, StaffRole.role))
    people: dict[int, tuple[Staff, list[str]]] = {}
    for person, role in rows.tuples():
        people.setdefault(person.id, (person, []))[1].append(role)
    return list(people.values())


def staff_of_room(session: Session, staff_id: int, room_id: int,
                  rule: str | None = None) -> Staff:
    """A person who works in ``room_id`` (active or not); anyone else is as unknown as a missing
    id (R1)."""
    staff = session.get(Staff, staff_id) if 1 <= staff_id <= INT_MAX else None
    if staff is None or not roles_in(session, staff.id, room_id):
        raise NotFound(f"no staff member with id {staff_id} in this room", rule)
    return staff
