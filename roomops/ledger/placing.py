"""Where a row posted now goes (R2, R54): the open shift of its gaming day, with the room's day
lock that keeps postings and a close in turn. The room's ledger (``roomops.ledger.posting``) and
the jackpots' pool ledger (``roomops.jackpots.pool``) post here; the close
(``roomops.ledger.dayclose``) takes the same lock."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from sqlalchemy import bindparam, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from roomops.ledger.closing import check_not_closed, posting_place
from roomops.ledger.models import DayClose
from roomops.rooms.models import Room
from roomops.rooms.shifts import Shift, shift_of, shifts_of_day

_CLOSES = select(DayClose.shift_no, DayClose.closes_day).where(
    DayClose.room_id == bindparam("room_id"), DayClose.gaming_day == bindparam("day"))
# in the message of the ledger's trigger refusing a row of a closed shift (migration 0019)
CLOSED_MARK = "ledger_entries: shift closed (R54)"


def shift_to_post(session: Session, room: Room, now: datetime) -> Shift:
    """R54: the shift a ledger row posted at ``now`` goes to: the shift of ``now`` (R2), or, when
    that shift was closed before its end, the next open shift of the same gaming day, and once
    the day was closed before its end, the next gaming day's first shift (``closing.posting_place``);
    refused when none is open (a shift policy changed after a close). The database refuses a
    row naming a closed shift itself: the ledger's trigger checks the day's closes inside the
    INSERT, for every writer (migration 0019), and ``closed_refused`` turns its refusal into the
    409. On SQLite the day's closes read here cannot change before the INSERT: one writer at a
    time. On PostgreSQL the posting takes the room's day lock first (``lock_day``) and reads the
    closes one statement after the lock is granted, so a close in progress is waited for and
    then seen: the row goes to the next shift rather than failing in the trigger, which would
    abort the whole transaction there."""
    lock_day(session, room.id)
    shift = shift_of(now, room.timezone, room.gaming_day_start, room.shifts)
    closes = session.execute(_CLOSES, {"room_id": room.id, "day": shift.gaming_day}).tuples()
    place = posting_place(shift.gaming_day, shift.number, shift.of, closes)
    check_not_closed(shift.gaming_day, place is None, shift_named(shift))
    assert place is not None  # refused just above otherwise
    day, number = place
    if (day, number) == (shift.gaming_day, shift.number):
        return shift
    return shifts_of_day(day, room.timezone, room.gaming_day_start, room.shifts)[number - 1]


@contextmanager
def closed_refused(shift: Shift) -> Iterator[None]:
    """R54: the ledger's trigger refusing a row of ``shift`` (closed) becomes the 409 that names
    it; any other database error goes on as it was."""
    try:
        yield
    except IntegrityError as err:
        if CLOSED_MARK not in str(err.orig):
            raise
        check_not_closed(shift.gaming_day, True, shift_named(shift))


def shift_named(shift: Shift) -> int | None:
    """The shift as a refusal names it: only when the day has several."""
    return shift.number if shift.of > 1 else None


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

