"""The figures screen's charts (R80; docs/figures.md, "Charts"): from a ``Figures``, each chart's
Vega-Lite spec and its table, both from the same values, so what is drawn is what the table and
the CSV say. Pure: no Flask; words through a ``Translate`` (``roomops.words``), numbers in the
page's language (Babel).

A chart's values are rounded as its table shows them (a drawn point is its table's cell); a value
there was nothing to measure for (no table ran, nobody was seated) is left out of the drawing and
shown as a dash in the table."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from babel.dates import format_date, get_day_names
from babel.numbers import format_currency, format_decimal, get_currency_precision

from roomops.figures.shape import Figures, HeatCell, Row, WeekTrust
from roomops.words import N_, Translate

SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"  # names the spec's version; never fetched
DASH = "\N{EN DASH}"
WIDTH = "container"  # the chart fills its card; the page's CSS gives the card its width
HEIGHT = 260
HOURS = range(24)
Value = float | None


@dataclass(frozen=True)
class Table:
    """A chart's table: its headings, its rows as shown (formatted) and as numbers (the CSV)."""

    headings: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    values: tuple[tuple[str | float | None, ...], ...]


@dataclass(frozen=True)
class Chart:
    key: str  # its address: /figures/<key>.csv
    title: str
    spec: dict[str, Any]
    table: Table


@dataclass(frozen=True)
class _Series:
    """One measure of a step: its heading, how it is read off the row, its decimals, and whether
    the chart draws it (some are in the table alone)."""

    heading: str
    read: Callable[[Any], Value]
    decimals: int = 1
    drawn: bool = True
    kind: str = "number"  # "number", "percent" (a 0..1 share drawn as 0..100) or "money" (minor units)


def _rounded(s: _Series, raw: Value, digits: int) -> Value:
    """The value as the chart draws it: a share in percent, money in major units, rounded as shown."""
    if raw is None:
        return None
    if s.kind == "percent":
        return round(float(raw) * 100, s.decimals)
    if s.kind == "money":
        return round(float(raw) / 10.0**digits, digits)
    return round(float(raw), s.decimals) if s.decimals else round(raw)  # a count: 3, not 3.0


def _shown(s: _Series, value: Value, language: str, currency: str) -> str:
    if value is None:
        return DASH
    if s.kind == "money":
        return format_currency(Decimal(str(value)), currency, locale=language)
    pattern = "#,##0" + ("." + "0" * s.decimals if s.decimals else "")
    number = format_decimal(Decimal(str(value)), format=pattern, locale=language)
    return f"{number} %" if s.kind == "percent" else number


def _config(language: str) -> dict[str, Any]:
    return {"view": {"stroke": None},
            "axis": {"labelFontSize": 11, "titleFontSize": 12, "gridColor": "#e6e8eb"},
            "legend": {"orient": "bottom", "labelFontSize": 12, "title": None},
            "font": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
            "usermeta": {"language": language}}


def _spec(values: list[dict[str, Any]], encoding: dict[str, Any], mark: dict[str, Any], language: str,
          height: int = HEIGHT) -> dict[str, Any]:
    return {"$schema": SCHEMA, "width": WIDTH, "height": height,
            "autosize": {"type": "fit", "contains": "padding"},
            "data": {"name": "rows", "values": values}, "mark": mark, "encoding": encoding,
            "config": _config(language)}


def _steps_chart(key: str, title: str, axis: str, steps: Sequence[Row | WeekTrust],
                 label: Callable[[Any], str], series: Sequence[_Series], f: Figures, tr: Translate,
                 language: str, bars: bool = False) -> Chart:
    """A chart of measures over the period's steps (or weeks): one line (or bar) a drawn series,
    each step's values in a table row."""
    digits = get_currency_precision(f.currency)
    values: list[dict[str, Any]] = []
    shown, raws = [], []
    for step in steps:
        name = label(step)
        cells = [(s, _rounded(s, s.read(step), digits)) for s in series]
        shown.append((name, *(_shown(s, v, language, f.currency) for s, v in cells)))
        raws.append((name, *(v for _s, v in cells)))
        values += [{"step": name, "series": s.heading, "value": v}
                   for s, v in cells if s.drawn and v is not None]
    # every step on the axis, in order, those with nothing drawn too (a week nobody was scored in)
    x = {"field": "step", "type": "ordinal", "title": None, "scale": {"domain": [row[0] for row in raws]},
         "axis": {"labelAngle": 0, "labelOverlap": "greedy"}}
    drawn = [s.heading for s in series if s.drawn]
    encoding: dict[str, Any] = {
        "x": x, "y": {"field": "value", "type": "quantitative", "title": axis},
        "color": {"field": "series", "type": "nominal",
                  "scale": {"domain": drawn, "range": _COLOURS[:len(drawn)]}},
        "tooltip": [{"field": "step", "title": tr("When")}, {"field": "series", "title": tr("Measure")},
                    {"field": "value", "title": axis, "type": "quantitative"}]}
    if bars:
        encoding["xOffset"] = {"field": "series", "sort": drawn}
    mark = ({"type": "bar", "cornerRadiusEnd": 2} if bars
            else {"type": "line", "point": True, "strokeWidth": 2})
    table = Table((tr("When"), *(s.heading for s in series)), tuple(shown), tuple(raws))
    return Chart(key, title, _spec(values, encoding, mark, language), table)


_COLOURS = ["#1f6feb", "#e07b00", "#2da44e", "#8250df"]


def _heat_chart(key: str, title: str, legend: str, cells: Sequence[HeatCell], s: _Series, f: Figures,
                tr: Translate, language: str) -> Chart:
    """R80: the week as hour x weekday, one cell an hour of the week that had something to
    measure (168 at most); its table: a row a weekday, a column an hour."""
    days = get_day_names("abbreviated", locale=language)
    digits = get_currency_precision(f.currency)
    by_cell = {(c.weekday, c.hour): _rounded(s, s.read(c), digits) for c in cells}
    # the hours the room had anything in: the chart's columns and the table's (24 leave an
    # evening room's chart mostly empty, and a printed page has no room for them)
    # in the order of the gaming day (R2): an evening room's 23:00, then midnight, then 01:00
    hours = sorted({h for (_wd, h), v in by_cell.items() if v is not None} or HOURS,
                   key=lambda h: (h - f.day_start_hour) % 24)
    values = [{"weekday": days[wd], "wd": wd, "hour": hour, "value": v}
              for (wd, hour), v in sorted(by_cell.items()) if v is not None]
    encoding = {
        "x": {"field": "hour", "type": "ordinal", "title": tr("Hour"), "scale": {"domain": hours},
              "axis": {"labelAngle": 0}},
        "y": {"field": "weekday", "type": "ordinal", "title": None, "sort": [days[d] for d in range(7)],
              "scale": {"domain": [days[d] for d in range(7)]}},
        "color": {"field": "value", "type": "quantitative", "title": legend,
                  "scale": {"scheme": "blues" if s.kind == "percent" else "oranges"},
                  "legend": {"orient": "right", "title": f"{legend} (%)" if s.kind == "percent" else legend}},
        "tooltip": [{"field": "weekday", "title": tr("Day")}, {"field": "hour", "title": tr("Hour")},
                    {"field": "value", "title": legend, "type": "quantitative"}]}
    shown = tuple((days[wd], *(_shown(s, by_cell.get((wd, h)), language, f.currency) for h in hours))
                  for wd in range(7))
    raws = tuple((days[wd], *(by_cell.get((wd, h)) for h in hours)) for wd in range(7))
    spec = _spec(values, encoding, {"type": "rect", "stroke": "#fff", "strokeWidth": 1}, language, height=220)
    return Chart(key, title, spec, Table((tr("Day"), *(f"{h:02d}" for h in hours)), shown, raws))


def charts(f: Figures, tr: Translate, language: str = "en") -> list[Chart]:
    """R80: the figures screen's charts, in the order shown; the dealers' only where a roster was
    kept in the period (``has_dealers``)."""
    def step(r: Row) -> str:
        return r.label

    def week(w: WeekTrust) -> str:
        return format_date(w.week_start, "d MMM", locale=language)

    out = [
        _steps_chart("seats", tr("Tables running and seats occupied"), tr("on average"), f.rows, step, (
            _Series(tr("Tables running"), lambda r: r.tables),
            _Series(tr("Seats occupied"), lambda r: r.seats_occupied),
            _Series(tr("Occupancy"), lambda r: r.occupancy, kind="percent", drawn=False),
            _Series(tr("Player hours"), lambda r: r.player_hours, drawn=False)), f, tr, language),
        _steps_chart("waiting", tr("Players waiting"), tr("players"), f.rows, step, (
            _Series(tr("Waiting on the lists"), lambda r: r.waiting),
            _Series(tr("Joined a list"), lambda r: r.joined, decimals=0),
            _Series(tr("Seated from a list"), lambda r: r.seated, decimals=0)), f, tr, language),
        _steps_chart("waits", tr("Waits and the estimate's error"), tr("minutes"), f.rows, step, (
            _Series(tr("Median wait"), lambda r: r.wait_median, decimals=0),
            _Series(tr("90th percentile wait"), lambda r: r.wait_p90, decimals=0),
            _Series(tr("Estimate's error"), lambda r: r.estimate_error, decimals=0),
            _Series(tr("Inside the range shown"), lambda r: r.inside_range, kind="percent", drawn=False)),
            f, tr, language),
        _steps_chart("rates", tr("No-shows and players leaving the list"), "%", f.rows, step, (
            _Series(tr("No-show rate"), lambda r: r.no_show_rate, kind="percent"),
            _Series(tr("Left the list unseated"), lambda r: r.abandon_rate, kind="percent"),
            _Series(tr("No-shows"), lambda r: r.no_shows, decimals=0, drawn=False),
            _Series(tr("Left unseated"), lambda r: r.abandoned, decimals=0, drawn=False)), f, tr, language,
            bars=True),
        _steps_chart("money", tr("Rake and fees per table-hour"), f.currency, f.rows, step, (
            _Series(tr("Rake per table-hour"), lambda r: r.rake_per_table_hour, kind="money"),
            _Series(tr("Fees per table-hour"), lambda r: r.fees_per_table_hour, kind="money"),
            _Series(tr("Table-hours"), lambda r: r.table_hours, drawn=False),
            _Series(tr("Rake"), lambda r: r.rake, kind="money", drawn=False),
            _Series(tr("Fees"), lambda r: r.fees, kind="money", drawn=False)), f, tr, language, bars=True),
    ]
    if f.has_dealers:
        out.append(_steps_chart(
            "dealers", tr("Dealer hours and downs"), tr("hours and downs"), f.rows, step, (
                _Series(tr("Dealer hours"), lambda r: r.dealer_hours),
                _Series(tr("Downs"), lambda r: r.downs, decimals=0)), f, tr, language, bars=True))
    out += [
        _heat_chart("heat-occupancy", tr("The week: occupancy by hour"), tr("Occupancy"), f.heat,
                    _Series(tr("Occupancy"), lambda c: c.occupancy, kind="percent", decimals=0),
                    f, tr, language),
        _heat_chart("heat-waits", tr("The week: median wait by hour"), tr("minutes"), f.heat,
                    _Series(tr("Median wait"), lambda c: c.wait_median, decimals=0), f, tr, language),
        _steps_chart("trust", tr("The estimate's record, week by week"), tr("percent inside, minutes off"),
                     f.weeks, week, (
                         _Series(tr("Inside the range shown"), lambda w: w.inside_range, kind="percent"),
                         _Series(tr("Median error (minutes)"), lambda w: w.estimate_error, decimals=0),
                         _Series(tr("Players scored"), lambda w: w.scored, decimals=0, drawn=False)),
                     f, tr, language),
    ]
    return out


KEYS = ("seats", "waiting", "waits", "rates", "money", "dealers", "heat-occupancy", "heat-waits", "trust")
PERIOD_NAMES = {"today": N_("Today so far"), "day": N_("A gaming day"), "week": N_("A week"),
                "month": N_("A month")}
