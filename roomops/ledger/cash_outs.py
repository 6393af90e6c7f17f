"""Cash-outs at the cage (R27, R28, R52, R61): a player who has left a seat exchanges the chips
they left with, once per seat.

A cash-out is tied to the seat that ended and to the amount recorded as the player left
(``seat_holds.leave_amount``, R27). The cage pays that amount alone; a different amount, or one
above the room's threshold, carries a supervisor's approval (``roomops.ledger.approval``): the
caller has authenticated the approver (the web and API layers check their password,
``roomops.auth.approval``). A seat is cashed out once while its cash-out stands (a reversed one
frees it, R52); the ledger's trigger refuses a second one too (migration 0023). A playover's
overplayer cashes out the same way, once per playover, tied to the stack recorded as the playover
ended (``playovers.leave_amount``; ``roomops.ledger.playover_rows``, R29). The service
takes ``(session, actor, now, ...)``, checks the actor's right, audits and never commits."""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.errors import Conflict
from roomops.floor.unit import UnitOfWork
from roomops.holds.models import SeatHold
from roomops.ledger import playover_rows
from roomops.ledger.approval import approval_needed, check_approver
from roomops.ledger.idempotency import fingerprint, replay
from roomops.ledger.models import LedgerEntry, unreversed
from roomops.ledger.playover_rows import named
from roomops.ledger.posting import (
    Posting,
    SeatPlace,
    at_seat,
    cash_request,
    check_seat,
    locked_hold,
    post,
)
from roomops.ledger.rules import signed
from roomops.rooms.models import Room, Staff
from roomops.rooms.roles import rights_in

RULE = "R28"


def cash_out(unit: UnitOfWork, hold_id: int, amount: int,
             method: str = "cash", currency: str | None = None, key: str | None = None, *,
             approver: Staff | None = None, playover_id: int | None = None) -> LedgerEntry:
    """R27/R28: pay the player who left seat ``hold_id`` for their chips, once per seat; an
    amount other than the recorded leave amount, or above the room's threshold, needs
    ``approver``: an active supervisor of the room other than the actor. With ``playover_id``:
    the overplayer of that ended playover of the seat, tied to the stack recorded as they left,
    once per playover (R29); the owner's seat may still be live."""
    room = cash_request(unit.session, unit.actor, method, currency, RULE, "cash_out", amount)
    print_ = fingerprint(op="cash_out", hold_id=hold_id, amount=amount, method=method,
                         staff=unit.actor.staff_id, approver=approver.id if approver else None,
                         **named(playover_id))
    hold = locked_hold(unit.session, unit.actor, hold_id)
    earlier = replay(unit.session, LedgerEntry, room.id, key, print_)  # after the lock: see a racer's row
    if earlier is not None:
        return earlier
    place, recorded = _leaving(unit.session, unit.actor, hold, playover_id)
    why = approval_needed(amount, recorded, room.cash_out_approval_over)
    note: dict[str, object] = {}
    if why is not None:
        if approver is None:
            raise why
        _check(unit.session, approver, unit.actor, room)
        note = {"approved_by": approver.display_name, "approval_for": why.rule}
    return post(unit, Posting(
        "cash_out", signed("cash_out", amount), method, **place,
        approved_by_id=approver.id if why is not None and approver else None,
        playover_id=playover_id, note=note), key, print_)


def _leaving(session: Session, actor: Actor, hold: SeatHold,
             playover_id: int | None) -> tuple[SeatPlace, int | None]:
    """Who is paid and the amount recorded as they left (R27): the seat's player, or the
    overplayer of the playover named (R29)."""
    if playover_id is None:
        check_cashable(session, hold)
        return at_seat(session, hold), hold.leave_amount
    playover = playover_rows.cashable(session, actor, hold, playover_id, RULE)
    return playover_rows.overplayer_at(session, hold, playover.player_id), playover.leave_amount


def check_cashable(session: Session, hold: SeatHold) -> None:
    """R28: a seat whose player has left, whose stack did not go with them to another table
    (R18), and which has no standing cash-out."""
    check_seat(hold, RULE, live=False)
    if hold.outcome == "moved":
        raise Conflict("the player's stack went with them to their new seat (R18): they cash "
                       "out from the seat they leave last", RULE)
    earlier = standing_cash_out(session, hold.id)
    if earlier is not None:
        raise Conflict(f"this seat was cashed out already ({{amount}}, ledger row {earlier.id}): "
                       "a mistake is reversed first (R52)", RULE, amounts={"amount": -earlier.amount})


def standing_cash_out(session: Session, hold_id: int) -> LedgerEntry | None:
    """The seat's own cash-out (not a playover's on it, R29) that no reversal cancels."""
    return session.scalar(_STANDING, {"hold": hold_id})


def _check(session: Session, approver: Staff, actor: Actor, room: Room) -> None:
    """The approver authorises in the actor's room (a supervisor), is active and is not the
    actor (R28, R61)."""
    supervises = "authorise" in rights_in(session, approver.id, room.id)
    check_approver(approver.id, actor.staff_id, supervises, approver.active)


_STANDING = select(LedgerEntry).where(
    LedgerEntry.hold_id == bindparam("hold"), LedgerEntry.kind == "cash_out",
    LedgerEntry.playover_id.is_(None), unreversed()).limit(1)
