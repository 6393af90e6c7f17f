"""R31, R61, R29, R20/R22 on the services, on every configured database: a dealer (or runner)
confirms chips in transit delivered to a seat of the table their screen is for, never at another
table nor as the authoriser, while the cage still confirms with the cash right; and what the
dealer's screen reads of its table: open slips by seat, played-over seats with the owner's box,
called seats with the claim time left."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from roomops.absences import services as absences
from roomops.errors import Conflict, Forbidden
from roomops.holds.models import SeatHold
from roomops.ledger import transit
from roomops.ledger.models import LedgerEntry
from roomops.lists import services as lists
from roomops.playovers import services as playovers
from roomops.playovers.services import played_over_at
from roomops.seating.queries import called_at
from tests.services.helpers import audits, full_game, refused
from tests.services.ledger_helpers import seated_holds
from tests.units import act

MIN = timedelta(minutes=1)
HOUR = timedelta(hours=1)


@pytest.fixture()
def two_tables(room, session, now):
    """Tables 1 and 2, each with seated players, and a slip in transit to seat 1 of each."""
    _game, table1, holds1 = seated_holds(room, session, now)
    _game, table2, holds2 = seated_holds(room, session, now, name="2")
    slips = []
    for hold in (holds1[0], holds2[0]):
        slip = act(session, room.actor("cashier"), now, transit.request, hold.id, 20000)
        slips.append(act(session, room.sup, now + MIN, transit.dispatch, slip.id))
    return table1, table2, slips


def test_r31_r61_a_dealer_confirms_a_delivery_at_their_table(room, session, now, two_tables):
    table1, _table2, (slip, _other) = two_tables
    dealer = room.actor("dealer")
    act(session, dealer, now + 2 * MIN, transit.deliver, slip.id, at_table=table1.id)
    assert (slip.state, slip.delivered_by_id) == ("delivered", dealer.staff_id)
    [row] = session.scalars(select(LedgerEntry)).all()
    assert (row.kind, row.amount, row.slip_id, row.staff_id) == ("transit", 20000, slip.id, dealer.staff_id)
    assert audits(session, "transit.delivered")[-1].actor_id == dealer.staff_id  # R60


def test_r61_a_dealer_is_refused_a_slip_of_another_table(room, session, now, two_tables):
    table1, _table2, (_slip, other) = two_tables
    refused(lambda: act(session, room.actor("dealer"), now, transit.deliver, other.id, at_table=table1.id),
            "R61", "another table", error=Forbidden)
    assert other.state == "in_transit"
    assert not session.scalars(select(LedgerEntry)).all()


def test_r61_a_dealer_does_not_confirm_from_the_cage_nor_a_cashier_at_a_table(room, session, now,
                                                                              two_tables):
    table1, _table2, (slip, _other) = two_tables
    refused(lambda: act(session, room.actor("dealer"), now, transit.deliver, slip.id), "R61", error=Forbidden)
    refused(lambda: act(session, room.actor("cashier"), now, transit.deliver, slip.id, at_table=table1.id),
            "R61", error=Forbidden)
    assert slip.state == "in_transit"


def test_r31_the_authoriser_never_confirms_even_from_the_dealers_screen(room, session, now, two_tables):
    table1, _table2, (slip, _other) = two_tables
    err = refused(lambda: act(session, room.sup, now, transit.deliver, slip.id, at_table=table1.id), "R31",
                  error=Conflict)
    assert "R61" in err.message and slip.state == "in_transit"


def test_r31_a_cashier_still_confirms_at_the_cage(room, session, now, two_tables):
    _table1, _table2, (slip, other) = two_tables
    cashier = room.actor("cashier")
    act(session, cashier, now, transit.deliver, slip.id)
    act(session, cashier, now, transit.deliver, other.id)  # the cage confirms for every table
    assert (slip.state, other.state) == ("delivered", "delivered")


def test_r31_the_tables_open_slips_with_their_seats(room, session, now, two_tables):
    table1, table2, (slip, other) = two_tables
    [one] = transit.open_slips(session, room.room.id, now + 3 * MIN, table1.id)
    assert (one.slip.id, one.seat_no, one.table, one.age_seconds) == (slip.id, 1, "1", 180)
    assert one.holder.id == slip.player_id and one.player == one.holder.full_name
    assert [o.slip.id for o in transit.open_slips(session, room.room.id, now)] == [slip.id, other.id]
    assert [o.slip.id for o in transit.open_slips(session, room.room.id, now, table2.id)] == [other.id]


def test_r29_played_over_seats_name_the_overplayer_and_the_owners_box(room, session, now):
    game, table = full_game(room, session, now, free=0)
    waiting = room.player(now, "Ada", "Wait")
    act(session, room.sup, now, lists.join, player_id=waiting.id, game_id=game.id)
    hold = session.scalars(select(SeatHold).where(SeatHold.table_id == table.id, SeatHold.seat_no == 3,
                                                  SeatHold.kind == "seated")).one()
    act(session, room.sup, now + HOUR, absences.grant_break, hold.id, 23450)
    act(session, room.sup, now + HOUR, playovers.start_playover, hold.id, buy_in=10000)
    [po] = played_over_at(session, table.id)
    assert (po.seat_no, po.player.id, po.buy_in, po.owner.id, po.box) == (3, waiting.id, 10000,
                                                                          hold.player_id, 23450)


def test_r20_r22_called_seats_with_the_claim_time_left(room, session, now):
    game, table = full_game(room, session, now, free=1)
    called = room.player(now, "Bea", "Call")
    act(session, room.sup, now, lists.join, player_id=called.id, game_id=game.id)
    [c] = called_at(session, table.id, now + 4 * MIN)
    assert (c.seat_no, c.player.id, c.seconds_left) == (9, called.id, 6 * 60)  # claim_minutes 10
    assert called_at(session, table.id, c.deadline) == []  # at the deadline the call is over (R22)
