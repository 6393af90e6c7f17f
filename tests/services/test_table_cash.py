"""R32, R18, R52, R54 on the services, on every configured database: cash at the table is its own
method (a line of the day's report), refused where the cage pays or takes; a stack carried to
another table is a transfer pair so each table's expected figure follows the chips; a batch of
moves posts its rows in one INSERT."""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import select

from roomops.errors import Conflict, Invalid
from roomops.ledger import cash_outs, transit
from roomops.ledger import services as ledger
from roomops.ledger.dayclose import Count, close_day, record_counts
from roomops.ledger.models import LedgerEntry
from roomops.ledger.report import day_report, expected_by_table
from roomops.money import Money
from roomops.seating import moves, seats
from tests.services.helpers import audits, refused, statements_sent
from tests.services.ledger_helpers import seated_holds
from tests.units import act

DAY = date(2026, 11, 21)  # the gaming day of the suite's START (20:00 UTC, UTC room, 06:00 start)


def _by(lines):
    return {x.key: (x.name, x.entries, x.amount) for x in lines}


def test_r32_cash_at_the_table_is_its_own_method_in_the_report(room, session, now):
    holds = seated_holds(room, session, now)[2]
    cashier = room.actor("cashier")
    act(session, cashier, now, ledger.buy_in, holds[0].id, 10000, "table")
    act(session, cashier, now, ledger.buy_in, holds[1].id, 20000)  # cash at the cage
    row = act(session, cashier, now, ledger.add_on, holds[0].id, 5000, "table")
    act(session, cashier, now, ledger.rebuy, holds[2].id, method="table")  # the minimum, 100.00
    assert (row.kind, row.amount, row.method) == ("add_on", 5000, "table")
    assert audits(session, "ledger.add_on")[-1].detail["method"] == "table"
    rep = day_report(session, room.room.id, Money("GBP"), DAY)
    assert _by(rep.by_method) == {"cash": ("cash", 1, 20000),
                                  "table": ("cash at the table", 3, 25000)}
    assert rep.reconciled


def test_r32_cash_at_the_table_does_not_pay_out_or_come_from_the_cage(room, session, now):
    holds = seated_holds(room, session, now)[2]
    cashier = room.actor("cashier")
    refused(lambda: act(session, cashier, now, transit.request, holds[0].id, 10000, "table"), "R32",
            "cage", error=Invalid)
    act(session, cashier, now, ledger.buy_in, holds[0].id, 10000, "table")
    act(session, room.sup, now, seats.leave, holds[0].id, 12000)
    refused(lambda: act(session, cashier, now, cash_outs.cash_out, holds[0].id, 12000, "table"), "R32",
            "cash out", error=Invalid)
    assert act(session, cashier, now, cash_outs.cash_out, holds[0].id, 12000, "cash").amount == -12000


def test_r52_a_cash_at_the_table_row_is_reversed_with_its_method(room, session, now):
    hold = seated_holds(room, session, now)[2][0]
    row = act(session, room.actor("cashier"), now, ledger.add_on, hold.id, 5000, "table")
    rev = act(session, room.sup, now, ledger.reverse, row.id, "keyed twice")
    assert (rev.kind, rev.amount, rev.method) == ("reversal", -5000, "table")


def test_r18_a_table_change_moves_the_expected_figure_with_the_stack(room, session, now):
    game = room.game(now)
    t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
    a, b = room.players(now, 2)
    ha = act(session, room.sup, now, seats.seat_directly, table_id=t1.id, seat_no=1, player_id=a.id,
             buy_in=20000)
    act(session, room.sup, now, seats.seat_directly, table_id=t2.id, seat_no=1, player_id=b.id,
        buy_in=10000)
    moved = act(session, room.sup, now, moves.move_player, ha.id, table_id=t2.id, seat_no=2,
                stack=26000, added=4000)
    assert expected_by_table(session, room.room.id, DAY) == {t1.id: -6000, t2.id: 40000,
                                                              None: 34000}
    pair = session.scalars(select(LedgerEntry).where(LedgerEntry.kind == "transfer")
                           .order_by(LedgerEntry.id)).all()
    assert [(r.amount, r.table_id, r.hold_id, r.player_id, r.game_id) for r in pair] == [
        (-26000, t1.id, ha.id, a.id, game.id), (26000, t2.id, moved.id, a.id, game.id)]
    assert [e.detail["move"] for e in audits(session, "ledger.transfer")] == ["floor", "floor"]
    rep = day_report(session, room.room.id, Money("GBP"), DAY)
    assert _by(rep.by_kind)["transfer"] == ("transfer", 2, 0)  # nets to zero in the total
    assert _by(rep.by_method)["chips"] == ("chips", 2, 0)
    assert rep.reconciled and rep.total.amount == 34000
    refused(lambda: act(session, room.sup, now, ledger.reverse, pair[0].id, "wrong"), "R52",
            "table change", error=Conflict)


def test_r18_a_seat_change_at_the_same_table_posts_no_transfer(room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    player = room.player(now, "Sol")
    hold = act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=1,
               player_id=player.id, buy_in=20000)
    act(session, room.sup, now, moves.carry, game, [moves.Move(hold, table, 5, 20000, 0, "seat_change")])
    assert session.scalars(select(LedgerEntry.kind)).all() == ["buy_in"]


def test_r54_the_close_counts_each_table_as_its_chips_moved(room, session, now):
    game = room.game(now)
    t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
    hold = act(session, room.sup, now, seats.seat_directly, table_id=t1.id, seat_no=1,
               player_id=room.player(now, "Ida").id, buy_in=20000)
    act(session, room.sup, now, moves.move_player, hold.id, table_id=t2.id, seat_no=1, stack=20000)
    # the chips are at table 2 now: table 1 is counted empty, table 2 with the stack
    for who in (room.sup, room.actor("cashier")):
        act(session, who, now, record_counts, DAY, [Count(t1.id, 0), Count(t2.id, 20000),
                                                    Count(None, 20000)])
    end = now + timedelta(hours=10)  # 06:00: the gaming day has ended and closes (R54)
    close = act(session, room.sup, end, close_day, DAY, room.staff["cashier"].id).row
    assert (close.entries, close.expected_total) == (3, 20000)


def _statements(session, call):
    """The statements ``call`` sends, and what it returns."""
    result = []
    return statements_sent(session.connection(), lambda: result.append(call())), result[0]


def test_r19_a_broken_table_posts_every_transfer_in_one_insert(room, session, now):
    game = room.game(now)
    _t1, _t2, t3 = (room.table(now, game, n) for n in "123")
    for i, p in enumerate(room.players(now, 4, "K")):
        act(session, room.sup, now, seats.seat_directly, table_id=t3.id, seat_no=i + 1, player_id=p.id,
            buy_in=10000 + i * 100, reason="test")
    sent, broken = _statements(session, lambda: act(session, room.sup, now, moves.break_table, t3.id))
    assert len(broken.moved) == 4
    inserts = [s for s in sent if s.lstrip().upper().startswith("INSERT INTO LEDGER_ENTRIES")]
    assert len(inserts) == 1
    rows = session.scalars(select(LedgerEntry).where(LedgerEntry.kind == "transfer")).all()
    assert len(rows) == 8 and sum(r.amount for r in rows) == 0
    assert expected_by_table(session, room.room.id, DAY)[t3.id] == 0  # every stack left
    assert len(audits(session, "ledger.transfer")) == 8


def test_r18_moves_send_the_same_statements_for_one_player_or_many(room, session, now):
    """``carry`` is batched: the ledger adds one check of the day and one INSERT (and on
    PostgreSQL the day lock, R54) whatever the number of moves."""
    game = room.game(now)
    t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
    holds = [act(session, room.sup, now, seats.seat_directly, table_id=t1.id, seat_no=i + 1,
                 player_id=p.id, buy_in=10000, reason="test")
             for i, p in enumerate(room.players(now, 5, "M"))]

    def batch(hs, first_seat):
        return lambda: act(session, room.sup, now, moves.carry, game, [
            moves.Move(h, t2, first_seat + i, 10000, 500) for i, h in enumerate(hs)])

    one, _ = _statements(session, batch(holds[:1], 1))
    many, _ = _statements(session, batch(holds[1:], 2))
    assert len(many) == len(one)
    assert sum(r.amount for r in session.scalars(select(LedgerEntry).where(
        LedgerEntry.kind == "add_on"))) == 2500


def test_r32_the_desk_says_how_a_buy_in_was_paid(room, session, now):
    """Seating posts cash at the table unless the desk says the player paid otherwise (R32);
    a method that cannot pay a buy-in is refused before anything is written."""
    game = room.game(now)
    table = room.table(now, game, "1")
    a, b, c = room.players(now, 3)
    act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=1, player_id=a.id,
        buy_in=10000)
    act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=2, player_id=b.id,
        buy_in=10000, buy_in_method="cash")
    before = len(audits(session))
    refused(lambda: act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=3,
                        player_id=c.id, buy_in=10000, buy_in_method="euros"),
            "R30", error=Invalid)
    assert len(audits(session)) == before
    assert session.scalars(select(LedgerEntry.method).order_by(LedgerEntry.id)).all() == [
        "table", "cash"]
