"""R50 session fees and R51 rake on the services, on every configured database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from roomops.errors import Conflict, Forbidden, Invalid, NotFound
from roomops.hands.services import record_hand
from roomops.ledger import fees, rake
from roomops.ledger import services as ledger
from roomops.ledger.models import LedgerEntry
from tests.services.helpers import audits, query_plans, refused
from tests.services.ledger_helpers import seated_holds
from tests.units import act

MIN = timedelta(minutes=1)
HOUR = timedelta(hours=1)


def _rows(session, kind: str) -> int:
    return session.scalar(select(func.count()).select_from(LedgerEntry).where(LedgerEntry.kind == kind))


@pytest.fixture()
def hourly(room, session, now):
    """An hourly game, 5.00 an hour, 3.00 from 2 players and 6.00 from 7; 8 players seated."""
    return seated_holds(room, session, now, fee_kind="hourly", time_fee=500,
                        time_fee_by_players=[{"players": 2, "fee": 300}, {"players": 7, "fee": 600}])


@pytest.fixture()
def raked(room, session, now):
    game, table, holds = seated_holds(room, session, now, fee_kind="rake", rake_bp=500,
                                      rake_cap=500)
    act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    return game, table, holds


# ---- R50 ----------------------------------------------------------------------------------------


def test_r50_a_collection_is_a_negative_row_for_the_coming_hour(room, session, now, hourly):
    game, table, holds = hourly
    cashier = room.actor("cashier")
    row = act(session, cashier, now, fees.collect, holds[0].id, "cash", key="f1")
    assert (row.kind, row.amount, row.hold_id, row.player_id, row.table_id, row.game_id) == (
        "session_fee", -600, holds[0].id, holds[0].player_id, table.id, game.id)  # 8 seated: 6.00
    assert (row.period_start, row.period_end, row.staff_id) == (now, now + HOUR, cashier.staff_id)
    [event] = audits(session, "ledger.session_fee")
    assert event.detail["period_end"] == (now + HOUR).isoformat()
    assert event.detail["players_seated"] == 8


def test_r50_paying_ahead_extends_from_where_the_paid_hour_ends(room, session, now, hourly):
    holds = hourly[2]
    act(session, room.sup, now, fees.collect, holds[0].id)
    second = act(session, room.sup, now + 40 * MIN, fees.collect, holds[0].id)
    assert (second.period_start, second.period_end) == (now + HOUR, now + 2 * HOUR)


def test_r50_after_a_lapse_the_hour_starts_at_collection(room, session, now, hourly):
    room.room.time_collection = "own"  # each player's own hour (the clock's: test_time_collection)
    holds = hourly[2]
    act(session, room.sup, now, fees.collect, holds[0].id)
    late = act(session, room.sup, now + 90 * MIN, fees.collect, holds[0].id)
    assert (late.period_start, late.period_end) == (now + 90 * MIN, now + 150 * MIN)


def test_r50_a_reversed_fee_does_not_cover(room, session, now, hourly):
    holds = hourly[2]
    row = act(session, room.sup, now, fees.collect, holds[0].id)
    act(session, room.actor("admin"), now, ledger.reverse, row.id, "collected from the wrong player")
    again = act(session, room.sup, now + MIN, fees.collect, holds[0].id)
    assert again.period_start == now + MIN


def test_r50_the_fee_follows_the_players_seated(room, session, now):
    holds = seated_holds(room, session, now, free=7, fee_kind="hourly", time_fee=500,
                         time_fee_by_players=[{"players": 3, "fee": 300}])[2]  # 2 seated
    assert act(session, room.sup, now, fees.collect, holds[0].id).amount == -500


def test_r50_the_same_key_returns_the_first_row(room, session, now, hourly):
    holds = hourly[2]
    first = act(session, room.sup, now, fees.collect, holds[0].id, key="k")
    again = act(session, room.sup, now + MIN, fees.collect, holds[0].id, key="k")
    assert again.id == first.id and _rows(session, "session_fee") == 1
    refused(lambda: act(session, room.sup, now, fees.collect, holds[1].id, key="k"), "R52", error=Conflict)


def test_r50_refusals(room, session, now, hourly):
    holds = hourly[2]
    refused(lambda: act(session, room.actor("dealer"), now, fees.collect, holds[0].id), "R61",
            error=Forbidden)
    refused(lambda: act(session, room.sup, now, fees.collect, holds[0].id, "iou"), "R50", error=Invalid)
    refused(lambda: act(session, room.sup, now, fees.collect, holds[0].id, currency="EUR"), "R32",
            error=Invalid)
    assert _rows(session, "session_fee") == 0


def test_r50_a_game_without_a_time_fee_refuses(room, session, now):
    holds = seated_holds(room, session, now)[2]
    refused(lambda: act(session, room.sup, now, fees.collect, holds[0].id), "R50", error=Conflict)


def test_r50_who_is_due_longest_first(room, session, now, hourly):
    room.room.time_collection = "own"  # each player's own hour (the clock's: test_time_collection)
    holds = hourly[2]
    act(session, room.sup, now - 2 * HOUR, fees.collect, holds[0].id)  # ended an hour ago
    act(session, room.sup, now - 30 * MIN, fees.collect, holds[1].id)  # covered 30 more minutes
    rows = fees.fees_due(session, room.room.id, now)
    assert len(rows) == 8
    by_hold = {r.hold_id: r for r in rows}
    assert (by_hold[holds[0].id].due_seconds, by_hold[holds[0].id].paid_until) == (3600, now - HOUR)
    assert not by_hold[holds[1].id].is_due and by_hold[holds[1].id].paid_until == now + 30 * MIN
    assert rows[-1].hold_id == holds[1].id  # covered ones last
    due_rows = [r for r in rows if r.is_due]
    assert [r.due_seconds for r in due_rows] == sorted((r.due_seconds for r in due_rows), reverse=True)
    assert all(r.fee == 600 for r in rows)


def test_r50_who_is_due_reads_each_seats_fees_by_the_hold_index(room, session, now, hourly,
                                                                connection):
    """The ledger keeps every fee ever taken (R52): who is due looks up the live seats' rows,
    never groups the whole ledger."""
    act(session, room.sup, now, fees.collect, hourly[2][0].id)
    plans = query_plans(connection, "ledger_entries",
                        lambda: fees.fees_due(session, room.room.id, now))
    assert len(plans) == 1
    assert "SCAN ledger_entries" not in plans[0] and "ix_ledger_entries_hold" in plans[0], plans[0]


def test_r50_only_hourly_games_are_listed(room, session, now):
    seated_holds(room, session, now)
    assert fees.fees_due(session, room.room.id, now) == []


# ---- R51 ----------------------------------------------------------------------------------------


def test_r51_rake_is_a_negative_row_tied_to_the_hand(room, session, now, raked):
    game, table, _holds = raked
    dealer = room.actor("dealer")
    row = act(session, dealer, now, rake.record_rake, table.id, 1, pot=10000, flop=True, rake=500)
    assert (row.kind, row.amount, row.table_id, row.game_id, row.staff_id) == (
        "rake", -500, table.id, game.id, dealer.staff_id)
    assert row.hand_id is not None and row.method == "chips"
    [event] = audits(session, "ledger.rake")
    assert (event.detail["pot"], event.detail["flop"], event.detail["hand_id"]) == (10000, True, row.hand_id)


@pytest.mark.parametrize("pot,flop,amount,error", [
    (10000, True, 600, Conflict),   # over the cap
    (2990, True, 200, Conflict),    # 1.495: rounds down to 1.00
    (10000, False, 100, Conflict),  # no flop, no drop
    (10000, True, 0, Invalid),
])
def test_r51_refused_rake(room, session, now, raked, pot, flop, amount, error):
    table = raked[1]
    refused(lambda: act(session, room.actor("dealer"), now, rake.record_rake, table.id, 1, pot=pot,
                        flop=flop, rake=amount), "R51", error=error)
    assert _rows(session, "rake") == 0


def test_r51_no_flop_no_drop_is_a_game_policy(room, session, now):
    _game, table, _h = seated_holds(room, session, now, fee_kind="rake", rake_bp=1000,
                                    rake_cap=0, rake_no_flop_no_drop=False)
    act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    row = act(session, room.sup, now, rake.record_rake, table.id, 1, pot=1000, flop=False, rake=100)
    assert row.amount == -100


def test_r51_one_standing_rake_per_hand(room, session, now, raked):
    table = raked[1]
    first = act(session, room.sup, now, rake.record_rake, table.id, 1, pot=10000, flop=True, rake=400,
                key="r")
    assert act(session, room.sup, now, rake.record_rake, table.id, 1, pot=10000, flop=True, rake=400,
               key="r").id == first.id
    refused(lambda: act(session, room.sup, now, rake.record_rake, table.id, 1, pot=10000, flop=True,
                        rake=500), "R51", "already", error=Conflict)
    reversal = act(session, room.actor("admin"), now, ledger.reverse, first.id, "miscounted")
    assert reversal.hand_id == first.hand_id
    again = act(session, room.sup, now, rake.record_rake, table.id, 1, pot=10000, flop=True, rake=500)
    assert again.amount == -500


def test_r51_refusals_of_rights_games_and_hands(room, session, now, raked):
    table = raked[1]
    refused(lambda: act(session, room.actor("cashier"), now, rake.record_rake, table.id, 1, pot=10000,
                        flop=True, rake=100), "R61", error=Forbidden)
    refused(lambda: act(session, room.sup, now, rake.record_rake, table.id, 2, pot=10000, flop=True,
                        rake=100), None, error=NotFound)
    _g, hourly_table, _h = seated_holds(room, session, now, name="2", fee_kind="hourly",
                                           time_fee=500)
    act(session, room.sup, now, record_hand, hourly_table.id, hand_no=1, high_card_seat=1)
    refused(lambda: act(session, room.sup, now, rake.record_rake, hourly_table.id, 1, pot=10000,
                        flop=True, rake=100), "R51", "not raked", error=Conflict)
