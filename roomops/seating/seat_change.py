"""Seat changes at the same table (R36): the player carries their chips to another seat of the
table; their missed-blind buttons go with them, and a move that would let the big blind go round
them costs a big blind. The stack is counted as for a table change. A player on the table's
seat-change list claims the seat they were called to (R14), at once or, during a hand, when the
dealer records its end; the floor may swap two players. Services never commit."""

from __future__ import annotations

from sqlalchemy import bindparam, select, update

from roomops.blinds.missed import move_seat
from roomops.blinds.state import SeatState, TableState
from roomops.db import end_live
from roomops.errors import Conflict, Invalid
from roomops.floor.events import OffersEnded
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Game, Table
from roomops.hands.models import SeatBlinds
from roomops.hands.seats import last_hand, seat_states, sittings, table_state
from roomops.holds import queries
from roomops.holds.models import OFFER, SeatHold
from roomops.holds.refusals import seat_taken
from roomops.holds.rules import check_claimable
from roomops.rooms.models import Room
from roomops.seating.balance import check_added
from roomops.seating.moves import Move, carry
from roomops.seating.offers import live_offer, offer_entity
from roomops.seating.seat_changes import end_requests

_RESERVED = select(SeatHold).where(SeatHold.table_id == bindparam("table_id"),
                                   SeatHold.kind == OFFER, SeatHold.ended_at.is_(None),
                                   SeatHold.reserved_at.is_not(None)).order_by(SeatHold.reserved_at)


def change_seat(unit: UnitOfWork, hold_id: int, seat_no: int, *,
                stack: int, reason: str | None = None) -> SeatHold:
    """R36: the seated player moves to open seat ``seat_no`` of their table with their chips,
    ``stack`` counted now (checked as a move's, R18/R28): the new seat's last known stack, which a
    later table change or break carries (the ledger's table figure does not move: the chips stay
    at the table). What they owe to be dealt in is worked out by the blind engine as if they had
    moved with their buttons."""
    unit.actor.require("floor")
    hold, table, game = queries.seated_hold(unit.session, unit.actor, hold_id, "R36")
    check_added(stack, 0, game.max_buyin)
    if not 1 <= seat_no <= game.seats_per_table:  # never into the extra seat, N+1 (R4)
        raise Invalid(f"a seat change is to seats 1 to {game.seats_per_table} of the table: seat "
                      f"{seat_no} is not one (seat {game.seats_per_table + 1} is taken one over "
                      "only by seating a player there)", "R4")
    if any(h.seat_no == seat_no for h in queries.live_holds(unit.session, [table.id])):
        raise seat_taken(unit.session, table, seat_no)
    return _move(unit, table, game, [(hold, seat_no, stack)], reason)[0]


def claim_seat_change(unit: UnitOfWork, offer_id: int, *,
                      stack: int | None = None, during_hand: bool = False) -> SeatHold:
    """R14/R36: the player on the seat-change list takes the seat of their table they were
    called to, before the call runs out (R22), with their counted ``stack``. ``during_hand``: a
    hand is being played, so the seat is held for them (its call no longer runs out) and they
    move when the dealer records the hand (``on_hand_recorded``); no stack is given then (the
    chips are in play: what moves is the seat's last known stack)."""
    unit.actor.require("floor")
    offer, table, game = live_offer(unit.session, unit.actor, offer_id)
    if offer.seat_change_id is None or offer.from_hold_id is None:
        raise Conflict("that offer is not a seat change: claim it with a buy-in, or as a move",
                       "R36")
    if offer.reserved_at is not None:
        raise Conflict("the seat is already held for the player until the hand ends", "R36")
    assert offer.deadline is not None  # every offer has one (ck_seat_holds_offer_fields)
    check_claimable(offer.deadline, unit.now)
    if during_hand:
        if stack is not None:
            raise Invalid("during a hand the chips are in play: leave the stack out; the move "
                          "carries the seat's last known stack when the hand is recorded", "R36")
        return _reserve(unit, offer)
    if stack is None:
        raise Invalid("count the stack that moves with the player", "R18")
    check_added(stack, 0, game.max_buyin)
    return _claim(unit, table, game, offer, stack, counted=True)


def _reserve(unit: UnitOfWork, offer: SeatHold) -> SeatHold:
    """R36: hold the called seat for the player until the table's hand is recorded."""
    unit.session.execute(update(SeatHold).where(SeatHold.id == offer.id).values(reserved_at=unit.now))
    offer.reserved_at = unit.now
    unit.audit("offer.reserved", offer_entity(offer), offer_id=offer.id,
               player_id=offer.player_id, seat_no=offer.seat_no)
    return offer


def on_hand_recorded(unit: UnitOfWork, table_id: int) -> None:
    """R36: the seat changes claimed during the hand just recorded at the table are made, each
    carrying the player's last known stack (the chips stay at the table; docs/decisions.md)."""
    table = unit.session.get_one(Table, table_id)
    game = unit.session.get_one(Game, table.game_id)
    for offer in unit.session.scalars(_RESERVED, {"table_id": table_id}).all():
        hold = unit.session.get_one(SeatHold, offer.from_hold_id)
        _claim(unit, table, game, offer, hold.buy_in or 0, counted=False)


def _claim(unit: UnitOfWork, table: Table, game: Game,
           offer: SeatHold, stack: int, *, counted: bool) -> SeatHold:
    if not end_live(unit.session, SeatHold, [offer.id], unit.now, "claimed"):
        raise Conflict("the offer was already taken", "R20")
    unit.audit("offer.claimed", offer_entity(offer), offer_id=offer.id,
               player_id=offer.player_id)
    unit.emit(OffersEnded((offer.id,), "claimed"))
    assert offer.seat_change_id is not None and offer.from_hold_id is not None
    end_requests(unit, [offer.seat_change_id], "moved")
    hold = unit.session.get_one(SeatHold, offer.from_hold_id)
    return _move(unit, table, game, [(hold, offer.seat_no, stack)], None,
                 counted=counted)[0]


def swap_seats(unit: UnitOfWork, hold_id: int, other_hold_id: int, *,
               stack: int, other_stack: int, reason: str | None = None) -> list[SeatHold]:
    """R36: the floor swaps two players seated at the same table, each with their stack counted
    now; each owes the big blind as if they had moved into the other's seat alone (a swap never
    lets the big blind go round either), and both moves are audited."""
    unit.actor.require("floor")
    hold, table, game = queries.seated_hold(unit.session, unit.actor, hold_id, "R36")
    other, other_table, _ = queries.seated_hold(unit.session, unit.actor, other_hold_id, "R36", lock=False)
    if other.id == hold.id:
        raise Invalid("a swap needs two different players", "R36")
    if other_table.id != table.id:
        raise Conflict(f"the players sit at tables {table.name} and {other_table.name}: a swap "
                       "is at one table; moving to another table is a move", "R36")
    for counted in (stack, other_stack):
        check_added(counted, 0, game.max_buyin)
    return _move(unit, table, game,
                 [(hold, other.seat_no, stack), (other, hold.seat_no, other_stack)], reason)


def _move(unit: UnitOfWork, table: Table, game: Game,
          moves: list[tuple[SeatHold, int, int]], reason: str | None, *,
          counted: bool = True) -> list[SeatHold]:
    """Carry each (seat, new seat number, stack) at the table, each player's blind state worked
    out by the blind engine as if they alone had moved (R35, R36). A player moving into the extra
    seat (a swap with its player) keeps the floor's reason for it on the new hold (R4)."""
    room = unit.session.get_one(Room, table.room_id)
    sat = sittings(unit.session, table.id)
    state = table_state(table, game, last_hand(unit.session, table.id), sat)
    seats = seat_states(state, sat, game.posting(room.new_player_posting))
    after = {hold.id: _after(state, seats, hold.seat_no, seat_no) for hold, seat_no, _ in moves}
    reasons = {hold.seat_no: hold.over_reason for hold, _, _ in moves}
    new = carry(unit, game, [
        Move(hold, table, seat_no, stack, kind="seat_change", counted=counted,
             over_reason=reasons.get(seat_no)) for hold, seat_no, stack in moves],
        reason, leave_lists=False)
    for hold, seat in zip((m[0] for m in moves), new, strict=True):
        a = after[hold.id]
        unit.session.add(SeatBlinds(hold_id=seat.id, status="new", missed_sb=a.missed_sb,
                                    missed_bb=a.missed_bb, owes_bb=a.owes_bb, updated_at=unit.now))
    return new


def _after(state: TableState, seats: list[SeatState], from_seat: int, to_seat: int) -> SeatState:
    """The mover's seat state after moving into ``to_seat``, whoever sits there now leaving it."""
    vacated = [SeatState(s.seat_no) if s.seat_no == to_seat else s for s in seats]
    return move_seat(state, vacated, from_seat, to_seat)[to_seat - 1]
