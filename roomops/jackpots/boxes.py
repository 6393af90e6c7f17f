"""R54/R69: a shift's jackpot drop box, counted apart from the cage's at the shift's close, by two
staff, against the drops the pool ledger recorded in the shift; any variance explained. The box
holds players' money: it is never in the room's ledger nor its totals. The day's report shows it
(``section``, also in its CSV) beside the ledger's rake and fees; a shift that took drops closes
only once its box is counted (``require_counted``, composed with the close above both packages:
``roomops.web.closes``). Services never commit."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.errors import Conflict
from roomops.floor.unit import UnitOfWork
from roomops.jackpots.models import JackpotBoxCount
from roomops.jackpots.pool import check_second
from roomops.jackpots.reads import drops_of_day
from roomops.ledger.closing import check_count, check_day, pick_shift
from roomops.money import Money
from roomops.rooms.gaming_day import gaming_day
from roomops.rooms.models import Room, Staff
from roomops.rooms.shifts import shifts_of_day


def count_box(unit: UnitOfWork, day: date, shift: int | None, counted: int, confirmer: Staff,
              explanation: str | None = None) -> JackpotBoxCount:
    """R54: the actor (the cash right) and ``confirmer`` (authenticated by the caller) count the
    jackpot drop box of ``shift`` of ``day`` (None: a one-shift day's only shift). Audited (R60)."""
    unit.actor.require("cash")
    room = unit.session.get_one(Room, unit.actor.room_id)
    check_day(day, gaming_day(unit.now, room.timezone, room.gaming_day_start))
    number = pick_shift(shift, len(shifts_of_day(day, room.timezone, room.gaming_day_start, room.shifts)))
    check_second(unit, confirmer, "a count of the jackpot drop box")
    expected, _fees = drops_of_day(unit.session, room.id, day, number)
    text = check_count(counted, expected, explanation, "the jackpot drop box")
    row = JackpotBoxCount(room_id=room.id, gaming_day=day, shift_no=number, counted=counted,
                          expected=expected, counted_by_id=unit.actor.staff_id, confirmed_by_id=confirmer.id,
                          at=unit.now, explanation=text)
    unit.session.add(row)
    unit.session.flush()
    unit.audit("jackpot.box_counted", ("jackpot_box_count", row.id), text, gaming_day=day.isoformat(),
               shift_no=number, counted=counted, expected=expected, confirmed_by_id=confirmer.id)
    return row


def require_counted(session: Session, room_id: int, day: date, shift: int | None) -> None:
    """R54/R68: a shift whose tables took jackpot drops closes only once its drop box is counted
    (``shift`` None: a one-shift day's only shift)."""
    room = session.get_one(Room, room_id)
    number = pick_shift(shift, len(shifts_of_day(day, room.timezone, room.gaming_day_start, room.shifts)))
    dropped, _fees = drops_of_day(session, room_id, day, number)
    counted = session.scalar(select(JackpotBoxCount.id).where(
        JackpotBoxCount.room_id == room_id, JackpotBoxCount.gaming_day == day,
        JackpotBoxCount.shift_no == number).limit(1))
    if dropped and counted is None:
        raise Conflict("count the jackpot drop box first: {dropped} was dropped in the shift", "R54",
                       amounts={"dropped": dropped})


@dataclass(frozen=True)
class Section:
    """R68/R54: the day's (or shift's) jackpot drops for its report: what was dropped at the
    tables, the administrative fee among it, and each shift's standing box count."""

    dropped: int
    fees: int
    counts: list[JackpotBoxCount]

    @property
    def held(self) -> int:
        """What the drops put in trust for the players (the drops less the house's fee)."""
        return self.dropped - self.fees


def section(session: Session, room_id: int, day: date, shift: int | None) -> Section:
    dropped, fees = drops_of_day(session, room_id, day, shift)
    stmt = select(JackpotBoxCount).where(JackpotBoxCount.room_id == room_id,
                                         JackpotBoxCount.gaming_day == day).order_by(JackpotBoxCount.id)
    latest = {c.shift_no: c for c in session.scalars(stmt) if shift is None or c.shift_no == shift}
    return Section(dropped, fees, [latest[n] for n in sorted(latest)])


def csv_rows(s: Section, money: Money) -> list[list[object]]:
    """R68/R54: the section as the day report's CSV carries it, after the ledger's sections."""
    unit = money.currency
    rows: list[list[object]] = [
        [], ["jackpot drops (players' money held in trust, not in the ledger)"],
        ["line", f"amount ({unit})"], ["dropped", money.major(s.dropped)],
        ["administrative fee", money.major(s.fees)], ["held in trust", money.major(s.held)],
        [], ["jackpot drop box"],
        ["shift", f"counted ({unit})", f"expected ({unit})", f"variance ({unit})", "explanation"]]
    rows += ([c.shift_no, money.major(c.counted), money.major(c.expected), money.major(c.variance),
              c.explanation or ""] for c in s.counts)
    return rows
