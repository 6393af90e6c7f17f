"""R52, R31 in the database itself: ledger rows cannot be changed or deleted on either database,
and the check constraints refuse what the services would never write."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, IntegrityError

from roomops.ledger import cash_outs, transit
from roomops.ledger import services as ledger
from roomops.seating import seats
from tests.services.ledger_helpers import seated_holds
from tests.units import act


@pytest.fixture()
def posted(room, session, now):
    hold = seated_holds(room, session, now)[2][0]
    row = act(session, room.sup, now, ledger.buy_in, hold.id, 10000)
    session.flush()
    return row


def _fails(session, sql: str, error: type[Exception] = DBAPIError, **kw) -> str:
    sp = session.begin_nested()
    with pytest.raises(error) as err:
        session.execute(text(sql), kw)
    sp.rollback()
    return str(err.value)


@pytest.mark.parametrize("sql", ["UPDATE ledger_entries SET amount = 1",
                                 "UPDATE ledger_entries SET reason = 'forged'",
                                 "DELETE FROM ledger_entries"])
def test_r52_ledger_rows_refuse_update_and_delete(session, posted, sql):
    assert "append-only" in _fails(session, sql)
    assert session.execute(text("SELECT amount FROM ledger_entries")).scalar_one() == 10000


_ROW = ("INSERT INTO ledger_entries (room_id, gaming_day, at, kind, amount, method, staff_id, "
        "reverses_id, reason) SELECT room_id, gaming_day, at, :k, :a, :m, staff_id, :rev, :why "
        "FROM ledger_entries")


@pytest.mark.parametrize("kind,amount,method,rev,why", [
    ("buy_in", -5, "cash", None, None),       # into play is positive
    ("cash_out", 5, "cash", None, None),      # out of play is negative
    ("buy_in", 0, "cash", None, None),
    ("tip", 5, "cash", None, None),           # unknown kind
    ("buy_in", 5, "bitcoin", None, None),     # unknown method
    ("reversal", -5, "cash", None, "x"),      # a reversal names its row
    ("reversal", -5, "cash", "self", None),   # and says why
    ("transit", 5, "cash", None, None),       # a transit row names its slip
    ("add_on", 5, "cash", "self", None),      # only a reversal names a row
])
def test_ledger_check_constraints(session, posted, kind, amount, method, rev, why):
    _fails(session, _ROW, IntegrityError, k=kind, a=amount, m=method,
           rev=posted.id if rev else None, why=why)


def test_a_row_is_reversed_at_most_once_in_the_database(session, posted):
    session.execute(text("UPDATE rooms SET reversal_two_person = false"))  # R52: _ROW's poster
    session.execute(text(_ROW), dict(k="reversal", a=-10000, m="cash", rev=posted.id, why="x"))
    _fails(session, _ROW + " WHERE id = :rev", IntegrityError, k="reversal", a=-10000, m="cash",
           rev=posted.id, why="y")


def test_slip_four_eyes_and_facility_checks(room, session, now):
    holds = seated_holds(room, session, now)[2]
    slip = act(session, room.sup, now, transit.request, holds[0].id, 10000, "cheque")
    session.flush()
    _fails(session, "UPDATE transit_slips SET state = 'in_transit', authorised_at = :n, "
           "authorised_by_id = requested_by_id", IntegrityError, n=now.replace(tzinfo=None))
    _fails(session, "UPDATE transit_slips SET state = 'cancelled'", IntegrityError)
    _fails(session, "UPDATE transit_slips SET number = 0", IntegrityError)
    act(session, room.sup, now, transit.confirm_funds, slip.id)
    act(session, room.sup, now, transit.dispatch, slip.id)
    session.flush()
    _fails(session, "UPDATE transit_slips SET state = 'delivered', delivered_at = :n, "
           "delivered_by_id = authorised_by_id", IntegrityError, n=now.replace(tzinfo=None))


def test_r28_the_database_refuses_a_second_standing_cash_out_of_a_seat(room, session, now, posted):
    act(session, room.sup, now, seats.leave, posted.hold_id, 10000)
    first = act(session, room.actor("cashier"), now, cash_outs.cash_out, posted.hold_id, 10000)
    session.flush()
    again = ("INSERT INTO ledger_entries (room_id, gaming_day, at, kind, amount, method, staff_id, "
             "hold_id) SELECT room_id, gaming_day, at, kind, amount, method, staff_id, hold_id "
             "FROM ledger_entries WHERE id = :id")
    assert "seat already cashed out (R28)" in _fails(session, again, IntegrityError, id=first.id)
    act(session, room.sup, now, ledger.reverse, first.id, "wrong window")
    session.execute(text(again), {"id": first.id})  # reversed, it no longer stands


def test_r52_the_database_refuses_a_reversal_by_the_rows_poster(session, posted):
    message = _fails(session, _ROW + " WHERE id = :rev", IntegrityError, k="reversal", a=-10000,
                     m="cash", rev=posted.id, why="mine")
    assert "reversal by the poster of the row (R52)" in message


def test_r28_an_approval_is_a_second_persons(session, posted):
    copy = ("INSERT INTO ledger_entries (room_id, gaming_day, at, kind, amount, method, staff_id, "
            "hold_id, approved_by_id) SELECT room_id, gaming_day, at, kind, amount, method, "
            "staff_id, hold_id, {approver} FROM ledger_entries")
    assert "ck_ledger_entries_approved_by" in _fails(session, copy.format(approver="staff_id"),
                                                     IntegrityError)
    session.execute(text(copy.format(approver="NULL")))
