"""The roster (R62): dealers check in and out, by themselves on the dealer tablet or by the dealer
coordinator; the coordinator names the next dealer for a table (R64). Each change is audited (R60)
and asks the rotation to move (``RotationMayMove``): a table with no dealer takes one checked in."""

from __future__ import annotations

from sqlalchemy import select

from roomops.dealers.models import DealerOverride, DealerShift, DealerSpell
from roomops.errors import Conflict, Invalid, NotFound
from roomops.floor.events import RotationMayMove
from roomops.floor.unit import UnitOfWork
from roomops.games.locks import lock_room, table_in_room
from roomops.rooms.models import Staff
from roomops.rooms.roles import roles_in

MAX_REASON = 500


def _dealer(unit: UnitOfWork, dealer_id: int | None, *, on_shift: bool = False) -> Staff:
    """The dealer acted for: oneself (a dealer, on their tablet) or anyone (the coordinator, R62).
    ``on_shift``: anyone checked in here counts, if no longer a dealer (deactivated or their role
    taken mid-shift: they are still checked out)."""
    me = unit.actor.staff_id
    target = me if dealer_id is None else dealer_id
    if target != me or not unit.actor.can("deal"):
        unit.actor.require("dealers")
    staff = unit.session.get(Staff, target) if target is not None else None
    is_dealer = (staff is not None and staff.active
                 and "dealer" in roles_in(unit.session, staff.id, unit.actor.room_id))
    here = (on_shift and staff is not None
            and (shift := _open_shift(unit, staff.id)) is not None and shift.room_id == unit.actor.room_id)
    if staff is None or not (is_dealer or here):
        raise NotFound("no such dealer works in this room", "R62")
    return staff


def check_in(unit: UnitOfWork, dealer_id: int | None = None) -> DealerShift:
    """R62: the dealer's shift starts; they wait to be assigned (the rotation may assign them at
    once, to a table with no dealer)."""
    lock_room(unit.session, unit.actor.room_id)
    staff = _dealer(unit, dealer_id)
    if _open_shift(unit, staff.id) is not None:
        raise Conflict(f"{staff.display_name} is already checked in", "R62")
    shift = DealerShift(room_id=unit.actor.room_id, dealer_id=staff.id, checked_in_at=unit.now)
    unit.session.add(shift)
    unit.session.flush()
    unit.audit("dealer.checked_in", ("dealer", staff.id), shift_id=shift.id)
    unit.emit(RotationMayMove(unit.actor.room_id))
    return shift


def check_out(unit: UnitOfWork, dealer_id: int | None = None) -> DealerShift:
    """R62: the dealer leaves; their down or break ends now (a table they dealt at takes the next
    dealer)."""
    lock_room(unit.session, unit.actor.room_id)
    staff = _dealer(unit, dealer_id, on_shift=True)
    shift = _open_shift(unit, staff.id)
    if shift is None or shift.room_id != unit.actor.room_id:
        raise Conflict(f"{staff.display_name} is not checked in here", "R62")
    running = unit.session.scalar(select(DealerSpell).where(DealerSpell.shift_id == shift.id,
                                                            DealerSpell.ended_at.is_(None)))
    if running is not None:
        running.ended_at, running.end_reason = unit.now, "checked_out"
        unit.session.flush()  # the trigger of migration 0051 checks the shift's spells
    shift.checked_out_at = unit.now
    unit.session.flush()
    unit.audit("dealer.checked_out", ("dealer", staff.id), shift_id=shift.id,
               table_id=running.table_id if running is not None else None)
    unit.emit(RotationMayMove(unit.actor.room_id))
    return shift


def override(unit: UnitOfWork, table_id: int, dealer_id: int, reason: str) -> DealerOverride:
    """R64/R60: the coordinator names the dealer who takes the table at its next push, with a
    reason; an earlier choice for that table, or for that dealer, is dropped."""
    unit.actor.require("dealers")
    lock_room(unit.session, unit.actor.room_id)
    table = table_in_room(unit.session, unit.actor, table_id)
    staff = _dealer(unit, dealer_id)
    reason = reason.strip()
    if not reason or len(reason) > MAX_REASON:
        raise Invalid(f"say why in a few words (at most {MAX_REASON} characters)", "R60")
    if table.status != "open":
        raise Conflict(f"table {table.name} is closed", "R64")
    if _open_shift(unit, staff.id) is None:
        raise Conflict(f"{staff.display_name} is not checked in", "R62")
    for earlier in unit.session.scalars(select(DealerOverride).where(
            DealerOverride.used_at.is_(None), DealerOverride.dropped_at.is_(None),
            (DealerOverride.table_id == table.id) | (DealerOverride.dealer_id == staff.id))):
        earlier.dropped_at = unit.now
    unit.session.flush()
    chosen = DealerOverride(room_id=unit.actor.room_id, dealer_id=staff.id, table_id=table.id, reason=reason,
                            made_by_id=unit.actor.staff_id, made_at=unit.now)
    unit.session.add(chosen)
    unit.session.flush()
    unit.audit("dealer.override", ("table", table.id), dealer_id=staff.id, reason=reason,
               override_id=chosen.id)
    unit.emit(RotationMayMove(unit.actor.room_id))
    return chosen


def _open_shift(unit: UnitOfWork, dealer_id: int) -> DealerShift | None:
    return unit.session.scalar(select(DealerShift).where(DealerShift.dealer_id == dealer_id,
                                                         DealerShift.checked_out_at.is_(None)))
