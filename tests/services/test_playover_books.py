"""Every chip on the table is on the books (R27-R30, R32, R52, R29): a playover's buy-in, add-ons
and cash-out are ledger rows of the overplayer naming the playover, on the owner's seat and table,
apart from the owner's box; its cash-out is tied to the stack counted as it ended, once per
playover. On every configured database; the clock is moved, never slept on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError

from roomops.absences import services as absences
from roomops.errors import Conflict, Invalid, NotFound
from roomops.holds.models import SeatHold
from roomops.holds.playovers import Playover
from roomops.ledger import cash_outs
from roomops.ledger import services as ledger
from roomops.ledger.lookup import awaiting_cash_out, find_playovers
from roomops.ledger.models import LedgerEntry
from roomops.ledger.search_terms import parse_search
from roomops.lists import services as lists
from roomops.playovers import services as playovers
from roomops.seating import seats
from tests.services.helpers import audits, full_game, refused
from tests.units import act, sweep

HOUR = timedelta(hours=1)
MIN = timedelta(minutes=1)
OWNER_STACK = 23450


@pytest.fixture()
def floor(room, session, now):
    """Table 1, full: nine players seated by the desk (their buy-ins posted); an hour on, seat
    1's owner on a break with their stack in the box; Wes waiting, next in list order."""
    game, table = full_game(room, session, now, free=0)
    holds = list(session.scalars(select(SeatHold).where(SeatHold.table_id == table.id)
                                 .order_by(SeatHold.seat_no)))
    wes = room.player(now, "Wes", "Over")
    act(session, room.sup, now, lists.join, player_id=wes.id, game_id=game.id)
    at = now + HOUR
    act(session, room.sup, at, absences.grant_break, holds[0].id, OWNER_STACK)
    return table, holds, wes, at


def _rows(session, **where) -> list[LedgerEntry]:
    session.flush()
    return list(session.scalars(select(LedgerEntry).filter_by(**where).order_by(LedgerEntry.id)))


def test_r29_r30_the_overplayers_buy_in_is_a_row_of_theirs_on_the_owners_seat(room, session, floor):
    table, holds, wes, at = floor
    po = act(session, room.sup, at, playovers.start_playover, holds[0].id, buy_in=12000)
    (row,) = _rows(session, playover_id=po.id)
    assert (row.kind, row.amount, row.method, row.player_id, row.hold_id, row.table_id,
            row.staff_id) == ("buy_in", 12000, "table", wes.id, holds[0].id, table.id,
                              room.sup.staff_id)  # R32: cash at the table unless told
    assert audits(session, "ledger.buy_in")[-1].entity_id == row.id
    # the owner's box is never on the overplayer's rows: the owner's only row is their buy-in
    assert [(r.kind, r.amount, r.playover_id) for r in _rows(
        session, player_id=holds[0].player_id)] == [("buy_in", 10000, None)]


def test_r32_the_desk_says_how_the_playover_buy_in_was_paid(room, session, floor):
    _table, holds, _wes, at = floor
    refused(lambda: act(session, room.sup, at, playovers.start_playover, holds[0].id, buy_in=12000,
                        buy_in_method="IOU"), "R30", error=Invalid)
    assert session.scalar(select(Playover.id)) is None and _rows(session, kind="add_on") == []
    po = act(session, room.sup, at, playovers.start_playover, holds[0].id, buy_in=12000,
             buy_in_method="cash")
    assert [r.method for r in _rows(session, playover_id=po.id)] == ["cash"]


def test_r29_the_playover_row_is_not_the_seats_buy_in(room, session, floor):
    """R30: the seat's own buy-in stands apart: reversed, the cashier may post it again although
    the overplayer's buy-in row stands on the same seat."""
    _table, holds, _wes, at = floor
    act(session, room.sup, at, playovers.start_playover, holds[0].id, buy_in=12000)
    (own,) = _rows(session, hold_id=holds[0].id, playover_id=None)
    act(session, room.actor("admin"), at, ledger.reverse, own.id, "keyed twice")
    again = act(session, room.actor("cashier"), at, ledger.buy_in, holds[0].id, 10000)
    assert (again.player_id, again.playover_id) == (holds[0].player_id, None)


def test_r28_r29_add_ons_for_a_live_playover(room, session, floor):
    table, holds, wes, at = floor
    cashier = room.actor("cashier")
    po = act(session, room.sup, at, playovers.start_playover, holds[0].id, buy_in=12000)
    row = act(session, cashier, at, ledger.add_on, holds[0].id, 3000, "table", playover_id=po.id)
    assert (row.kind, row.amount, row.player_id, row.table_id, row.playover_id) == (
        "add_on", 3000, wes.id, table.id, po.id)
    # a playover of another seat, or of no seat of this room, is refused before anything is written
    refused(lambda: act(session, cashier, at, ledger.add_on, holds[1].id, 3000, playover_id=po.id),
            "R28", "not on seat hold", error=Invalid)
    refused(lambda: act(session, cashier, at, ledger.add_on, holds[0].id, 3000, playover_id=po.id + 99),
            "R28", error=NotFound)
    # R30: the playover's buy-in stands: more chips are an add-on
    refused(lambda: act(session, cashier, at, ledger.buy_in, holds[0].id, 12000, playover_id=po.id),
            "R30", "add-on", error=Conflict)
    act(session, room.sup, at + MIN, playovers.stop_playover, holds[0].id, 16000)
    refused(lambda: act(session, cashier, at + MIN, ledger.add_on, holds[0].id, 3000, playover_id=po.id),
            "R28", "playover has ended", error=Conflict)
    assert [r.amount for r in _rows(session, playover_id=po.id)] == [12000, 3000]


def test_r30_r52_a_reversed_playover_buy_in_is_posted_again_within_the_range(room, session, floor):
    _table, holds, _wes, at = floor
    po = act(session, room.sup, at, playovers.start_playover, holds[0].id, buy_in=12000)
    (row,) = _rows(session, playover_id=po.id)
    back = act(session, room.actor("admin"), at, ledger.reverse, row.id, "wrong amount")
    assert (back.playover_id, back.player_id, back.amount) == (po.id, row.player_id, -12000)
    cashier = room.actor("cashier")
    refused(lambda: act(session, cashier, at, ledger.buy_in, holds[0].id, 1000, playover_id=po.id),
            "R30", error=Invalid)
    again = act(session, cashier, at, ledger.buy_in, holds[0].id, 11000, playover_id=po.id)
    assert (again.kind, again.amount, again.playover_id) == ("buy_in", 11000, po.id)


def test_r27_r29_the_playover_cash_out_is_tied_to_the_stack_counted_as_it_ended(room, session,
                                                                               floor):
    table, holds, wes, at = floor
    cashier = room.actor("cashier")
    po = act(session, room.sup, at, playovers.start_playover, holds[0].id, buy_in=12000)
    # R28: no chips leave play at the table while the overplayer plays
    refused(lambda: act(session, cashier, at, cash_outs.cash_out, holds[0].id, 12000,
                        playover_id=po.id), "R28", "still playing over",
            error=Conflict)
    act(session, room.sup, at + MIN, absences.come_back, holds[0].id, overplayer_stack=19000)
    refused(lambda: act(session, cashier, at + MIN, cash_outs.cash_out, holds[0].id, 20000,
                        playover_id=po.id), "R27", "differs", error=Conflict)
    row = act(session, cashier, at + MIN, cash_outs.cash_out, holds[0].id, 19000, playover_id=po.id)
    assert (row.kind, row.amount, row.player_id, row.hold_id, row.table_id, row.playover_id,
            row.approved_by_id) == ("cash_out", -19000, wes.id, holds[0].id, table.id, po.id, None)
    refused(lambda: act(session, cashier, at + MIN, cash_outs.cash_out, holds[0].id, 19000,
                        playover_id=po.id), "R28", "cashed out already",
            error=Conflict)
    # the owner's own seat is cashed out apart, with their own recorded amount
    act(session, room.sup, at + 2 * MIN, seats.leave, holds[0].id, 15000)
    own = act(session, cashier, at + 2 * MIN, cash_outs.cash_out, holds[0].id, 15000)
    assert (own.player_id, own.playover_id) == (holds[0].player_id, None)


def test_r27_r29_a_playover_the_sweep_ended_keeps_the_chips_on_its_books(room, session, floor):
    """R24/R29/R52: nobody counts as the sweep releases the owner's seat: the leave amount is the
    chips the books hold for the playover (buy-in and add-ons), so the cage has an amount to pay;
    a different count needs a supervisor's approval (R27)."""
    _table, holds, _wes, at = floor
    cashier = room.actor("cashier")
    po = act(session, room.sup, at, playovers.start_playover, holds[0].id, buy_in=12000)
    act(session, cashier, at, ledger.add_on, holds[0].id, 1000, "table", playover_id=po.id)
    sweep(session, at + HOUR)  # the owner's break ran out: the seat is released (R24)
    session.refresh(po)
    assert (po.outcome, po.leave_amount) == ("seat_released", 13000)
    assert audits(session, "playover.ended")[-1].detail["stack_counted"] is False
    refused(lambda: act(session, cashier, at + HOUR, cash_outs.cash_out, holds[0].id, 14000,
                        playover_id=po.id), "R27", "differs", error=Conflict)
    row = act(session, cashier, at + HOUR, cash_outs.cash_out, holds[0].id, 14000, playover_id=po.id,
              approver=room.staff["supervisor"])
    assert (row.amount, row.approved_by_id) == (-14000, room.staff["supervisor"].id)


def test_r52_the_database_keeps_a_playovers_rows_on_its_seat_and_overplayer(room, session, floor):
    """The ledger's trigger (migration 0027) refuses a row naming a playover with the owner as its
    player, or on another seat, from any writer."""
    _table, holds, _wes, at = floor
    po = act(session, room.sup, at, playovers.start_playover, holds[0].id, buy_in=12000)
    (row,) = _rows(session, playover_id=po.id)
    insert = text(
        "INSERT INTO ledger_entries (room_id, gaming_day, shift_no, at, kind, amount, method, "
        "player_id, game_id, table_id, hold_id, staff_id, short_buy_in, playover_id) SELECT "
        "room_id, gaming_day, shift_no, at, 'add_on', 100, method, :player, game_id, table_id, "
        ":hold, staff_id, short_buy_in, playover_id FROM ledger_entries WHERE id = :id")
    for player, hold in ((holds[0].player_id, holds[0].id), (row.player_id, holds[1].id)):
        with pytest.raises(DBAPIError, match="playover row off its seat"), session.begin_nested():
            session.execute(insert, {"player": player, "hold": hold, "id": row.id})
    with session.begin_nested():
        session.execute(insert, {"player": row.player_id, "hold": row.hold_id, "id": row.id})


def test_r28_r29_the_cage_finds_playovers_and_lists_those_waiting_for_their_cash_out(
        room, session, floor):
    _table, holds, wes, at = floor
    po = act(session, room.sup, at, playovers.start_playover, holds[0].id, buy_in=12000)
    since = at - HOUR
    (line,) = find_playovers(session, room.room.id, parse_search("wes"), since)
    assert (line.playover_id, line.hold_id, line.player, line.seat_no, line.live) == (
        po.id, holds[0].id, "Wes Over", 1, True)
    assert [s.playover_id for s in find_playovers(session, room.room.id, parse_search("1/1"),
                                                  since)] == [po.id]
    assert find_playovers(session, room.room.id, parse_search("1/2"), since) == []
    assert [s.playover_id for s in awaiting_cash_out(session, room.room.id, since)] == []
    act(session, room.sup, at + MIN, playovers.stop_playover, holds[0].id, 9000)
    (waiting,) = awaiting_cash_out(session, room.room.id, since)
    assert (waiting.playover_id, waiting.player_id, waiting.leave_amount, waiting.cashable) == (
        po.id, wes.id, 9000, True)
    act(session, room.actor("cashier"), at + MIN, cash_outs.cash_out, holds[0].id, 9000,
        playover_id=po.id)
    assert awaiting_cash_out(session, room.room.id, since) == []
    (paid,) = find_playovers(session, room.room.id, parse_search("wes"), since)
    assert (paid.cashed_out, paid.cashable) == (9000, False)
