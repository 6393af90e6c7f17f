"""Shift and gaming-day close (R54): two staff members each count every table with ledger rows
that day and the total; the day is closed by the two of them, one a supervisor, once.

Policy: a shift is the gaming day (R2, the rule's default); ``shift_hours`` or named shifts are
not built. Services take ``(session, actor, now, ...)``, check the actor's right (R61), audit
(R60) and never commit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from roomops.actors import ROLE_RIGHTS, Actor, get_in_room
from roomops.audit.service import record
from roomops.errors import Conflict, Invalid
from roomops.games.models import Table
from roomops.ledger.closing import check_count, check_counts_complete, check_day, check_not_closed, check_pair
from roomops.ledger.models import DayClose, DayCount, LedgerEntry
from roomops.ledger.report import expected_by_table, latest_counts
from roomops.rooms.gaming_day import gaming_day
from roomops.rooms.models import Room, Staff


@dataclass(frozen=True)
class Count:
    """One counted amount: ``table_id`` None is the day's total (the cage)."""

    table_id: int | None
    counted: int
    explanation: str | None = None


def today(room: Room, now: datetime) -> date:
    return gaming_day(now, room.timezone, room.gaming_day_start)


def is_closed(session: Session, room_id: int, day: date) -> bool:
    return session.scalar(select(DayClose.id).where(DayClose.room_id == room_id,
                                                    DayClose.gaming_day == day)) is not None


def record_counts(session: Session, actor: Actor, now: datetime, day: date,
                  counts: Sequence[Count]) -> list[DayCount]:
    """R54: the actor's counts for ``day``, each next to what the ledger expects now; a variance
    needs an explanation. A recount is a new row that supersedes the counter's earlier one."""
    actor.require("cash")
    room = session.get_one(Room, actor.room_id)
    check_day(day, today(room, now))
    check_not_closed(day, is_closed(session, room.id, day))
    if not counts:
        raise Invalid("send at least one count", "R54")
    if len({c.table_id for c in counts}) != len(counts):
        raise Invalid("one count per table (and one for the total)", "R54")
    names = {t.id: t.name for t in [get_in_room(session, Table, c.table_id, actor, "table")
                                    for c in counts if c.table_id is not None]}
    expected = expected_by_table(session, room.id, day)
    rows = []
    for c in counts:
        where = f"table {names[c.table_id]}" if c.table_id is not None else "the total"
        explanation = check_count(c.counted, expected.get(c.table_id, 0), c.explanation, where)
        rows.append(DayCount(room_id=room.id, gaming_day=day, table_id=c.table_id,
                             staff_id=actor.staff_id, at=now, counted=c.counted,
                             expected=expected.get(c.table_id, 0), explanation=explanation))
    session.add_all(rows)
    session.flush()
    record(session, actor, now, "day.counted", ("gaming_day", _day_id(day)),
           gaming_day=day.isoformat(),
           counts=[{"table_id": r.table_id, "counted": r.counted, "expected": r.expected,
                    "variance": r.variance, "explanation": r.explanation} for r in rows])
    return rows


def close_day(session: Session, actor: Actor, now: datetime, day: date,
              second_staff_id: int) -> DayClose:
    """R54: close ``day`` with a second staff member; one of the two a supervisor, both have
    counted every table with rows that day and the total since the ledger last moved. A day is
    closed once; afterwards its figures never change."""
    actor.require("cash")
    room = session.get_one(Room, actor.room_id)
    lock_day(session, room.id, close=True)  # before any figure is read: see ``lock_day``
    check_day(day, today(room, now))
    check_not_closed(day, is_closed(session, room.id, day))
    other = get_in_room(session, Staff, second_staff_id, actor, "staff member")
    if not other.active:
        raise Conflict(f"{other.display_name} is not an active staff member", "R54")
    check_pair(actor.staff_id or 0, "authorise" in ROLE_RIGHTS.get(actor.role, frozenset()),
               other.id, "authorise" in ROLE_RIGHTS.get(other.role, frozenset()))
    expected = expected_by_table(session, room.id, day)
    counts = latest_counts(session, room.id, day, (actor.staff_id or 0, other.id))
    names = {c.table_id: c.table for c in counts}
    names.update({t: n for t, n in session.execute(select(Table.id, Table.name).where(
        Table.id.in_([t for t in expected if t is not None])))})
    for staff_id, who in ((actor.staff_id, actor.label), (other.id, other.display_name)):
        mine = {c.table_id: (c.counted, c.expected) for c in counts if c.staff_id == staff_id}
        check_counts_complete(who, expected, mine, names)
    supervisor = actor.staff_id if "authorise" in ROLE_RIGHTS.get(actor.role, frozenset()) else other.id
    entries, last = session.execute(select(func.count(), func.max(LedgerEntry.id)).where(
        LedgerEntry.room_id == room.id, LedgerEntry.gaming_day == day)).one()
    row = DayClose(room_id=room.id, gaming_day=day, closed_at=now, closed_by_id=actor.staff_id,
                   second_staff_id=other.id, entries=entries, expected_total=expected[None],
                   counted_total=next(c.counted for c in counts
                                      if c.staff_id == supervisor and c.table_id is None),
                   last_entry_id=last)
    try:
        with session.begin_nested():
            session.add(row)
            session.flush()
    except IntegrityError:  # a concurrent close of the same day committed first
        check_not_closed(day, True)
    record(session, actor, now, "day.closed", ("gaming_day", _day_id(day)),
           gaming_day=day.isoformat(), second_staff_id=other.id, entries=entries,
           expected_total=row.expected_total, counted_total=row.counted_total,
           variances={names.get(c.table_id, "total"): c.variance for c in counts
                      if c.staff_id == supervisor and c.variance})
    return row


def _day_id(day: date) -> int:
    """The audit trail's entity id of a gaming day: its date as YYYYMMDD."""
    return day.year * 10000 + day.month * 100 + day.day


def refuse_closed(session: Session, room_id: int, day: date) -> None:
    """R54: no ledger row is posted to a closed gaming day, nor while the room's close is in
    progress (``lock_day``)."""
    lock_day(session, room_id)
    check_not_closed(day, is_closed(session, room_id, day))


DAY_LOCK = 54  # the advisory lock class of gaming-day closes (R54); the second key is the room


def lock_day(session: Session, room_id: int, *, close: bool = False) -> None:
    """R54 on PostgreSQL: a posting takes the room's day lock shared before its closed-check, the
    close takes it exclusively before it reads a figure, each until its transaction ends. So a
    posting either commits before the close counts the rows, or waits for the close and is then
    refused: under READ COMMITTED (the app's isolation) each statement sees what committed before
    it began, so the closed-check runs as its own statement after the lock is granted. SQLite
    needs nothing: a write transaction begins IMMEDIATE (``roomops.db``), one writer at a time."""
    if session.get_bind().dialect.name != "postgresql":
        return
    take = func.pg_advisory_xact_lock if close else func.pg_advisory_xact_lock_shared
    session.execute(select(take(DAY_LOCK, room_id)))

