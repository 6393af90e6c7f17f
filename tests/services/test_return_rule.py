"""R27 (with R3, R4, R21, R30, R60) on the services, on every configured database: a player who
left a game sits down in it again within the return window."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from roomops.errors import Conflict, Invalid
from roomops.lists import services as lists
from roomops.rooms.services import update_policy
from roomops.seating import closing, returns, seats
from tests.services.helpers import audits, live_offer, live_seat
from tests.units import act

MIN, MAX = 10000, 40000  # tests.factories.GAME_DEFAULTS
LEFT_WITH = 65000
BACK = timedelta(minutes=30)


@pytest.fixture()
def left(room, session, now):
    """Ann played table 1 and left with 650.00 (above the 400.00 maximum) at ``now``."""
    room.room.auto_offer = False
    game = room.game(now)
    table = room.table(now, game, "1")
    ann = room.player(now, "Ann")
    hold = act(session, room.sup, now - timedelta(hours=1), seats.seat_directly, table_id=table.id,
               seat_no=1, player_id=ann.id, buy_in=MIN)
    act(session, room.sup, now, seats.leave, hold.id, LEFT_WITH)
    return game, table, ann


def _sit(room, session, at, table, player, buy_in, **kw):
    return act(session, room.sup, at, seats.seat_directly, table_id=table.id, seat_no=2,
               player_id=player.id, buy_in=buy_in, **kw)


def test_r27_seat_directly_below_the_amount_is_refused_and_writes_nothing(room, session, now, left):
    _game, table, ann = left
    before = len(audits(session))
    with pytest.raises(Conflict) as err:
        _sit(room, session, now + BACK, table, ann, LEFT_WITH - 1)
    assert err.value.rule == "R27"
    for part in ("65000", "table 1", "20:00", "within 2 h"):
        assert part in err.value.message
    assert live_seat(session, ann.id) is None and len(audits(session)) == before


def test_r27_seat_directly_at_the_amount_above_the_table_max(room, session, now, left):
    _game, table, ann = left
    with pytest.raises(Invalid) as err:  # above the max only up to the amount left with
        _sit(room, session, now + BACK, table, ann, LEFT_WITH + 1)
    assert err.value.rule == "R30"
    hold = _sit(room, session, now + BACK, table, ann, LEFT_WITH)
    assert hold.buy_in == LEFT_WITH > MAX
    assert audits(session, "seat.taken")[-1].detail["buy_in"] == LEFT_WITH


def test_r27_left_below_the_max_raises_only_the_minimum(room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    bob = room.player(now, "Bob")
    hold = act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=1,
               player_id=bob.id, buy_in=MIN)
    act(session, room.sup, now + BACK, seats.leave, hold.id, 25000)
    with pytest.raises(Conflict):
        _sit(room, session, now + 2 * BACK, table, bob, 24999)
    with pytest.raises(Invalid) as err:
        _sit(room, session, now + 2 * BACK, table, bob, MAX + 1)
    assert err.value.rule == "R30"
    assert _sit(room, session, now + 2 * BACK, table, bob, MAX).buy_in == MAX


def test_r27_claim_below_the_amount_is_refused_and_the_offer_stays(room, session, now, left):
    game, _table, ann = left
    room.room.auto_offer = True
    act(session, room.sup, now + BACK, lists.join, player_id=ann.id, game_id=game.id)
    offer = live_offer(session, ann.id)
    before = len(audits(session))
    with pytest.raises(Conflict) as err:
        act(session, room.sup, now + BACK, seats.claim, offer.id, MAX)
    assert err.value.rule == "R27"
    assert live_offer(session, ann.id).id == offer.id and live_seat(session, ann.id) is None
    assert len(audits(session)) == before
    with pytest.raises(Invalid):
        act(session, room.sup, now + BACK, seats.claim, offer.id, LEFT_WITH + 1)
    assert act(session, room.sup, now + BACK, seats.claim, offer.id, LEFT_WITH).buy_in == LEFT_WITH


def test_r27_override_with_a_reason_applies_r30_and_is_audited(room, session, now, left):
    _game, table, ann = left
    with pytest.raises(Invalid) as err:  # with an override, above the max is R30 again
        _sit(room, session, now + BACK, table, ann, LEFT_WITH, override_reason="cashed out")
    assert err.value.rule == "R30"
    hold = _sit(room, session, now + BACK, table, ann, MIN, override_reason="  paid a marker  ")
    assert hold.buy_in == MIN
    (row,) = audits(session, "seat.return_rule_overridden")
    assert row.entity_id == hold.id and row.reason == "paid a marker" and row.actor == room.sup.label
    assert (row.detail["required"], row.detail["buy_in"], row.detail["rule"]) == (LEFT_WITH, MIN, "R27")


def test_r27_override_on_claim_is_audited(room, session, now, left):
    game, _table, ann = left
    room.room.auto_offer = True
    act(session, room.sup, now + BACK, lists.join, player_id=ann.id, game_id=game.id)
    offer = live_offer(session, ann.id)
    act(session, room.sup, now + BACK, seats.claim, offer.id, MIN, "supervisor agreed: lost at PLO")
    (row,) = audits(session, "seat.return_rule_overridden")
    assert row.reason == "supervisor agreed: lost at PLO" and row.detail["required"] == LEFT_WITH


def test_r27_override_without_a_reason_is_refused(room, session, now, left):
    _game, table, ann = left
    with pytest.raises(Invalid) as err:
        _sit(room, session, now + BACK, table, ann, MIN, override_reason="   ")
    assert err.value.rule == "R27"
    assert live_seat(session, ann.id) is None


def test_r27_no_override_row_when_nothing_was_overridden(room, session, now, left):
    _game, table, ann = left
    _sit(room, session, now + BACK, table, ann, LEFT_WITH, override_reason=None)
    assert audits(session, "seat.return_rule_overridden") == []


def test_r27_window_ends_to_the_second(room, session, now, left):
    game, table, ann = left
    end = now + timedelta(minutes=120)
    assert returns.requirement(session, room.room, end - timedelta(seconds=1), ann.id, game)
    assert returns.requirement(session, room.room, end, ann.id, game) is None
    assert _sit(room, session, end, table, ann, MIN).buy_in == MIN


def test_r4_a_reopened_game_at_the_same_stakes_is_the_same_game(room, session, now, left):
    game, table, ann = left
    act(session, room.sup, now + timedelta(minutes=1), closing.close_table, table.id)
    act(session, room.sup, now + timedelta(minutes=2), closing.close_game, game.id)
    again = room.game(now + timedelta(minutes=3))
    other = room.game(now + timedelta(minutes=3), variant="PL Omaha")
    t2 = room.table(now + timedelta(minutes=4), again, "2")
    t3 = room.table(now + timedelta(minutes=4), other, "3")
    assert returns.requirement(session, room.room, now + BACK, ann.id, other) is None
    with pytest.raises(Conflict):
        _sit(room, session, now + BACK, t2, ann, MIN)
    assert _sit(room, session, now + BACK, t3, ann, MIN).buy_in == MIN  # another game


def test_r3_r27_gaming_day_policy_is_audited_and_applies_all_day(room, session, now, left):
    game, _table, ann = left
    act(session, room.sup, now, update_policy, return_window="gaming_day")
    (row,) = audits(session, "policy.changed")
    assert row.detail["after"] == {"return_window": "gaming_day"}
    later = now + timedelta(hours=9, minutes=59)  # 05:59 UTC: the gaming day runs to 06:00
    assert returns.requirement(session, room.room, later, ann.id, game).window == "the same gaming day"
    assert returns.requirement(session, room.room, now + timedelta(hours=10), ann.id, game) is None


@pytest.mark.parametrize("sql", [
    "UPDATE rooms SET return_window_minutes = 0", "UPDATE rooms SET return_window_minutes = 1441",
    "UPDATE rooms SET return_window = 'week'",
])
def test_r3_return_window_policy_is_checked_by_the_database(room, session, sql):
    session.flush()
    with pytest.raises(IntegrityError), session.begin_nested():
        session.execute(text(sql))
