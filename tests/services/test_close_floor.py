"""R2, R54, R52, R60 on the services, on every configured database: closing never stops the floor.
A shift closed before its end hands the rest of it to the next shift (claims, buy-ins, fees and
rake all post there); the gaming day is closed once it has ended, or before once no table is open
(later play then posts to the next gaming day); a close with tables still
running is warned of or refused, as the room's policy says."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import func, select

from roomops.errors import Conflict, Invalid
from roomops.games import services as games
from roomops.hands.services import record_hand
from roomops.holds.queries import seated_in
from roomops.ledger import cash_outs, fees, rake
from roomops.ledger import services as ledger
from roomops.ledger.dayclose import Count, close_day, is_closed, record_counts
from roomops.ledger.models import DayClose, LedgerEntry
from roomops.ledger.report import day_report, expected_by_table
from roomops.lists import services as lists
from roomops.money import Money
from roomops.rooms.services import update_policy
from roomops.seating import closing, seats
from tests.services.helpers import audits, live_offer, refused
from tests.services.ledger_helpers import seated_holds
from tests.units import act

DAY = date(2026, 11, 21)  # the suite's START, 20:00 UTC, in a UTC room whose day starts at 06:00
END = datetime(2026, 11, 22, 6, tzinfo=UTC)  # the gaming day's end


NOTHING = (Count(None, 0),)  # the count of a shift with no ledger row


def _close(room, session, at, shift=None, counts=NOTHING):
    """Both staff count ``counts`` of ``shift``; then the supervisor closes it with the cashier."""
    for who in (room.sup, room.actor("cashier")):
        act(session, who, at, record_counts, DAY, list(counts), shift)
    return act(session, room.sup, at, close_day, DAY, room.staff["cashier"].id, shift)


@pytest.fixture()
def floor(room, session, now):
    """Shifts 06:00-22:00 and 22:00-06:00; an hourly game with a seat open and a player on its
    list holding the offer of it, a rake game with a hand dealt. No ledger row yet."""
    act(session, room.sup, now, update_policy, shifts=["22:00"])
    _game, hourly, holds = seated_holds(room, session, now, fee_kind="hourly", time_fee=500)
    player = room.player(now, "Cleo")
    act(session, room.sup, now, lists.join, player_id=player.id, game_id=hourly.game_id)
    _game, raked, _ = seated_holds(room, session, now, name="2", fee_kind="rake", rake_bp=500,
                                   rake_cap=500)
    act(session, room.actor("dealer"), now, record_hand, raked.id, hand_no=1, high_card_seat=1)
    return hourly, raked, holds, live_offer(session, player.id)


def test_r54_rows_in_the_rest_of_a_closed_shift_land_in_the_next(room, session, now, floor):
    hourly, raked, holds, offer = floor
    closed = _close(room, session, now, 1)  # at 20:00, two hours before shift 1 ends
    assert (closed.row.shift_no, closed.row.closes_day) == (1, False)
    soon = now + timedelta(minutes=5)  # still inside shift 1's hours
    cashier = room.actor("cashier")
    buy_in = act(session, cashier, soon, ledger.buy_in, holds[0].id, 10000)
    claimed = act(session, room.sup, soon, seats.claim, offer.id, 12000)  # R21: posts its buy-in (R30)
    fee = act(session, cashier, soon, fees.collect, holds[1].id)  # R50
    rake_row = act(session, room.actor("dealer"), soon, rake.record_rake, raked.id, 1, pot=10000,
                   flop=True, rake=500)  # R51
    claim_row = session.scalars(select(LedgerEntry).where(LedgerEntry.hold_id == claimed.id)).one()
    rows = [buy_in, claim_row, fee, rake_row]
    assert [(r.gaming_day, r.shift_no, r.at) for r in rows] == [(DAY, 2, soon)] * 4
    assert [a.detail["gaming_day"] for a in audits(session) if a.action.startswith("ledger.")
            ] == [DAY.isoformat()] * 4  # R60: each posting audited as before
    # shift 2's counts and close see them; shift 1's figures did not change (R52)
    expected = expected_by_table(session, room.room.id, DAY, 2, True)
    assert expected == {hourly.id: 10000 + 12000 + fee.amount, raked.id: -500,
                        None: 22000 + fee.amount - 500}
    night = now + timedelta(hours=3)
    counts = [Count(t, n) for t, n in expected.items()]
    for who in (room.sup, cashier):
        act(session, who, night, record_counts, DAY, counts, 2)
    last = act(session, room.sup, END, close_day, DAY, room.staff["cashier"].id, 2).row
    assert (last.entries, last.expected_total, last.closes_day) == (4, expected[None], True)
    assert day_report(session, room.room.id, Money("GBP"), DAY, 1).total.entries == 0


def test_r54_a_row_goes_to_the_first_open_shift_after_early_closes(room, session, now, floor):
    """Three shifts, 1 and 2 closed early at 20:00 (in shift 2): a row at 20:00 goes to shift 3."""
    _hourly, _raked, holds, _offer = floor
    act(session, room.sup, now, update_policy, shifts=["14:00", "22:00"])
    _close(room, session, now, 1)
    _close(room, session, now, 2)
    row = act(session, room.actor("cashier"), now, ledger.buy_in, holds[0].id, 10000)
    assert (row.gaming_day, row.shift_no) == (DAY, 3)


def test_r54_the_day_is_closed_only_once_it_has_ended(room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    for who in (room.sup, room.actor("cashier")):
        act(session, who, now, record_counts, DAY, [Count(None, 0)])
    for at in (now, END - timedelta(seconds=1)):
        refused(lambda at=at: act(session, room.sup, at, close_day, DAY, room.staff["cashier"].id),
                "R54", "still running", "06:00 on 2026-11-22 (UTC)", error=Conflict)
    assert not is_closed(session, room.room.id, DAY)
    closed = act(session, room.sup, END, close_day, DAY, room.staff["cashier"].id)
    assert closed.row.closes_day and closed.running == [] and is_closed(session, room.room.id, DAY)
    # the next day's floor goes on: a seating at the close's instant is the next gaming day's
    hold = act(session, room.sup, END, seats.seat_directly, table_id=table.id, seat_no=1,
               player_id=room.player(now, "Dov").id, buy_in=10000)
    row = session.scalars(select(LedgerEntry).where(LedgerEntry.hold_id == hold.id)).one()
    assert row.gaming_day == DAY + timedelta(days=1)


def test_r54_a_shift_closes_early_but_the_last_one_waits_for_the_days_end(room, session, now):
    act(session, room.sup, now, update_policy, shifts=["22:00"])
    room.table(now, room.game(now), "1")  # open: the room has not closed for the night
    assert not _close(room, session, now, 1).row.closes_day  # early: allowed
    night = now + timedelta(hours=3)
    refused(lambda: _close(room, session, night, 2), "R54", "still running (tables open: 1)",
            error=Conflict)
    assert _close(room, session, END, 2).row.closes_day


def test_r54_a_room_closing_at_four_closes_its_day_then_and_later_play_is_the_next_days(
        room, session, now):
    """R2, R54: the last table closed at 04:00, the day closes at 04:15, two hours before the
    gaming day ends; what happens later that night posts to the next gaming day (its first
    shift), and the closed day's figures never change."""
    game = room.game(now)
    table = room.table(now, game, "1")
    dov, eli = room.player(now, "Dov"), room.player(now, "Eli")
    hold = act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=1,
               player_id=dov.id, buy_in=10000)
    four = END - timedelta(hours=2)
    act(session, room.sup, four, seats.leave, hold.id, 12000)
    act(session, room.sup, four, closing.close_table, table.id)
    counts = [Count(t, n) for t, n in expected_by_table(session, room.room.id, DAY).items()]
    closed = _close(room, session, four + timedelta(minutes=15), None, counts)
    assert closed.row.closes_day and is_closed(session, room.room.id, DAY)
    assert audits(session, "day.closed")[0].detail["entries"] == 1
    before = day_report(session, room.room.id, Money("GBP"), DAY)
    # Dov cashes out at 04:30; a table is opened again at 05:00 and Eli sits down
    late = four + timedelta(minutes=30)
    paid = act(session, room.actor("cashier"), late, cash_outs.cash_out, hold.id, 12000)
    again = act(session, room.sup, late, games.open_table, game.id, "1")
    seated = act(session, room.sup, late, seats.seat_directly, table_id=again.id, seat_no=1,
                 player_id=eli.id, buy_in=20000)
    buy_in = session.scalars(select(LedgerEntry).where(LedgerEntry.hold_id == seated.id)).one()
    nxt = DAY + timedelta(days=1)
    assert [(r.gaming_day, r.shift_no, r.at) for r in (paid, buy_in)] == [(nxt, 1, late)] * 2
    after = day_report(session, room.room.id, Money("GBP"), DAY)
    assert (after.total, after.by_table, after.as_closed) == (before.total, before.by_table, True)
    # the next day's first shift takes them: counted and closed once it has started
    assert expected_by_table(session, room.room.id, nxt) == {None: 8000, table.id: -12000,
                                                             again.id: 20000}
    refused(lambda: act(session, room.sup, late, record_counts, nxt, [Count(None, 8000)]), "R54",
            "has not started", error=Invalid)


@pytest.mark.parametrize("policy", ["warn", "refuse"])
def test_r54_a_close_with_tables_running_is_warned_of_or_refused(room, session, now, policy):
    """'Running': a player seated at the table; table 3, open with nobody seated, is not."""
    act(session, room.sup, now, update_policy, close_while_running=policy)
    game = room.game(now)
    tables = [room.table(now, game, name) for name in ("2", "1", "3")]
    players = room.players(now, 3)
    for table, player in zip(tables[:2], players, strict=False):
        act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=1,
            player_id=player.id, buy_in=10000)
    counts = [Count(t, n) for t, n in expected_by_table(session, room.room.id, DAY).items()]
    if policy == "refuse":
        refused(lambda: _close(room, session, END, None, counts), "R54",
                "tables still running (a player seated): 1, 2", error=Conflict)
        assert session.scalar(select(func.count()).select_from(DayClose)) == 0
        assert audits(session, "day.closed") == []
        hold = seated_in(session, game, players[0].id)
        act(session, room.sup, now, seats.leave, hold.id, 10000)
        act(session, room.sup, now, seats.leave, seated_in(session, game, players[1].id).id, 10000)
        assert _close(room, session, END, None, counts).running == []
        return
    closed = _close(room, session, END, None, counts)
    assert closed.running == ["1", "2"] and closed.row.closes_day
    # the audited close is the same as ever (R60)
    assert set(audits(session, "day.closed")[0].detail) == {
        "gaming_day", "shift_no", "shifts", "second_staff_id", "entries", "expected_total",
        "counted_total", "variances"}
