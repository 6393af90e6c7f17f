"""Issue 21, R10, R13, R14: the wait model (roomops.waits.model), no database: what it learns by hour
of the week, its fall-backs, and how its estimate moves with the line."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from roomops.waits.model import (
    DEFAULT_LEAVE,
    HOURS,
    PSEUDO_SEAT_HOURS,
    SIT_MINUTES,
    Estimate,
    Prior,
    Rates,
    Tally,
    estimate,
    fit,
    hour_of_week,
    room_prior,
)

UTC_ZONE, LONDON = ZoneInfo("UTC"), ZoneInfo("Europe/London")
MONDAY = datetime(2026, 1, 5, tzinfo=UTC)
H = timedelta(hours=1)


def flat(rate: float, show: float = 1.0) -> Rates:
    """``rate`` seats an hour at a table of nine, all from players leaving."""
    return Rates((rate / 9,) * HOURS, (0.0,) * HOURS, show)


def test_hour_of_week_is_in_the_rooms_time_zone():
    assert hour_of_week(MONDAY, UTC_ZONE) == 0
    assert hour_of_week(MONDAY - timedelta(minutes=1), UTC_ZONE) == HOURS - 1  # Sunday 23:59
    summer = datetime(2026, 7, 6, 0, 30, tzinfo=UTC)  # Monday 01:30 in London (BST)
    assert hour_of_week(summer, LONDON) == 1


def test_hours_are_split_at_the_hours_and_whole_weeks_added_at_once():
    tally = Tally()
    tally.add_tables(MONDAY + timedelta(minutes=30), MONDAY + 2 * H, UTC_ZONE, tables=2)
    assert tally.table_hours[:3] == [1.0, 2.0, 0.0]
    long = Tally()
    long.add_seated(MONDAY, MONDAY + timedelta(weeks=3, hours=1), UTC_ZONE)
    assert long.seat_hours[0] == 4.0 and long.seat_hours[1] == 3.0 and sum(long.seat_hours) == 3 * HOURS + 1


def test_seated_hours_rebuilt_from_who_sat_down_and_left():
    tally = Tally()
    tally.add_seated_counts(MONDAY, MONDAY + 3 * H, UTC_ZONE, 5, {MONDAY: 4, MONDAY + H: -2})
    assert tally.seat_hours[:4] == [5 + 2, 9 - 1, 7, 0]


def busy_mondays(weeks: int = 4) -> Tally:
    """A table of eight players all week; Monday 20:00 four left, Monday 10:00 one."""
    tally = Tally()
    for week in range(weeks):
        start = MONDAY + timedelta(weeks=week)
        tally.add_seated(start, start + timedelta(days=7), UTC_ZONE, 8)
        tally.add_tables(start, start + timedelta(days=7), UTC_ZONE)
        tally.add_left(start + 20 * H, UTC_ZONE, 4)
        tally.add_left(start + 10 * H, UTC_ZONE, 1)
    return tally


def test_rates_by_hour_of_week_follow_the_history():
    tally = busy_mondays()
    rates = fit(tally)
    assert rates.leave[20] > 3 * rates.leave[10]
    # 16 left in 32 player-hours, shrunk towards 20:00 over the whole week, that towards the
    # game's rate, that towards the default
    pseudo = PSEUDO_SEAT_HOURS
    game = (20 + pseudo * DEFAULT_LEAVE) / (8 * 4 * HOURS + pseudo)
    at_20 = (16 + pseudo * game) / (8 * 4 * 7 + pseudo)
    assert rates.leave[20] == pytest.approx((16 + pseudo * at_20) / (32 + pseudo))
    assert rates.leave[44] < rates.leave[20] < 0.5  # Tuesday 20:00 saw nobody leave


def test_a_quiet_hour_falls_back_to_its_hour_of_the_day_then_the_game_then_the_room():
    tally = Tally()
    for day in range(1, 7):  # Tuesday to Sunday at 20:00 run busy; Monday 20:00 never ran
        at = MONDAY + timedelta(days=day, hours=20)
        tally.add_seated(at, at + H, UTC_ZONE, 9)
        tally.add_left(at, UTC_ZONE, 5)
    rates = fit(tally, Prior(leave=0.1))
    assert rates.leave[20] > 0.3  # Monday 20:00 borrows from the other evenings at 20:00
    assert 0.1 < rates.leave[10] < rates.leave[20]  # 10:00 never ran: the game's overall rate
    empty = fit(Tally(), Prior(leave=0.25, new=0.5, show=0.7))
    assert set(empty.leave) == {0.25} and set(empty.new) == {0.5} and empty.show == 0.7  # the room's
    assert set(fit(Tally()).leave) == {DEFAULT_LEAVE}  # a new room
    assert room_prior(busy_mondays()).leave < DEFAULT_LEAVE


def test_show_rate_learns_from_offers_claimed():
    tally = Tally()
    tally.add_offers(100, 60)
    rates = fit(tally)
    assert rates.show == pytest.approx((60 + 10 * 0.85) / 110) and rates.patience == math.inf


def test_show_rate_falls_with_the_wait_when_players_give_up():
    tally = Tally()
    tally.add_offers(100, 90, waited=5)
    tally.add_offers(100, 45, waited=95)
    rates = fit(tally)
    assert rates.patience < math.inf
    assert rates.show_at(5) > 0.8 and 0.35 < rates.show_at(97.5) < 0.55
    few = Tally()
    few.add_offers(10, 5, waited=95)
    assert fit(few, Prior(patience=120.0)).patience == 120.0  # too few offers: the room's


def test_players_giving_up_ahead_shorten_a_long_wait():
    patient = flat(1.5, 0.9)
    leaving = Rates(patient.leave, patient.new, 0.9, patience=90.0)
    a, b = (estimate(r, 20, 2, 0, MONDAY, UTC_ZONE) for r in (patient, leaving))
    assert b.median < a.median


@pytest.mark.parametrize("ahead", [0, 3, 12, 40, 150])
def test_range_is_ordered(ahead):
    est = estimate(flat(1.2, 0.8), ahead, 2, 0, MONDAY, UTC_ZONE)
    assert est is not None and 0 <= est.low <= est.median <= est.high


def test_monotone_in_places_ahead_and_tables_running():
    rates = flat(1.5, 0.85)
    medians = [estimate(rates, k, 2, 0, MONDAY, UTC_ZONE).median for k in range(0, 30, 3)]
    assert medians == sorted(medians) and medians[0] < medians[-1]
    by_tables = [estimate(rates, 10, t, 0, MONDAY, UTC_ZONE).median for t in (1, 2, 4, 8)]
    assert by_tables == sorted(by_tables, reverse=True) and by_tables[0] > 2 * by_tables[-1]


def test_no_shows_ahead_shorten_the_wait():
    kept, lost = (estimate(flat(1.5, show), 10, 2, 0, MONDAY, UTC_ZONE) for show in (0.95, 0.6))
    assert lost.median < kept.median and lost.high < kept.high


def test_a_busier_coming_hour_shortens_the_wait():
    quiet = [0.5] * HOURS
    busy = list(quiet)
    busy[0] = busy[1] = 4.0  # Monday from midnight
    slow, fast = (estimate(Rates(tuple(r), (0.0,) * HOURS, 1.0), 5, 1, 0, MONDAY, UTC_ZONE, 1)
                  for r in (quiet, busy))
    assert fast.median < slow.median / 3


def test_the_median_matches_the_poisson_process():
    # one table, a seat an hour, nobody ahead: the first opening's median is ln 2 hours
    est = estimate(flat(1.0), 0, 1, 0, MONDAY, UTC_ZONE)
    assert 0.55 * 60 < est.median - SIT_MINUTES[1] < 0.85 * 60


def test_open_seats_and_no_table():
    assert estimate(flat(1.0), 2, 1, 3, MONDAY, UTC_ZONE) == Estimate(*SIT_MINUTES)
    assert estimate(flat(1.0), 2, 0, 0, MONDAY, UTC_ZONE) is None
    shorter = estimate(flat(1.0), 4, 1, 2, MONDAY, UTC_ZONE)
    assert shorter.median < estimate(flat(1.0), 4, 1, 0, MONDAY, UTC_ZONE).median
