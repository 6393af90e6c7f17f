"""Keeping the figures' read model (R80; docs/figures.md "The read model"): each closed hour of a
room is rolled up once (``roll_up``, run by the sweep as the hour closes) and the whole history
can be rolled up again from the books and the state rows (``rebuild``, ``flask figures rebuild``).

Idempotent: an hour's rows are replaced, never added to, and the room's ``FigureRoll`` row (read
for update: one roller a room at a time) says how far the rollup has come, so a sweep that runs
twice, or two schedulers, write each hour once."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from sqlalchemy import delete, func, insert, or_, select
from sqlalchemy.orm import Session

from roomops.figures.facts import read_facts
from roomops.figures.models import FigureHour, FigureRoll, FigureRoomHour, FigureRoomWait, FigureWait
from roomops.figures.rollup import COUNTED, Counts, Key, hour_of, roll
from roomops.games.models import Table
from roomops.rooms.models import Room

STEP = timedelta(days=7)  # hours rolled up in one go: a week's rows at a time
SWEEP_LIMIT = timedelta(days=28)  # a sweep catches up at most this much of a room (the rest next time)
ROLLED = (FigureHour, FigureWait, FigureRoomHour, FigureRoomWait)  # the rows an hour's rollup writes


def due_rooms(session: Session, now: datetime) -> list[int]:
    """Rooms with a closed hour not rolled up yet."""
    rolled = select(FigureRoll.through).where(FigureRoll.room_id == Room.id).scalar_subquery()
    return list(session.scalars(select(Room.id).where(
        or_(rolled.is_(None), rolled < hour_of(now))).order_by(Room.id)))


def _first_hour(session: Session, room_id: int, now: datetime) -> datetime:
    """Where a room's history starts: its first table's opening hour (nothing counts before)."""
    first = session.scalar(select(func.min(Table.opened_at)).where(Table.room_id == room_id))
    return hour_of(min(first, now) if first is not None else now)


def _steps(start: datetime, end: datetime) -> Iterator[tuple[datetime, datetime]]:
    while start < end:
        yield start, min(end, start + STEP)
        start += STEP


def _rows(place: dict[str, object], counts: Counts) -> tuple[dict[str, object], list[dict[str, object]]]:
    """An hour's counts as its row and its buckets' rows, at ``place`` (room, game or not, hour)."""
    return ({**place, **{name: getattr(counts, name) for name in COUNTED}},
            [{**place, "measure": measure, "bucket": bucket, "n": n}
             for measure, buckets in (("wait", counts.waits), ("error", counts.errors))
             for bucket, n in buckets.items() if n])


def _write(session: Session, room_id: int, counted: dict[Key, Counts]) -> None:
    """Each game's hours, and each hour of all the games summed (a page of all games reads those)."""
    rooms: dict[datetime, Counts] = {}
    for (_game_id, hour), counts in counted.items():
        rooms.setdefault(hour, Counts()).add(counts)
    for (hours, waits), rows in (
            ((FigureHour, FigureWait), [_rows({"room_id": room_id, "game_id": game_id, "hour": hour}, counts)
                                        for (game_id, hour), counts in counted.items()]),
            ((FigureRoomHour, FigureRoomWait), [_rows({"room_id": room_id, "hour": hour}, counts)
                                                for hour, counts in rooms.items()])):
        if rows:
            session.execute(insert(hours), [row for row, _buckets in rows])
        buckets = [bucket for _row, bs in rows for bucket in bs]
        if buckets:
            session.execute(insert(waits), buckets)


def _roll_range(session: Session, room_id: int, start: datetime, end: datetime, now: datetime) -> int:
    """The hours from ``start`` to ``end`` rolled up anew: their rows replaced; how many hours."""
    for model in ROLLED:
        session.execute(delete(model).where(model.room_id == room_id, model.hour >= start, model.hour < end))
    for a, b in _steps(start, end):
        _write(session, room_id, roll(read_facts(session, room_id, a, b), a, b, now))
    return int((end - start) / timedelta(hours=1))


def roll_up(session: Session, room_id: int, now: datetime, limit: timedelta | None = SWEEP_LIMIT) -> int:
    """R80: the room's closed hours not rolled up yet (``limit`` of them at most), rolled up;
    how many hours. The caller commits."""
    mark = session.scalar(select(FigureRoll).where(FigureRoll.room_id == room_id).with_for_update())
    if mark is None:  # a new room's mark is set at once, so the next sweep does not ask again
        mark = FigureRoll(room_id=room_id, through=_first_hour(session, room_id, now), rolled_at=now)
        session.add(mark)
    start = mark.through
    end = hour_of(now) if limit is None else min(hour_of(now), start + limit)
    if end <= start:
        session.flush()
        return 0
    rolled = _roll_range(session, room_id, start, end, now)
    mark.through, mark.rolled_at = end, now
    session.flush()
    return rolled


def rebuild(session: Session, room_id: int, now: datetime) -> int:
    """R80: the room's whole history rolled up again from the books and the state rows; how many
    hours. The caller commits."""
    session.execute(delete(FigureRoll).where(FigureRoll.room_id == room_id))
    for model in ROLLED:
        session.execute(delete(model).where(model.room_id == room_id))
    return roll_up(session, room_id, now, limit=None)
