"""R80: the figures' pure rules: waits in buckets and their quantiles, the hourly rollup, the periods."""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, time, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roomops.figures.buckets import EDGES, bucket_of, quantile
from roomops.figures.period import period, weeks_before
from roomops.figures.rollup import Entry, Facts, Money, Span, roll
from roomops.waits.shown import Shown

H = timedelta(hours=1)
M = timedelta(minutes=1)
T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)  # a Saturday, 20:00


def test_r80_buckets_are_a_minute_wide_at_the_short_end_and_take_every_long_wait():
    assert [bucket_of(m) for m in (0, 0.5, 1, 4.9, 5)] == [0, 0, 1, 4, 5]
    assert bucket_of(10_000) == len(EDGES) - 1
    assert bucket_of(-1) == 0


@given(st.lists(st.floats(min_value=0, max_value=700), min_size=1, max_size=200),
       st.sampled_from([0.5, 0.9]))
def test_r80_a_quantile_read_off_the_buckets_lies_in_the_true_quantiles_bucket(waits, q):
    counts: dict[int, int] = {}
    for w in waits:
        counts[bucket_of(w)] = counts.get(bucket_of(w), 0) + 1
    got = quantile(counts, q)
    ordered = sorted(waits)
    true = ordered[math.ceil(q * len(ordered)) - 1]  # the ceil(q n)-th wait
    bucket = bucket_of(true)
    assert got is not None
    assert EDGES[bucket] <= got <= (EDGES[bucket + 1] if bucket + 1 < len(EDGES) else 2 * EDGES[-1])


def test_r80_no_waits_no_quantile():
    assert quantile({}, 0.5) is None


def test_r80_time_is_spread_over_the_hours_it_spans_and_cut_at_now():
    facts = Facts(tables=[Span(1, T0 + 30 * M, None, 9)], seats=[Span(1, T0 + 45 * M, T0 + 90 * M)])
    counted = roll(facts, T0, T0 + 3 * H, now=T0 + 100 * M)
    first, second = counted[(1, T0)], counted[(1, T0 + H)]
    assert (first.table_seconds, first.seat_seconds, first.seated_seconds) == (1800, 1800 * 9, 900)
    assert (second.table_seconds, second.seated_seconds) == (2400, 1800)  # the table to now (21:40)
    assert (1, T0 + 2 * H) not in counted  # the future counts nothing


def test_r80_only_the_hours_asked_for_are_counted():
    facts = Facts(tables=[Span(1, T0 - 5 * H, T0 + 5 * H, 9)], downs=[(1, T0 - M), (1, T0 + M)])
    counted = roll(facts, T0, T0 + H, now=T0 + 10 * H)
    assert list(counted) == [(1, T0)]
    assert counted[(1, T0)].table_seconds == 3600 and counted[(1, T0)].downs == 1


def _entry(joined, ended, status, reason=None, shown=None, game=1):
    return Entry(game, joined, ended, status, reason, None if shown is None else Shown(*shown))


def test_r80_entries_join_and_end_in_their_hours_seated_no_show_or_abandoned():
    facts = Facts(entries=[
        _entry(T0, T0 + 70 * M, "seated", "seated", shown=(60, 75, 90)),  # waited 70, inside
        _entry(T0 + 5 * M, T0 + 65 * M, "seated", "seated", shown=(0, 5, 10)),  # 60: outside
        _entry(T0 + 10 * M, T0 + 66 * M, "removed", "no-show: did not check in"),  # R12
        _entry(T0 + 15 * M, T0 + 67 * M, "removed", "missed call (expired)"),  # the offer counts it
        _entry(T0 + 20 * M, T0 + 68 * M, "removed", "left the list"),  # R16
        _entry(T0 + 25 * M, None, "active"),
    ], missed_offers=[(1, T0 + 67 * M)])
    counted = roll(facts, T0, T0 + 2 * H, now=T0 + 90 * M)
    first, second = counted[(1, T0)], counted[(1, T0 + H)]
    assert first.joined == 6 and second.joined == 0
    assert (second.seated, second.no_shows, second.abandoned) == (2, 2, 1)
    assert (second.scored, second.inside) == (2, 1)
    assert sum(second.waits.values()) == 2 and sum(second.errors.values()) == 2
    assert bucket_of(5) in second.errors and bucket_of(55) in second.errors  # |75-70|, |5-60|
    # every entry was on a list through the first hour from its joining; the waiting one to now
    assert first.waiting_seconds == sum(3600 - m * 60 for m in (0, 5, 10, 15, 20, 25))


def test_r10_an_open_ended_range_holds_any_long_wait():
    facts = Facts(entries=[_entry(T0, T0 + 200 * M, "seated", "seated", shown=(180, 180, None))])
    assert roll(facts, T0, T0 + 4 * H, now=T0 + 4 * H)[(1, T0 + 3 * H)].inside == 1


def test_r80_rake_and_fees_count_in_the_hour_they_were_posted_reversals_in_theirs():
    facts = Facts(money=[Money(1, T0 + M, 500, 0), Money(1, T0 + 2 * M, 0, 300), Money(1, T0 + H, -500, 0)])
    counted = roll(facts, T0, T0 + 2 * H, now=T0 + 2 * H)
    assert (counted[(1, T0)].rake, counted[(1, T0)].fees) == (500, 300)
    assert counted[(1, T0 + H)].rake == -500


def test_r80_games_are_counted_apart():
    facts = Facts(tables=[Span(1, T0, None, 9), Span(2, T0, None, 10)])
    counted = roll(facts, T0, T0 + H, now=T0 + H)
    assert counted[(1, T0)].seat_seconds == 9 * 3600 and counted[(2, T0)].seat_seconds == 10 * 3600


@pytest.mark.parametrize(("kind", "first", "last"), [
    ("day", date(2026, 11, 18), date(2026, 11, 18)),
    ("week", date(2026, 11, 16), date(2026, 11, 22)),
    ("month", date(2026, 11, 1), date(2026, 11, 30)),
])
def test_r80_periods_are_gaming_days_weeks_from_monday_and_calendar_months(kind, first, last):
    now = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    p = period(kind, date(2026, 11, 18), now, "Europe/London", time(6, 0))
    assert (p.first_day, p.last_day) == (first, last)
    assert p.start == datetime.combine(first, time(6, 0), UTC)  # London is on UTC in winter
    assert p.end == datetime.combine(last + timedelta(days=1), time(6, 0), UTC)
    assert p.by_day == (kind == "month")


def test_r2_today_runs_from_the_gaming_days_start_to_now():
    now = datetime(2026, 12, 2, 3, 0, tzinfo=UTC)  # before 06:00: still the 1st's gaming day
    p = period("today", date(2030, 1, 1), now, "UTC", time(6, 0))
    assert p.first_day == date(2026, 12, 1) and p.end == now
    assert period("day", date(2030, 1, 1), now, "UTC", time(6, 0)).first_day == date(2026, 12, 1)


def test_r80_the_last_eight_weeks_end_with_the_periods_week():
    start, mondays = weeks_before(datetime(2026, 12, 3, 12, 0, tzinfo=UTC), "UTC", time(6, 0))
    assert mondays[-1] == date(2026, 11, 30) and len(mondays) == 8
    assert start == datetime(2026, 10, 12, 6, 0, tzinfo=UTC)


_minutes = st.integers(min_value=0, max_value=6 * 60)


@st.composite
def _spans(draw):
    start = draw(_minutes)
    end = draw(st.one_of(st.none(), st.integers(min_value=start, max_value=6 * 60)))
    return Span(draw(st.sampled_from([1, 2])), T0 + start * M, None if end is None else T0 + end * M,
                draw(st.sampled_from([9, 10])))


@given(st.lists(_spans(), max_size=12), st.integers(min_value=1, max_value=5), _minutes)
def test_r80_rolled_up_in_pieces_or_at_once_and_counted_minute_by_minute_agree(spans, cut, now_minute):
    """The sweep rolls up an hour at a time, a rebuild a week at a time, the screen the rest at
    once: the counts are the same; and each hour's table time is what sampling every minute finds."""
    now, end = T0 + now_minute * M, T0 + 6 * H
    facts = Facts(tables=spans, seats=spans)
    whole = roll(facts, T0, end, now)
    pieces = {**roll(facts, T0, T0 + cut * H, now), **roll(facts, T0 + cut * H, end, now)}
    assert whole == pieces
    for (game, hour), counts in whole.items():
        sampled = sum(s.weight for s in spans for m in range(60) if s.game_id == game and
                      s.start <= hour + m * M < min(s.end or now, now))
        assert counts.seat_seconds == 60 * sampled
