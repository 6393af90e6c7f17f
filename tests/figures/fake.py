"""Made-up figures for the figures screen's tests (R80): an evening of a few hours, a week's heat
map and eight weeks' record, as ``roomops.figures.services.figures`` would lay them out."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from roomops.errors import NotFound
from roomops.figures.shape import Figures, HeatCell, Row, WeekTrust

TZ = "Europe/London"
DAY = date(2026, 11, 30)  # a Monday
HOURS = (18, 19, 20, 21, 22)


def row(hour: int, **changes: object) -> Row:
    """Hour ``hour`` of DAY: busier by the hour, raked and feed, a dealer in."""
    n = hour - 17
    base = Row(
        start=datetime(2026, 11, 30, hour, tzinfo=ZoneInfo(TZ)), label=f"{hour}:00", tables=float(n),
        seats_occupied=n * 7.5, occupancy=7.5 / 9, waiting=1.5 * n, joined=2 * n, seated=n,
        wait_median=6.0 * n, wait_p90=11.0 * n, estimate_error=2.0 + n, inside_range=0.75, no_shows=1,
        abandoned=n - 1,
        no_show_rate=1 / (n + 1), abandon_rate=(n - 1) / (2 * n), table_hours=float(n), rake=4250 * n,
        fees=1000 * n, rake_per_table_hour=4250.0, fees_per_table_hour=1000.0, player_hours=n * 7.5,
        dealer_hours=float(n), downs=2 * n)
    return replace(base, **changes)  # type: ignore[arg-type]


def figures(has_dealers: bool = True, **changes: object) -> Figures:
    closed = row(23, tables=0.0, seats_occupied=0.0, occupancy=None, wait_median=None, wait_p90=None,
                 estimate_error=None, inside_range=None, no_show_rate=None, abandon_rate=None,
                 rake_per_table_hour=None, fees_per_table_hour=None, player_hours=0.0, table_hours=0.0,
                 waiting=0.0, joined=0, seated=0, no_shows=0, abandoned=0, rake=0, fees=0, dealer_hours=0.0,
                 downs=0)  # the tables closed
    rows = (*(row(h) for h in HOURS), closed)
    heat = tuple(HeatCell(wd, h, 0.5 + wd / 20, 5.0 + h - 17, 2.0) for wd in range(7) for h in HOURS)
    weeks = tuple(WeekTrust(DAY - timedelta(weeks=7 - w), 10 * w, 0.6 + w / 40 if w else None,
                            8.0 - w / 2 if w else None) for w in range(8))
    base = Figures(room_name="Main room", currency="EUR", timezone=TZ, period="day", first_day=DAY,
                   last_day=DAY, game_id=None, games=((1, "NLH 1/2"), (2, "PLO 2/5")), rows=rows, heat=heat,
                   weeks=weeks, totals=row(20, label=""), has_dealers=has_dealers)
    return replace(base, **changes)  # type: ignore[arg-type]


def answer_with(monkeypatch: pytest.MonkeyPatch, made: Figures) -> list[dict[str, Any]]:
    """The screen's service answers ``made`` (a game not in it: not found, as the real one);
    returned: what the screen asked it for, call by call."""
    asked: list[dict[str, Any]] = []

    def figures_of(session: object, room_id: int, period: str, day: date, game_id: int | None, now: datetime,
                   language: str = "en") -> Figures:
        asked.append({"period": period, "day": day, "game": game_id, "language": language})
        if game_id is not None and game_id not in dict(made.games):
            raise NotFound("no such game in this room", "R80")
        return made

    monkeypatch.setattr("roomops.desk.figures.room_figures", figures_of)
    return asked
