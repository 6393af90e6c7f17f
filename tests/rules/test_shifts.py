"""R54 without a database: the shift policy (validated, the gaming day's start always shift 1's), the
shift of an instant around midnight and across DST changes (Europe/London), and the pure checks of
counting and closing shifts in order."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roomops.errors import Conflict, Invalid
from roomops.ledger.closing import (
    check_not_closed,
    check_previous_closed,
    check_shift_started,
    pick_shift,
    shift_closed,
)
from roomops.rooms.gaming_day import gaming_day
from roomops.rooms.shifts import parse_starts, shift_of, shift_policy, shifts_of_day

LONDON = "Europe/London"
SIX = time(6)
THREE = [time(6), time(14), time(22)]
S = timedelta(seconds=1)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


# -- the policy ------------------------------------------------------------------------------------

@pytest.mark.parametrize("given_,stored", [
    (["06:00", "14:00", "22:00"], "06:00,14:00,22:00"),
    (["14:00", "22:00"], "06:00,14:00,22:00"),  # the gaming day's start is added
    (["22:00", "02:00", "14:00"], "06:00,14:00,22:00,02:00"),  # gaming-day order: 02:00 is last
    ("06:00, 18:00", "06:00,18:00"),  # as typed on the desk's form
    (["06:00"], None),  # one shift: the default
    ([], None),
    ("", None),
    (None, None),
])
def test_r54_the_policy_is_stored_in_gaming_day_order_with_the_day_start_first(given_, stored):
    assert shift_policy(given_, SIX) == stored


@pytest.mark.parametrize("given_,words", [
    (["14:00", "14:00"], "14:00 is given twice"),
    (["6:00"], "HH:MM"),
    (["24:00"], "HH:MM"),
    (["14:60"], "HH:MM"),
    ("06:00; 14:00", "HH:MM"),
    ([f"{h:02d}:30" for h in range(12)], "at most 12"),  # 12 given + the day's start: 13
])
def test_r54_a_bad_policy_is_refused_naming_the_problem(given_, words):
    with pytest.raises(Invalid, match=words) as err:
        shift_policy(given_, SIX)
    assert err.value.rule == "R54"


def test_r54_a_changed_day_start_is_read_as_shift_one():
    assert parse_starts("06:00,14:00,22:00", time(7)) == [time(7), time(14), time(22), time(6)]
    assert parse_starts(None, time(7)) == [time(7)]


# -- the shift of an instant -----------------------------------------------------------------------

@pytest.mark.parametrize("instant,day,number", [
    (utc(2026, 11, 21, 6), date(2026, 11, 21), 1),
    (utc(2026, 11, 21, 13, 59, 59), date(2026, 11, 21), 1),
    (utc(2026, 11, 21, 14), date(2026, 11, 21), 2),
    (utc(2026, 11, 21, 22), date(2026, 11, 21), 3),
    (utc(2026, 11, 22, 0, 30), date(2026, 11, 21), 3),  # after midnight: still Saturday's night shift
    (utc(2026, 11, 22, 5, 59, 59), date(2026, 11, 21), 3),
    (utc(2026, 11, 22, 6), date(2026, 11, 22), 1),
])
def test_r54_shift_of_an_instant_around_midnight(instant, day, number):
    shift = shift_of(instant, "UTC", SIX, THREE)
    assert (shift.gaming_day, shift.number, shift.of) == (day, number, 3)
    assert shift.start <= instant < shift.end


def test_r54_a_shift_starting_after_midnight_belongs_to_the_gaming_day_before():
    starts = parse_starts("06:00,18:00,02:00", SIX)
    night = shift_of(utc(2026, 11, 22, 2), "UTC", SIX, starts)
    assert (night.gaming_day, night.number, night.start, night.end) == (
        date(2026, 11, 21), 3, utc(2026, 11, 22, 2), utc(2026, 11, 22, 6))
    assert shift_of(utc(2026, 11, 22, 1, 59, 59), "UTC", SIX, starts).number == 2


def test_r54_the_default_is_one_shift_the_gaming_day():
    shift = shift_of(utc(2026, 11, 21, 20), LONDON, SIX, [SIX])
    assert (shift.number, shift.of, shift.start, shift.end) == (
        1, 1, utc(2026, 11, 21, 6), utc(2026, 11, 22, 6))


def test_r54_shifts_in_local_time_across_fall_back():
    # 2026-10-25 02:00 BST -> 01:00 GMT. The 22:00 shift of Saturday the 24th runs 21:00 UTC to
    # 06:00 UTC: 9 hours by the clock on the wall reading 22:00-06:00, one hour longer than usual
    night = shifts_of_day(date(2026, 10, 24), LONDON, SIX, THREE)[2]
    assert (night.start, night.end, night.end - night.start) == (
        utc(2026, 10, 24, 21), utc(2026, 10, 25, 6), timedelta(hours=9))
    # a shift starting in the repeated hour starts at its first occurrence (BST)
    starts = parse_starts("06:00,01:30", SIX)
    late = shifts_of_day(date(2026, 10, 24), LONDON, SIX, starts)[1]
    assert late.start == utc(2026, 10, 25, 0, 30)
    assert shift_of(utc(2026, 10, 25, 1, 30), LONDON, SIX, starts).number == 2  # 01:30 GMT


def test_r54_shifts_in_local_time_across_spring_forward():
    # 2026-03-29 01:00 GMT -> 02:00 BST: a shift starting at 01:30 starts when the clocks go forward
    starts = parse_starts("06:00,01:30", SIX)
    late = shifts_of_day(date(2026, 3, 28), LONDON, SIX, starts)[1]
    assert (late.start, late.end) == (utc(2026, 3, 29, 1), utc(2026, 3, 29, 5))
    assert shift_of(utc(2026, 3, 29, 1) - S, LONDON, SIX, starts).number == 1
    assert shift_of(utc(2026, 3, 29, 1), LONDON, SIX, starts).number == 2
    night = shifts_of_day(date(2026, 3, 28), LONDON, SIX, THREE)[2]
    assert night.end - night.start == timedelta(hours=7)  # 22:00-06:00 with an hour skipped


@given(st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2027, 12, 31),
                    timezones=st.just(UTC)),
       st.lists(st.times().map(lambda t: t.replace(second=0, microsecond=0)), max_size=6),
       st.sampled_from([LONDON, "UTC", "America/New_York", "Australia/Lord_Howe"]),
       st.sampled_from([time(0), time(1, 30), SIX]))
def test_r54_every_instant_is_in_exactly_one_shift_of_its_gaming_day(instant, times, tz, start):
    starts = parse_starts(shift_policy([t.strftime("%H:%M") for t in set(times)][:11], start), start)
    shift = shift_of(instant, tz, start, starts)
    day = gaming_day(instant, tz, start)
    shifts = shifts_of_day(day, tz, start, starts)
    assert shift.gaming_day == day and shift.start <= instant < shift.end
    assert shifts[0].start <= instant and shifts[-1].end > instant
    assert all(a.end == b.start and a.start <= a.end for a, b in pairwise(shifts))  # no gaps
    assert [s for s in shifts if s.start <= instant < s.end] == [shift]


# -- counting and closing --------------------------------------------------------------------------

def test_r54_the_shift_named_or_the_only_one():
    assert (pick_shift(None, 1), pick_shift(2, 3)) == (1, 2)
    for shift, shifts, words in ((None, 3, "name the shift"), (4, 3, "no shift 4"),
                                 (2, 1, "one shift")):
        with pytest.raises(Invalid, match=words) as err:
            pick_shift(shift, shifts)
        assert err.value.rule == "R54"


def test_r54_a_shift_is_closed_by_its_close_a_later_one_or_the_days():
    assert not shift_closed(2, [])
    assert not shift_closed(2, [(1, False)])
    assert shift_closed(2, [(1, False), (2, False)])
    assert shift_closed(2, [(3, False)])
    assert shift_closed(4, [(3, True)])  # a shift a later policy change added to a closed day


def test_r54_shifts_close_in_order_once_and_not_before_they_start():
    check_previous_closed(1, [])
    check_previous_closed(3, [1, 2])
    with pytest.raises(Conflict, match="close shift 1 before shift 3"):
        check_previous_closed(3, [2])
    with pytest.raises(Conflict, match="shift 2 of gaming day 2026-11-21 is closed"):
        check_not_closed(date(2026, 11, 21), True, 2)
    check_shift_started(2, utc(2026, 11, 21, 14), utc(2026, 11, 21, 14))
    with pytest.raises(Invalid, match="shift 3 has not started"):
        check_shift_started(3, utc(2026, 11, 21, 22), utc(2026, 11, 21, 21, 59))
