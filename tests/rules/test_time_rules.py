"""R50 time collection, the pure rules (roomops.ledger.time_rules): the collection times, the
period a fee pays, the new player's exemption and when a due player pays."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roomops.ledger.time_rules import TimeRules, collection_before, exempt, paid_period, pay_when

MIN = timedelta(minutes=1)
HOUR = timedelta(hours=1)
HALF = timedelta(minutes=30)
DAY = datetime(2026, 11, 21, 6, 0, tzinfo=UTC)  # the gaming day starts at 06:00
CLOCK = TimeRules()
OWN = TimeRules(clock=False)


def at(hh: int, mm: int = 0) -> datetime:
    return DAY.replace(hour=hh, minute=mm)


def test_r50_collection_times_fall_every_period_from_the_days_start():
    assert collection_before(at(20, 10), DAY, HOUR) == at(20)
    assert collection_before(at(20), DAY, HOUR) == at(20)
    assert collection_before(at(20, 40), DAY, HALF) == at(20, 30)
    assert collection_before(at(20, 10), DAY.replace(minute=15), HALF) == at(19, 45)


def test_r50_at_a_collection_time_the_fee_pays_the_coming_period():
    assert paid_period(at(20), at(18), at(20), HOUR, DAY, CLOCK, 0) == (at(20), at(21))


def test_r50_a_player_sitting_down_between_collections_pays_to_the_next_one():
    assert paid_period(None, at(20, 30), at(20, 30), HOUR, DAY, CLOCK, 0) == (at(20, 30), at(21))


def test_r50_one_still_covered_pays_the_period_after_their_paid_one():
    assert paid_period(at(21), at(18), at(20, 55), HOUR, DAY, CLOCK, 0) == (at(21), at(22))


def test_r50_a_late_payer_pays_the_period_they_are_playing_in():
    assert paid_period(at(20), at(18), at(20, 40), HOUR, DAY, CLOCK, 5) == (at(20, 40), at(21))


def test_r50_a_new_player_just_before_a_collection_skips_it_while_the_list_is_short():
    assert paid_period(None, at(20, 52), at(20, 52), HOUR, DAY, CLOCK, 1) == (at(20, 52), at(22))
    assert exempt(at(20, 50), at(21), CLOCK, 0)


def test_r50_with_the_list_long_the_new_player_pays_again_at_the_collection():
    assert paid_period(None, at(20, 52), at(20, 52), HOUR, DAY, CLOCK, 2) == (at(20, 52), at(21))


def test_r50_the_exemption_is_for_new_players_only_and_can_be_off():
    assert paid_period(at(20, 55), at(19), at(20, 55), HOUR, DAY, CLOCK, 0) == (at(20, 55), at(21))
    off = TimeRules(new_player_minutes=0)
    assert paid_period(None, at(20, 55), at(20, 55), HOUR, DAY, off, 0) == (at(20, 55), at(21))
    assert not exempt(at(20, 49), at(21), CLOCK, 0)  # eleven minutes before: not just before


def test_r50_each_players_own_period_runs_from_when_they_pay():
    assert paid_period(None, at(20, 52), at(20, 52), HOUR, DAY, OWN, 0) == (at(20, 52), at(21, 52))
    assert paid_period(at(21, 10), at(19), at(21), HOUR, DAY, OWN, 0) == (at(21, 10), at(22, 10))


@pytest.mark.parametrize(("waiting", "rules", "when"), [
    (0, CLOCK, "by_big_blind"),
    (1, CLOCK, "now"),
    (2, CLOCK, "before_next_hand"),
    (9, CLOCK, "before_next_hand"),
    (0, TimeRules(decline_until_bb=False), "now"),
    (1, TimeRules(all_pay_waiting=1), "before_next_hand"),
])
def test_r50_when_a_due_player_pays(waiting, rules, when):
    assert pay_when(waiting, rules) == when


@given(paid=st.one_of(st.none(), st.integers(0, 24 * 60)), sat=st.integers(0, 24 * 60),
       later=st.integers(0, 24 * 60), waiting=st.integers(0, 5), half=st.booleans())
def test_r50_a_clock_period_starts_now_or_where_the_paid_one_ends_and_ends_on_a_collection(
        paid, sat, later, waiting, half):
    length = HALF if half else HOUR
    seated = DAY + sat * MIN
    now = seated + later * MIN
    until = None if paid is None else DAY + paid * MIN
    start, end = paid_period(until, seated, now, length, DAY, CLOCK, waiting)
    assert start == (until if until is not None and until > now else now)
    assert start < end <= start + 2 * length
    assert collection_before(end, DAY, length) == end
