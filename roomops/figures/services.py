"""The figures screen's figures (R80; docs/figures.md): a period's hours from the read model
(``figure_hours`` and ``figure_waits``, summed by the database hour by hour), the hours not rolled up
yet (today's, mostly) derived live from the rows with the same rollup, then laid out as steps of
the period, the week's heat map and the last weeks' trust in the estimate. Reads only."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from babel.dates import format_datetime
from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.errors import NotFound
from roomops.figures.buckets import quantile
from roomops.figures.facts import read_facts
from roomops.figures.models import FigureHour, FigureRoll, FigureRoomHour, FigureRoomWait, FigureWait, Measure
from roomops.figures.period import Period, period, weeks_before
from roomops.figures.rollup import COUNTED, HOUR, Counts, hour_of, roll
from roomops.figures.shape import Figures, HeatCell, PeriodKind, Row, WeekTrust
from roomops.games.models import Game
from roomops.rooms.gaming_day import gaming_day
from roomops.rooms.models import Room

_LABELS = {"today": "HH:mm", "day": "HH:mm", "week": "EEE HH:mm", "month": "EEE d MMM"}


def _rolled(session: Session, room_id: int, game_id: int | None, start: datetime, end: datetime,
            measures: tuple[Measure, ...]) -> dict[datetime, Counts]:
    """The rolled-up hours from ``start`` to ``end``, of one game or of all the room's games (their
    sums, kept beside them), with the minute buckets of ``measures``."""
    out: dict[datetime, Counts] = defaultdict(Counts)
    if end <= start:
        return out
    hours, waits = (FigureRoomHour, FigureRoomWait) if game_id is None else (FigureHour, FigureWait)
    where = [hours.room_id == room_id, hours.hour >= start, hours.hour < end]
    if game_id is not None:
        where.append(FigureHour.game_id == game_id)
    columns = [getattr(hours, name) for name in COUNTED]
    for hour, *sums in session.execute(select(hours.hour, *columns).where(*where)):
        counts = out[hour]
        for name, value in zip(COUNTED, sums, strict=True):
            setattr(counts, name, int(value))
    buckets = [waits.room_id == room_id, waits.hour >= start, waits.hour < end, waits.measure.in_(measures)]
    if game_id is not None:
        buckets.append(FigureWait.game_id == game_id)
    for hour, measure, bucket, n in session.execute(
            select(waits.hour, waits.measure, waits.bucket, waits.n).where(*buckets)):
        (out[hour].waits if measure == "wait" else out[hour].errors)[bucket] += int(n)
    return out


def _live(session: Session, room_id: int, game_id: int | None, start: datetime, end: datetime,
          now: datetime) -> dict[datetime, Counts]:
    """The hours not rolled up yet, derived from the rows as the rollup would write them."""
    out: dict[datetime, Counts] = defaultdict(Counts)
    if end <= start:
        return out
    last = hour_of(end) + (HOUR if end > hour_of(end) else timedelta())
    for (game, hour), counts in roll(read_facts(session, room_id, start, last), start, last, now).items():
        if game_id is None or game == game_id:
            out[hour].add(counts)
    return out


def hour_counts(session: Session, room_id: int, game_id: int | None, start: datetime, end: datetime,
                now: datetime, measures: tuple[Measure, ...] = ("wait", "error")) -> dict[datetime, Counts]:
    """R80: each hour's counts from ``start`` to ``end`` (on the hour, or ``now``): rolled up, or
    derived live past the room's rollup; of the rolled-up minute buckets, those of ``measures``."""
    through = session.scalar(select(FigureRoll.through).where(FigureRoll.room_id == room_id)) or start
    split = min(max(through, start), end)
    counts = _rolled(session, room_id, game_id, start, split, measures)
    counts.update(_live(session, room_id, game_id, split, end, now))
    return counts


# ---- laying the counts out ---------------------------------------------------------------------


def _share(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def _row(start: datetime, label: str, c: Counts, seconds: float) -> Row:
    table_hours = c.table_seconds / 3600
    ended = c.seated + c.no_shows + c.abandoned
    return Row(
        start=start, label=label, tables=c.table_seconds / seconds if seconds else 0.0,
        seats_occupied=c.seated_seconds / seconds if seconds else 0.0,
        occupancy=_share(c.seated_seconds, c.seat_seconds),
        waiting=c.waiting_seconds / seconds if seconds else 0.0,
        joined=c.joined, seated=c.seated, wait_median=quantile(c.waits, 0.5), wait_p90=quantile(c.waits, 0.9),
        estimate_error=quantile(c.errors, 0.5), inside_range=_share(c.inside, c.scored), no_shows=c.no_shows,
        abandoned=c.abandoned, no_show_rate=_share(c.no_shows, c.seated + c.no_shows),
        abandon_rate=_share(c.abandoned, ended), table_hours=table_hours, rake=c.rake, fees=c.fees,
        rake_per_table_hour=_share(c.rake, table_hours), fees_per_table_hour=_share(c.fees, table_hours),
        player_hours=c.seated_seconds / 3600, dealer_hours=c.dealer_seconds / 3600, downs=c.downs)


def _summed(counts: Iterable[Counts]) -> Counts:
    total = Counts()
    for c in counts:
        total.add(c)
    return total


def _hours(start: datetime, end: datetime) -> list[datetime]:
    out, at = [], hour_of(start)
    while at < end:
        out.append(at)
        at += HOUR
    return out


def _seconds(hours: Iterable[datetime], start: datetime, end: datetime) -> float:
    """The seconds of these hours that lie from ``start`` to ``end`` (the current hour: to now)."""
    return sum((min(h + HOUR, end) - max(h, start)).total_seconds() for h in hours)


def _steps(p: Period, counts: dict[datetime, Counts], tz: str, day_start_at: Callable[[datetime], date],
           language: str) -> list[Row]:
    groups: dict[datetime, list[datetime]] = {}
    for hour in _hours(p.start, p.end):
        local = hour.astimezone(ZoneInfo(tz))
        key = datetime.combine(day_start_at(hour), datetime.min.time(), ZoneInfo(tz)) if p.by_day else local
        groups.setdefault(key, []).append(hour)
    fmt = _LABELS[p.kind]
    return [_row(key, format_datetime(key, fmt, tzinfo=ZoneInfo(tz), locale=language),
                 _summed(counts[h] for h in group if h in counts), _seconds(group, p.start, p.end))
            for key, group in groups.items()]


def _heat(p: Period, counts: dict[datetime, Counts], tz: str, day_start_at: Callable[[datetime], date]
          ) -> list[HeatCell]:
    cells: dict[tuple[int, int], list[datetime]] = {}
    for hour in _hours(p.start, p.end):
        cells.setdefault((day_start_at(hour).weekday(), hour.astimezone(ZoneInfo(tz)).hour), []).append(hour)
    out = []
    for (weekday, local_hour), group in sorted(cells.items()):
        c = _summed(counts[h] for h in group if h in counts)
        if c.table_seconds or c.waits:
            out.append(HeatCell(weekday, local_hour, _share(c.seated_seconds, c.seat_seconds),
                                quantile(c.waits, 0.5), c.table_seconds / _seconds(group, p.start, p.end)))
    return out


def _weeks(session: Session, room: Room, game_id: int | None, end: datetime, now: datetime
           ) -> list[WeekTrust]:
    start, mondays = weeks_before(end, room.timezone, room.gaming_day_start)
    # the estimate's errors alone: eight weeks of the waits' buckets were half of a page's time
    counts = hour_counts(session, room.id, game_id, start, end, now, measures=("error",))
    by_week: dict[date, Counts] = {monday: Counts() for monday in mondays}
    for hour, c in counts.items():
        day = gaming_day(hour, room.timezone, room.gaming_day_start)
        by_week[day - timedelta(days=day.weekday())].add(c)
    return [WeekTrust(monday, c.scored, _share(c.inside, c.scored), quantile(c.errors, 0.5))
            for monday, c in by_week.items()]


def figures(session: Session, room_id: int, period_kind: PeriodKind, day: date, game_id: int | None,
            now: datetime, language: str = "en") -> Figures:
    """R80: the room's figures for the period around gaming ``day`` (``game_id`` None: all games),
    its hours labelled in ``language``."""
    room = session.get(Room, room_id)
    if room is None:
        raise NotFound(f"room {room_id}")
    games = tuple((g.id, f"{g.variant} {room.money.stakes(g.small_blind, g.big_blind, g.ante)}")
                  for g in session.scalars(select(Game).where(Game.room_id == room_id).order_by(Game.id)))
    if game_id is not None and game_id not in dict(games):
        raise NotFound("no such game in this room", "R80")
    p = period(period_kind, day, now, room.timezone, room.gaming_day_start)
    counts = hour_counts(session, room_id, game_id, p.start, p.end, now)
    total = _summed(counts.values())

    def day_of(hour: datetime) -> date:
        return gaming_day(hour, room.timezone, room.gaming_day_start)
    return Figures(
        room_name=room.name, currency=room.currency, timezone=room.timezone, period=p.kind,
        first_day=p.first_day, last_day=p.last_day, game_id=game_id, games=games,
        rows=tuple(_steps(p, counts, room.timezone, day_of, language)),
        heat=tuple(_heat(p, counts, room.timezone, day_of)),
        weeks=tuple(_weeks(session, room, game_id, p.end, now)),
        totals=_row(p.start.astimezone(ZoneInfo(room.timezone)), "", total,
                    (p.end - p.start).total_seconds()),
        has_dealers=bool(total.dealer_seconds or total.downs), day_start_hour=room.gaming_day_start.hour)
