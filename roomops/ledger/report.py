"""The day's report (R52, R54): the ledger's rows of one gaming day per table, game, kind (fee
type), method (R32: cash at the table apart from the cage's cash) and staff member, the counts
against the expected figures, and the close if there is one.

A fixed number of statements whatever the number of rows: one GROUP BY per breakdown, one for the
total, one for the counts and one for the close. Reads only; nothing here writes."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from datetime import date

from sqlalchemy import ColumnElement, Select, func, select
from sqlalchemy.orm import Session

from roomops.games.models import Game, Table
from roomops.ledger.closing import Line, reconciles, variance
from roomops.ledger.models import DayClose, DayCount, LedgerEntry
from roomops.ledger.rules import method_name
from roomops.rooms.models import Staff


@dataclass(frozen=True, slots=True)
class CountLine:
    """One staff member's latest count of one table (``table_id`` None: the total)."""

    table_id: int | None
    table: str
    staff_id: int
    staff: str
    counted: int
    expected: int
    variance: int
    explanation: str | None


@dataclass(frozen=True)
class DayReport:
    gaming_day: date
    currency: str
    total: Line
    by_table: list[Line]
    by_game: list[Line]
    by_kind: list[Line]
    by_method: list[Line]
    by_staff: list[Line]
    counts: list[CountLine] = field(default_factory=list)
    close: DayClose | None = None

    @property
    def reconciled(self) -> bool:
        """R52: every breakdown adds up to the total exactly."""
        return reconciles(self.total, self.by_table, self.by_game, self.by_kind, self.by_method,
                          self.by_staff)

    @property
    def closed(self) -> bool:
        return self.close is not None

    @property
    def as_closed(self) -> bool:
        """R54: the day's figures are still the ones closed (rows and total); always true while
        the day is open. False would mean a row reached the day after its close."""
        return self.close is None or (self.close.entries, self.close.expected_total) == (
            self.total.entries, self.total.amount)


def _day(room_id: int, day: date) -> tuple[ColumnElement[bool], ...]:
    return (LedgerEntry.room_id == room_id, LedgerEntry.gaming_day == day)


def _grouped(room_id: int, day: date, key: ColumnElement[object]) -> Select[tuple[object, int, int]]:
    return (select(key.label("key"), func.count().label("n"), func.sum(LedgerEntry.amount).label("amount"))
            .where(*_day(room_id, day)).group_by(key))


def expected_by_table(session: Session, room_id: int, day: date) -> dict[int | None, int]:
    """R54: what the ledger expects at each table that has rows on ``day`` (one GROUP BY), and
    the total under the key None."""
    rows = session.execute(_grouped(room_id, day, LedgerEntry.table_id)).all()
    expected: dict[int | None, int] = {t: int(a) for t, _n, a in rows if t is not None}
    expected[None] = sum(int(a) for _t, _n, a in rows)
    return expected


def day_report(session: Session, room_id: int, currency: str, day: date) -> DayReport:
    """R54: the day's report; see the module doc for its statements."""
    n, amount = session.execute(select(func.count(), func.coalesce(func.sum(LedgerEntry.amount), 0))
                                .where(*_day(room_id, day))).one()
    total = Line(None, "total", int(n), int(amount))
    tables = _grouped(room_id, day, LedgerEntry.table_id).subquery()
    by_table = [Line(k, name or "no table", int(c), int(a)) for k, name, c, a in session.execute(
        select(tables.c.key, Table.name, tables.c.n, tables.c.amount)
        .outerjoin(Table, Table.id == tables.c.key).order_by(Table.name, tables.c.key))]
    games = _grouped(room_id, day, LedgerEntry.game_id).subquery()
    by_game = [Line(k, f"{v} {sb}/{bb}" if v else "no game", int(c), int(a))
               for k, v, sb, bb, c, a in session.execute(
                   select(games.c.key, Game.variant, Game.small_blind, Game.big_blind, games.c.n,
                          games.c.amount)
                   .outerjoin(Game, Game.id == games.c.key).order_by(games.c.key))]
    by_kind = [Line(k, str(k).replace("_", " "), int(c), int(a)) for k, c, a in session.execute(
        _grouped(room_id, day, LedgerEntry.kind).order_by(LedgerEntry.kind))]
    by_method = [Line(k, method_name(str(k)), int(c), int(a)) for k, c, a in session.execute(
        _grouped(room_id, day, LedgerEntry.method).order_by(LedgerEntry.method))]  # R32
    staff = _grouped(room_id, day, LedgerEntry.staff_id).subquery()
    by_staff = [Line(k, name, int(c), int(a)) for k, name, c, a in session.execute(
        select(staff.c.key, Staff.display_name, staff.c.n, staff.c.amount)
        .join(Staff, Staff.id == staff.c.key).order_by(Staff.display_name))]
    close = session.scalar(select(DayClose).where(DayClose.room_id == room_id,
                                                  DayClose.gaming_day == day))
    return DayReport(day, currency, total, by_table, by_game, by_kind, by_method, by_staff,
                     latest_counts(session, room_id, day), close)


def latest_counts(session: Session, room_id: int, day: date,
                  staff_ids: tuple[int, ...] | None = None) -> list[CountLine]:
    """R54: each counter's latest count of each table and of the total (one statement); the rows
    are append-only, so a recount supersedes the earlier count without changing it."""
    stmt = (select(DayCount, Table.name, Staff.display_name)
            .outerjoin(Table, Table.id == DayCount.table_id).join(Staff, Staff.id == DayCount.staff_id)
            .where(DayCount.room_id == room_id, DayCount.gaming_day == day).order_by(DayCount.id))
    if staff_ids is not None:
        stmt = stmt.where(DayCount.staff_id.in_(staff_ids))
    latest: dict[tuple[int, int | None], CountLine] = {}
    for count, table, who in session.execute(stmt):
        latest[(count.staff_id, count.table_id)] = CountLine(
            count.table_id, table or "total", count.staff_id, who, count.counted, count.expected,
            variance(count.counted, count.expected), count.explanation)
    return sorted(latest.values(), key=lambda c: (c.table_id is None, c.table, c.staff))


SECTIONS = (("table", "by_table"), ("game", "by_game"), ("kind", "by_kind"),
            ("method", "by_method"), ("staff", "by_staff"))


def to_csv(report: DayReport) -> str:
    """R54: the report as one CSV file: a line per breakdown line and the total (amounts in minor
    units), then the counts with their variances."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(["gaming_day", "section", "id", "name", "entries", "amount", "currency"])
    for section, attr in SECTIONS:
        for line in getattr(report, attr):
            w.writerow([report.gaming_day, section, "" if line.key is None else line.key, line.name,
                        line.entries, line.amount, report.currency])
    w.writerow([report.gaming_day, "total", "", "total", report.total.entries, report.total.amount,
                report.currency])
    if report.counts:
        w.writerow([])
        w.writerow(["gaming_day", "count", "table_id", "table", "staff", "counted", "expected",
                    "variance", "explanation"])
        for c in report.counts:
            w.writerow([report.gaming_day, "count", "" if c.table_id is None else c.table_id,
                        c.table, c.staff, c.counted, c.expected, c.variance, c.explanation or ""])
    return out.getvalue()
