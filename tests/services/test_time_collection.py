"""R50 time collection under the room's settings, and R51 split pots, on every configured
database: the period a collection pays, the new player's exemption, when a due player pays, and a
split pot raked once with each winner's share kept, or refused where the room does not rake one."""

from __future__ import annotations

from datetime import timedelta

import pytest

from roomops.hands.services import record_hand
from roomops.ledger import fees, rake
from roomops.lists import services as lists
from tests.services.helpers import audits, refused
from tests.services.ledger_helpers import seated_holds
from tests.units import act

MIN = timedelta(minutes=1)
HOUR = timedelta(hours=1)


def hourly(room, session, now, free=0):
    """An hourly game, 5.00 an hour, its table full (nine seated at ``now``)."""
    return seated_holds(room, session, now, free=free, fee_kind="hourly", time_fee=500)


def waiting(room, session, now, game, n):
    for player in room.players(now, n, "W"):
        act(session, room.sup, now, lists.join, player_id=player.id, game_id=game.id)


def test_r50_by_default_a_fee_pays_to_the_next_collection_time(room, session, now):
    _game, _table, holds = hourly(room, session, now)
    row = act(session, room.sup, now + 10 * MIN, fees.collect, holds[0].id)
    assert (row.period_start, row.period_end) == (now + 10 * MIN, now + HOUR)  # 20:10 to 21:00
    [event] = audits(session, "ledger.session_fee")
    assert (event.detail["collection"], event.detail["waiting"]) == ("clock", 0)
    again = act(session, room.sup, now + HOUR, fees.collect, holds[0].id)
    assert (again.period_start, again.period_end) == (now + HOUR, now + 2 * HOUR)


def test_r50_a_player_sitting_down_just_before_a_collection_is_not_charged_it_while_the_list_is_short(
        room, session, now):
    sat = now + 52 * MIN
    _game, _table, holds = hourly(room, session, sat)
    row = act(session, room.sup, sat, fees.collect, holds[0].id)
    assert (row.period_start, row.period_end) == (sat, now + 2 * HOUR)  # 20:52 to 22:00


def test_r50_with_the_list_long_the_new_player_pays_at_the_collection_too(room, session, now):
    sat = now + 52 * MIN
    game, table, holds = hourly(room, session, sat)
    waiting(room, session, sat, game, 2)
    done = act(session, room.sup, sat, fees.collect_table, table.id)
    assert {(r.period_start, r.period_end) for r in done.rows} == {(sat, now + HOUR)}
    assert done.rows[0].room_id == room.room.id and len(done.rows) == len(holds)


def test_r50_each_players_own_period_where_the_room_collects_so(room, session, now):
    room.room.time_collection = "own"
    _game, _table, holds = hourly(room, session, now)
    row = act(session, room.sup, now + 10 * MIN, fees.collect, holds[0].id)
    assert (row.period_start, row.period_end) == (now + 10 * MIN, now + 70 * MIN)


@pytest.mark.parametrize(("n", "when"), [(0, "by_big_blind"), (1, "now"), (2, "before_next_hand")])
def test_r50_the_due_list_says_when_each_player_pays_by_the_players_waiting(room, session, now, n,
                                                                            when):
    game, _table, _holds = hourly(room, session, now)
    waiting(room, session, now, game, n)
    due = fees.fees_due(session, room.room.id, now + MIN)
    assert {(f.waiting, f.pay_when) for f in due} == {(n, when)}


def test_r50_a_room_that_lets_nobody_play_on_unpaid_says_now(room, session, now):
    room.room.time_decline_until_bb = False
    hourly(room, session, now)
    assert {f.pay_when for f in fees.fees_due(session, room.room.id, now + MIN)} == {"now"}


# ---- R51: split pots ----------------------------------------------------------------------------


@pytest.fixture()
def raked(room, session, now):
    _game, table, _holds = seated_holds(room, session, now, fee_kind="rake", rake_bp=500, rake_cap=500)
    hand = act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    return table, hand


def test_r51_a_split_pot_is_raked_once_and_each_winner_gets_whole_chips(room, session, now, raked):
    table, hand = raked
    winners = sorted(hand.dealt_in)[:2]
    act(session, room.actor("dealer"), now, rake.record_rake, table.id, 1, pot=10_100, flop=True,
        rake=500, split=winners)
    [event] = audits(session, "ledger.rake")
    shares = event.detail["split"]
    assert sum(shares.values()) == 9_600 and sorted(shares.values()) == [4_800, 4_800]


def test_r51_the_odd_chip_goes_to_the_first_winner_clockwise_from_the_button(room, session, now,
                                                                           raked):
    table, hand = raked
    winners = sorted(hand.dealt_in)[:2]
    act(session, room.actor("dealer"), now, rake.record_rake, table.id, 1, pot=10_200, flop=True,
        rake=500, split=winners)  # 97.00 left in 1.00 chips: 49.00 and 48.00
    [event] = audits(session, "ledger.rake")
    first = next(s for s in sorted(hand.dealt_in, key=lambda s: (s <= hand.button, s))
                 if s in winners)
    assert event.detail["split"][str(first)] == 4_900


def test_r51_a_room_that_does_not_rake_split_pots_refuses_the_rake(room, session, now, raked):
    table, hand = raked
    room.room.rake_split_pots = False
    refused(lambda: act(session, room.actor("dealer"), now, rake.record_rake, table.id, 1,
                        pot=10_000, flop=True, rake=500, split=sorted(hand.dealt_in)[:2]),
            "R51", "split pot is not raked")


@pytest.mark.parametrize("seats", [[1], [1, 1], [1, 10]])
def test_r51_a_split_goes_to_two_seats_dealt_in(room, session, now, raked, seats):
    table, _hand = raked
    refused(lambda: act(session, room.actor("dealer"), now, rake.record_rake, table.id, 1,
                        pot=10_000, flop=True, rake=500, split=seats), "R51")
