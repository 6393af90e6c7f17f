"""Shift and gaming-day close, and the day's report, with no Flask or database (R52, R54).

Expected figures come from the ledger: the sum of a table's rows for the gaming day (the sign
convention of ``roomops.ledger.rules``), and the sum of all the day's rows for the total. A count is
what one staff member counted; its variance is counted minus expected."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from roomops.errors import Conflict, Invalid, NotFound

TOTAL = None  # the table id of a count of the day's total (the cage)


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the day's report: what the ledger holds for one table, game, kind or staff
    member (``key``), how many rows and their sum."""

    key: int | str | None
    name: str
    entries: int
    amount: int


def variance(counted: int, expected: int) -> int:
    """R54: counted minus expected; positive is an overage, negative a shortage."""
    return counted - expected


def check_count(counted: object, expected: int, explanation: str | None, where: str) -> str | None:
    """R54: a count is a whole number of minor units; a variance needs a written explanation.
    Returns the explanation stripped (None when empty)."""
    if type(counted) is not int:
        raise Invalid(f"{where}: the count {counted!r} is not a whole number of minor units", "R54")
    text = (explanation or "").strip() or None
    if variance(counted, expected) != 0 and text is None:
        raise Invalid(f"{where}: counted {{counted}}, the ledger expects {{expected}}: a variance "
                      "of {variance} needs an explanation", "R54",
                      amounts={"counted": counted, "expected": expected,
                               "variance": variance(counted, expected)})
    return text


def check_day(day: date, today: date) -> None:
    """R2/R54: a gaming day that has not started yet cannot be counted or closed."""
    if day > today:
        raise Invalid(f"gaming day {day} has not started yet (today is {today})", "R54")


def check_not_closed(day: date, closed: bool, shift: int | None = None) -> None:
    """R54: a closed day's (or shift's) figures never change: no count, no ledger row, no second
    close. ``shift``: named in the message when the day has several."""
    if closed:
        what = f"shift {shift} of gaming day {day}" if shift is not None else f"gaming day {day}"
        raise Conflict(f"{what} is closed: its figures no longer change (a correction is a "
                       "reversal in the shift it is made)", "R54")


def shift_closed(shift: int, closes: Iterable[tuple[int, bool]]) -> bool:
    """R54: is ``shift`` closed, given the day's closes as (shift number, closes the day)? Shifts
    close in order, so a later shift's close covers it, and the day's close covers every shift
    (even one a later change of the shift policy added)."""
    return any(closes_day or number >= shift for number, closes_day in closes)


def posting_shift(shift: int, shifts: int, closes: Iterable[tuple[int, bool]]) -> int | None:
    """R54: the shift a ledger row posted at an instant of ``shift`` goes to: that shift while it
    is open, else the next open shift of the same gaming day (a shift closed before its end hands
    the rest of it to the next, so the floor never stops); None when every later shift is closed
    too (only a closed day, or a shift policy changed after a close)."""
    closes = list(closes)
    return next((n for n in range(shift, shifts + 1) if not shift_closed(n, closes)), None)


def local(instant: datetime, tz: str) -> str:
    """An instant on the room's wall clock, as a refusal or a page names it."""
    return f"{instant.astimezone(ZoneInfo(tz)):%H:%M on %Y-%m-%d} ({tz})"


def check_day_closable(day: date, end: datetime, tz: str, now: datetime,
                       open_tables: Sequence[str]) -> None:
    """R2/R54: the gaming day is closed (its last shift's close) once it has ended or, before its
    end, once the room has closed for the night: no table open. A room that shuts at 04:00 closes
    its books then; play after such a close goes to the next gaming day (``posting_place``)."""
    if now < end and open_tables:
        raise Conflict(f"gaming day {day} is still running (tables open: {', '.join(open_tables)}): "
                       "close every table to close the day now, or close it after it ends at "
                       f"{local(end, tz)}", "R54")


def posting_place(day: date, shift: int, shifts: int,
                  closes: Iterable[tuple[int, bool]]) -> tuple[date, int] | None:
    """R54: the gaming day and shift a ledger row posted at an instant of ``shift`` of ``day`` goes
    to: the day's next open shift (``posting_shift``); once the day itself is closed (closed early,
    when every table had closed, ``check_day_closable``), the next gaming day's first shift, so
    play after the close (a table opened again, a late cash-out) never changes the closed day's
    figures and never stops; None when no shift is open and the day was not closed (a shift
    policy changed after a close)."""
    closes = list(closes)
    number = posting_shift(shift, shifts, closes)
    if number is not None:
        return day, number
    if any(closes_day for _n, closes_day in closes):
        return day + timedelta(days=1), 1
    return None


def running_warning(tables: Sequence[str]) -> str:
    """R54: the tables still running (a player seated) named, as a close's warning says it."""
    return f"tables still running (a player seated): {', '.join(tables)}"


def check_running(policy: str, tables: Sequence[str]) -> None:
    """R54: the room's ``close_while_running`` policy: 'refuse' refuses a shift or day close while
    any table still has a player seated; 'warn' lets it go ahead (the close names them)."""
    if tables and policy == "refuse":
        raise Conflict(f"{running_warning(tables)}: the room's policy refuses a close while "
                       "anyone is seated", "R54")


def pick_shift(shift: int | None, shifts: int) -> int:
    """R54: the shift a count or close is for: named (1..``shifts``), or the only one."""
    if shift is None:
        if shifts == 1:
            return 1
        raise Invalid(f"the gaming day has {shifts} shifts: name the shift (1-{shifts})", "R54")
    if not 1 <= shift <= shifts:
        raise Invalid(f"there is no shift {shift}: the gaming day has "
                      f"{'one shift' if shifts == 1 else f'shifts 1-{shifts}'}", "R54")
    return shift


def check_shift_started(shift: int, start: datetime, now: datetime) -> None:
    """R54: a shift that has not started yet cannot be counted or closed."""
    if start > now:
        raise Invalid(f"shift {shift} has not started yet (it starts at {start:%Y-%m-%d %H:%M} "
                      "UTC)", "R54")


def check_previous_closed(shift: int, closed: Iterable[int]) -> None:
    """R54: shifts close in order; the day's last shift's close closes the gaming day."""
    missing = sorted(set(range(1, shift)) - set(closed))
    if missing:
        raise Conflict(f"close shift {missing[0]} before shift {shift}", "R54")


def check_pair(closer: int, closer_supervises: bool, other: int, other_supervises: bool) -> None:
    """R54: two different staff members close the day, one of them a supervisor."""
    if closer == other:
        raise Conflict("a day is closed by two different staff members: name the second one",
                       "R54")
    if not (closer_supervises or other_supervises):
        raise Conflict("one of the two staff members closing the day must be a supervisor", "R54")


def check_counts_complete(who: str, expected: Mapping[int | None, int],
                          counts: Mapping[int | None, tuple[int, int]],
                          names: Mapping[int | None, str]) -> None:
    """R54: a counter has counted the total and every table with ledger rows that day, and the
    ledger has not moved since (each count's ``expected`` is still the ledger's figure).

    ``expected``: table id (None: total) -> the ledger's figure now; ``counts``: table id ->
    (counted, expected when counted), the counter's latest count."""
    missing = [names.get(t, "total") for t in expected if t not in counts]
    if missing:
        raise Conflict(f"{who} has not counted {', '.join(missing)}", "R54")
    stale = [names.get(t, "total") for t, (_c, then) in counts.items()
             if then != expected.get(t, 0)]
    if stale:
        raise Conflict(f"the ledger changed after {who} counted {', '.join(stale)}: count again",
                       "R54")


def check_confirmed(confirmed: int | None, expected: int) -> None:
    """R54: a close confirmed on the strength of the totals shown records those totals: refused
    when the ledger's expected total is another by the time it is made (None: nothing shown)."""
    if confirmed is not None and confirmed != expected:
        raise Conflict("the ledger changed after the totals were shown (expected {confirmed} "
                       "then, {expected} now): read them again before closing", "R54",
                       amounts={"confirmed": confirmed, "expected": expected})


def closed_now(shift: int, closes_day: bool, by_shift: Iterable[Line]) -> tuple[int, int]:
    """R54: the rows and total a closed ``shift`` holds now, from its day's rows per shift
    (``Line.key``: the shift number): its own rows and, when its close closed the day, those of
    higher shift numbers (``roomops.ledger.report``). Equal to the close's figures unless the
    ledger was changed after the close."""
    lines = [x for x in by_shift if x.key == shift or (closes_day and int(x.key or 0) > shift)]
    return sum(x.entries for x in lines), sum(x.amount for x in lines)


def reconciles(total: Line, *parts: Iterable[Line]) -> bool:
    """R52: each breakdown of the day (per table, game, kind, staff, shift) adds up exactly to the total,
    in rows and in amount."""
    for lines in parts:
        lines = list(lines)
        if (sum(x.entries for x in lines), sum(x.amount for x in lines)) != (total.entries,
                                                                              total.amount):
            return False
    return True


def parse_day(raw: str) -> date:
    """A gaming day named in a URL, ``YYYY-MM-DD``; anything else names no day (404)."""
    try:
        return date.fromisoformat(raw) if len(raw) == 10 else date.fromisoformat("x")
    except ValueError:
        raise NotFound(f"no gaming day {raw!r}: name it as YYYY-MM-DD") from None
