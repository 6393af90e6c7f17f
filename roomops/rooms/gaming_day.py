"""The gaming day (R2), with no Flask or database."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo


def gaming_day(at_utc: datetime, tz_name: str, start_time: time) -> date:
    """R2: the gaming day ``at_utc`` falls in: the latest local date whose ``start_time`` (room
    local time, across DST changes) is not after it. A start time that does not exist on a
    spring-forward day is read with the offset before the change; one that happens twice on a
    fall-back day starts the day at its first occurrence."""
    zone = ZoneInfo(tz_name)
    day = at_utc.astimezone(zone).date()
    if datetime.combine(day, start_time, tzinfo=zone) > at_utc:
        return day - timedelta(days=1)
    return day
