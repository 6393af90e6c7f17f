"""R54 shifts on the services, on every configured database: the shift policy, each ledger row's
shift, counts and closes per shift in order (the last closes the gaming day once it has ended),
postings in the rest of a shift closed early going to the next, the report per shift; a room with
no shift policy behaves as one shift, the day."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError

from roomops.errors import Conflict, Invalid
from roomops.floor.unit import UnitOfWork
from roomops.ledger import services as ledger
from roomops.ledger.dayclose import Count, close_day, is_closed, record_counts
from roomops.ledger.models import LedgerEntry
from roomops.ledger.report import day_report, expected_by_table
from roomops.money import Money
from roomops.rooms.services import update_policy
from roomops.seating import seats
from tests.services.helpers import audits, refused
from tests.units import act

DAY = date(2026, 11, 21)  # the suite's START is 20:00 UTC: shift 2 (14:00-22:00) of three
END = datetime(2026, 11, 22, 6, tzinfo=UTC)  # the day's end: its last shift closes from then on


@pytest.fixture()
def shifts(room, session, now):
    """Shifts 06:00, 14:00, 22:00 (UTC room); two tables with a buy-in each in shift 2."""
    act(session, room.sup, now, update_policy, shifts=["14:00", "22:00"])
    game = room.game(now)
    t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
    p = room.players(now, 2)
    h1 = act(session, room.sup, now, seats.seat_directly, table_id=t1.id, seat_no=1, player_id=p[0].id,
             buy_in=10000)
    h2 = act(session, room.sup, now, seats.seat_directly, table_id=t2.id, seat_no=1, player_id=p[1].id,
             buy_in=20000)
    return t1, t2, h1, h2


def _count(unit: UnitOfWork, shift, table_amounts, total, why=None):
    counts = [Count(t.id, a, why) for t, a in table_amounts] + [Count(None, total, why)]
    return record_counts(unit, DAY, counts, shift)


def _close(room, session, now, shift, table_amounts=(), total=0, at=None):
    """Both count at ``now``; the close at ``at`` (default ``now``)."""
    for role in ("supervisor", "cashier"):
        act(session, room.actor(role), now, _count, shift, table_amounts, total)
    return act(session, room.sup, at or now, close_day, DAY, room.staff["cashier"].id, shift).row


def test_the_policy_is_validated_stored_and_audited(room, session, now):
    assert room.room.shift_starts is None and room.room.shifts == [room.room.gaming_day_start]
    act(session, room.sup, now, update_policy, shifts=["22:00", "14:00"])
    assert room.room.shift_starts == "06:00,14:00,22:00"
    assert audits(session, "policy.changed")[-1].detail["after"] == {
        "shift_starts": "06:00,14:00,22:00"}
    refused(lambda: act(session, room.sup, now, update_policy, shifts=["14:00", "14:00"]), "R54",
            "twice", error=Invalid)
    refused(lambda: act(session, room.actor("cashier"), now, update_policy, shifts=[]), "R61")
    act(session, room.sup, now, update_policy, shifts=[])
    assert room.room.shift_starts is None


def test_each_row_carries_the_shift_it_was_posted_in(room, session, now, shifts):
    _t1, _t2, h1, _h2 = shifts
    night = now + timedelta(hours=3)  # 23:00: shift 3
    after_midnight = now + timedelta(hours=7)  # 03:00 Sunday: still Saturday's shift 3
    act(session, room.actor("cashier"), night, ledger.add_on, h1.id, 500)
    act(session, room.actor("cashier"), after_midnight, ledger.add_on, h1.id, 700)
    rows = session.scalars(select(LedgerEntry).order_by(LedgerEntry.id)).all()
    assert [(r.gaming_day, r.shift_no, r.amount) for r in rows] == [
        (DAY, 2, 10000), (DAY, 2, 20000), (DAY, 3, 500), (DAY, 3, 700)]
    assert expected_by_table(session, room.room.id, DAY, 3) == {h1.table_id: 1200, None: 1200}
    assert expected_by_table(session, room.room.id, DAY)[None] == 31200


def test_shifts_close_in_order_each_once_the_last_closing_the_day(room, session, now, shifts):
    t1, t2, h1, _h2 = shifts
    amounts = [(t1, 10000), (t2, 20000)]
    for role in ("supervisor", "cashier"):
        act(session, room.actor(role), now, _count, 2, amounts, 30000)
    refused(lambda: act(session, room.sup, now, close_day, DAY, room.staff["cashier"].id, 2), "R54",
            "close shift 1 before shift 2", error=Conflict)
    refused(lambda: act(session, room.sup, now, close_day, DAY, room.staff["cashier"].id), "R54",
            "name the shift", error=Invalid)
    refused(lambda: act(session, room.sup, now, _count, 3, [], 0), "R54", "not started", error=Invalid)
    first = _close(room, session, now, 1)  # nothing was posted in shift 1: its total is 0
    assert (first.shift_no, first.closes_day, first.entries, first.expected_total) == (1, False, 0, 0)
    second = act(session, room.sup, now, close_day, DAY, room.staff["cashier"].id, 2).row
    assert (second.shift_no, second.closes_day, second.entries, second.expected_total,
            second.counted_total) == (2, False, 2, 30000, 30000)
    assert not is_closed(session, room.room.id, DAY)
    refused(lambda: act(session, room.sup, now, close_day, DAY, room.staff["cashier"].id, 2), "R54",
            "shift 2 of gaming day 2026-11-21 is closed", error=Conflict)
    refused(lambda: act(session, room.sup, now, _count, 2, amounts, 30000), "R54", "closed",
            error=Conflict)
    # closed before its end: the rest of shift 2's rows go to shift 3 (its figures do not change)
    early = act(session, room.sup, now, ledger.add_on, h1.id, 100)
    night = now + timedelta(hours=3)
    act(session, room.actor("cashier"), night, ledger.add_on, h1.id, 500)
    assert (early.shift_no, early.at) == (3, now)
    refused(lambda: _close(room, session, night, 3, [(t1, 600)], 600), "R54", "still running",
            error=Conflict)  # the last shift closes the day: not before it ends (R2)
    last = _close(room, session, night, 3, [(t1, 600)], 600, at=END)
    assert (last.shift_no, last.closes_day, last.entries, last.expected_total) == (3, True, 2, 600)
    assert is_closed(session, room.room.id, DAY)
    assert [a.detail["shift_no"] for a in audits(session, "shift.closed")] == [1, 2]
    assert audits(session, "day.closed")[0].detail["shift_no"] == 3
    # a request dated before the day's close that commits after it: no shift of the day is open
    # left, it posts to the next gaming day's first shift
    late = act(session, room.sup, END - timedelta(seconds=1), ledger.add_on, h1.id, 100)
    assert (late.gaming_day, late.shift_no) == (DAY + timedelta(days=1), 1)


def test_counts_are_per_shift(room, session, now, shifts):
    t1, t2, h1, _h2 = shifts
    _close(room, session, now, 1)
    why = "a 10 chip under the rail"
    act(session, room.sup, now, _count, 2, [(t1, 10000), (t2, 19000)], 29000, why)
    night = now + timedelta(hours=3)
    act(session, room.sup, night, ledger.add_on, h1.id, 500)
    refused(lambda: act(session, room.sup, night, _count, 2, [(t2, 19000)], 29000), "R54",
            "explanation", error=Invalid)
    act(session, room.actor("cashier"), night, _count, 2, [(t1, 10000), (t2, 20000)], 30000)
    act(session, room.sup, night, _count, 3, [(t1, 500)], 500)
    rep = day_report(session, room.room.id, Money("GBP"), DAY)
    assert [(c.shift_no, c.table, c.variance) for c in rep.counts if c.staff_id == room.sup.staff_id
            ] == [(1, "total", 0), (2, "1", 0), (2, "2", -1000), (2, "total", -1000),
                  (3, "1", 0), (3, "total", 0)]
    refused(lambda: act(session, room.sup, night, close_day, DAY, room.staff["cashier"].id, 3), "R54",
            "close shift 2 before shift 3", error=Conflict)
    # shift 2's counts are still fresh after shift 3's row: it closes, with the supervisor's total
    close = act(session, room.sup, night, close_day, DAY, room.staff["cashier"].id, 2).row
    assert (close.expected_total, close.counted_total) == (30000, 29000)


def test_the_report_per_shift_adds_up(room, session, now, shifts):
    t1, _t2, h1, _h2 = shifts
    act(session, room.sup, now + timedelta(hours=3), ledger.add_on, h1.id, 500)
    rep = day_report(session, room.room.id, Money("GBP"), DAY)
    assert [(x.key, x.name, x.entries, x.amount) for x in rep.by_shift] == [
        (2, "shift 2", 2, 30000), (3, "shift 3", 1, 500)]
    assert rep.reconciled and (rep.shift, rep.closes, rep.close) == (None, [], None)
    night = day_report(session, room.room.id, Money("GBP"), DAY, 3)
    assert (night.shift, night.total.entries, night.total.amount) == (3, 1, 500)
    assert [(x.key, x.amount) for x in night.by_table] == [(t1.id, 500)]
    assert [(x.key, x.amount) for x in night.by_shift] == [(3, 500)] and night.reconciled
    _close(room, session, now, 1)
    closed = day_report(session, room.room.id, Money("GBP"), DAY, 1)
    assert closed.closed and closed.as_closed and closed.close.shift_no == 1
    assert not day_report(session, room.room.id, Money("GBP"), DAY).closed  # the day is not


def test_no_shift_policy_is_one_shift_the_day(room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=1,
        player_id=room.player(now, "Uma").id, buy_in=10000)
    close = _close(room, session, now, None, [(table, 10000)], 10000, at=END)
    assert (close.shift_no, close.closes_day) == (1, True)
    assert is_closed(session, room.room.id, DAY)
    assert session.scalars(select(LedgerEntry.shift_no)).all() == [1]
    refused(lambda: act(session, room.sup, now, record_counts, DAY, [Count(None, 0)], 2), "R54",
            "no shift 2", error=Invalid)


def test_a_policy_changed_during_the_day_loses_no_row_and_opens_no_closed_shift(room, session, now, shifts):
    """A policy changed during the day: the last shift takes the rows of shifts it no longer has,
    and the day's close covers every shift, even one a later change adds (R54)."""
    act(session, room.sup, now, update_policy, shifts=[])
    t1, t2, h1, _h2 = shifts
    # the rows posted in shift 2 of the old policy are in the one shift's close (the day's last)
    close = _close(room, session, now, None, [(t1, 10000), (t2, 20000)], 30000, at=END)
    assert (close.shift_no, close.entries, close.expected_total) == (1, 2, 30000)
    rep = day_report(session, room.room.id, Money("GBP"), DAY)
    assert [x.key for x in rep.by_shift] == [2] and rep.as_closed and rep.reconciled
    act(session, room.sup, now, update_policy, shifts=["14:00", "22:00"])
    # the shift the change added is covered by the day's close: its rows go to the next day
    row = act(session, room.sup, now + timedelta(hours=3), ledger.add_on, h1.id, 100)
    assert (row.gaming_day, row.shift_no) == (DAY + timedelta(days=1), 1)
    refused(lambda: act(session, room.sup, now + timedelta(hours=3), _count, 3, [], 0), "R54",
            error=Conflict)


def test_the_database_allows_one_close_per_shift_and_one_closing_the_day(room, session, now):
    sql = ("INSERT INTO day_closes (room_id, gaming_day, shift_no, closes_day, closed_at, "
           "closed_by_id, second_staff_id, entries, expected_total, counted_total) "
           "VALUES (:r, :d, :s, :c, :at, :a, :b, 0, 0, 0)")
    args = {"r": room.room.id, "d": DAY, "at": now, "a": room.sup.staff_id,
            "b": room.staff["cashier"].id}
    session.execute(text(sql), {**args, "s": 1, "c": False})
    session.execute(text(sql), {**args, "s": 2, "c": True})
    for shift, closes_day in ((1, False), (3, True), (0, False)):  # twice; the day twice; no shift 0
        sp = session.begin_nested()
        with pytest.raises(IntegrityError):
            session.execute(text(sql), {**args, "s": shift, "c": closes_day})
        sp.rollback()
