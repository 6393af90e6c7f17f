"""The manager's figures screen (R80; docs/figures.md): the chooser (period, day, game), each chart
(``roomops.figures.charts``) with its table, a CSV a chart, printable. The figures right opens it
(R61, ``roomops.web.access``). In the manager's language (?lang=, remembered), as the player pages
are (``roomops.web.language``); a query that names nothing known is said so on the page (422)."""

from __future__ import annotations

import csv
import io
from datetime import date

from babel.dates import format_date
from flask import Blueprint, render_template, request
from flask import Response as FlaskResponse
from flask_login import current_user
from pydantic import ValidationError

from roomops.errors import Invalid, NotFound
from roomops.figures.charts import PERIOD_NAMES, Chart, charts
from roomops.figures.services import figures as room_figures
from roomops.figures.shape import PERIODS, Figures
from roomops.rooms.gaming_day import gaming_day
from roomops.rooms.models import Room
from roomops.schemas.figures import FiguresQuery
from roomops.web.language import in_language, tr, use_language
from roomops.web.uow import db, now

bp = Blueprint("figures", __name__)


def _query(room: Room) -> tuple[FiguresQuery, date, str | None]:
    """The chooser's query, its gaming day (today's when none), and what was wrong with it in words."""
    today = gaming_day(now(), room.timezone, room.gaming_day_start)
    args = {k: v for k, v in request.args.items() if k in ("period", "day", "game") and v != ""}
    try:
        q = FiguresQuery.model_validate(args)
    except ValidationError as err:
        fields = {str(e["loc"][0]) for e in err.errors() if e["loc"]}
        if "period" in fields:
            message = tr("The period is one of today so far, a gaming day, a week or a month.")
        elif "day" in fields:
            message = tr("Name the day as year-month-day, 2026-12-01 say.")
        else:
            message = tr("Choose one of the room's games, or all games.")
        return FiguresQuery(), today, message
    return q, q.day or today, None


def _figures(room: Room, lang: str) -> tuple[FiguresQuery, date, Figures, str | None]:
    q, day, problem = _query(room)
    try:
        return q, day, room_figures(db(), room.id, q.period, day, q.game, now(), lang), problem
    except NotFound:
        q = FiguresQuery(period=q.period, day=q.day)
        return q, day, room_figures(db(), room.id, q.period, day, None, now(), lang), \
            tr("Choose one of the room's games, or all games.")


def _period_words(f: Figures, lang: str) -> str:
    first = format_date(f.first_day, "full", locale=lang)
    if f.first_day == f.last_day:
        return first
    return f"{first} \N{EN DASH} {format_date(f.last_day, 'full', locale=lang)}"


@bp.get("/figures")
def index() -> tuple[str, int]:
    room = db().get_one(Room, current_user.room_id)
    lang = use_language(room)
    q, day, f, problem = _figures(room, lang)
    shown = charts(f, tr, lang)
    args = {"period": q.period, "day": day.isoformat(), "game": q.game, "lang": in_language(lang)}
    return render_template("figures/page.html", f=f, charts=shown, q=q, day=day, problem=problem, args=args,
                           periods=[(p, tr(PERIOD_NAMES[p])) for p in PERIODS],
                           period_words=_period_words(f, lang), lang=lang), 422 if problem else 200


def _csv(chart: Chart) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(chart.table.headings)
    writer.writerows(["" if v is None else v for v in row] for row in chart.table.values)
    return out.getvalue()


@bp.get("/figures/<string:key>.csv")
def chart_csv(key: str) -> FlaskResponse:
    """One chart's table as CSV: the numbers drawn (money in major units, shares in percent)."""
    room = db().get_one(Room, current_user.room_id)
    lang = use_language(room)
    q, _day, f, problem = _figures(room, lang)
    if problem:
        raise Invalid(problem)
    chart = next((c for c in charts(f, tr, lang) if c.key == key), None)
    if chart is None:
        raise NotFound(tr("There is no such chart."))
    name = f"{room.slug}-figures-{key}-{q.period}-{f.first_day.isoformat()}.csv"
    return FlaskResponse(_csv(chart), mimetype="text/csv",
                         headers={"Content-Disposition": f'attachment; filename="{name}"'})
