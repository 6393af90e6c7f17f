"""R54: the shifts of a gaming day (R2) and the shift an instant belongs to, for a room's time zone,
gaming-day start and shift policy. Pure: no Flask, no database.

Policy (``rooms.shift_starts``): the local start times of the day's shifts, "HH:MM,HH:MM,...",
stored in the order they happen in the gaming day, the gaming day's start first. NULL (the
default): one shift, the gaming day itself. The gaming day's start is always the start of shift 1:
a list without it gets it added, and a list whose first time is no longer the day's start (the
start was changed afterwards) is read with the new start added, so shift 1 always begins the day.
A time earlier on the clock than the day's start belongs to the night after it (start 06:00:
"02:00" is 02:00 of the next calendar date, the last shift).

DST: a shift starts at the first moment the wall clock reads its start time (``day_start``): in the
repeated hour of a fall-back night, at the first of the two; in the skipped hour of a spring-forward
night, when the clocks go forward. A shift is therefore an hour longer or shorter on those nights,
never missing or doubled; two starts inside one skipped hour make the first of them an empty shift."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from roomops.errors import Invalid
from roomops.rooms.gaming_day import day_start, gaming_day

MAX_SHIFTS = 12
_HH_MM = re.compile(r"^([01][0-9]|2[0-3]):[0-5][0-9]$")


@dataclass(frozen=True, slots=True)
class Shift:
    """Shift ``number`` (1..``of``) of ``gaming_day``, from ``start`` (inclusive) to ``end``
    (exclusive), both aware UTC instants; ``local_start`` is the policy's wall-clock time."""

    gaming_day: date
    number: int
    of: int
    local_start: time
    start: datetime
    end: datetime

    def window(self, tz: str) -> str:
        """The shift's local start and end on the wall clock, e.g. "14:00-22:00"."""
        zone = ZoneInfo(tz)
        return f"{self.start.astimezone(zone):%H:%M}-{self.end.astimezone(zone):%H:%M}"


def _in_day(t: time, day_start_time: time) -> timedelta:
    """How long after the gaming day's start (on the wall clock) the time ``t`` comes."""
    minutes = (t.hour * 60 + t.minute) - (day_start_time.hour * 60 + day_start_time.minute)
    return timedelta(minutes=minutes % (24 * 60))


def _parse(raw: str) -> time:
    text = raw.strip()
    if not _HH_MM.match(text):
        raise Invalid(f"shift start {raw!r} is not a time of day as HH:MM (00:00-23:59)", "R54")
    return time.fromisoformat(text)


def shift_policy(given: str | Iterable[str] | None, day_start_time: time) -> str | None:
    """R54: the stored form of a shift policy sent as a list of "HH:MM" (or the stored
    comma-separated text): validated (each HH:MM, no time twice, at most ``MAX_SHIFTS``), the
    gaming day's start added, in gaming-day order. None when that leaves one shift (the default)."""
    # typed on a form: "06:00, 14:00 22:00"; stored: "06:00,14:00,22:00"
    raw = [r for r in re.split(r"[,\s]+", given) if r] if isinstance(given, str) else list(given or [])
    times = [_parse(r) for r in raw]
    if len(set(times)) != len(times):
        twice = sorted({t.strftime("%H:%M") for t in times if times.count(t) > 1})
        raise Invalid(f"shift start {', '.join(twice)} is given twice: each shift starts at its "
                      "own time", "R54")
    starts = starts_of(times, day_start_time)
    if len(starts) > MAX_SHIFTS:
        raise Invalid(f"{len(starts)} shifts: a gaming day has at most {MAX_SHIFTS}", "R54")
    return ",".join(t.strftime("%H:%M") for t in starts) if len(starts) > 1 else None


def starts_of(times: Iterable[time], day_start_time: time) -> list[time]:
    """The shifts' local start times in gaming-day order, the day's start first (see the module)."""
    return sorted(set(times) | {day_start_time}, key=lambda t: _in_day(t, day_start_time))


def parse_starts(stored: str | None, day_start_time: time) -> list[time]:
    """The stored policy (None: one shift) read as start times, the day's start first."""
    return starts_of((time.fromisoformat(t) for t in (stored or "").split(",") if t),
                     day_start_time)


def shifts_of_day(day: date, tz: str, day_start_time: time, starts: Sequence[time]) -> list[Shift]:
    """R54: every shift of gaming day ``day``; the last ends when the next gaming day starts."""
    starts = starts_of(starts, day_start_time)
    instants = []
    for t in starts:
        on = day if t >= day_start_time else day + timedelta(days=1)  # after midnight: next date
        instants.append(day_start(on, tz, t))
    instants.append(day_start(day + timedelta(days=1), tz, day_start_time))
    return [Shift(day, i + 1, len(starts), t, instants[i], instants[i + 1])
            for i, t in enumerate(starts)]


def shift_of(instant: datetime, tz: str, day_start_time: time, starts: Sequence[time]) -> Shift:
    """R54: the shift ``instant`` (aware) belongs to: the last shift of its gaming day (R2) that has
    started by then."""
    shifts = shifts_of_day(gaming_day(instant, tz, day_start_time), tz, day_start_time, starts)
    return [s for s in shifts if s.start <= instant][-1]
