"""Response bodies of the figures route (``roomops.api.figures``, R80): the screen's figures,
field for field (``roomops.figures.shape``)."""

from __future__ import annotations

from datetime import date, datetime

from pydantic import Field

from roomops.api.models import Out
from roomops.figures.shape import PeriodKind


class FigureRowOut(Out):
    """One step of the period (an hour, or a gaming day of a month): averages over the step,
    counts in it, money in minor units, waits in minutes; null where nothing was measured."""

    start: datetime
    label: str
    tables: float
    seats_occupied: float
    occupancy: float | None
    waiting: float
    joined: int
    seated: int
    wait_median: float | None
    wait_p90: float | None
    estimate_error: float | None = Field(description="R10-R14: median |wait shown at joining - real wait|")
    inside_range: float | None = Field(description="R10-R14: share of real waits inside the range shown")
    no_shows: int
    abandoned: int
    no_show_rate: float | None
    abandon_rate: float | None
    table_hours: float
    rake: int
    fees: int
    rake_per_table_hour: float | None
    fees_per_table_hour: float | None
    player_hours: float
    dealer_hours: float
    downs: int


class HeatCellOut(Out):
    weekday: int = Field(description="0 Monday .. 6 Sunday, in the room's time")
    hour: int
    occupancy: float | None
    wait_median: float | None
    tables: float


class WeekTrustOut(Out):
    week_start: date
    scored: int
    inside_range: float | None
    estimate_error: float | None


class FiguresOut(Out):
    """R80: a room's figures for a period and game (``game_id`` null: all games)."""

    room_name: str
    currency: str
    timezone: str
    period: PeriodKind
    first_day: date
    last_day: date
    game_id: int | None
    rows: list[FigureRowOut]
    heat: list[HeatCellOut]
    weeks: list[WeekTrustOut]
    totals: FigureRowOut
    has_dealers: bool
