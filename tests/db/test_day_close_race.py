"""R54 under real concurrency on PostgreSQL: a ledger posting and the close of its shift are
serialised by the room's day lock (``placing.lock_day``). A posting in flight makes the close wait
and then see it (the counts are stale: "count again"); a close in flight makes the posting wait and
then post to the next shift (shift 1 closed before its end), or, when the day itself was closed
early (every table closed), to the next gaming day. Deterministic: each test waits until
the other connection is seen blocked on the lock in ``pg_locks`` before the first one commits.
(SQLite needs no lock: one writer at a time.)"""

from __future__ import annotations

import threading
import time
from datetime import date, timedelta

import pytest
from sqlalchemy import func, select, text

from roomops.db import make_engine, make_sessionmaker
from roomops.errors import Conflict
from roomops.ledger import cash_outs
from roomops.ledger import services as ledger
from roomops.ledger.dayclose import Count, close_day, record_counts
from roomops.ledger.models import DayClose, LedgerEntry
from roomops.ledger.placing import DAY_LOCK
from roomops.ledger.report import expected_by_table
from roomops.rooms.services import update_policy
from roomops.seating import seats
from roomops.seating.closing import close_table
from tests.databases import migrated_database
from tests.db.test_concurrency import T0, pytestmark  # noqa: F401  (PostgreSQL only)
from tests.factories import Room_
from tests.services.ledger_helpers import seated_holds
from tests.units import act

DAY = date(2026, 11, 21)
LATER = T0 + timedelta(minutes=5)


@pytest.fixture()
def pg(tmp_path):
    with migrated_database("postgresql", tmp_path, "dayrace") as url:
        engine = make_engine(url, pool_size=4)
        yield make_sessionmaker(engine)
        engine.dispose()


def _counted_room(pg):
    """A room with shifts 06:00-22:00 and 22:00-06:00, a buy-in posted in shift 1 (at 20:00) and
    counted by a supervisor and a cashier, ready to close shift 1 before its end."""
    with pg() as s:
        room = Room_(s, T0)
        act(s, room.sup, T0, update_policy, shifts=["22:00"])
        hold = seated_holds(room, s, T0)[2][0]
        act(s, room.sup, T0, ledger.buy_in, hold.id, 10000)
        expected = expected_by_table(s, room.room.id, DAY)
        cashier = room.actor("cashier")
        for who in (room.sup, cashier):
            act(s, who, T0, record_counts, DAY, [Count(t, n) for t, n in expected.items()], 1)
        s.commit()
        return room.sup, cashier, hold.id


def _in_thread(work):
    """Start ``work()`` in a thread; the returned function joins it and gives its result (or the
    exception it raised)."""
    out: list[object] = []

    def run() -> None:
        try:
            out.append(work())
        except Exception as exc:  # handed to the test
            out.append(exc)

    thread = threading.Thread(target=run)
    thread.start()

    def join() -> object:
        thread.join(30)
        assert not thread.is_alive()
        return out[0]
    return join


def _wait_until_blocked(pg, room_id: int) -> None:
    """Until a connection waits for the room's day lock (bounded; polled, not timed)."""
    sql = text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
               "AND classid = :c AND objid = :r")
    deadline = time.monotonic() + 20
    with pg() as s:
        while not s.scalar(sql, {"c": DAY_LOCK, "r": room_id}):
            assert time.monotonic() < deadline, "nobody waited for the day lock"
            s.rollback()  # a fresh snapshot of pg_locks
            time.sleep(0.01)


def test_the_app_runs_read_committed(pg):
    with pg() as s:  # lock_day relies on each statement seeing what committed before it began
        assert s.scalar(text("SHOW transaction_isolation")) == "read committed"


def test_a_posting_in_flight_makes_the_close_wait_and_then_count_it(pg):
    sup, cashier, hold_id = _counted_room(pg)
    posting = pg()
    act(posting, cashier, LATER, ledger.add_on, hold_id, 500)  # holds the day lock shared, uncommitted

    def close() -> object:
        with pg() as s:
            closed = act(s, sup, LATER, close_day, DAY, cashier.staff_id, 1)
            s.commit()
            return closed.row.id

    join = _in_thread(close)
    _wait_until_blocked(pg, sup.room_id)
    posting.commit()
    posting.close()
    result = join()
    # the close saw the add-on: the counts no longer match the ledger, so it is refused
    assert isinstance(result, Conflict) and result.rule == "R54", result
    assert "count again" in result.message
    with pg() as s:
        assert s.scalar(select(func.count()).select_from(DayClose)) == 0


def test_a_close_in_flight_makes_the_posting_wait_and_then_post_to_the_next_shift(pg):
    sup, cashier, hold_id = _counted_room(pg)
    closing = pg()
    close = act(closing, sup, LATER, close_day, DAY, cashier.staff_id, 1).row  # holds the day lock

    def post() -> object:
        with pg() as s:
            row = act(s, cashier, LATER, ledger.add_on, hold_id, 500)
            s.commit()
            return row.shift_no

    join = _in_thread(post)
    _wait_until_blocked(pg, sup.room_id)
    closing.commit()
    closing.close()
    assert join() == 2  # it saw the close once the lock was granted, and did not fail on it
    with pg() as s:
        shift_one = s.scalar(select(func.count()).select_from(LedgerEntry).where(
            LedgerEntry.gaming_day == DAY, LedgerEntry.shift_no == 1))
        assert shift_one == close.entries == 1  # the close's figures are shift 1's


def test_an_early_close_of_the_day_in_flight_sends_the_waiting_posting_to_the_next_day(pg):
    """R2, R54: every table closed at 20:00, the day closed then (before it ends); a cash-out
    that waited on the day lock posts to the next gaming day, and the close's figures hold."""
    with pg() as s:
        room = Room_(s, T0)
        table = room.table(T0, room.game(T0), "1")
        hold = act(s, room.sup, T0, seats.seat_directly, table_id=table.id, seat_no=1,
                   player_id=room.player(T0, "Ada").id, buy_in=10000)
        act(s, room.sup, T0, seats.leave, hold.id, 10000)
        act(s, room.sup, T0, close_table, table.id)
        cashier = room.actor("cashier")
        expected = expected_by_table(s, room.room.id, DAY)
        for who in (room.sup, cashier):
            act(s, who, T0, record_counts, DAY, [Count(t, n) for t, n in expected.items()])
        s.commit()
        sup, hold_id = room.sup, hold.id
    closing = pg()
    close = act(closing, sup, LATER, close_day, DAY, cashier.staff_id).row  # holds the day lock
    assert close.closes_day

    def cash_out() -> object:
        with pg() as s:
            row = act(s, cashier, LATER, cash_outs.cash_out, hold_id, 10000)
            s.commit()
            return row.gaming_day, row.shift_no

    join = _in_thread(cash_out)
    _wait_until_blocked(pg, sup.room_id)
    closing.commit()
    closing.close()
    assert join() == (DAY + timedelta(days=1), 1)
    with pg() as s:
        rows = s.scalar(select(func.count()).select_from(LedgerEntry).where(
            LedgerEntry.gaming_day == DAY))
        assert rows == close.entries == 1
