"""Counting failed log-ins and wrong approvals, and the addresses accounts are known at (R61,
R28; the rules: ``roomops.lockouts.rules``); the lockouts an admin sees and clears (R60)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import case, delete, exists, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from roomops.errors import NotFound
from roomops.floor.unit import UnitOfWork
from roomops.lockouts.models import Kind, KnownAddress, LoginFailure
from roomops.lockouts.rules import Counted, Limits, typed
from roomops.rooms.models import Staff, StaffRole
from roomops.text import typed_name

RULE = "R61"
# both dialects' INSERTs have on_conflict_do_update(index_elements=...), the base Insert has not
_INSERT: dict[str, Callable[[type[LoginFailure] | type[KnownAddress]],
                            postgresql.Insert | sqlite.Insert]] = {
    "postgresql": postgresql.insert, "sqlite": sqlite.insert}


def _staff_id(session: Session, username: str) -> int | None:
    return session.scalar(select(Staff.id).where(Staff.username == typed_name(username)))


def counted(session: Session, kind: Kind, username: str, address: str, now: datetime,
            limits: Limits) -> Counted:
    """What counts, within the window, for a try of ``username`` from ``address``."""
    since, key = now - limits.window, typed(username)
    pair = session.execute(select(LoginFailure.failures, LoginFailure.last_at).where(
        LoginFailure.kind == kind, LoginFailure.username == key, LoginFailure.address == address,
        LoginFailure.last_at > since)).first()
    total, last = session.execute(select(
        func.coalesce(func.sum(LoginFailure.failures), 0), func.max(LoginFailure.last_at)).where(
        LoginFailure.kind == kind, LoginFailure.address == address,
        LoginFailure.last_at > since)).one()
    staff_id = _staff_id(session, username)
    known = staff_id is not None and bool(session.scalar(select(exists().where(
        KnownAddress.staff_id == staff_id, KnownAddress.address == address))))
    return Counted(pair[0] if pair else 0, pair[1] if pair else None, int(total), last, known)


def failed(session: Session, now: datetime, kind: Kind, username: str, address: str,
           limits: Limits) -> None:
    """One more wrong password of ``username`` from ``address`` (one upsert: two at once both
    count), a pair's count starting again after the window; failures older than the window go.
    In the caller's transaction, as the heartbeat: a count, no change of the floor, not audited
    (a failed log-in of a known username is, ``staff.login_failed``)."""
    since = now - limits.window
    fresh = LoginFailure.last_at > since
    stmt = _INSERT[session.get_bind().dialect.name](LoginFailure).values(
        kind=kind, username=typed(username), address=address, failures=1, first_at=now,
        last_at=now)
    session.execute(stmt.on_conflict_do_update(
        index_elements=["kind", "username", "address"],
        set_={"failures": case((fresh, LoginFailure.failures + 1), else_=1),
              "first_at": case((fresh, LoginFailure.first_at), else_=now), "last_at": now}))
    session.execute(delete(LoginFailure).where(LoginFailure.last_at <= since))


def succeeded(session: Session, now: datetime, kind: Kind, staff_id: int, username: str,
              address: str) -> None:
    """The right password of ``staff_id`` from ``address``: the pair's count goes and the address
    is known to the account from now on."""
    session.execute(delete(LoginFailure).where(
        LoginFailure.kind == kind, LoginFailure.username == typed(username),
        LoginFailure.address == address))
    stmt = _INSERT[session.get_bind().dialect.name](KnownAddress).values(
        staff_id=staff_id, address=address, last_at=now)
    session.execute(stmt.on_conflict_do_update(index_elements=["staff_id", "address"],
                                               set_={"last_at": now}))


@dataclass(frozen=True)
class Lockout:
    """A pair (``username``) or a whole address (``username`` None) locked out now."""

    kind: Kind
    username: str | None
    address: str
    failures: int
    until: datetime


def lockouts(session: Session, room_id: int, now: datetime, limits: Limits) -> list[Lockout]:
    """R61: what is locked out now that an admin of ``room_id`` may clear: the pairs of the
    usernames of the room's staff, and the addresses locked for every username (whoever typed
    them: the address names no one)."""
    since = now - limits.window
    names = {typed(n) for n in session.scalars(select(Staff.username).join(
        StaffRole, StaffRole.staff_id == Staff.id).where(StaffRole.room_id == room_id))}
    rows = session.execute(select(LoginFailure).where(LoginFailure.last_at > since).order_by(
        LoginFailure.last_at.desc())).scalars().all()
    found: list[Lockout] = []
    by_address: dict[tuple[Kind, str], list[LoginFailure]] = {}
    for row in rows:
        by_address.setdefault((row.kind, row.address), []).append(row)
    for (kind, address), pairs in by_address.items():
        total = sum(r.failures for r in pairs)
        if total >= limits.per_address:
            found.append(Lockout(kind, None, address, total, pairs[0].last_at + limits.window))
        found += [Lockout(kind, r.username, address, r.failures, r.last_at + limits.window)
                  for r in pairs if r.username in names and r.failures >= limits.per_pair]
    return found


def clear(unit: UnitOfWork, kind: Kind, address: str,
          username: str | None, limits: Limits) -> int:
    """R61, R60: an admin lifts a lockout: the pair's count (``username``), or every count of the
    address; audited in the admin's room. Returns how many failures were cleared."""
    unit.actor.require("staff")
    shown = [x for x in lockouts(unit.session, unit.actor.room_id, unit.now, limits)
             if (x.kind, x.address, x.username) == (kind, address, username)]
    if not shown:
        raise NotFound("that lockout has ended or was cleared already", RULE)
    where = [LoginFailure.kind == kind, LoginFailure.address == address]
    if username is not None:
        where.append(LoginFailure.username == username)
    unit.session.execute(delete(LoginFailure).where(*where))
    staff_id = _staff_id(unit.session, username) if username is not None else None
    entity = ("staff", staff_id) if staff_id is not None else ("room", unit.actor.room_id)
    unit.audit("staff.lockout_cleared", entity, None, kind=kind,
               username=username, address=address, failures=shown[0].failures)
    return shown[0].failures
