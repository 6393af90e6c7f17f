"""Chips in transit (R31): a cashier requests chips from the cage for a seated player, a supervisor
confirms facility funds (cheque/credit) and authorises the transit, and a different staff member
confirms delivery at the table, which posts the ledger row (R52). Cancelled slips keep their number.

The slip's state is on its row: each step locks the room (as every change the board shows does,
``games.locks.lock_room``), then the row, checks the move (``rules.next_state``), sets its own
who/when columns once and writes an audit row (R60)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.actors import Actor, get_in_room
from roomops.errors import Forbidden, Invalid
from roomops.floor.unit import UnitOfWork
from roomops.games.locks import lock_room
from roomops.games.models import Table
from roomops.holds.models import SEATED, SeatHold
from roomops.ledger.behind import behind_by_hold
from roomops.ledger.idempotency import fingerprint, insert_once, replay
from roomops.ledger.models import TransitSlip
from roomops.ledger.numbers import last_slip_number, next_slip_number
from roomops.ledger.posting import Posting, at_seat, cash_request, check_seat, locked_hold, post
from roomops.ledger.rules import (
    OPEN,
    check_confirmer,
    next_state,
)
from roomops.rooms.models import Player


def request(unit: UnitOfWork, hold_id: int, amount: int,
            method: str = "cash", currency: str | None = None, key: str | None = None) -> TransitSlip:
    """R31: a numbered slip for chips on their way to a seated player (player, table, seat,
    amount, method, who)."""
    cash_request(unit.session, unit.actor, method, currency, "R31", "transit", amount)
    print_ = fingerprint(op="transit", hold_id=hold_id, amount=amount, method=method,
                         staff=unit.actor.staff_id)
    lock_room(unit.session, unit.actor.room_id)  # a slip moves the game's board mark (lock_room)
    hold = locked_hold(unit.session, unit.actor, hold_id)
    earlier = replay(unit.session, TransitSlip, unit.actor.room_id, key, print_)  # after the lock, as above
    if earlier is not None:
        return earlier
    check_seat(hold, "R31", live=True)

    def build() -> TransitSlip:
        room_id = unit.actor.room_id
        slip = TransitSlip(room_id=room_id, number=next_slip_number(unit.session, room_id),
                           state="requested", player_id=hold.player_id, table_id=hold.table_id,
                           hold_id=hold.id, amount=amount, method=method, requested_at=unit.now,
                           requested_by_id=unit.actor.staff_id, idempotency_key=key,
                           fingerprint=print_ if key else None)
        unit.session.add(slip)
        return slip

    slip, created = insert_once(unit.session, TransitSlip, unit.actor.room_id, key, print_, build)
    if created:
        unit.audit("transit.requested", ("transit_slip", slip.id),
                   number=slip.number, amount=amount, method=method, hold_id=hold.id,
                   table_id=hold.table_id, player_id=hold.player_id)
    return slip


def confirm_funds(unit: UnitOfWork, slip_id: int) -> TransitSlip:
    """R31: a supervisor confirms cheque/credit funds are available before the chips may go."""
    unit.actor.require("authorise")
    return _move(unit, _locked(unit.session, unit.actor, slip_id), "confirm_funds",
                 funds_confirmed_at=unit.now, funds_confirmed_by_id=unit.actor.staff_id)


def dispatch(unit: UnitOfWork, slip_id: int) -> TransitSlip:
    """R31: a supervisor authorises the transit; the chips leave the cage."""
    unit.actor.require("authorise")
    return _move(unit, _locked(unit.session, unit.actor, slip_id), "dispatch", authorised_at=unit.now,
                 authorised_by_id=unit.actor.staff_id)


def deliver(unit: UnitOfWork, slip_id: int,
            at_table: int | None = None) -> TransitSlip:
    """R31/R61: someone other than the authorising supervisor confirms the chips reached the
    player, and the ledger row is posted (R52). The player must still be in the seat.

    From the cage (``at_table`` None) it takes the cash right; from the dealer's screen of table
    ``at_table`` the deal right, and only for a seat at that table (R61: dealers and runners
    confirm deliveries at their table)."""
    unit.actor.require("cash" if at_table is None else "deal")
    slip = _locked(unit.session, unit.actor, slip_id)
    if at_table is not None and slip.table_id != at_table:
        raise Forbidden(f"slip {slip.number} is for another table: a dealer confirms deliveries "
                        "at their own table", "R61")
    next_state(slip.state, "deliver", slip.method)
    check_confirmer(slip.authorised_by_id, unit.actor.staff_id)
    hold = locked_hold(unit.session, unit.actor, slip.hold_id)
    check_seat(hold, "R31", live=True)
    _move(unit, slip, "deliver", delivered_at=unit.now, delivered_by_id=unit.actor.staff_id)
    post(unit, Posting("transit", slip.amount, slip.method, slip_id=slip.id,
                       **at_seat(unit.session, hold)), None, "")
    return slip


def cancel(unit: UnitOfWork, slip_id: int, reason: str) -> TransitSlip:
    """R31: an open slip is cancelled with a reason by a supervisor; it keeps its number."""
    unit.actor.require("authorise")
    why = reason.strip()
    if not why:
        raise Invalid("a cancelled slip needs a reason", "R31")
    return _move(unit, _locked(unit.session, unit.actor, slip_id), "cancel", reason=why,
                 cancelled_at=unit.now, cancelled_by_id=unit.actor.staff_id, cancel_reason=why)


def _locked(session: Session, actor: Actor, slip_id: int) -> TransitSlip:
    get_in_room(session, TransitSlip, slip_id, actor, "transit slip")
    lock_room(session, actor.room_id)  # a slip moves the game's board mark (lock_room)
    return session.scalars(select(TransitSlip).where(TransitSlip.id == slip_id).with_for_update()
                           .execution_options(populate_existing=True)).one()


def _move(unit: UnitOfWork, slip: TransitSlip, action: str,
          reason: str | None = None, **values: object) -> TransitSlip:
    before = slip.state
    slip.state = next_state(before, action, slip.method)
    for name, value in values.items():
        setattr(slip, name, value)
    unit.audit(f"transit.{slip.state}", ("transit_slip", slip.id), reason=reason,
               number=slip.number, amount=slip.amount, method=slip.method, state_from=before)
    return slip


@dataclass(frozen=True)
class OpenSlip:
    """R31: an open transit as the desk shows it, with its seat and age; ``holder``: the player,
    for screens that show names as the room allows (R61)."""

    slip: TransitSlip
    holder: Player
    table: str
    seat_no: int
    age_seconds: int

    @property
    def player(self) -> str:
        return self.holder.full_name


def open_slips(session: Session, room_id: int, now: datetime,
               table_id: int | None = None) -> list[OpenSlip]:
    """Every open transit of the room (or of one of its tables), oldest first (R31: nothing in
    transit is lost)."""
    stmt = (select(TransitSlip, Player, Table.name, SeatHold.seat_no)
            .join(Player, Player.id == TransitSlip.player_id)
            .join(Table, Table.id == TransitSlip.table_id)
            .join(SeatHold, SeatHold.id == TransitSlip.hold_id)
            .where(TransitSlip.room_id == room_id, TransitSlip.state.in_(OPEN))
            .order_by(TransitSlip.requested_at, TransitSlip.number))
    if table_id is not None:
        stmt = stmt.where(TransitSlip.table_id == table_id)
    return [OpenSlip(slip, player, table, seat_no,
                     max(0, int((now - slip.requested_at).total_seconds())))
            for slip, player, table, seat_no in session.execute(stmt)]


@dataclass(frozen=True)
class NumberReport:
    """R31: every slip number the room has issued, with its state; ``missing`` lists numbers with
    no slip (always empty unless the books were tampered with)."""

    last_number: int
    slips: list[TransitSlip]
    missing: list[int]
    by_state: dict[str, int]


def number_report(session: Session, room_id: int) -> NumberReport:
    slips = list(session.scalars(select(TransitSlip).where(TransitSlip.room_id == room_id)
                                 .order_by(TransitSlip.number)))
    last = last_slip_number(session, room_id)
    seen = {s.number for s in slips}
    return NumberReport(last, slips, [n for n in range(1, last + 1) if n not in seen],
                        dict(Counter(s.state for s in slips)))


def behind_at_table(session: Session, table_id: int) -> dict[int, int]:
    """R31: the table's seats playing behind and the amount on its way, by seat number."""
    behind = behind_by_hold(session.get_one(Table, table_id).room_id)
    return {seat_no: int(amount) for seat_no, amount in session.execute(
        select(SeatHold.seat_no, behind.c.behind).join(behind, behind.c.hold_id == SeatHold.id)
        .where(SeatHold.table_id == table_id, SeatHold.kind == SEATED, SeatHold.ended_at.is_(None)))}
