"""R66: a shift's toke pool counted by two staff and shared by the downs each dealer dealt; the
report of it per dealer, on screen, printed and as CSV. Tips are the dealers', never house
revenue: nothing here posts a ledger row, and a room whose policy ``toke_pool`` is
``individual`` does not pool (a count is refused).

A shift is the cage's (R54: a gaming day's shift by its number; one shift, the day, by default).
A dealer's downs in it are their downs that ended within its time (start included, end not),
wherever they started: a down is counted once, in the shift it ended in. A pool is counted once
the shift has ended, or before that once no down is running in the room (it closed early for
the night). A wrong count is replaced by a new one naming it, with the reason, never edited: the
new count's shares are the ones that stand (``standing``)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from roomops.dealers.models import DealerSpell
from roomops.errors import Conflict, Forbidden, Invalid
from roomops.floor.unit import UnitOfWork
from roomops.games.locks import lock_room
from roomops.ledger.closing import check_day, check_shift_started, local, pick_shift
from roomops.money import Money
from roomops.rooms.gaming_day import gaming_day
from roomops.rooms.models import Room, Staff
from roomops.rooms.roles import rights_in
from roomops.rooms.shifts import Shift, shifts_of_day
from roomops.text import spreadsheet_rows
from roomops.tokes.models import TokeCount, TokeShare
from roomops.tokes.split import split

MAX_REASON = 500
CONFIRMING = frozenset({"dealers", "authorise"})  # R66/R61: who may confirm a count


@dataclass(frozen=True)
class ShareLine:
    """One dealer's line of the report: downs dealt in the shift, and their share (None: the
    pool is not counted yet)."""

    dealer_id: int
    name: str
    downs: int
    share: int | None


@dataclass(frozen=True)
class TokeReport:
    """R66: a shift's pool, its count (None: not counted yet) with who counted and confirmed it,
    each dealer's downs and share, and the counts it replaced, newest first."""

    gaming_day: date
    shift: Shift
    currency: str
    count: TokeCount | None
    counted_by: str
    confirmed_by: str
    lines: list[ShareLine]
    replaced: list[TokeCount]

    @property
    def downs(self) -> int:
        return sum(line.downs for line in self.lines)


def shift_of_day(room: Room, day: date, shift: int | None) -> Shift:
    """R54: shift ``shift`` of gaming day ``day`` (None: a one-shift day's only shift)."""
    day_shifts = shifts_of_day(day, room.timezone, room.gaming_day_start, room.shifts)
    return day_shifts[pick_shift(shift, len(day_shifts)) - 1]


def downs_in(session: Session, room_id: int, start: datetime, end: datetime) -> dict[int, int]:
    """R66: each dealer's downs that ended in ``start`` (included) .. ``end`` (not), by dealer id.
    A down ended the moment it began (its dealer checked out, its table closed at the push) dealt
    nothing and is not counted."""
    return {dealer: n for dealer, n in session.execute(
        select(DealerSpell.dealer_id, func.count()).where(
            DealerSpell.room_id == room_id, DealerSpell.kind == "down",
            DealerSpell.ended_at >= start, DealerSpell.ended_at < end,
            DealerSpell.ended_at > DealerSpell.started_at)
        .group_by(DealerSpell.dealer_id))}


_LATER = aliased(TokeCount)


def standing(session: Session, room_id: int, day: date, shift_no: int) -> TokeCount | None:
    """R66: the shift's count, the one no later count replaces (the database keeps them a line)."""
    return session.scalar(select(TokeCount).where(
        TokeCount.room_id == room_id, TokeCount.gaming_day == day, TokeCount.shift_no == shift_no,
        ~select(_LATER.id).where(_LATER.replaces_id == TokeCount.id).exists()))


def count_pool(unit: UnitOfWork, day: date, shift: int | None, amount: int, confirmer: Staff,
               replaces_id: int | None = None, reason: str | None = None) -> TokeCount:
    """R66: the actor (the ``dealers`` right) records the pool of ``shift`` of ``day`` as
    counted with ``confirmer`` (a second person holding the ``dealers`` or ``authorise`` right,
    authenticated by the caller), and it is shared by the downs dealt in the shift. A shift is
    counted once; a wrong count is replaced by naming it (``replaces_id``) with a reason.
    Audited (R60)."""
    unit.actor.require("dealers")
    room = unit.session.get_one(Room, unit.actor.room_id)
    if room.toke_pool == "individual":
        raise Conflict("this room does not pool tips: each dealer keeps their own (policy toke_pool)",
                       "R66")
    lock_room(unit.session, room.id)
    target = shift_of_day(room, day, shift)
    check_day(day, gaming_day(unit.now, room.timezone, room.gaming_day_start))
    check_shift_started(target.number, target.start, unit.now)
    _check_over(unit.session, room, target, unit.now)
    _check_confirmer(unit, room, confirmer)
    reason = _check_replacing(unit.session, room.id, target, replaces_id, reason)
    downs = downs_in(unit.session, room.id, target.start, target.end)
    shares = split(amount, downs)
    row = TokeCount(room_id=room.id, gaming_day=day, shift_no=target.number, shift_start=target.start,
                    shift_end=target.end, amount=amount, counted_by_id=unit.actor.staff_id,
                    confirmed_by_id=confirmer.id, counted_at=unit.now, replaces_id=replaces_id,
                    reason=reason)
    unit.session.add(row)
    unit.session.flush()
    unit.session.add_all(TokeShare(count_id=row.id, dealer_id=dealer, downs=downs[dealer], share=share)
                         for dealer, share in sorted(shares.items()))
    unit.session.flush()
    unit.audit("tokes.counted", ("toke_count", row.id), reason, gaming_day=day.isoformat(),
               shift_no=target.number, amount=amount, confirmed_by_id=confirmer.id,
               replaces_id=replaces_id,
               shares=[{"dealer_id": d, "downs": downs[d], "share": s} for d, s in sorted(shares.items())])
    return row


def still_dealt(session: Session, room: Room, shift: Shift, now: datetime) -> str | None:
    """R66: why the shift's pool cannot be counted yet (its downs are not all dealt: it has not
    ended and a down is running in the room), or None."""
    if now >= shift.end:
        return None
    running = session.scalar(select(func.count()).where(
        DealerSpell.room_id == room.id, DealerSpell.kind == "down", DealerSpell.ended_at.is_(None)))
    return (f"downs are still being dealt: count the pool once the shift ends at "
            f"{local(shift.end, room.timezone)}, or once every down has ended") if running else None


def _check_over(session: Session, room: Room, shift: Shift, now: datetime) -> None:
    refusal = still_dealt(session, room, shift, now)
    if refusal is not None:
        raise Conflict(refusal, "R66")


def _check_confirmer(unit: UnitOfWork, room: Room, confirmer: Staff) -> None:
    """R66/R61: a second person confirms the count, active, with the dealers or authorise right."""
    if confirmer.id == unit.actor.staff_id:
        raise Conflict("a toke count is confirmed by a second person, not by the one who counted it",
                       "R66")
    if not confirmer.active or not CONFIRMING & rights_in(unit.session, confirmer.id, room.id):
        raise Forbidden(f"{confirmer.display_name} may not confirm a toke count: it needs the "
                        "dealers or authorise right in this room", "R61")


def _check_replacing(session: Session, room_id: int, shift: Shift, replaces_id: int | None,
                     reason: str | None) -> str | None:
    """R66: a first count of the shift, or the replacement of its standing count with a reason."""
    now_standing = standing(session, room_id, shift.gaming_day, shift.number)
    if replaces_id is None:
        if now_standing is not None:
            raise Conflict(f"shift {shift.number} of {shift.gaming_day} is already counted "
                           f"({now_standing.id}): a correction replaces that count, with the reason",
                           "R66")
        return None
    if now_standing is None or now_standing.id != replaces_id:
        raise Conflict(f"count {replaces_id} is not the standing count of shift {shift.number} of "
                       f"{shift.gaming_day}: only that one can be replaced", "R66")
    text = (reason or "").strip()
    if not text or len(text) > MAX_REASON:
        raise Invalid(f"say why the count is replaced, in a few words (at most {MAX_REASON} characters)",
                      "R66")
    return text


def report(session: Session, room: Room, day: date, shift: int | None) -> TokeReport:
    """R66: the shift's pool per dealer. Counted: the standing count's shares. Not yet: each
    dealer's downs so far, with no share."""
    target = shift_of_day(room, day, shift)
    count = standing(session, room.id, day, target.number)
    names: dict[int, str] = {}
    rows: list[tuple[int, int, int | None]]
    if count is None:
        rows = [(d, n, None) for d, n in downs_in(session, room.id, target.start, target.end).items()]
        replaced: list[TokeCount] = []
    else:
        rows = [(s.dealer_id, s.downs, s.share) for s in session.scalars(
            select(TokeShare).where(TokeShare.count_id == count.id))]
        replaced = list(session.scalars(select(TokeCount).where(
            TokeCount.room_id == room.id, TokeCount.gaming_day == day,
            TokeCount.shift_no == target.number, TokeCount.id != count.id).order_by(TokeCount.id.desc())))
    wanted = {d for d, _, _ in rows} | ({count.counted_by_id, count.confirmed_by_id} if count else set())
    if wanted:
        names = {staff_id: name for staff_id, name in session.execute(
            select(Staff.id, Staff.display_name).where(Staff.id.in_(wanted)))}
    lines = sorted((ShareLine(d, names.get(d, ""), n, s) for d, n, s in rows),
                   key=lambda line: (line.name.casefold(), line.dealer_id))
    return TokeReport(day, target, room.currency, count,
                      names.get(count.counted_by_id, "") if count else "",
                      names.get(count.confirmed_by_id, "") if count else "", lines, replaced)


def to_csv(rep: TokeReport) -> str:
    """R66: the report as CSV: what it is (day, shift, currency, the pool and who counted it),
    then a line per dealer. Amounts in the room's currency, major units with its decimals, as
    numbers; names as text no spreadsheet runs as a formula (``roomops.text.spreadsheet_rows``)."""
    money = Money(rep.currency)
    pool = money.major(rep.count.amount) if rep.count else ""
    rows: list[list[object]] = [
        ["toke report"],
        ["gaming_day", "shift", "currency", "pool", "counted_by", "confirmed_by", "count_id"],
        [rep.gaming_day, rep.shift.number, rep.currency, pool, rep.counted_by, rep.confirmed_by,
         rep.count.id if rep.count else ""],
        [], ["dealer_id", "dealer", "downs", f"share ({rep.currency})"]]
    rows += ([line.dealer_id, line.name, line.downs, "" if line.share is None else money.major(line.share)]
             for line in rep.lines)
    rows.append(["total", "", rep.downs, pool])
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(spreadsheet_rows(rows))
    return out.getvalue()
