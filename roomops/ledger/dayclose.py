"""Shift and gaming-day close (R54): two staff members each count every table with ledger rows
in the shift and the shift's total; the shift is closed by the two of them, one a supervisor, once.

Policy: the room's shifts (``roomops.rooms.shifts``; default one shift, the gaming day, R2). Shifts
close in order, a shift may close before its end (the rest of it posts to the next shift), and
closing the day's last shift closes the gaming day, once the day has ended or no table is open
(play after an early close goes to the next gaming day). ``shift`` None names the
only shift of a one-shift day (the day's close as before shifts existed); a day with several
shifts needs the shift named. Services take ``(session, actor, now, ...)``, check the actor's right
(R61), audit (R60) and never commit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import bindparam, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from roomops.actors import get_in_room
from roomops.errors import Conflict, Invalid
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Table
from roomops.holds.models import SeatHold
from roomops.ledger.closing import (
    check_confirmed,
    check_count,
    check_counts_complete,
    check_day,
    check_day_closable,
    check_not_closed,
    check_pair,
    check_previous_closed,
    check_running,
    check_shift_started,
    pick_shift,
    shift_closed,
)
from roomops.ledger.models import DayClose, DayCount, LedgerEntry
from roomops.ledger.placing import lock_day, shift_named
from roomops.ledger.report import DayReport, day_report, expected_by_table, latest_counts, rows_of
from roomops.rooms.gaming_day import gaming_day
from roomops.rooms.models import Room
from roomops.rooms.roles import rights_in, staff_of_room
from roomops.rooms.shifts import Shift, shift_of, shifts_of_day


@dataclass(frozen=True)
class Count:
    """One counted amount: ``table_id`` None is the day's total (the cage)."""

    table_id: int | None
    counted: int
    explanation: str | None = None


@dataclass(frozen=True)
class Closed:
    """A close made (R54): its row, and the tables still running when it was made (the room's
    policy 'warn' lets it go ahead and names them; empty when none was)."""

    row: DayClose
    running: list[str]


def today(room: Room, now: datetime) -> date:
    return gaming_day(now, room.timezone, room.gaming_day_start)


def shifts(room: Room, day: date) -> list[Shift]:
    """R54: the shifts of gaming day ``day`` under the room's policy."""
    return shifts_of_day(day, room.timezone, room.gaming_day_start, room.shifts)


def current_shift(room: Room, now: datetime) -> Shift:
    return shift_of(now, room.timezone, room.gaming_day_start, room.shifts)


def day_closes(session: Session, room_id: int, day: date) -> dict[int, DayClose]:
    """R54: the day's shift closes by shift number (one statement)."""
    return {c.shift_no: c for c in session.scalars(select(DayClose).where(
        DayClose.room_id == room_id, DayClose.gaming_day == day))}


def closed(closes: dict[int, DayClose], shift: int) -> bool:
    """R54: is ``shift`` closed, given the day's closes (``day_closes``)?"""
    return shift_closed(shift, ((c.shift_no, c.closes_day) for c in closes.values()))


def is_closed(session: Session, room_id: int, day: date) -> bool:
    """R54: the gaming day is closed (its last shift is)."""
    return session.scalar(select(DayClose.id).where(DayClose.room_id == room_id,
                                                    DayClose.gaming_day == day,
                                                    DayClose.closes_day)) is not None


def _open_shift(session: Session, room: Room, now: datetime, day: date,
                shift: int | None) -> tuple[Shift, dict[int, DayClose]]:
    """R54: the shift a count or close is for, refused unless it has started and is open; and the
    day's closes."""
    check_day(day, today(room, now))
    day_shifts = shifts(room, day)
    target = day_shifts[pick_shift(shift, len(day_shifts)) - 1]
    check_shift_started(target.number, target.start, now)
    closes = day_closes(session, room.id, day)
    check_not_closed(day, closed(closes, target.number), shift_named(target))
    return target, closes


def record_counts(unit: UnitOfWork, day: date,
                  counts: Sequence[Count], shift: int | None = None) -> list[DayCount]:
    """R54: the actor's counts for ``shift`` of ``day``, each next to what the ledger expects now;
    a variance needs an explanation. A recount is a new row that supersedes the counter's earlier
    one."""
    unit.actor.require("cash")
    room = unit.session.get_one(Room, unit.actor.room_id)
    target, _closes = _open_shift(unit.session, room, unit.now, day, shift)
    if not counts:
        raise Invalid("send at least one count", "R54")
    if len({c.table_id for c in counts}) != len(counts):
        raise Invalid("one count per table (and one for the total)", "R54")
    names = {t.id: t.name for t in [get_in_room(unit.session, Table, c.table_id, unit.actor, "table")
                                    for c in counts if c.table_id is not None]}
    expected = expected_by_table(unit.session, room.id, day, target.number, target.number == target.of)
    made = []
    for c in counts:
        where = f"table {names[c.table_id]}" if c.table_id is not None else "the total"
        explanation = check_count(c.counted, expected.get(c.table_id, 0), c.explanation, where)
        made.append(DayCount(room_id=room.id, gaming_day=day, shift_no=target.number,
                             table_id=c.table_id,
                             staff_id=unit.actor.staff_id, at=unit.now, counted=c.counted,
                             expected=expected.get(c.table_id, 0), explanation=explanation))
    unit.session.add_all(made)
    unit.session.flush()
    unit.audit("day.counted", ("gaming_day", _day_id(day)),
               gaming_day=day.isoformat(), shift_no=target.number,
               counts=[{"table_id": r.table_id, "counted": r.counted, "expected": r.expected,
                        "variance": r.variance, "explanation": r.explanation} for r in made])
    return made


def close_day(unit: UnitOfWork, day: date,
              second_staff_id: int, shift: int | None = None, *,
              confirmed_total: int | None = None) -> Closed:
    """R54: close ``shift`` of ``day`` with a second staff member; one of the two a supervisor,
    both have counted every table with rows in the shift and its total since the ledger last
    moved. A shift is closed once, after the ones before it; afterwards its figures never change,
    and rows posted in the rest of it go to the next shift (``posting_shift``). The close of the
    day's last shift (of a one-shift day: the day's close) closes the day once it has ended (R2)
    or, before, once no table is open; play after it posts to the next gaming day
    (``placing.shift_to_post``). Tables still running are refused or named, as the room's policy says.
    ``confirmed_total``: the expected total the closer was shown and confirmed (the cage page);
    refused when the ledger's is another by then."""
    unit.actor.require("cash")
    room = unit.session.get_one(Room, unit.actor.room_id)
    lock_day(unit.session, room.id, close=True)  # before any figure is read: see ``lock_day``
    target, closes = _open_shift(unit.session, room, unit.now, day, shift)
    check_previous_closed(target.number, closes)
    last = target.number == target.of
    if last:
        check_day_closable(day, target.end, room.timezone, unit.now, open_tables(unit.session, room.id))
    running = running_tables(unit.session, room.id)
    check_running(room.close_while_running, running)
    other = staff_of_room(unit.session, second_staff_id, unit.actor.room_id)
    others = rights_in(unit.session, other.id, room.id)
    if not other.active:
        raise Conflict(f"{other.display_name} is not an active staff member", "R54")
    check_pair(unit.actor.staff_id or 0, unit.actor.can("authorise"), other.id, "authorise" in others)
    expected = expected_by_table(unit.session, room.id, day, target.number, last)
    check_confirmed(confirmed_total, expected[None])
    counts = latest_counts(unit.session, room.id, day, (unit.actor.staff_id or 0, other.id), target.number)
    names = {c.table_id: c.table for c in counts}
    names.update({t: n for t, n in unit.session.execute(select(Table.id, Table.name).where(
        Table.id.in_([t for t in expected if t is not None])))})
    for staff_id, who in ((unit.actor.staff_id, unit.actor.label), (other.id, other.display_name)):
        mine = {c.table_id: (c.counted, c.expected) for c in counts if c.staff_id == staff_id}
        check_counts_complete(who, expected, mine, names)
    supervisor = unit.actor.staff_id if unit.actor.can("authorise") else other.id
    entries, last_id = unit.session.execute(select(func.count(), func.max(LedgerEntry.id)).where(
        *rows_of(room.id, day, target.number, last))).one()
    row = DayClose(room_id=room.id, gaming_day=day, shift_no=target.number, closes_day=last,
                   closed_at=unit.now, closed_by_id=unit.actor.staff_id,
                   second_staff_id=other.id, entries=entries, expected_total=expected[None],
                   counted_total=next(c.counted for c in counts
                                      if c.staff_id == supervisor and c.table_id is None),
                   last_entry_id=last_id)
    try:
        with unit.session.begin_nested():
            unit.session.add(row)
            unit.session.flush()
    except IntegrityError:  # a concurrent close of the same shift committed first
        check_not_closed(day, True, shift_named(target))
    unit.audit("day.closed" if row.closes_day else "shift.closed",
               ("gaming_day", _day_id(day)), gaming_day=day.isoformat(), shift_no=target.number,
               shifts=target.of, second_staff_id=other.id, entries=entries,
               expected_total=row.expected_total, counted_total=row.counted_total,
               variances={names.get(c.table_id, "total"): c.variance for c in counts
                          if c.staff_id == supervisor and c.variance})
    return Closed(row, running)


_RUNNING = (select(Table.name).join(SeatHold, SeatHold.table_id == Table.id)
            .where(Table.room_id == bindparam("room_id"), SeatHold.kind == "seated",
                   SeatHold.ended_at.is_(None)).distinct().order_by(Table.name))


_OPEN = (select(Table.name).where(Table.room_id == bindparam("room_id"), Table.status == "open")
         .order_by(Table.name))


def open_tables(session: Session, room_id: int) -> list[str]:
    """R54: the room's open tables, by name: while any is, the day closes only after its end."""
    return list(session.scalars(_OPEN, {"room_id": room_id}))


def running_tables(session: Session, room_id: int) -> list[str]:
    """R54: the room's tables still running: those with a player seated (a live seated hold; a
    seat offer or an empty open table is not play), by name (see docs/decisions.md)."""
    return list(session.scalars(_RUNNING, {"room_id": room_id}))


def report(session: Session, room: Room, day: date, shift: int | None) -> DayReport:
    """R54: the day's report, or one of its shifts' (refused unless the day has that shift)."""
    n = len(shifts(room, day))
    if shift is not None:
        pick_shift(shift, n)
    return day_report(session, room.id, room.money, day, shift, shift == n)


def _day_id(day: date) -> int:
    """The audit trail's entity id of a gaming day: its date as YYYYMMDD."""
    return day.year * 10000 + day.month * 100 + day.day
