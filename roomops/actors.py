"""Who acts: a staff member within their room (R1, R61), or the scheduler (R60)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from sqlalchemy.orm import Session

from roomops.db import INT_MAX
from roomops.errors import Forbidden, NotFound

# R61, the role matrix: the rights each role carries; a staff member holds the rights of every
# role they have in the room they work in. floor: lists, seats, tables, offers, breaks,
# playovers; policy: the room's settings; audit: read the audit trail; deal: hands, straddles,
# blinds, rake and deliveries at a table; dealers: the dealers' roster, downs, breaks and
# rotation (R62-R64); cash: buy-ins, add-ons, cash-outs, transit requests,
# session fees, counts and closes (R31, R50); figures: read the room's figures (R80);
# authorise: a supervisor's signature on money
# (transits, reversals, cash-outs over the limit, R28, R31, R52); staff: create staff, give
# and take roles, reset passwords, deactivate leavers. The pages and API routes each need one
# of these (``roomops.web.access``); an admin posts no money and runs no floor unless also given
# a role that does (separation of duties).
ROLE_RIGHTS: dict[str, frozenset[str]] = {
    "admin": frozenset({"staff", "policy", "audit"}),
    "supervisor": frozenset({"floor", "policy", "audit", "deal", "cash", "authorise", "dealers",
                             "figures"}),
    "cashier": frozenset({"cash"}),
    "dealer": frozenset({"deal"}),
    "coordinator": frozenset({"dealers"}),  # R62: runs the dealers' roster and rotation
    "manager": frozenset({"figures", "audit"}),  # R61, R80: reads the room's figures and its audit trail
    "system": frozenset({"floor"}),  # the scheduler's sweep
    # R12: a player on the phone page or through their personal link: their own remote entries
    "player": frozenset({"remote"}),
}
RIGHTS: frozenset[str] = frozenset().union(*ROLE_RIGHTS.values())


def rights_of(roles: Iterable[str]) -> frozenset[str]:
    """R61: the rights of a staff member holding ``roles``."""
    return frozenset().union(*(ROLE_RIGHTS.get(role, frozenset()) for role in roles))


@dataclass(frozen=True)
class Actor:
    room_id: int
    staff_id: int | None
    label: str
    roles: frozenset[str]
    link_id: int | None = None  # R12/R61: the personal link a player acts through

    @property
    def rights(self) -> frozenset[str]:
        return rights_of(self.roles)

    def can(self, right: str) -> bool:
        return right in self.rights

    def require(self, right: str) -> None:
        """R61: refuse an action none of the actor's roles carries."""
        if not self.can(right):
            raise Forbidden(f"{roles_named(self.roles)} may not do this ({right} is needed)", "R61")


def roles_named(roles: Iterable[str]) -> str:
    """'a cashier', 'an admin and supervisor': who is refused, in words."""
    named = " and ".join(sorted(roles)) or "no role"
    return f"{'an' if named[0] in 'aeiou' else 'a'} {named}"


def scheduler(room_id: int) -> Actor:
    return Actor(room_id=room_id, staff_id=None, label="scheduler", roles=frozenset({"system"}))


def phone_page(room_id: int) -> Actor:
    """R12: a player joining lists on the room's phone page, before their link exists."""
    return Actor(room_id=room_id, staff_id=None, label="phone page", roles=frozenset({"player"}))


def player_link(room_id: int, link_id: int) -> Actor:
    """R12/R60: a player acting through their personal link, audited as "player link #id" (the
    token is never written down)."""
    return Actor(room_id=room_id, staff_id=None, label=f"player link #{link_id}",
                 roles=frozenset({"player"}), link_id=link_id)


def console(room_id: int) -> Actor:
    """Whoever runs the CLI on the server (the deployment's operator), acting as an admin of the
    room a command names: creating its first staff, say (R60 audits them as "console")."""
    return Actor(room_id=room_id, staff_id=None, label="console", roles=frozenset({"admin"}))


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
