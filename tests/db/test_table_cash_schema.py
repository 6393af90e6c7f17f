"""R32, R18 in the database itself (migration 0017): cash at the table only on buy-ins, add-ons and
their reversals; transit slips never take it; a transfer has a sign but never zero."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from roomops.ledger import transit
from tests.db.test_ledger_schema import _ROW, _fails, posted  # noqa: F401  (the fixture)
from tests.services.ledger_helpers import seated_holds
from tests.units import act


@pytest.mark.parametrize("kind,amount", [("buy_in", 5), ("add_on", 5), ("transfer", -5),
                                         ("transfer", 5)])
def test_rows_the_database_takes(session, posted, kind, amount):  # noqa: F811
    method = "chips" if kind == "transfer" else "table"
    session.execute(text(_ROW), dict(k=kind, a=amount, m=method, rev=None, why=None))


@pytest.mark.parametrize("kind,amount,method", [
    ("cash_out", -5, "table"),    # R32: a cash-out is paid at the cage
    ("transfer", 5, "table"),     # a stack carried is chips, not cash
    ("transfer", 0, "chips"),     # a transfer moves chips
])
def test_rows_the_database_refuses(session, posted, kind, amount, method):  # noqa: F811
    _fails(session, _ROW, IntegrityError, k=kind, a=amount, m=method, rev=None, why=None)


def test_a_reversal_of_cash_at_the_table_keeps_its_method(session, posted):  # noqa: F811
    session.execute(text("UPDATE rooms SET reversal_two_person = false"))  # R52: _ROW's poster
    session.execute(text(_ROW), dict(k="reversal", a=-10000, m="table", rev=posted.id, why="x"))


def test_r31_a_slip_never_takes_cash_at_the_table(room, session, now):
    hold = seated_holds(room, session, now)[2][0]
    act(session, room.sup, now, transit.request, hold.id, 10000)
    session.flush()
    _fails(session, "UPDATE transit_slips SET method = 'table'", IntegrityError)
