"""R27, R30, R52, R54 on the services, on every configured database: seating posts the buy-in row;
counts, variances and the close by two staff (one a supervisor) once, after the day has ended (R2);
the day's report adds up."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from roomops.actors import console
from roomops.errors import Conflict, Invalid
from roomops.floor.unit import UnitOfWork
from roomops.ledger import cash_outs
from roomops.ledger import services as ledger
from roomops.ledger.dayclose import Count, close_day, record_counts
from roomops.ledger.models import DayClose, LedgerEntry
from roomops.ledger.report import day_report
from roomops.money import Money
from roomops.rooms.staff import create_staff
from roomops.seating import seats
from tests.factories import PASSWORD
from tests.services.helpers import audits, refused, statements_sent
from tests.units import act

DAY = date(2026, 11, 21)  # the gaming day of the suite's START (20:00 UTC, UTC room, 06:00 start)
END = datetime(2026, 11, 22, 6, tzinfo=UTC)  # when it ends: its close is refused before (R54)


@pytest.fixture()
def day(room, session, now):
    """Two tables of one game, three players seated by the desk (each seating posts its buy-in),
    a cashier's add-on, a reversal and a cash-out."""
    game = room.game(now)
    t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
    p = room.players(now, 3)
    h1 = act(session, room.sup, now, seats.seat_directly, table_id=t1.id, seat_no=1, player_id=p[0].id,
             buy_in=10000)
    h2 = act(session, room.sup, now, seats.seat_directly, table_id=t1.id, seat_no=2, player_id=p[1].id,
             buy_in=20000)
    act(session, room.sup, now, seats.seat_directly, table_id=t2.id, seat_no=1, player_id=p[2].id,
        buy_in=30000)
    cashier = room.actor("cashier")
    act(session, cashier, now, ledger.add_on, h1.id, 5000)
    wrong = act(session, cashier, now, ledger.add_on, h2.id, 7000)
    act(session, room.sup, now, ledger.reverse, wrong.id, "keyed on the wrong seat")
    act(session, room.sup, now, seats.leave, h2.id, 25000)
    act(session, cashier, now, cash_outs.cash_out, h2.id, 25000)
    return t1, t2


def test_seating_posts_the_buy_in_row_in_the_same_transaction(room, session, now, day):
    t1, _t2 = day
    rows = session.scalars(select(LedgerEntry).where(LedgerEntry.kind == "buy_in")
                           .order_by(LedgerEntry.id)).all()
    assert [(r.amount, r.staff_id, r.method) for r in rows] == [
        (10000, room.sup.staff_id, "table"), (20000, room.sup.staff_id, "table"),
        (30000, room.sup.staff_id, "table")]  # R32: cash at the table
    assert rows[0].table_id == t1.id and rows[0].hold_id is not None
    assert len(audits(session, "ledger.buy_in")) == 3
    # the cashier's buy-in for a seat that has one is refused: more chips are an add-on
    refused(lambda: act(session, room.actor("cashier"), now, ledger.buy_in, rows[0].hold_id, 10000),
            "R30", "add-on", error=Conflict)


def test_a_return_rule_buy_in_above_the_maximum_is_posted_and_accepted_again(room, session, now):
    game = room.game(now)  # buy-ins 100.00-400.00
    table = room.table(now, game, "1")
    player = room.player(now, "Ria")
    hold = act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=1,
               player_id=player.id, buy_in=40000)
    act(session, room.sup, now, seats.leave, hold.id, 90000)
    later = now + timedelta(minutes=30)
    refused(lambda: act(session, room.sup, later, seats.seat_directly, table_id=table.id, seat_no=2,
                        player_id=player.id, buy_in=40000), "R27")
    back = act(session, room.sup, later, seats.seat_directly, table_id=table.id, seat_no=2,
               player_id=player.id, buy_in=90000)  # R27 over the table maximum
    row = session.scalars(select(LedgerEntry).where(LedgerEntry.hold_id == back.id)).one()
    assert (row.kind, row.amount) == ("buy_in", 90000)
    act(session, room.actor("admin"), later, ledger.reverse, row.id, "posted twice by mistake")
    again = act(session, room.actor("cashier"), later, ledger.buy_in, back.id, 90000)
    assert again.amount == 90000  # what check_sitting_down accepted, the ledger accepts


def test_the_report_adds_up_per_table_game_kind_and_staff(room, session, now, day):
    t1, t2 = day
    rep = day_report(session, room.room.id, Money("GBP"), DAY)
    # buy-ins 100+200+300, add-ons 50+70, reversal -70, cash-out -250
    assert (rep.total.entries, rep.total.amount) == (7, 40000)
    assert {x.key: x.amount for x in rep.by_table} == {t1.id: 10000, t2.id: 30000}
    assert {x.key: (x.entries, x.amount) for x in rep.by_kind} == {
        "buy_in": (3, 60000), "add_on": (2, 12000), "reversal": (1, -7000), "cash_out": (1, -25000)}
    assert {x.name: x.amount for x in rep.by_staff} == {
        room.staff["supervisor"].display_name: 53000, room.staff["cashier"].display_name: -13000}
    assert rep.reconciled
    for lines in (rep.by_table, rep.by_game, rep.by_kind, rep.by_staff):
        assert sum(x.amount for x in lines) == rep.total.amount
        assert sum(x.entries for x in lines) == rep.total.entries
    empty = day_report(session, room.room.id, Money("GBP"), DAY - timedelta(days=1))
    assert (empty.total.entries, empty.total.amount, empty.by_table, empty.reconciled) == (0, 0, [], True)


def test_the_report_takes_a_fixed_number_of_statements(room, session, now, day):
    def statements() -> int:
        return len(statements_sent(session.connection(),
                                   lambda: day_report(session, room.room.id, Money("GBP"), DAY)))

    few = statements()
    t1, _ = day
    hold = session.scalars(select(LedgerEntry.hold_id).where(LedgerEntry.table_id == t1.id,
                                                              LedgerEntry.kind == "buy_in")).first()
    for _ in range(20):
        act(session, room.actor("cashier"), now, ledger.add_on, hold, 100)
    act(session, room.sup, now, record_counts, DAY, [Count(None, 0, "not counted yet")])
    assert statements() == few == 9  # one GROUP BY per breakdown (by_method R32, by_shift R54)


def _count_all(unit: UnitOfWork, day, variance: int = 0, why: str | None = None):
    t1, t2 = day
    return record_counts(unit, DAY, [
        Count(t1.id, 10000), Count(t2.id, 30000 + variance, why), Count(None, 40000 + variance, why)])


def test_a_variance_needs_an_explanation_and_is_recorded(room, session, now, day):
    _t1, t2 = day
    refused(lambda: act(session, room.sup, now, record_counts, DAY, [Count(t2.id, 29500)]), "R54",
            "-500", error=Invalid)
    rows = act(session, room.sup, now, _count_all, day, -500, "a 5 chip in the drop box")
    assert [r.variance for r in rows] == [0, -500, -500]
    assert rows[1].explanation == "a 5 chip in the drop box"
    assert audits(session, "day.counted")[0].detail["counts"][1]["variance"] == -500


def test_close_needs_two_different_staff_one_a_supervisor(room, session, now, day):
    cashier = room.actor("cashier")
    act(session, room.sup, now, _count_all, day)
    refused(lambda: act(session, room.sup, END, close_day, DAY, room.sup.staff_id), "R54",
            "two different", error=Conflict)
    second = act(session, console(room.room.id), now, create_staff, username="main-cashier2",
                 password=PASSWORD,
                 roles=("cashier",))
    act(session, cashier, now, _count_all, day)
    refused(lambda: act(session, cashier, END, close_day, DAY, second.id), "R54", "supervisor",
            error=Conflict)
    refused(lambda: act(session, cashier, END, close_day, DAY, room.staff["admin"].id), "R54",
            "has not counted", error=Conflict)
    close = act(session, cashier, END, close_day, DAY, room.sup.staff_id).row
    assert (close.closed_by_id, close.second_staff_id, close.expected_total, close.counted_total,
            close.entries) == (cashier.staff_id, room.sup.staff_id, 40000, 40000, 7)
    assert audits(session, "day.closed")[0].detail["expected_total"] == 40000


def test_a_day_is_closed_once_and_its_figures_never_change(room, session, now, day):
    t1, _ = day
    act(session, room.sup, now, _count_all, day)
    act(session, room.actor("cashier"), now, _count_all, day)
    before = day_report(session, room.room.id, Money("GBP"), DAY)
    act(session, room.sup, END, close_day, DAY, room.staff["cashier"].id)
    refused(lambda: act(session, room.sup, END, close_day, DAY, room.staff["cashier"].id), "R54",
            error=Conflict)
    refused(lambda: act(session, room.sup, END, record_counts, DAY, [Count(None, 1, "late")]), "R54",
            error=Conflict)
    # a request dated inside the closed day (it began before the close and waited for it on
    # PostgreSQL's day lock) posts to the next gaming day: the closed day has no open shift left
    late = END - timedelta(seconds=1)
    # the first row of table 1: the buy-in of the player still seated there (h1); unordered,
    # PostgreSQL may hand back the row of the player who left
    hold = session.scalars(select(LedgerEntry).where(LedgerEntry.table_id == t1.id)
                           .order_by(LedgerEntry.id)).first()
    added = act(session, room.sup, late, ledger.add_on, hold.hold_id, 100)
    assert (added.gaming_day, added.shift_no, added.at) == (DAY + timedelta(days=1), 1, late)
    # a table change's transfer pair, posted as one batch, goes there as well (R18)
    from roomops.seating.moves import move_player
    _t1, t2 = day
    act(session, room.sup, late, move_player, hold.hold_id, table_id=t2.id, seat_no=5, stack=15000)
    assert session.scalar(select(func.count()).select_from(LedgerEntry).where(
        LedgerEntry.kind == "transfer", LedgerEntry.gaming_day == DAY + timedelta(days=1))) == 2
    tomorrow = now + timedelta(hours=12)  # 08:00 next gaming day
    rev = act(session, room.actor("admin"), tomorrow, ledger.reverse, hold.id, "counted next morning")
    assert rev.gaming_day == DAY + timedelta(days=1)  # a reversal belongs to the day it is made
    after = day_report(session, room.room.id, Money("GBP"), DAY)
    assert (after.total, after.by_table, after.by_kind) == (before.total, before.by_table,
                                                            before.by_kind)


def test_counts_before_a_later_posting_are_stale(room, session, now, day):
    t1, _ = day
    act(session, room.sup, now, _count_all, day)
    act(session, room.actor("cashier"), now, _count_all, day)
    hold = session.scalars(select(LedgerEntry.hold_id).where(LedgerEntry.table_id == t1.id)
                           .order_by(LedgerEntry.id)).first()
    act(session, room.sup, now, ledger.add_on, hold, 100)
    refused(lambda: act(session, room.sup, END, close_day, DAY, room.staff["cashier"].id), "R54",
            "count again", error=Conflict)


def test_future_days_are_not_counted(room, session, now, day):
    refused(lambda: act(session, room.sup, now, record_counts, DAY + timedelta(days=1),
                        [Count(None, 0)]), "R54", error=Invalid)


@pytest.mark.parametrize("sql", ["UPDATE day_counts SET counted = 1", "DELETE FROM day_counts",
                                 "UPDATE day_closes SET expected_total = 1", "DELETE FROM day_closes"])
def test_counts_and_closes_are_append_only_in_the_database(room, session, now, day, sql):
    act(session, room.sup, now, _count_all, day)
    act(session, room.actor("cashier"), now, _count_all, day)
    act(session, room.sup, END, close_day, DAY, room.staff["cashier"].id)
    session.flush()
    sp = session.begin_nested()
    with pytest.raises(DBAPIError, match="append-only"):
        session.execute(text(sql))
    sp.rollback()


def test_the_database_refuses_a_close_by_one_person_and_a_second_close(room, session, now):
    staff = room.sup.staff_id
    sql = ("INSERT INTO day_closes (room_id, gaming_day, closed_at, closed_by_id, second_staff_id, "
           "entries, expected_total, counted_total) VALUES (:r, :d, :at, :a, :b, 0, 0, 0)")
    args = {"r": room.room.id, "d": DAY, "at": now}
    sp = session.begin_nested()
    with pytest.raises(IntegrityError):
        session.execute(text(sql), {**args, "a": staff, "b": staff})
    sp.rollback()
    session.execute(text(sql), {**args, "a": staff, "b": room.staff["cashier"].id})
    sp = session.begin_nested()
    with pytest.raises(IntegrityError):
        session.execute(text(sql), {**args, "a": staff, "b": room.staff["admin"].id})
    sp.rollback()
    assert session.scalar(select(func.count()).select_from(DayClose)) == 1


def test_r54_the_database_refuses_a_ledger_row_of_a_closed_shift(room, session, now, day):
    """The ledger's trigger, for any writer: shift 2 of the day closed refuses rows of shifts 1
    and 2 (shifts close in order) and takes shift 3; the day's last close refuses every shift;
    another day is open."""
    staff = (room.sup.staff_id, room.staff["cashier"].id)
    close = ("INSERT INTO day_closes (room_id, gaming_day, shift_no, closes_day, closed_at, "
             "closed_by_id, second_staff_id, entries, expected_total, counted_total) "
             "VALUES (:r, :d, :s, :last, :at, :a, :b, 0, 0, 0)")
    row = ("INSERT INTO ledger_entries (room_id, gaming_day, shift_no, at, kind, amount, method, "
           "staff_id) SELECT room_id, :d, :s, at, kind, amount, method, staff_id FROM ledger_entries "
           "WHERE kind = 'buy_in' ORDER BY id LIMIT 1")

    def post(day: date, shift: int) -> bool:
        sp = session.begin_nested()
        try:
            session.execute(text(row), {"d": day, "s": shift})
        except IntegrityError as err:
            sp.rollback()
            assert "shift closed (R54)" in str(err.orig)
            return False
        sp.commit()
        return True

    args = {"r": room.room.id, "d": DAY, "at": now, "a": staff[0], "b": staff[1]}
    session.execute(text(close), {**args, "s": 2, "last": False})
    assert [post(DAY, n) for n in (1, 2, 3)] == [False, False, True]
    session.execute(text(close), {**args, "s": 3, "last": True})
    assert [post(DAY, n) for n in (1, 3, 4)] == [False, False, False]
    assert post(DAY + timedelta(days=1), 1)


def test_a_table_change_carries_the_stack_as_a_transfer_pair(room, session, now):
    """R18/R52/R54: the stack carried is a transfer out of the old table and into the new; chips
    added are an add-on (cash at the table, R32)."""
    from roomops.seating.moves import move_player

    game = room.game(now)
    t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
    player = room.player(now, "Mo")
    hold = act(session, room.sup, now, seats.seat_directly, table_id=t1.id, seat_no=1,
               player_id=player.id, buy_in=20000)
    moved = act(session, room.sup, now, move_player, hold.id, table_id=t2.id, seat_no=1, stack=35000,
                added=5000)
    rows = session.scalars(select(LedgerEntry).order_by(LedgerEntry.id)).all()
    assert [(r.kind, r.amount, r.hold_id, r.table_id, r.method) for r in rows] == [
        ("buy_in", 20000, hold.id, t1.id, "table"), ("transfer", -35000, hold.id, t1.id, "chips"),
        ("transfer", 35000, moved.id, t2.id, "chips"), ("add_on", 5000, moved.id, t2.id, "table")]
    refused(lambda: act(session, room.actor("cashier"), now, ledger.buy_in, moved.id, 10000), "R30",
            "changed tables", error=Conflict)
    act(session, room.sup, now, move_player, moved.id, table_id=t1.id, seat_no=2, stack=40000)
    assert session.scalar(select(func.count()).select_from(LedgerEntry)) == 6  # one more pair
