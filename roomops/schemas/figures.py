"""The figures' query (R80): which period, around which gaming day, of which game."""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from roomops.db import INT_MAX
from roomops.figures.shape import PeriodKind

_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _iso_day(raw: Any) -> Any:
    """Only YYYY-MM-DD names a day (pydantic alone would read "0" as 1 January 1970)."""
    if isinstance(raw, str) and not _ISO_DAY.fullmatch(raw):
        raise ValueError("name the day as YYYY-MM-DD")
    return raw


Day = Annotated[date, BeforeValidator(_iso_day), Field(description="a gaming day, YYYY-MM-DD")]


class FiguresQuery(BaseModel):
    """``?period=today|day|week|month&day=YYYY-MM-DD&game=ID``: the period (today so far by
    default) around gaming ``day`` (today's when omitted), of one game (all when omitted)."""

    model_config = ConfigDict(extra="ignore")

    period: PeriodKind = "today"
    day: Day | None = None
    game: int | None = Field(default=None, ge=1, le=INT_MAX)
