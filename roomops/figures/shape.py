"""What the figures screen shows (R80; docs/figures.md): plain data, no Flask or SQLAlchemy.

``roomops.figures.services.figures`` builds a ``Figures`` from the read model; the charts
(``roomops.figures.charts``), the tables and the CSV are all drawn from the same rows, so a
chart's numbers are its table's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

PeriodKind = Literal["today", "day", "week", "month"]
PERIODS: tuple[PeriodKind, ...] = ("today", "day", "week", "month")


@dataclass(frozen=True)
class Row:
    """One step of the period, in the room's time: an hour (today, a gaming day, a week) or a
    gaming day (a month). Averages are over the step's length; ``None`` where nothing was there to
    measure (no table ran, nobody was seated from a list)."""

    start: datetime  # aware, in the room's time zone
    label: str  # how the step is named on an axis: "20:00", "Mon 20:00", "Tue 2 Dec"
    tables: float  # tables running, on average
    seats_occupied: float  # players seated, on average
    occupancy: float | None  # seats occupied / the seats of the tables running (0..1)
    waiting: float  # entries on the lists (waiting and reserve), on average
    joined: int  # entries that joined a list
    seated: int  # entries seated from a list (an offer claimed)
    wait_median: float | None  # minutes from joining to the seat, of those seated in the step
    wait_p90: float | None
    estimate_error: float | None  # median |estimate shown at joining - real wait|, minutes
    inside_range: float | None  # share of real waits inside the range shown at joining (0..1)
    no_shows: int  # offers not answered and remote entries that never checked in (R12, R22)
    abandoned: int  # entries that left a list unseated, by the player or the desk (R16)
    no_show_rate: float | None  # no_shows / (seated + no_shows)
    abandon_rate: float | None  # abandoned / entries that ended (seated + no_shows + abandoned)
    table_hours: float
    rake: int  # minor units (R50-R52, reversals netted in the hour they were written)
    fees: int  # minor units: time and session fees, drop fees (R53, R54)
    rake_per_table_hour: float | None  # minor units
    fees_per_table_hour: float | None
    player_hours: float  # hours played by seated players
    dealer_hours: float  # hours dealers were checked in (R62); 0 where the room has no roster
    downs: int  # dealer downs recorded (R63)


@dataclass(frozen=True)
class HeatCell:
    """One hour of the week (Monday first, in the room's time) over the period: its average
    occupancy and median wait. The weekday is the gaming day's (R2): a night's hours after
    midnight stay on its evening's row."""

    weekday: int  # 0 Monday .. 6 Sunday
    hour: int  # 0..23
    occupancy: float | None
    wait_median: float | None
    tables: float  # tables running on average in that hour of the week


@dataclass(frozen=True)
class WeekTrust:
    """How far players could trust the wait shown (docs/waits.md): per week (Monday first), the
    share of real waits inside the range shown at joining and the median error."""

    week_start: date
    scored: int  # players seated from a list who had been shown an estimate
    inside_range: float | None
    estimate_error: float | None  # minutes


@dataclass(frozen=True)
class Figures:
    """A room's figures for one period and game (all games when ``game_id`` is None)."""

    room_name: str
    currency: str
    timezone: str
    period: PeriodKind
    first_day: date  # the period's first gaming day
    last_day: date  # and its last
    game_id: int | None
    games: tuple[tuple[int, str], ...]  # (id, name) of the room's games, for the chooser
    rows: tuple[Row, ...]
    heat: tuple[HeatCell, ...]  # 168 cells, hours without history left out
    weeks: tuple[WeekTrust, ...]  # the last eight weeks to the period's end
    totals: Row  # the whole period as one step
    has_dealers: bool  # a roster was kept in the period: the dealers' chart is shown
    day_start_hour: int = 6  # the hour the room's gaming day starts: the heat map's first column
