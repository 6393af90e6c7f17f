"""R31, R61: chips in transit on the services, on every configured database: the state machine,
four eyes on delivery, gapless numbers per room, the ledger row at delivery."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from roomops.board.rows import RowsCache, read_room
from roomops.errors import Conflict, Forbidden, Invalid
from roomops.ledger import transit
from roomops.ledger.models import LedgerEntry, TransitSlip
from roomops.seating import seats
from roomops.seating.snapshot import load
from tests.factories import Room_
from tests.services.helpers import audits, query_plans, refused
from tests.services.ledger_helpers import seated_holds

MIN = timedelta(minutes=1)


@pytest.fixture()
def holds(room, session, now):
    return seated_holds(room, session, now)[2]


def test_cash_transit_requested_authorised_delivered_posts_one_ledger_row(room, session, now, holds):
    cashier, sup = room.actor("cashier"), room.sup
    slip = transit.request(session, cashier, now, holds[0].id, 20000, "cash")
    assert (slip.number, slip.state, slip.table_id, slip.player_id) == (
        1, "requested", holds[0].table_id, holds[0].player_id)
    assert not session.scalars(select(LedgerEntry)).all()  # nothing is posted before delivery
    transit.dispatch(session, sup, now + MIN, slip.id)
    transit.deliver(session, cashier, now + 2 * MIN, slip.id)
    assert (slip.state, slip.authorised_by_id, slip.delivered_by_id) == (
        "delivered", sup.staff_id, cashier.staff_id)
    [row] = session.scalars(select(LedgerEntry)).all()
    assert (row.kind, row.amount, row.slip_id, row.hold_id, row.staff_id) == (
        "transit", 20000, slip.id, holds[0].id, cashier.staff_id)
    actions = [e.action for e in audits(session) if e.entity_type in ("transit_slip", "ledger_entry")]
    assert actions == ["transit.requested", "transit.in_transit", "transit.delivered", "ledger.transit"]


def test_nobody_confirms_their_own_authorisation(room, session, now, holds):
    slip = transit.request(session, room.sup, now, holds[0].id, 20000)
    transit.dispatch(session, room.sup, now, slip.id)
    err = refused(lambda: transit.deliver(session, room.sup, now, slip.id), "R31", error=Conflict)
    assert "R61" in err.message
    assert slip.state == "in_transit"


@pytest.mark.parametrize("method", ["cheque", "credit"])
def test_facility_funds_are_confirmed_before_the_chips_go(room, session, now, holds, method):
    slip = transit.request(session, room.actor("cashier"), now, holds[0].id, 20000, method)
    refused(lambda: transit.dispatch(session, room.sup, now, slip.id), "R31", error=Conflict)
    transit.confirm_funds(session, room.sup, now, slip.id)
    transit.dispatch(session, room.sup, now, slip.id)
    transit.deliver(session, room.actor("admin"), now, slip.id)
    assert slip.funds_confirmed_by_id == room.sup.staff_id and slip.state == "delivered"


@pytest.mark.parametrize("step", ["confirm_funds", "deliver"])
def test_out_of_order_steps_are_refused(room, session, now, holds, step):
    slip = transit.request(session, room.sup, now, holds[0].id, 20000, "cash")
    refused(lambda: getattr(transit, step)(session, room.actor("admin"), now, slip.id), "R31", error=Conflict)


def test_rights_r61(room, session, now, holds):
    cashier = room.actor("cashier")
    slip = transit.request(session, cashier, now, holds[0].id, 20000)
    for step in (transit.dispatch, transit.confirm_funds):
        refused(lambda step=step: step(session, cashier, now, slip.id), "R61", error=Forbidden)
    refused(lambda: transit.cancel(session, cashier, now, slip.id, "x"), "R61", error=Forbidden)


def test_a_cancelled_slip_keeps_its_number_and_numbers_have_no_gaps(room, session, now, holds):
    slips = [transit.request(session, room.actor("cashier"), now + i * MIN, h.id, 10000 + i)
             for i, h in enumerate(holds[:4])]
    refused(lambda: transit.cancel(session, room.sup, now, slips[1].id, " "), "R31", error=Invalid)
    transit.cancel(session, room.sup, now, slips[1].id, "player changed their mind")
    transit.dispatch(session, room.sup, now, slips[2].id)
    transit.cancel(session, room.sup, now, slips[2].id, "chips went back to the cage")
    refused(lambda: transit.cancel(session, room.sup, now, slips[1].id, "again"), "R31", error=Conflict)
    report = transit.number_report(session, room.room.id)
    assert [s.number for s in report.slips] == [1, 2, 3, 4] and report.missing == []
    assert report.last_number == 4 and report.by_state == {"requested": 2, "cancelled": 2}
    assert slips[1].cancel_reason == "player changed their mind"


def test_numbers_are_per_room(room, session, now, holds):
    other = Room_(session, now, slug="other")
    other_holds = seated_holds(other, session, now)[2]
    transit.request(session, room.sup, now, holds[0].id, 10000)
    assert transit.request(session, other.sup, now, other_holds[0].id, 10000).number == 1
    assert transit.request(session, room.sup, now, holds[1].id, 10000).number == 2


def test_open_slips_oldest_first_with_their_age(room, session, now, holds):
    late = transit.request(session, room.sup, now + 5 * MIN, holds[0].id, 10000)
    early = transit.request(session, room.sup, now, holds[1].id, 10000)
    done = transit.request(session, room.sup, now, holds[2].id, 10000)
    transit.cancel(session, room.sup, now, done.id, "no")
    rows = transit.open_slips(session, room.room.id, now + 10 * MIN)
    assert [(r.slip.id, r.age_seconds) for r in rows] == [(early.id, 600), (late.id, 300)]
    assert rows[0].table == "1" and rows[0].player


def test_the_player_must_still_be_seated_at_delivery(room, session, now, holds):
    slip = transit.request(session, room.sup, now, holds[0].id, 10000)
    transit.dispatch(session, room.sup, now, slip.id)
    seats.leave(session, room.sup, now, holds[0].id, 0)
    refused(lambda: transit.deliver(session, room.actor("cashier"), now, slip.id), "R31", error=Conflict)
    refused(lambda: transit.request(session, room.sup, now, holds[0].id, 10000), "R31", error=Conflict)


def test_a_retried_request_returns_the_first_slip_and_takes_no_number(room, session, now, holds):
    first = transit.request(session, room.sup, now, holds[0].id, 10000, key="t-1")
    assert transit.request(session, room.sup, now, holds[0].id, 10000, key="t-1").id == first.id
    refused(lambda: transit.request(session, room.sup, now, holds[0].id, 9000, key="t-1"), "R52",
             error=Conflict)
    assert transit.request(session, room.sup, now, holds[1].id, 10000).number == 2
    assert len(session.scalars(select(TransitSlip)).all()) == 2



def test_r31_playing_behind_is_read_from_the_rooms_open_slips_not_a_scan(room, session, now, holds,
                                                                        connection):
    """Every slip ever written stays in the table (R52): the board, the desk's snapshot and the
    dealer's screen find the open ones through the room's (room_id, state) index."""
    transit.request(session, room.sup, now, holds[0].id, 20000)

    def read() -> None:
        assert read_room(session, room.room.id, RowsCache())
        assert load(session, room.room.id, now).games
        assert transit.behind_at_table(session, holds[0].table_id) == {holds[0].seat_no: 20000}

    plans = query_plans(connection, "transit_slips", read)
    assert len(plans) == 3
    for plan in plans:
        assert "SCAN transit_slips" not in plan and "ix_transit_slips_room_state" in plan, plan
