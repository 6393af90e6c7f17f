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
from tests.units import act

MIN = timedelta(minutes=1)


@pytest.fixture()
def holds(room, session, now):
    return seated_holds(room, session, now)[2]


def test_cash_transit_requested_authorised_delivered_posts_one_ledger_row(room, session, now, holds):
    cashier, sup = room.actor("cashier"), room.sup
    slip = act(session, cashier, now, transit.request, holds[0].id, 20000, "cash")
    assert (slip.number, slip.state, slip.table_id, slip.player_id) == (
        1, "requested", holds[0].table_id, holds[0].player_id)
    assert not session.scalars(select(LedgerEntry)).all()  # nothing is posted before delivery
    act(session, sup, now + MIN, transit.dispatch, slip.id)
    act(session, cashier, now + 2 * MIN, transit.deliver, slip.id)
    assert (slip.state, slip.authorised_by_id, slip.delivered_by_id) == (
        "delivered", sup.staff_id, cashier.staff_id)
    [row] = session.scalars(select(LedgerEntry)).all()
    assert (row.kind, row.amount, row.slip_id, row.hold_id, row.staff_id) == (
        "transit", 20000, slip.id, holds[0].id, cashier.staff_id)
    actions = [e.action for e in audits(session) if e.entity_type in ("transit_slip", "ledger_entry")]
    assert actions == ["transit.requested", "transit.in_transit", "transit.delivered", "ledger.transit"]


def test_nobody_confirms_their_own_authorisation(room, session, now, holds):
    slip = act(session, room.sup, now, transit.request, holds[0].id, 20000)
    act(session, room.sup, now, transit.dispatch, slip.id)
    err = refused(lambda: act(session, room.sup, now, transit.deliver, slip.id), "R31", error=Conflict)
    assert "R61" in err.message
    assert slip.state == "in_transit"


@pytest.mark.parametrize("method", ["cheque", "credit"])
def test_facility_funds_are_confirmed_before_the_chips_go(room, session, now, holds, method):
    slip = act(session, room.actor("cashier"), now, transit.request, holds[0].id, 20000, method)
    refused(lambda: act(session, room.sup, now, transit.dispatch, slip.id), "R31", error=Conflict)
    act(session, room.sup, now, transit.confirm_funds, slip.id)
    act(session, room.sup, now, transit.dispatch, slip.id)
    act(session, room.actor("admin"), now, transit.deliver, slip.id)
    assert slip.funds_confirmed_by_id == room.sup.staff_id and slip.state == "delivered"


@pytest.mark.parametrize("step", ["confirm_funds", "deliver"])
def test_out_of_order_steps_are_refused(room, session, now, holds, step):
    slip = act(session, room.sup, now, transit.request, holds[0].id, 20000, "cash")
    refused(lambda: act(session, room.actor("admin"), now, getattr(transit, step), slip.id), "R31",
            error=Conflict)


def test_rights_r61(room, session, now, holds):
    cashier = room.actor("cashier")
    slip = act(session, cashier, now, transit.request, holds[0].id, 20000)
    for step in (transit.dispatch, transit.confirm_funds):
        refused(lambda step=step: act(session, cashier, now, step, slip.id), "R61", error=Forbidden)
    refused(lambda: act(session, cashier, now, transit.cancel, slip.id, "x"), "R61", error=Forbidden)


def test_a_cancelled_slip_keeps_its_number_and_numbers_have_no_gaps(room, session, now, holds):
    slips = [act(session, room.actor("cashier"), now + i * MIN, transit.request, h.id, 10000 + i)
             for i, h in enumerate(holds[:4])]
    refused(lambda: act(session, room.sup, now, transit.cancel, slips[1].id, " "), "R31", error=Invalid)
    act(session, room.sup, now, transit.cancel, slips[1].id, "player changed their mind")
    act(session, room.sup, now, transit.dispatch, slips[2].id)
    act(session, room.sup, now, transit.cancel, slips[2].id, "chips went back to the cage")
    refused(lambda: act(session, room.sup, now, transit.cancel, slips[1].id, "again"), "R31", error=Conflict)
    report = transit.number_report(session, room.room.id)
    assert [s.number for s in report.slips] == [1, 2, 3, 4] and report.missing == []
    assert report.last_number == 4 and report.by_state == {"requested": 2, "cancelled": 2}
    assert slips[1].cancel_reason == "player changed their mind"


def test_numbers_are_per_room(room, session, now, holds):
    other = Room_(session, now, slug="other")
    other_holds = seated_holds(other, session, now)[2]
    act(session, room.sup, now, transit.request, holds[0].id, 10000)
    assert act(session, other.sup, now, transit.request, other_holds[0].id, 10000).number == 1
    assert act(session, room.sup, now, transit.request, holds[1].id, 10000).number == 2


def test_open_slips_oldest_first_with_their_age(room, session, now, holds):
    late = act(session, room.sup, now + 5 * MIN, transit.request, holds[0].id, 10000)
    early = act(session, room.sup, now, transit.request, holds[1].id, 10000)
    done = act(session, room.sup, now, transit.request, holds[2].id, 10000)
    act(session, room.sup, now, transit.cancel, done.id, "no")
    rows = transit.open_slips(session, room.room.id, now + 10 * MIN)
    assert [(r.slip.id, r.age_seconds) for r in rows] == [(early.id, 600), (late.id, 300)]
    assert rows[0].table == "1" and rows[0].player


def test_the_player_must_still_be_seated_at_delivery(room, session, now, holds):
    slip = act(session, room.sup, now, transit.request, holds[0].id, 10000)
    act(session, room.sup, now, transit.dispatch, slip.id)
    act(session, room.sup, now, seats.leave, holds[0].id, 0)
    refused(lambda: act(session, room.actor("cashier"), now, transit.deliver, slip.id), "R31", error=Conflict)
    refused(lambda: act(session, room.sup, now, transit.request, holds[0].id, 10000), "R31", error=Conflict)


def test_a_retried_request_returns_the_first_slip_and_takes_no_number(room, session, now, holds):
    first = act(session, room.sup, now, transit.request, holds[0].id, 10000, key="t-1")
    assert act(session, room.sup, now, transit.request, holds[0].id, 10000, key="t-1").id == first.id
    refused(lambda: act(session, room.sup, now, transit.request, holds[0].id, 9000, key="t-1"), "R52",
             error=Conflict)
    assert act(session, room.sup, now, transit.request, holds[1].id, 10000).number == 2
    assert len(session.scalars(select(TransitSlip)).all()) == 2



def test_r31_playing_behind_is_read_from_the_rooms_open_slips_not_a_scan(room, session, now, holds,
                                                                        connection):
    """Every slip ever written stays in the table (R52): the board, the desk's snapshot and the
    dealer's screen find the open ones through the room's (room_id, state) index."""
    act(session, room.sup, now, transit.request, holds[0].id, 20000)

    def read() -> None:
        assert read_room(session, room.room.id, RowsCache())
        assert load(session, room.room.id, now).games
        assert transit.behind_at_table(session, holds[0].table_id) == {holds[0].seat_no: 20000}

    plans = query_plans(connection, "transit_slips", read)
    assert len(plans) == 3
    for plan in plans:
        assert "SCAN transit_slips" not in plan and "ix_transit_slips_room_state" in plan, plan
