"""R50 as rooms collect it, on the services and on every configured database: half-hourly time
fees, collecting from a whole table in one go, the drop per hand, the methods a fee is taken in,
the database's own refusals and the day's report."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import DBAPIError

from roomops.errors import Conflict, Forbidden, Invalid, NotFound
from roomops.hands.services import record_hand
from roomops.ledger import dayclose, drops, fees
from roomops.ledger import services as ledger
from roomops.ledger.models import LedgerEntry
from tests.services.helpers import audits, refused
from tests.services.ledger_helpers import seated_holds
from tests.units import act

MIN = timedelta(minutes=1)
HALF = 30 * MIN
SCHEDULE = [{"players": 2, "fee": 200}, {"players": 7, "fee": 400}]


def _rows(session, kind: str) -> list[LedgerEntry]:
    session.flush()
    return list(session.scalars(select(LedgerEntry).where(LedgerEntry.kind == kind)
                                .order_by(LedgerEntry.id)))


@pytest.fixture()
def halfhour(room, session, now):
    """A half-hourly game, 3.00 a half hour, 2.00 from 2 players and 4.00 from 7; 8 seated."""
    return seated_holds(room, session, now, fee_kind="halfhour", time_fee=300,
                        time_fee_by_players=SCHEDULE)


@pytest.fixture()
def dropped(room, session, now):
    """A drop game, 3.00 a hand, 5.00 from 7 players dealt in; hand 1 dealt to 8 players."""
    game, table, holds = seated_holds(room, session, now, fee_kind="drop", drop_fee=300,
                                      drop_by_players=[{"players": 7, "fee": 500}])
    act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    return game, table, holds


# ---- half-hourly games ----------------------------------------------------------------------------


def test_r50_a_half_hourly_fee_pays_the_coming_half_hour(room, session, now, halfhour):
    holds = halfhour[2]
    row = act(session, room.actor("cashier"), now, fees.collect, holds[0].id, "chips")
    assert (row.amount, row.method, row.period_start, row.period_end) == (-400, "chips", now,
                                                                          now + HALF)
    ahead = act(session, room.sup, now + 10 * MIN, fees.collect, holds[0].id)
    assert (ahead.period_start, ahead.period_end) == (now + HALF, now + 2 * HALF)


def test_r50_who_is_due_in_a_half_hourly_game(room, session, now, halfhour):
    room.room.time_collection = "own"  # each player's own half hour (the clock's: test_time_collection)
    holds = halfhour[2]
    act(session, room.sup, now - 40 * MIN, fees.collect, holds[0].id)  # ended 10 minutes ago
    rows = {r.hold_id: r for r in fees.fees_due(session, room.room.id, now)}
    assert len(rows) == 8 and {r.fee_kind for r in rows.values()} == {"halfhour"}
    assert (rows[holds[0].id].due_since, rows[holds[0].id].due_seconds) == (now - 10 * MIN, 600)
    assert rows[holds[0].id].fee == 400


@pytest.mark.parametrize("method", ["card", "cheque", "credit"])
def test_r50_a_session_fee_is_paid_in_chips_or_cash_only(room, session, now, halfhour, method):
    refused(lambda: act(session, room.sup, now, fees.collect, halfhour[2][0].id, method), "R50",
            error=Invalid)
    refused(lambda: act(session, room.sup, now, fees.collect_table, halfhour[1].id, method), "R50",
            error=Invalid)
    assert _rows(session, "session_fee") == []


# ---- collecting from the whole table ----------------------------------------------------------


def test_r50_the_whole_table_pays_who_is_due_and_skips_who_is_covered(room, session, now,
                                                                      halfhour):
    game, table, holds = halfhour
    act(session, room.sup, now - 10 * MIN, fees.collect, holds[0].id)  # covered for 20 more minutes
    act(session, room.sup, now - 50 * MIN, fees.collect, holds[1].id)  # due for 20 minutes
    cashier = room.actor("cashier")
    done = act(session, cashier, now, fees.collect_table, table.id, "chips")
    assert (done.table_id, len(done.rows), done.skipped) == (table.id, 7, 1)
    assert {r.hold_id for r in done.rows} == {h.id for h in holds[1:]}
    assert all((r.amount, r.method, r.period_start, r.period_end, r.staff_id, r.game_id) ==
               (-400, "chips", now, now + HALF, cashier.staff_id, game.id) for r in done.rows)
    assert len(audits(session, "ledger.session_fee")) == 9  # one per row, the two singles too
    assert {a.detail["whole_table"] for a in audits(session, "ledger.session_fee")[2:]} == {True}
    assert fees.fees_due(session, room.room.id, now)[0].is_due is False  # nobody due now


def test_r50_nobody_due_at_the_table_is_refused_with_nothing_written(room, session, now,
                                                                     halfhour):
    table = halfhour[1]
    act(session, room.sup, now, fees.collect_table, table.id)
    before = len(_rows(session, "session_fee"))
    refused(lambda: act(session, room.sup, now + 20 * MIN, fees.collect_table, table.id), "R50",
            "covered", error=Conflict)
    assert len(_rows(session, "session_fee")) == before == 8
    again = act(session, room.sup, now + HALF, fees.collect_table, table.id)  # their half hour ended
    assert len(again.rows) == 8 and again.rows[0].period_start == now + HALF


def test_r50_the_whole_table_with_a_key_collects_once(room, session, now, halfhour):
    table = halfhour[1]
    first = act(session, room.sup, now, fees.collect_table, table.id, key="t1")
    again = act(session, room.sup, now + MIN, fees.collect_table, table.id, key="t1")
    assert [r.id for r in again.rows] == [r.id for r in first.rows] and again.skipped == 0
    assert len(_rows(session, "session_fee")) == 8


def test_r50_whole_table_refusals(room, session, now, halfhour):
    table = halfhour[1]
    refused(lambda: act(session, room.actor("dealer"), now, fees.collect_table, table.id), "R61",
            error=Forbidden)
    refused(lambda: act(session, room.sup, now, fees.collect_table, 10**6), "R50", error=NotFound)
    refused(lambda: act(session, room.sup, now, fees.collect_table, table.id, "table"), "R32",
            error=Invalid)
    raked = seated_holds(room, session, now, name="2", fee_kind="rake", rake_bp=500)[1]
    refused(lambda: act(session, room.sup, now, fees.collect_table, raked.id), "R50", error=Conflict)
    empty = room.table(now, halfhour[0], "3")
    refused(lambda: act(session, room.sup, now, fees.collect_table, empty.id), "R50", "nobody",
            error=Conflict)
    assert _rows(session, "session_fee") == []


# ---- the drop ---------------------------------------------------------------------------------


def test_r50_the_drop_is_taken_in_chips_from_the_hand(room, session, now, dropped):
    game, table, _holds = dropped
    dealer = room.actor("dealer")
    row = act(session, dealer, now, drops.record_drop, table.id, 1)
    assert (row.kind, row.amount, row.method, row.table_id, row.game_id, row.staff_id) == (
        "drop", -500, "chips", table.id, game.id, dealer.staff_id)  # 8 dealt in: 5.00
    assert row.hand_id is not None and row.hold_id is None
    [event] = audits(session, "ledger.drop")
    assert (event.detail["hand_no"], event.detail["players"]) == (1, 8)


def test_r50_a_hand_is_dropped_once_until_its_drop_is_reversed(room, session, now, dropped):
    table = dropped[1]
    first = act(session, room.sup, now, drops.record_drop, table.id, 1, key="d1")
    assert act(session, room.sup, now, drops.record_drop, table.id, 1, key="d1").id == first.id
    refused(lambda: act(session, room.sup, now, drops.record_drop, table.id, 1), "R50", "already",
            error=Conflict)
    reversal = act(session, room.actor("admin"), now, ledger.reverse, first.id, "wrong table")
    assert (reversal.hand_id, reversal.method, reversal.amount) == (first.hand_id, "chips", 500)
    again = act(session, room.sup, now, drops.record_drop, table.id, 1)
    assert again.amount == -500 and len(_rows(session, "drop")) == 2


def test_r50_drop_refusals(room, session, now, dropped):
    table = dropped[1]
    refused(lambda: act(session, room.actor("cashier"), now, drops.record_drop, table.id, 1), "R61",
            error=Forbidden)
    refused(lambda: act(session, room.sup, now, drops.record_drop, table.id, 2), None, error=NotFound)
    refused(lambda: act(session, room.sup, now, drops.record_drop, table.id, 1, method="cash"), "R50",
            error=Invalid)
    refused(lambda: act(session, room.sup, now, drops.record_drop, table.id, 1, amount=300), "R50",
            error=Conflict)  # the screen showed 3.00; 8 dealt in take 5.00
    refused(lambda: act(session, room.sup, now, drops.record_drop, table.id, 1, players=7), "R50",
            error=Conflict)  # the hand was dealt to 8
    hourly = seated_holds(room, session, now, name="2", fee_kind="hourly", time_fee=500)[1]
    act(session, room.sup, now, record_hand, hourly.id, hand_no=1, high_card_seat=1)
    refused(lambda: act(session, room.sup, now, drops.record_drop, hourly.id, 1), "R50", "no drop",
            error=Conflict)
    assert _rows(session, "drop") == []


def test_r50_what_the_dealer_is_offered(room, session, now, dropped):
    table = dropped[1]
    hand = _hand(session, table.id, 1)
    offer = drops.drop_due(session, room.actor("dealer"), table.id, hand)
    assert (offer.hand_no, offer.players, offer.amount, offer.recorded) == (1, 8, 500, None)
    row = act(session, room.sup, now, drops.record_drop, table.id, 1)
    assert drops.drop_due(session, room.actor("dealer"), table.id, hand).recorded.id == row.id


def _hand(session, table_id, hand_no):
    from roomops.hands.models import Hand

    return session.scalars(select(Hand).where(Hand.table_id == table_id,
                                              Hand.hand_no == hand_no)).one()


# ---- the database refuses what the services refuse -------------------------------------------


def _raw_drop(session, row: LedgerEntry, **changes) -> None:
    values = {"room_id": row.room_id, "gaming_day": row.gaming_day, "at": row.at, "kind": "drop",
              "amount": row.amount, "method": row.method, "game_id": row.game_id,
              "table_id": row.table_id, "staff_id": row.staff_id, "hand_id": row.hand_id,
              "shift_no": row.shift_no, **changes}
    session.execute(text(f"INSERT INTO ledger_entries ({', '.join(values)}, short_buy_in) VALUES "
                         f"({', '.join(':' + k for k in values)}, false)"), values)


@pytest.mark.parametrize("other_hand,changes,message", [
    # a second standing drop of the hand: the trigger
    (False, {}, "drop of the hand already recorded"),
    (True, {"method": "cash"}, "ck_ledger_entries_method"),  # a drop is taken in chips
    (True, {"hand_id": None}, "ck_ledger_entries_hand"),  # a drop names its hand
    (True, {"amount": 500}, "ck_ledger_entries_amount_sign"),  # chips out of play
])
def test_r50_the_database_refuses_a_wrong_drop(room, session, now, dropped, other_hand, changes,
                                               message):
    table = dropped[1]
    row = act(session, room.sup, now, drops.record_drop, table.id, 1)
    if other_hand:  # a hand not dropped yet, so that only the row's own checks answer
        act(session, room.sup, now, record_hand, table.id, hand_no=2)
        changes = {"hand_id": _hand(session, table.id, 2).id} | changes
    session.flush()
    with pytest.raises(DBAPIError, match=message), session.begin_nested():
        _raw_drop(session, row, **changes)


def test_r50_the_database_takes_a_drop_again_once_the_first_is_reversed(room, session, now,
                                                                       dropped):
    row = act(session, room.sup, now, drops.record_drop, dropped[1].id, 1)
    act(session, room.actor("admin"), now, ledger.reverse, row.id, "wrong hand")
    session.flush()
    _raw_drop(session, row)
    assert session.scalar(select(func.count()).select_from(LedgerEntry).where(
        LedgerEntry.kind == "drop")) == 2


# ---- the day's report --------------------------------------------------------------------------


def test_r50_r52_the_days_report_shows_drops_as_their_own_kind(room, session, now, dropped):
    table = dropped[1]
    row = act(session, room.sup, now, drops.record_drop, table.id, 1)
    act(session, room.sup, now, record_hand, table.id, hand_no=2)
    act(session, room.sup, now, drops.record_drop, table.id, 2)
    report = dayclose.report(session, room.room, row.gaming_day, None)
    kinds = {line.key: (line.entries, line.amount) for line in report.by_kind}
    assert kinds["drop"] == (2, -1000)
    assert report.reconciled and report.total.amount == sum(line.amount for line in report.by_kind)
