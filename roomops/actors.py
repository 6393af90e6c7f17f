"""Who acts: a staff member within their room (R1, R61), or the scheduler (R60)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypeVar

from sqlalchemy.orm import Session

from roomops.db import INT_MAX
from roomops.errors import Forbidden, NotFound

# cash: buy-ins, add-ons, cash-outs, transit requests and deliveries (R31, R61); authorise: a
# supervisor's signature on money (transits, facility funds, reversals, R31, R52).
ROLE_RIGHTS: dict[str, frozenset[str]] = {
    "admin": frozenset({"admin", "floor", "policy", "audit", "deal", "cash", "authorise"}),
    "supervisor": frozenset({"floor", "policy", "audit", "deal", "cash", "authorise"}),
    "cashier": frozenset({"cash"}),
    "dealer": frozenset({"deal"}),  # R61: records hands, straddles and blinds at their table
    "system": frozenset({"floor"}),
}


def has_right(role: str, right: str) -> bool:
    """R61: whether ``role`` carries ``right``."""
    return right in ROLE_RIGHTS.get(role, frozenset())


@dataclass(frozen=True)
class Actor:
    room_id: int
    staff_id: int | None
    label: str
    role: str

    def require(self, right: str) -> None:
        """R61: refuse an action the actor's role does not carry."""
        if not has_right(self.role, right):
            raise Forbidden(f"a {self.role} may not do this ({right} is needed)", "R61")


def scheduler(room_id: int) -> Actor:
    return Actor(room_id=room_id, staff_id=None, label="scheduler", role="system")


class InRoom(Protocol):
    """A row of one room: every model with a ``room_id`` column."""

    @property
    def room_id(self) -> int: ...


M = TypeVar("M", bound=InRoom)


def get_in_room(session: Session, model: type[M], ident: int, actor: Actor, what: str,
                rule: str | None = None) -> M:
    """Fetch a row of the actor's room (R1); another room's row is as unknown as a missing one.
    ``rule``: the rule of the action asked for, named in the refusal. An id no id column can hold
    names no row: it is not sent to the database, which would refuse it (a 500)."""
    row = session.get(model, ident) if 1 <= ident <= INT_MAX else None
    return in_room(row, ident, actor, what, rule)


def in_room(row: M | None, ident: int, actor: Actor, what: str, rule: str | None = None) -> M:
    """``row``, read by the caller, if it is of the actor's room (R1); else NotFound, as from
    ``get_in_room``."""
    if row is None or row.room_id != actor.room_id:
        raise NotFound(f"no {what} with id {ident} in this room", rule)
    return row
