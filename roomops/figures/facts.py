"""The rows of a room that touch some hours, read for the rollup (R80; ``roomops.figures.rollup``).

Reads only, one statement a kind of row, each by room and time through an index (tables by
``ix_tables_room_closed``, seat holds by
``ix_seat_holds_room_ended`` and the live seats' index, entries by ``ix_list_entries_room_ended``
and the active entries' index, the ledger by room and gaming day, downs by
``ix_dealer_downs_room_recorded``): an hour's rollup reads that hour's rows and those still running
through it, however long the room's history."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.orm import Session, aliased

from roomops.dealers.models import DealerSpell
from roomops.figures.rollup import Entry, Facts, Money, Span
from roomops.games.models import Game, Table
from roomops.holds.models import OFFER, SEATED, SeatHold
from roomops.ledger.models import DealerDown, LedgerEntry
from roomops.lists.models import ListEntry
from roomops.waits.shown import Shown

_RAKE = ("rake",)
_FEES = ("session_fee", "drop")  # R50, R53: drop fees and time (session) fees
_MISSED = ("declined", "expired")  # R22: calls not taken up
_DAY_MARGIN = timedelta(days=2)  # a UTC hour's gaming day lies within a day of its date
At = tuple[int, datetime]  # (game, when)


def _overlapping(started: Any, ended: Any, start: datetime, end: datetime) -> Any:
    """Rows running at some time from ``start`` to ``end``: ended after ``start`` (by the ended
    index) or not ended (by the live index), begun before ``end``."""
    return and_(started < end, or_(ended >= start, ended.is_(None)))


def _game_of(table_id: Any) -> Any:
    """The game of a row's table, looked up by the table's key row by row: the hours' rows drive
    the statement. Joined instead, the planners read every table the room ever opened (SQLite from
    the tables to the rows, PostgreSQL hashing them all), a year's 70,000 (docs/benchmarks.md)."""
    return select(Table.game_id).where(Table.id == table_id).scalar_subquery()


def _spans(session: Session, statement: Any) -> list[Span]:
    return [Span(game, started, ended, weight) for game, started, ended, weight in session.execute(statement)]


def _tables(session: Session, room_id: int, start: datetime, end: datetime) -> list[Span]:
    return _spans(session, select(Table.game_id, Table.opened_at, Table.closed_at, Game.seats_per_table)
                  .join(Game, Game.id == Table.game_id)
                  .where(Table.room_id == room_id,
                         _overlapping(Table.opened_at, Table.closed_at, start, end)))


def _seats(session: Session, room_id: int, start: datetime, end: datetime) -> list[Span]:
    held = select(_game_of(SeatHold.table_id), SeatHold.started_at, SeatHold.ended_at, 1).where(
        SeatHold.room_id == room_id, SeatHold.kind == SEATED)
    ended = held.where(SeatHold.ended_at >= start, SeatHold.started_at < end)
    live = held.where(SeatHold.ended_at.is_(None), SeatHold.started_at < end)
    return _spans(session, ended.union_all(live))


def _entries(session: Session, room_id: int, start: datetime, end: datetime) -> list[Entry]:
    rows = select(ListEntry.game_id, ListEntry.joined_at, ListEntry.ended_at, ListEntry.status,
                  ListEntry.end_reason, ListEntry.shown_low, ListEntry.shown_median, ListEntry.shown_high
                  ).where(ListEntry.room_id == room_id, ListEntry.joined_at < end)
    ended = rows.where(ListEntry.ended_at >= start)
    live = rows.where(ListEntry.status == "active")
    return [Entry(game, joined, ended_at, status, reason, None if low is None else Shown(low, median, high))
            for game, joined, ended_at, status, reason, low, median, high
            in session.execute(ended.union_all(live))]


def _missed_offers(session: Session, room_id: int, start: datetime, end: datetime) -> list[At]:
    rows = select(_game_of(SeatHold.table_id), SeatHold.ended_at).where(
        SeatHold.room_id == room_id, SeatHold.ended_at >= start, SeatHold.ended_at < end,
        SeatHold.kind == OFFER, SeatHold.entry_id.is_not(None), SeatHold.outcome.in_(_MISSED))
    return [(game, at) for game, at in session.execute(rows)]


def _money(session: Session, room_id: int, start: datetime, end: datetime) -> list[Money]:
    """Rake and fees as the house takes them (their rows are out of play: negative amounts), a
    reversal as the kind it reverses, in its own hour."""
    row, original = LedgerEntry, aliased(LedgerEntry)
    kind = func.coalesce(original.kind, row.kind)
    table = aliased(Table)
    game = func.coalesce(row.game_id, original.game_id, table.game_id)
    rake = case((kind.in_(_RAKE), -row.amount), else_=0)
    fees = case((kind.in_(_FEES), -row.amount), else_=0)
    statement = (select(game, row.at, rake, fees)
                 .outerjoin(original, original.id == row.reverses_id)
                 .outerjoin(table, table.id == func.coalesce(row.table_id, original.table_id))
                 .where(row.room_id == room_id,
                        row.gaming_day.between((start - _DAY_MARGIN).date(), (end + _DAY_MARGIN).date()),
                        row.at >= start, row.at < end, kind.in_(_RAKE + _FEES)))
    return [Money(g, at, int(r), int(f)) for g, at, r, f in session.execute(statement) if g is not None]


def _dealing(session: Session, room_id: int, start: datetime, end: datetime) -> list[Span]:
    return _spans(session, select(_game_of(DealerSpell.table_id), DealerSpell.started_at,
                                  DealerSpell.ended_at, 1)
                  .where(DealerSpell.room_id == room_id, DealerSpell.kind == "down",
                         _overlapping(DealerSpell.started_at, DealerSpell.ended_at, start, end)))


def _downs(session: Session, room_id: int, start: datetime, end: datetime) -> list[At]:
    rows = select(_game_of(DealerDown.table_id), DealerDown.recorded_at).where(
        DealerDown.room_id == room_id, DealerDown.recorded_at >= start, DealerDown.recorded_at < end)
    return [(game, at) for game, at in session.execute(rows)]


def read_facts(session: Session, room_id: int, start: datetime, end: datetime) -> Facts:
    """Everything of ``room_id`` that touches the hours from ``start`` to ``end``."""
    return Facts(_tables(session, room_id, start, end), _seats(session, room_id, start, end),
                 _entries(session, room_id, start, end), _missed_offers(session, room_id, start, end),
                 _money(session, room_id, start, end), _dealing(session, room_id, start, end),
                 _downs(session, room_id, start, end))
