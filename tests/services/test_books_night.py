"""Every chip on the table is on the books (issue 18; R18, R27, R29, R30, R36, R52, R54): a night
with a playover (buy-in, add-on, cash-out), a seat change and a table change, each table counted
at the chips physically there, closes with zero variance per table and in total. The chips are
followed in the test as they move on the felt (``Felt``), apart from the ledger, so a row the
books missed would show as a variance. On every configured database."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime, timedelta

from roomops.absences import services as absences
from roomops.ledger import cash_outs
from roomops.ledger import services as ledger
from roomops.ledger.dayclose import Count, close_day, record_counts
from roomops.ledger.models import LedgerEntry
from roomops.ledger.report import day_report, expected_by_table
from roomops.lists import services as lists
from roomops.money import Money
from roomops.playovers import services as playovers
from roomops.rooms.services import update_policy
from roomops.seating import moves, seats
from roomops.seating.seat_change import change_seat
from tests.units import act

DAY = date(2026, 11, 21)  # the gaming day of the suite's START (20:00 UTC, 06:00 start)
END = datetime(2026, 11, 22, 6, tzinfo=UTC)  # the day has ended: it may be closed (R54)
HOUR = timedelta(hours=1)
HALF = HOUR / 2


class Felt:
    """The chips physically on each table, moved as the floor moves them (not from the ledger)."""

    def __init__(self) -> None:
        self.chips: Counter[int] = Counter()

    def bring(self, table_id: int, amount: int) -> None:
        self.chips[table_id] += amount

    def take(self, table_id: int, amount: int) -> None:
        self.chips[table_id] -= amount


def _night(room, session, now):
    """Two tables of one game; the desk seats players, a waiting player plays over an absent
    owner's seat with an add-on and cashes out, a player changes seats and one changes tables."""
    act(session, room.sup, now, update_policy, auto_offer=False)  # the waiting player stays waiting
    felt, cashier = Felt(), room.actor("cashier")
    game = room.game(now)
    t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
    ann, bo, cy, di, wes = (room.player(now, n) for n in ("Ann", "Bo", "Cy", "Di", "Wes"))
    hold = {}
    for who, table, seat, buy_in in ((ann, t1, 1, 10000), (bo, t1, 2, 20000), (cy, t1, 3, 30000),
                                     (di, t2, 1, 40000)):
        hold[who.id] = act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=seat,
                           player_id=who.id, buy_in=buy_in)
        felt.bring(table.id, buy_in)
    act(session, room.sup, now, lists.join, player_id=wes.id, game_id=game.id)
    at = now + HOUR  # Ann won 5000 from Bo meanwhile: nothing moves on the books or the felt
    act(session, room.sup, at, absences.grant_break, hold[ann.id].id, 15000)  # her box: 15000
    po = act(session, room.sup, at, playovers.start_playover, hold[ann.id].id, buy_in=12000)
    felt.bring(t1.id, 12000)
    act(session, cashier, at, ledger.add_on, hold[ann.id].id, 3000, "table", playover_id=po.id)
    felt.bring(t1.id, 3000)
    # Wes wins 4000 from Cy; Ann comes back and Wes leaves with 19000, counted, to the cage
    act(session, room.sup, at + HALF, absences.come_back, hold[ann.id].id, overplayer_stack=19000)
    felt.take(t1.id, 19000)
    act(session, cashier, at + HALF, cash_outs.cash_out, hold[ann.id].id, 19000, playover_id=po.id)
    # Cy (30000 - 4000) changes seats at the table, Bo (20000 - 5000) moves to table 2
    act(session, room.sup, at + HALF, change_seat, hold[cy.id].id, 5, stack=26000)
    act(session, room.sup, at + HALF, moves.move_player, hold[bo.id].id, table_id=t2.id, seat_no=2,
        stack=15000)
    felt.take(t1.id, 15000)
    felt.bring(t2.id, 15000)
    return t1, t2, felt, po


def _count_and_close(room, session, felt: Felt, tables) -> None:
    """Both staff count every table at the chips on its felt, and the total; then they close."""
    counts = [Count(t.id, felt.chips[t.id]) for t in tables] + [
        Count(None, sum(felt.chips.values()))]
    for who in ("cashier", "supervisor"):
        act(session, room.actor(who), END, record_counts, DAY, counts)
    act(session, room.sup, END, close_day, DAY, room.staff["cashier"].id)


def test_r52_r54_a_night_with_a_playover_a_seat_change_and_a_table_change_closes_at_zero(
        room, session, now):
    t1, t2, felt, _po = _night(room, session, now)
    assert felt.chips == Counter({t1.id: 41000, t2.id: 55000})  # Ann 15000 + Cy 26000; Di + Bo
    _count_and_close(room, session, felt, (t1, t2))
    report = day_report(session, room.room.id, Money("GBP"), DAY)
    assert report.closed and report.reconciled
    assert {c.variance for c in report.counts} == {0}
    assert len(report.counts) == 6  # two counters, two tables and the total
    assert (report.close.expected_total, report.close.counted_total) == (96000, 96000)
    kinds = {line.key: line.amount for line in report.by_kind}
    assert kinds == {"buy_in": 112000, "add_on": 3000, "cash_out": -19000, "transfer": 0}


def test_r29_r54_a_playovers_chips_are_expected_at_its_table(room, session, now):
    """While a playover runs, the overplayer's chips are on the felt: the ledger expects them at
    the owner's table. Before the playover rows they were missed (a variance of their amount)."""
    act(session, room.sup, now, update_policy, auto_offer=False)
    felt = Felt()
    game = room.game(now)
    t1 = room.table(now, game, "1")
    owner, wes = room.player(now, "Ann"), room.player(now, "Wes")
    hold = act(session, room.sup, now, seats.seat_directly, table_id=t1.id, seat_no=1,
               player_id=owner.id, buy_in=10000)
    felt.bring(t1.id, 10000)
    act(session, room.sup, now, lists.join, player_id=wes.id, game_id=game.id)
    act(session, room.sup, now + HOUR, absences.grant_break, hold.id, 10000)
    po = act(session, room.sup, now + HOUR, playovers.start_playover, hold.id, buy_in=25000)
    felt.bring(t1.id, 25000)
    expected = expected_by_table(session, room.room.id, DAY)
    assert expected[t1.id] == felt.chips[t1.id] == 35000
    # the playover's rows are what the table would have been short of on the books
    books = session.query(LedgerEntry).filter(LedgerEntry.playover_id == po.id).all()
    assert sum(r.amount for r in books) == 25000
    _count_and_close(room, session, felt, (t1,))
    assert {c.variance for c in day_report(session, room.room.id, Money("GBP"), DAY).counts} == {0}
