"""R2: gaming days in the room's zone, across DST changes (Europe/London), with no database."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest

from roomops.rooms.gaming_day import day_start, gaming_day

LONDON = "Europe/London"
S = timedelta(seconds=1)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize("instant,day", [
    (utc(2026, 11, 21, 5, 59, 59), date(2026, 11, 20)),  # GMT: 05:59:59 local, yesterday's day
    (utc(2026, 11, 21, 6, 0, 0), date(2026, 11, 21)),  # at the start, to the second
    (utc(2026, 11, 22, 2, 0, 0), date(2026, 11, 21)),  # after midnight: still Saturday night
    (utc(2026, 7, 1, 4, 59, 59), date(2026, 6, 30)),  # BST: 05:59:59 local
    (utc(2026, 7, 1, 5, 0, 0), date(2026, 7, 1)),  # BST: 06:00 local is 05:00 UTC
])
def test_r2_gaming_day_starts_at_six_local(instant, day):
    assert gaming_day(instant, LONDON) == day


def test_r2_spring_forward_day_starts_at_local_six():
    # 2026-03-29: 01:00 GMT -> 02:00 BST. 06:00 local that day is 05:00 UTC.
    assert day_start(date(2026, 3, 29), LONDON, time(6)) == utc(2026, 3, 29, 5)
    assert gaming_day(utc(2026, 3, 29, 4, 59, 59), LONDON) == date(2026, 3, 28)
    assert gaming_day(utc(2026, 3, 29, 5), LONDON) == date(2026, 3, 29)
    # the day before the change was 24 hours long in UTC, the day of it 23
    assert day_start(date(2026, 3, 29), LONDON, time(0)) - day_start(date(2026, 3, 28), LONDON,
                                                                       time(0)) == timedelta(hours=24)
    assert day_start(date(2026, 3, 30), LONDON, time(0)) - day_start(date(2026, 3, 29), LONDON,
                                                                       time(0)) == timedelta(hours=23)


def test_r2_fall_back_day_starts_at_local_six():
    # 2026-10-25: 02:00 BST -> 01:00 GMT. 06:00 local that day is 06:00 UTC.
    assert day_start(date(2026, 10, 25), LONDON, time(6)) == utc(2026, 10, 25, 6)
    assert gaming_day(utc(2026, 10, 25, 5, 59, 59), LONDON) == date(2026, 10, 24)
    assert gaming_day(utc(2026, 10, 25, 6), LONDON) == date(2026, 10, 25)
    # the Saturday gaming day of the change is 25 hours long
    assert day_start(date(2026, 10, 25), LONDON, time(6)) - day_start(
        date(2026, 10, 24), LONDON, time(6)) == timedelta(hours=25)


def test_r2_start_in_the_repeated_hour_is_its_first_occurrence():
    # 01:30 happens twice on 2026-10-25: first at 00:30 UTC (BST), again at 01:30 UTC (GMT)
    start = time(1, 30)
    assert day_start(date(2026, 10, 25), LONDON, start) == utc(2026, 10, 25, 0, 30)
    assert gaming_day(utc(2026, 10, 25, 0, 30) - S, LONDON, start) == date(2026, 10, 24)
    assert gaming_day(utc(2026, 10, 25, 1, 30), LONDON, start) == date(2026, 10, 25)


def test_r2_start_in_the_skipped_hour_is_when_the_clocks_go_forward():
    # 01:30 never happens on 2026-03-29 (01:00 GMT -> 02:00 BST at 01:00 UTC): the day starts then
    start = time(1, 30)
    assert day_start(date(2026, 3, 29), LONDON, start) == utc(2026, 3, 29, 1)
    assert gaming_day(utc(2026, 3, 29, 1) - S, LONDON, start) == date(2026, 3, 28)
    assert gaming_day(utc(2026, 3, 29, 1), LONDON, start) == date(2026, 3, 29)
    # and the days either side start at their own 01:30
    assert day_start(date(2026, 3, 28), LONDON, start) == utc(2026, 3, 28, 1, 30)
    assert day_start(date(2026, 3, 30), LONDON, start) == utc(2026, 3, 30, 0, 30)


def test_r2_other_zone_and_midnight_start():
    assert gaming_day(utc(2026, 11, 21, 22, 59, 59), "Europe/Zurich", time(0)) == date(2026, 11, 21)
    assert gaming_day(utc(2026, 11, 21, 23), "Europe/Zurich", time(0)) == date(2026, 11, 22)


def test_r2_naive_instant_refused():
    with pytest.raises(ValueError):
        gaming_day(datetime(2026, 11, 21, 6), LONDON)
