"""R27, R28, R52, R61: a cash-out at the cage is tied to the seat that ended and the amount
recorded as the player left, once per seat; a different amount or one above the room's threshold
carries a second person's approval; reversals need a second person where the room says so. On
every configured database."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from roomops.errors import Conflict, Forbidden
from roomops.ledger import cash_outs
from roomops.ledger import services as ledger
from roomops.ledger.lookup import awaiting_cash_out, find_seats
from roomops.ledger.models import LedgerEntry
from roomops.ledger.search_terms import parse_search
from roomops.money import Money
from roomops.rooms.models import Staff
from roomops.seating import seats
from tests.services.helpers import audits, refused
from tests.services.ledger_helpers import seated_holds
from tests.units import act

MONEY = Money("GBP", "en_GB")


@pytest.fixture()
def holds(room, session, now):
    return seated_holds(room, session, now)[2]


def _sup(room) -> Staff:
    return room.staff["supervisor"]


def test_r27_the_recorded_amount_is_paid_once_per_seat(room, session, now, holds):
    cashier = room.actor("cashier")
    act(session, room.sup, now, seats.leave, holds[0].id, 23000)
    row = act(session, cashier, now, cash_outs.cash_out, holds[0].id, 23000)
    assert (row.kind, row.amount, row.hold_id, row.approved_by_id) == ("cash_out", -23000,
                                                                       holds[0].id, None)
    twice = refused(lambda: act(session, cashier, now, cash_outs.cash_out, holds[0].id, 23000), "R28",
                    "cashed out already", error=Conflict)
    assert twice.text(MONEY).startswith("this seat was cashed out already (£230.00")
    # R52: reversed, the seat may be cashed out again (the mistake corrected)
    act(session, room.sup, now, ledger.reverse, row.id, "paid at the wrong window")
    assert act(session, cashier, now, cash_outs.cash_out, holds[0].id, 23000).amount == -23000


def test_r27_a_different_amount_needs_a_second_persons_approval(room, session, now, holds):
    cashier = room.actor("cashier")
    act(session, room.sup, now, seats.leave, holds[0].id, 23000)
    why = refused(lambda: act(session, cashier, now, cash_outs.cash_out, holds[0].id, 25000), "R27",
                  error=Conflict)
    assert why.text(MONEY).startswith("£250.00 differs from the £230.00 recorded")
    # the approver is never the one paying it
    refused(lambda: act(session, room.sup, now, cash_outs.cash_out, holds[0].id, 25000,
                        approver=_sup(room)), "R28", error=Conflict)
    refused(lambda: act(session, cashier, now, cash_outs.cash_out, holds[0].id, 25000,
                        approver=room.staff["dealer"]), "R61", error=Forbidden)
    assert session.scalar(select(LedgerEntry.id)) is None  # nothing half-written
    row = act(session, cashier, now, cash_outs.cash_out, holds[0].id, 25000, approver=_sup(room))
    assert (row.amount, row.approved_by_id) == (-25000, _sup(room).id)
    [audit] = audits(session, "ledger.cash_out")
    assert audit.detail["approved_by"] == _sup(room).display_name


def test_r28_above_the_rooms_threshold_needs_approval(room, session, now, holds):
    room.room.cash_out_approval_over = 20000
    cashier = room.actor("cashier")
    act(session, room.sup, now, seats.leave, holds[0].id, 23000)
    why = refused(lambda: act(session, cashier, now, cash_outs.cash_out, holds[0].id, 23000), "R28",
                  error=Conflict)
    assert "threshold of £200.00" in why.text(MONEY)
    assert act(session, cashier, now, cash_outs.cash_out, holds[0].id, 23000,
               approver=_sup(room)).approved_by_id == _sup(room).id
    # an approval not needed is not recorded
    act(session, room.sup, now, seats.leave, holds[1].id, 15000)
    assert act(session, cashier, now, cash_outs.cash_out, holds[1].id, 15000,
               approver=_sup(room)).approved_by_id is None


def test_r28_only_a_seat_that_ended_without_its_stack_moving(room, session, now, holds):
    cashier = room.actor("cashier")
    refused(lambda: act(session, cashier, now, cash_outs.cash_out, holds[0].id, 100), "R28",
            "after leaving", error=Conflict)
    refused(lambda: act(session, room.actor("dealer"), now, cash_outs.cash_out, holds[0].id, 100),
            "R61", error=Forbidden)


def test_r52_nobody_reverses_their_own_row_where_the_room_requires_two(room, session, now, holds):
    row = act(session, room.sup, now, ledger.add_on, holds[0].id, 5000)
    refused(lambda: act(session, room.sup, now, ledger.reverse, row.id, "typo"), "R52",
            "second person", error=Conflict)
    assert act(session, room.actor("admin"), now, ledger.reverse, row.id, "typo").amount == -5000
    room.room.reversal_two_person = False
    own = act(session, room.sup, now, ledger.add_on, holds[0].id, 6000)
    assert act(session, room.sup, now, ledger.reverse, own.id, "typo").reverses_id == own.id


def test_the_cage_finds_seats_and_who_waits_to_cash_out(room, session, now, holds):
    act(session, room.sup, now, seats.leave, holds[0].id, 23000)
    act(session, room.sup, now, seats.leave, holds[1].id, 1000)
    act(session, room.actor("cashier"), now, cash_outs.cash_out, holds[1].id, 1000)
    [waiting] = awaiting_cash_out(session, room.room.id, now)
    assert (waiting.hold_id, waiting.leave_amount, waiting.cashable) == (holds[0].id, 23000, True)
    found = find_seats(session, room.room.id, parse_search("1/2"), now)
    assert [(s.hold_id, s.cashed_out, s.cashable) for s in found] == [(holds[1].id, 1000, False)]
    by_name = find_seats(session, room.room.id, parse_search("s1-3"), now)
    assert [s.seat_no for s in by_name] == [3] and by_name[0].live
    assert len(find_seats(session, room.room.id, parse_search("1"), now)) == 8  # the table
    assert find_seats(session, room.room.id, parse_search("nobody"), now) == []
