"""Who is logged in: a person and the room they work in now, with their roles there (R61).
Flask-Login's user for pages and API tokens alike."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import Row, bindparam, select
from sqlalchemy.orm import Session

from roomops.actors import Actor, rights_of
from roomops.rooms.models import Role, Room, Staff, StaffRole


@dataclass(frozen=True)
class Login:
    staff: Staff
    room: Room
    roles: frozenset[str]
    # Kept as read: a request refused rolls its session back, which expires the rows, and the
    # security log's line then names who it was without reading them again (two SELECTs).
    id: int = field(init=False)
    room_id: int = field(init=False)

    is_authenticated = True
    is_active = True
    is_anonymous = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", self.staff.id)  # a frozen dataclass's own fields
        object.__setattr__(self, "room_id", self.room.id)

    def get_id(self) -> str:
        return str(self.id)

    @property
    def username(self) -> str:
        return self.staff.username

    @property
    def display_name(self) -> str:
        return self.staff.display_name

    @property
    def rights(self) -> frozenset[str]:
        return rights_of(self.roles)

    @property
    def roles_named(self) -> str:
        return " and ".join(sorted(self.roles))

    def can(self, right: str) -> bool:
        return right in self.rights

    def actor(self) -> Actor:
        return Actor(room_id=self.room_id, staff_id=self.id, label=self.staff.username,
                     roles=self.roles)

# Built once: every request with a log-in or a token runs one. One row per role the person holds
# in the room; the room comes along, as nearly every request reads it next (R1).
_ROLES = (select(Staff, Room, StaffRole.role)
          .join(StaffRole, StaffRole.staff_id == Staff.id)
          .join(Room, Room.id == StaffRole.room_id))
_BY_ID = _ROLES.where(Staff.id == bindparam("id"), StaffRole.room_id == bindparam("room"))
_BY_TOKEN = _ROLES.where(Staff.api_token_hash == bindparam("hash"),
                         StaffRole.room_id == Staff.api_token_room_id)


def _login(rows: Sequence[Row[tuple[Staff, Room, Role]]]) -> Login | None:
    if not rows or not rows[0][0].active:
        return None
    return Login(rows[0][0], rows[0][1], frozenset(row[2] for row in rows))


def by_id(session: Session, staff_id: int, room_id: int) -> Login | None:
    """The active person ``staff_id`` working in ``room_id``, or None."""
    return _login(session.execute(_BY_ID, {"id": staff_id, "room": room_id}).all())


def by_token(session: Session, token_hash: str) -> Login | None:
    """The active person whose API token hashes to ``token_hash``, in the token's room."""
    return _login(session.execute(_BY_TOKEN, {"hash": token_hash}).all())


def rooms_of(session: Session, staff_id: int) -> list[Room]:
    """The rooms a person works in, by name."""
    return list(session.scalars(select(Room).where(Room.id.in_(
        select(StaffRole.room_id).where(StaffRole.staff_id == staff_id))).order_by(Room.name)))
