"""The dealers' tips (R66, R60, R61) on the services, on every configured database: a shift's pool
counted by two staff and shared by the downs each dealer ended in the shift, a wrong count
replaced (never edited), the room that does not pool, the report and its CSV, and what the
database itself refuses."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from roomops.actors import console
from roomops.dealers import roster
from roomops.dealers.models import DealerShift, DealerSpell
from roomops.errors import Conflict, Forbidden, Invalid
from roomops.ledger.models import LedgerEntry
from roomops.rooms.models import Staff
from roomops.rooms.staff import create_staff
from roomops.tokes.models import TokeCount, TokeShare
from roomops.tokes.pool import count_pool, report, shift_of_day, to_csv
from tests.factories import PASSWORD, as_staff
from tests.services.helpers import audits, refused
from tests.units import act, sweep

MIN = timedelta(minutes=1)


@pytest.fixture()
def day(now):
    return now.date()  # the tests' room: UTC, gaming day from 06:00, START 20:00


@pytest.fixture()
def table(room, now):
    return room.table(now, room.game(now), "1")


@pytest.fixture()
def coordinator(room, session, now):
    return act(session, console(room.room.id), now, create_staff, username="coord", password=PASSWORD,
               roles=("coordinator",), display_name="Coordinator")


def _dealers(room, session, now, *names):
    return [act(session, console(room.room.id), now, create_staff, username=name.lower().replace(" ", ""),
                password=PASSWORD, roles=("dealer",), display_name=name) for name in names]


def _dealt(session, room, table, dealer, *ended):
    """A shift of ``dealer`` (checked out) with a 30-minute down at ``table`` ending at each of
    ``ended``."""
    shift = DealerShift(room_id=room.room.id, dealer_id=dealer.id, checked_in_at=min(ended) - 60 * MIN)
    session.add(shift)
    session.flush()
    session.add_all(DealerSpell(room_id=room.room.id, shift_id=shift.id, dealer_id=dealer.id, kind="down",
                                table_id=table.id, started_at=end - 30 * MIN, ends_at=end, ended_at=end,
                                end_reason="pushed") for end in ended)
    session.flush()
    shift.checked_out_at = max(ended)
    session.flush()


def _shares(session, count):
    return {s.dealer_id: (s.downs, s.share) for s in session.scalars(
        select(TokeShare).where(TokeShare.count_id == count.id))}


def test_r66_the_pool_is_shared_by_the_downs_ended_in_the_shift(room, session, now, day, table, coordinator):
    ann, bob = _dealers(room, session, now, "Ann", "Bob")
    shift = shift_of_day(room.room, day, None)
    # Ann: two downs in the shift, one that ended in the day before (not this shift's)
    _dealt(session, room, table, ann, shift.start - MIN, shift.start, now - 40 * MIN)
    _dealt(session, room, table, bob, now - 70 * MIN)
    ledger_before = session.scalar(select(func.count()).select_from(LedgerEntry))
    count = act(session, room.sup, now, count_pool, day, None, 1000, coordinator)
    assert (count.amount, count.shift_no) == (1000, 1)
    assert (count.shift_start, count.shift_end) == (shift.start, shift.end)
    assert (count.counted_by_id, count.confirmed_by_id) == (room.staff["supervisor"].id, coordinator.id)
    # 1000 by 2:1 -> 666.67 and 333.33: the unit left over to the larger remainder, Ann's
    assert _shares(session, count) == {ann.id: (2, 667), bob.id: (1, 333)}
    [audit] = audits(session, "tokes.counted")
    assert audit.entity_id == count.id
    # R66: tips are never house revenue
    assert session.scalar(select(func.count()).select_from(LedgerEntry)) == ledger_before


def test_r66_downs_dealt_on_the_roster_count_when_they_end(room, session, now, day, table, coordinator):
    room.room.dealer_rotation = True
    ann, bob = _dealers(room, session, now, "Ann", "Bob")
    act(session, room.sup, now, roster.check_in, ann.id)
    act(session, room.sup, now + MIN, roster.check_in, bob.id)
    sweep(session, now + 30 * MIN)  # Bob pushes Ann: Ann's first down
    refused(lambda: act(session, room.sup, now + 40 * MIN, count_pool, day, None, 900, coordinator),
            "R66", "still being dealt", error=Conflict)
    sweep(session, now + 60 * MIN)  # Ann pushes Bob
    act(session, room.sup, now + 70 * MIN, roster.check_out, bob.id)
    act(session, room.sup, now + 75 * MIN, roster.check_out, ann.id)  # her second down ends here
    count = act(session, room.sup, now + 80 * MIN, count_pool, day, None, 900, coordinator)
    assert _shares(session, count) == {ann.id: (2, 600), bob.id: (1, 300)}


def test_r66_a_pool_is_counted_after_the_shift_while_downs_run(room, session, now, day, table, coordinator):
    room.room.dealer_rotation = True
    [ann] = _dealers(room, session, now, "Ann")
    act(session, room.sup, now, roster.check_in, ann.id)
    end = shift_of_day(room.room, day, None).end
    sweep(session, now + 30 * MIN)  # no one to push her: she deals the next down too
    count = act(session, room.sup, end, count_pool, day, None, 500, coordinator)
    assert _shares(session, count) == {ann.id: (1, 500)}  # the down still running is not counted


def test_r66_r61_who_counts_and_who_confirms(room, session, now, day, table, coordinator):
    [ann] = _dealers(room, session, now, "Ann")
    _dealt(session, room, table, ann, now - MIN)
    get = lambda key: session.get_one(Staff, room.staff[key].id)  # noqa: E731
    refused(lambda: act(session, room.actor("cashier"), now, count_pool, day, None, 100, get("supervisor")),
            "R61", error=Forbidden)
    refused(lambda: act(session, room.sup, now, count_pool, day, None, 100, get("supervisor")),
            "R66", "second person", error=Conflict)
    refused(lambda: act(session, room.sup, now, count_pool, day, None, 100, get("cashier")),
            "R61", "dealers or authorise", error=Forbidden)
    refused(lambda: act(session, room.sup, now, count_pool, day, None, 100, get("dealer")),
            "R61", error=Forbidden)
    coordinator.active = False
    refused(lambda: act(session, room.sup, now, count_pool, day, None, 100, coordinator), "R61",
            error=Forbidden)
    # a coordinator counts, a supervisor (the authorise right) confirms
    coordinator.active = True
    count = act(session, as_staff(session, "coord"), now, count_pool, day, None, 100, get("supervisor"))
    assert count.confirmed_by_id == room.staff["supervisor"].id


def test_r66_a_room_that_does_not_pool_refuses_a_count(room, session, now, day, coordinator):
    room.room.toke_pool = "individual"
    refused(lambda: act(session, room.sup, now, count_pool, day, None, 100, coordinator), "R66",
            "does not pool", error=Conflict)


def test_r66_r54_the_shift_counted_is_one_that_has_started(room, session, now, day, coordinator):
    refused(lambda: act(session, room.sup, now, count_pool, day + timedelta(days=1), None, 100,
                        coordinator), "R54", error=Invalid)
    refused(lambda: act(session, room.sup, now, count_pool, day, 2, 100, coordinator), "R54",
            "no shift 2", error=Invalid)
    refused(lambda: act(session, room.sup, now, count_pool, day, None, 100, coordinator), "R66",
            "nobody dealt", error=Conflict)
    refused(lambda: act(session, room.sup, now, count_pool, day, None, -5, coordinator), "R66",
            error=Invalid)


def test_r66_a_wrong_count_is_replaced_with_a_reason_never_edited(room, session, now, day, table,
                                                                  coordinator):
    ann, bob = _dealers(room, session, now, "Ann", "Bob")
    _dealt(session, room, table, ann, now - 10 * MIN)
    _dealt(session, room, table, bob, now - 40 * MIN)
    first = act(session, room.sup, now, count_pool, day, None, 1001, coordinator)
    assert _shares(session, first) == {ann.id: (1, 501), bob.id: (1, 500)}  # the tie: lower id
    refused(lambda: act(session, room.sup, now, count_pool, day, None, 1000, coordinator), "R66",
            "already counted", error=Conflict)
    refused(lambda: act(session, room.sup, now, count_pool, day, None, 1000, coordinator,
                        replaces_id=first.id, reason="  "), "R66", "say why", error=Invalid)
    second = act(session, room.sup, now + MIN, count_pool, day, None, 1200, coordinator,
                 replaces_id=first.id, reason="a 2.00 chip was under the box")
    assert (second.replaces_id, second.reason) == (first.id, "a 2.00 chip was under the box")
    refused(lambda: act(session, room.sup, now, count_pool, day, None, 1000, coordinator,
                        replaces_id=first.id, reason="again"), "R66", "not the standing count",
            error=Conflict)
    rep = report(session, room.room, day, None)
    assert rep.count is not None and rep.count.id == second.id
    assert [r.id for r in rep.replaced] == [first.id]
    assert [(line.name, line.downs, line.share) for line in rep.lines] == [("Ann", 1, 600), ("Bob", 1, 600)]
    assert sum(line.share or 0 for line in rep.lines) == rep.count.amount
    assert [a.reason for a in audits(session, "tokes.counted")] == [None, "a 2.00 chip was under the box"]


def test_r66_the_report_before_a_count_shows_the_downs_so_far(room, session, now, day, table):
    [ann] = _dealers(room, session, now, "Ann")
    _dealt(session, room, table, ann, now - 10 * MIN, now - 70 * MIN)
    rep = report(session, room.room, day, None)
    assert rep.count is None and [(x.name, x.downs, x.share) for x in rep.lines] == [("Ann", 2, None)]


def test_r66_the_csv_has_the_pool_and_a_line_per_dealer(room, session, now, day, table, coordinator):
    ann, bob = _dealers(room, session, now, "=Ann", "Bob")
    _dealt(session, room, table, ann, now - 10 * MIN)
    _dealt(session, room, table, bob, now - 40 * MIN, now - 70 * MIN)
    act(session, room.sup, now, count_pool, day, None, 30001, coordinator)
    rows = list(csv.reader(io.StringIO(to_csv(report(session, room.room, day, None)))))
    assert rows[2][:4] == [day.isoformat(), "1", room.room.currency, "300.01"]
    assert rows[4:] == [["dealer_id", "dealer", "downs", f"share ({room.room.currency})"],
                        [str(ann.id), "'=Ann", "1", "100.00"], [str(bob.id), "Bob", "2", "200.01"],
                        ["total", "", "3", "300.01"]]
    assert sum(Decimal(r[3]) for r in rows[5:7]) == Decimal("300.01")


def test_r66_the_database_keeps_counts_two_staff_and_append_only(room, session, now, day, table,
                                                                 coordinator):
    [ann] = _dealers(room, session, now, "Ann")
    _dealt(session, room, table, ann, now - 10 * MIN)
    count = act(session, room.sup, now, count_pool, day, None, 100, coordinator)
    session.commit()
    shift = shift_of_day(room.room, day, None)
    row = dict(room_id=room.room.id, gaming_day=day, shift_no=1, shift_start=shift.start,
               shift_end=shift.end, amount=5, counted_by_id=coordinator.id, counted_at=now)
    for bad in (dict(confirmed_by_id=coordinator.id, replaces_id=count.id, reason="x"),  # one person
                dict(confirmed_by_id=ann.id),  # a second first count of the shift
                dict(confirmed_by_id=ann.id, replaces_id=count.id),  # no reason
                dict(confirmed_by_id=ann.id, replaces_id=count.id, reason="x", shift_no=2)):  # another shift
        with pytest.raises(IntegrityError):
            session.execute(insert(TokeCount).values(**{**row, **bad}))
        session.rollback()
    for change in (update(TokeCount).values(amount=1), delete(TokeShare),
                   update(TokeShare).values(share=0)):
        with pytest.raises(DBAPIError, match="append-only"):
            session.execute(change)
        session.rollback()


def test_r66_r54_a_day_of_several_shifts_shares_each_shifts_own_downs(room, session, now, day, table,
                                                                     coordinator):
    room.room.shift_starts = "06:00,14:00,22:00"  # now, 20:00, is in shift 2
    ann, bob = _dealers(room, session, now, "Ann", "Bob")
    start = shift_of_day(room.room, day, 2).start
    _dealt(session, room, table, ann, start - 10 * MIN, start)  # shift 1's, then shift 2's first
    _dealt(session, room, table, bob, now - 30 * MIN)
    refused(lambda: act(session, room.sup, now, count_pool, day, None, 100, coordinator), "R54",
            "name the shift", error=Invalid)
    refused(lambda: act(session, room.sup, now, count_pool, day, 3, 100, coordinator), "R54",
            "not started", error=Invalid)
    two = act(session, room.sup, now, count_pool, day, 2, 100, coordinator)
    one = act(session, room.sup, now, count_pool, day, 1, 7, coordinator)
    assert _shares(session, two) == {ann.id: (1, 50), bob.id: (1, 50)}
    assert _shares(session, one) == {ann.id: (1, 7)}
