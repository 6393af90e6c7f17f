"""R2: the gaming day of an instant, for a room's time zone and ``gaming_day_start``.

Pure: no Flask, no database. A gaming day is named by the local date on which it starts."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo


def day_start(day: date, tz: str, start: time) -> datetime:
    """The UTC instant gaming day ``day`` starts: the first moment the room's wall clock reads
    ``start`` on that date.

    Fall-back (the start time happens twice): the first of the two. Spring-forward (the start time
    is skipped): the moment the clocks go forward, when the wall clock first passes the start."""
    zone = ZoneInfo(tz)
    wall = datetime.combine(day, start)
    first = wall.replace(tzinfo=zone, fold=0).astimezone(UTC)
    if first.astimezone(zone).replace(tzinfo=None) == wall:
        return first
    # In the gap fold=0 reads the wall time with the offset before the change (later than the gap)
    # and fold=1 with the offset after it (earlier): the change itself lies between the two.
    low, high = wall.replace(tzinfo=zone, fold=1).astimezone(UTC), first
    while high - low > timedelta(seconds=1):
        mid = low + (high - low) / 2
        if mid.astimezone(zone).replace(tzinfo=None) >= wall:
            high = mid
        else:
            low = mid
    return high.replace(microsecond=0)


def gaming_day(instant: datetime, tz: str, start: time = time(6, 0)) -> date:
    """R2: the gaming day ``instant`` (aware) belongs to, across DST changes."""
    if instant.tzinfo is None:
        raise ValueError("gaming_day needs an aware datetime")
    local = instant.astimezone(ZoneInfo(tz)).date()
    return local if instant >= day_start(local, tz, start) else local - timedelta(days=1)


def started(instant: datetime, tz: str, start: time = time(6, 0)) -> datetime:
    """R2: when the gaming day ``instant`` belongs to started (UTC)."""
    return day_start(gaming_day(instant, tz, start), tz, start)
