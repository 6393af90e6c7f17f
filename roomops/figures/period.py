"""The periods of the figures screen (R80), in the room's gaming days (R2). Pure.

A period is today so far, one gaming day, the week (Monday first) or the calendar month of a gaming
day; it is cut at ``now``: hours to come have no figures. Today, a day and a week are shown hour by
hour, a month day by day."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from roomops.figures.shape import PeriodKind
from roomops.rooms.gaming_day import day_start, gaming_day


@dataclass(frozen=True)
class Period:
    kind: PeriodKind
    first_day: date
    last_day: date
    start: datetime  # UTC: the first day's start
    end: datetime  # UTC: the day after the last one's start, or ``now`` if sooner
    by_day: bool  # steps of a gaming day (a month), else of an hour


def _month_after(first: date) -> date:
    return (first.replace(day=28) + timedelta(days=4)).replace(day=1)


def period(kind: PeriodKind, day: date, now: datetime, tz: str, start: time) -> Period:
    """``kind`` around gaming day ``day`` (today's for "today"), cut at ``now``; a day after today
    is today (its figures do not exist yet)."""
    today = gaming_day(now, tz, start)
    day = today if kind == "today" or day > today else day
    if kind == "week":
        first = day - timedelta(days=day.weekday())
        after = first + timedelta(days=7)
    elif kind == "month":
        first = day.replace(day=1)
        after = _month_after(first)
    else:
        first, after = day, day + timedelta(days=1)
    end = min(now, day_start(after, tz, start))
    return Period(kind, first, after - timedelta(days=1), day_start(first, tz, start), end, kind == "month")


def weeks_before(end: datetime, tz: str, start: time, weeks: int = 8) -> tuple[datetime, list[date]]:
    """The start of the ``weeks`` weeks (Monday first) up to ``end``, and each week's Monday."""
    last = gaming_day(end - timedelta(microseconds=1), tz, start)
    monday = last - timedelta(days=last.weekday())
    mondays = [monday - timedelta(weeks=w) for w in reversed(range(weeks))]
    return day_start(mondays[0], tz, start), mondays
