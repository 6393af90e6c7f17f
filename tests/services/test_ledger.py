"""R28, R30, R32, R52: buy-ins, add-ons, cash-outs and reversals on the services, on every
configured database."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import func, select

from roomops.errors import Conflict, Forbidden, Invalid, NotFound, RoomopsError
from roomops.ledger import cash_outs
from roomops.ledger import services as ledger
from roomops.ledger.models import LedgerEntry
from roomops.seating import seats
from tests.factories import Room_
from tests.services.helpers import audits, refused
from tests.services.ledger_helpers import seated_holds
from tests.units import act


@pytest.fixture()
def holds(room, session, now):
    return seated_holds(room, session, now)[2]


def _rows(session) -> int:
    return session.scalar(select(func.count()).select_from(LedgerEntry))


def test_buy_in_posts_a_positive_row_naming_seat_table_game_and_staff(room, session, now, holds):
    cashier = room.actor("cashier")
    row = act(session, cashier, now, ledger.buy_in, holds[0].id, 15000, "cash", "GBP")
    table_game = (holds[0].table_id, row.game_id)
    assert (row.kind, row.amount, row.method, row.player_id, row.hold_id) == (
        "buy_in", 15000, "cash", holds[0].player_id, holds[0].id)
    assert table_game == (row.table_id, row.game_id) and row.staff_id == cashier.staff_id
    assert row.gaming_day == date(2026, 11, 21)  # R2: 20:00 UTC in a UTC room with a 06:00 start
    [event] = audits(session, "ledger.buy_in")
    assert (event.entity_id, event.detail["amount"]) == (row.id, 15000)


@pytest.mark.parametrize("amount,rule", [(9999, "R30"), (40001, "R30"), (0, "R30"), (-5, "R30"),
                                         (100.5, "R30"), (10000.0, "R30"), (True, "R30")])
def test_buy_in_amount_is_a_positive_integer_within_the_range(room, session, now, holds, amount, rule):
    refused(lambda: act(session, room.sup, now, ledger.buy_in, holds[0].id, amount), rule, error=Invalid)
    assert _rows(session) == 0


def test_one_buy_in_per_seat_and_more_chips_are_an_add_on(room, session, now, holds):
    first = act(session, room.sup, now, ledger.buy_in, holds[0].id, 10000)
    refused(lambda: act(session, room.sup, now, ledger.buy_in, holds[0].id, 10000), "R30", error=Conflict)
    act(session, room.sup, now, ledger.add_on, holds[0].id, 50000)  # no maximum on top-ups
    act(session, room.actor("admin"), now, ledger.reverse, first.id, "wrong seat")
    act(session, room.sup, now, ledger.buy_in, holds[0].id, 20000)  # the reversed one no longer counts


def test_r30_a_rebuy_is_the_minimum_unless_stated_and_short_only_once_after_an_all_in_loss(
        room, session, now, holds):
    assert act(session, room.sup, now, ledger.rebuy, holds[0].id).amount == 10000  # no amount: minimum
    refused(lambda: act(session, room.sup, now, ledger.rebuy, holds[0].id, 4000), "R30", "all-in",
            error=Conflict)
    refused(lambda: act(session, room.sup, now, ledger.rebuy, holds[0].id, 40001), "R30", error=Invalid)
    short = act(session, room.sup, now, ledger.rebuy, holds[0].id, 4000, after_all_in=True)
    assert (short.kind, short.amount, short.short_buy_in) == ("add_on", 4000, True)
    refused(lambda: act(session, room.sup, now, ledger.rebuy, holds[0].id, 4000, after_all_in=True),
            "R30", "one short buy-in", error=Conflict)
    assert not act(session, room.sup, now, ledger.rebuy, holds[0].id, 10000, after_all_in=True).short_buy_in
    act(session, room.actor("admin"), now, ledger.reverse, short.id, "keyed on the wrong seat")  # not used
    assert act(session, room.sup, now, ledger.rebuy, holds[0].id, 3000, after_all_in=True).short_buy_in
    assert act(session, room.sup, now, ledger.rebuy, holds[1].id, 2000, after_all_in=True).short_buy_in


def test_r30_the_short_buy_in_is_once_per_session_across_a_table_change(room, session, now):
    from roomops.seating import moves

    game, _table, holds = seated_holds(room, session, now)
    act(session, room.sup, now, ledger.rebuy, holds[0].id, 4000, after_all_in=True)
    other = room.table(now, game, "2")
    moved = act(session, room.sup, now, moves.move_player, holds[0].id, table_id=other.id, seat_no=1,
                stack=4000)
    refused(lambda: act(session, room.sup, now, ledger.rebuy, moved.id, 4000, after_all_in=True),
            "R30", "one short buy-in", error=Conflict)


@pytest.mark.parametrize("amount", [-100, 0, 1.5])
def test_an_add_on_never_removes_chips(room, session, now, holds, amount):
    refused(lambda: act(session, room.sup, now, ledger.add_on, holds[0].id, amount), "R28", error=Invalid)


def test_foreign_currency_does_not_play(room, session, now, holds):
    refused(lambda: act(session, room.sup, now, ledger.buy_in, holds[0].id, 10000, "cash", "EUR"), "R32",
             error=Invalid)
    act(session, room.sup, now, ledger.buy_in, holds[0].id, 10000, "cash", "gbp")
    assert _rows(session) == 1


def test_cash_out_only_after_leaving_the_seat(room, session, now, holds):
    refused(lambda: act(session, room.sup, now, cash_outs.cash_out, holds[0].id, 5000), "R28", error=Conflict)
    act(session, room.sup, now, seats.leave, holds[0].id, 5000)
    row = act(session, room.actor("cashier"), now, cash_outs.cash_out, holds[0].id, 5000, "cash")
    assert (row.kind, row.amount) == ("cash_out", -5000)
    refused(lambda: act(session, room.sup, now, ledger.add_on, holds[0].id, 100), "R28", error=Conflict)


def test_a_reversal_is_a_new_row_with_the_opposite_amount_who_and_why(room, session, now, holds):
    row = act(session, room.actor("cashier"), now, ledger.buy_in, holds[0].id, 12000)
    rev = act(session, room.sup, now + timedelta(minutes=5), ledger.reverse, row.id, " keyed 120 not 102 ")
    assert (rev.kind, rev.amount, rev.reverses_id, rev.reason) == ("reversal", -12000, row.id,
                                                                    "keyed 120 not 102")
    assert (rev.hold_id, rev.table_id, rev.game_id, rev.staff_id) == (
        row.hold_id, row.table_id, row.game_id, room.sup.staff_id)
    assert session.scalar(select(func.sum(LedgerEntry.amount))) == 0
    refused(lambda: act(session, room.sup, now, ledger.reverse, row.id, "again"), "R52", error=Conflict)
    refused(lambda: act(session, room.sup, now, ledger.reverse, rev.id, "undo"), "R52", error=Conflict)
    refused(lambda: act(session, room.sup, now, ledger.reverse, row.id, "  "), "R52", error=Invalid)
    assert len(audits(session, "ledger.reversal")) == 1


def test_rights_r61(room, session, now, holds):
    row = act(session, room.actor("cashier"), now, ledger.buy_in, holds[0].id, 12000)
    refused(lambda: act(session, room.actor("cashier"), now, ledger.reverse, row.id, "x"), "R61",
            error=Forbidden)


def test_another_rooms_seat_or_row_is_unknown(room, session, now, holds):
    other = Room_(session, now, slug="other")
    row = act(session, room.sup, now, ledger.buy_in, holds[0].id, 12000)
    with pytest.raises(NotFound):
        act(session, other.sup, now, ledger.buy_in, holds[1].id, 12000)
    with pytest.raises(NotFound):
        act(session, other.sup, now, ledger.reverse, row.id, "x")


def test_a_retry_with_the_same_key_returns_the_first_row(room, session, now, holds):
    first = act(session, room.sup, now, ledger.buy_in, holds[0].id, 12000, key="k-1")
    again = act(session, room.sup, now + timedelta(seconds=3), ledger.buy_in, holds[0].id, 12000, key="k-1")
    assert again.id == first.id and _rows(session) == 1 and len(audits(session, "ledger.buy_in")) == 1
    err = refused(lambda: act(session, room.sup, now, ledger.buy_in, holds[0].id, 13000, key="k-1"), "R52",
                   error=Conflict)
    assert "different request" in err.message
    # a retried reversal, too
    rev = act(session, room.actor("admin"), now, ledger.reverse, first.id, "typo", key="k-2")
    assert act(session, room.actor("admin"), now, ledger.reverse, first.id, "typo", key="k-2").id == rev.id
    assert _rows(session) == 2


def test_keys_are_per_room(room, session, now, holds):
    other = Room_(session, now, slug="other")
    other_holds = seated_holds(other, session, now)[2]
    a = act(session, room.sup, now, ledger.buy_in, holds[0].id, 12000, key="same")
    b = act(session, other.sup, now, ledger.buy_in, other_holds[0].id, 12000, key="same")
    assert a.id != b.id


def test_every_refusal_names_a_rule(room, session, now, holds):
    calls = [lambda: act(session, room.sup, now, ledger.buy_in, holds[0].id, 10000, "bitcoin"),
             lambda: act(session, room.sup, now, cash_outs.cash_out, holds[0].id, -1)]
    for call in calls:
        with pytest.raises(RoomopsError) as err:
            call()
        assert err.value.rule
