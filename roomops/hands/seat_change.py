"""A seat change at the same table (R36): the player carries their chips to an open seat of the
table; their missed-blind buttons go with them, and moving two or more occupied seats away from
the button costs a big blind. The stack is counted as for a table change. Services never commit."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.blinds.missed import move_seat
from roomops.errors import Conflict, Invalid
from roomops.floor.bus import command
from roomops.hands.models import SeatBlinds
from roomops.hands.seats import last_hand, seat_states, sittings, table_state
from roomops.rooms.models import Room
from roomops.seating import queries
from roomops.seating.balance import check_added
from roomops.seating.models import SeatHold
from roomops.seating.moves import Move, carry


@command
def change_seat(session: Session, actor: Actor, now: datetime, hold_id: int, seat_no: int, *,
                stack: int, reason: str | None = None) -> SeatHold:
    """R36: the seated player moves to open seat ``seat_no`` of their table with their chips,
    ``stack`` counted now (checked as a move's, R18/R28): the new seat's last known stack, which a
    later table change or break carries (the ledger's table figure does not move: the chips stay
    at the table). What they owe to be dealt in is worked out by the blind engine as if they had
    moved with their buttons."""
    actor.require("floor")
    hold, table, game = queries.seated_hold(session, actor, hold_id, "R36")
    check_added(stack, 0, game.max_buyin)
    if not 1 <= seat_no <= game.seats_per_table:
        raise Invalid(f"seat {seat_no} does not exist at a {game.seats_per_table}-seat table", "R4")
    if any(h.seat_no == seat_no for h in queries.live_holds(session, [table.id])):
        raise Conflict(f"seat {seat_no} at table {table.name} is taken or called", "R20")
    room = session.get_one(Room, actor.room_id)
    state = table_state(table, game, last_hand(session, table.id))
    seats = seat_states(state, sittings(session, table.id),
                        game.posting(room.new_player_posting))
    after = move_seat(state, seats, hold.seat_no, seat_no)[seat_no - 1]
    (new,) = carry(session, actor, now, game, [Move(hold, table, seat_no, stack,
                                                    kind="seat_change")], reason, leave_lists=False)
    session.add(SeatBlinds(hold_id=new.id, status="new", missed_sb=after.missed_sb,
                           missed_bb=after.missed_bb, owes_bb=after.owes_bb, updated_at=now))
    return new
