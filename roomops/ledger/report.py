"""The day's report (R52, R54): the ledger's rows of one gaming day (or one of its shifts) per table,
game, kind (fee type), method (R32: cash at the table apart from the cage's cash), staff member and
shift, the counts against the expected figures, and the closes.

A shift's rows are those posted in it (``shift_no``); the day's last shift also takes any rows of
higher shift numbers, posted before the room's shift policy was changed to fewer shifts, so every
row of the day is in one shift of the policy in force.

A fixed number of statements whatever the number of rows: one GROUP BY per breakdown, one for the
total, one for the counts and one for the close. Reads only; nothing here writes."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TypeVar

from sqlalchemy import ColumnElement, Select, func, select
from sqlalchemy.orm import QueryableAttribute, Session

from roomops.games.models import Game, Table
from roomops.ledger.closing import Line, closed_now, reconciles, variance
from roomops.ledger.models import DayClose, DayCount, LedgerEntry
from roomops.ledger.rules import method_name
from roomops.money import Money
from roomops.rooms.models import Staff
from roomops.text import spreadsheet_rows


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
    shift_no: int = 1


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
    # R54: the shift shown (None: the whole day), its rows per shift, and the shifts' closes
    shift: int | None = None
    by_shift: list[Line] = field(default_factory=list)
    closes: list[DayClose] = field(default_factory=list)

    @property
    def reconciled(self) -> bool:
        """R52: every breakdown adds up to the total exactly."""
        return reconciles(self.total, *(getattr(self, attr) for _section, attr in SECTIONS))

    @property
    def closed(self) -> bool:
        return self.close is not None

    @property
    def as_closed(self) -> bool:
        """R54: each closed shift's figures are still the ones closed (rows and total); always
        true while nothing is closed. False would mean a row reached a shift after its close."""
        return all(closed_now(c.shift_no, c.closes_day, self.by_shift) == (c.entries, c.expected_total)
                   for c in self.closes)


def _day(room_id: int, day: date, shift: int | None = None,
         last: bool = False) -> tuple[ColumnElement[bool], ...]:
    """The rows of ``day``, or of one of its shifts (R54; ``last``: the day's last shift, see the
    module doc)."""
    where = (LedgerEntry.room_id == room_id, LedgerEntry.gaming_day == day)
    if shift is None:
        return where
    return (*where, LedgerEntry.shift_no >= shift if last else LedgerEntry.shift_no == shift)


rows_of = _day  # the rows a close freezes (roomops.ledger.dayclose)


K = TypeVar("K")


def _grouped(room_id: int, day: date, key: QueryableAttribute[K], shift: int | None = None,
             last: bool = False) -> Select[tuple[K, int, int]]:
    return (select(key.label("key"), func.count().label("n"), func.sum(LedgerEntry.amount).label("amount"))
            .where(*_day(room_id, day, shift, last)).group_by(key))


def expected_by_table(session: Session, room_id: int, day: date, shift: int | None = None,
                      last: bool = False) -> dict[int | None, int]:
    """R54: what the ledger expects at each table that has rows on ``day`` (or in its ``shift``;
    one GROUP BY), and the total under the key None."""
    rows = session.execute(_grouped(room_id, day, LedgerEntry.table_id, shift, last)).all()
    expected: dict[int | None, int] = {t: int(a) for t, _n, a in rows if t is not None}
    expected[None] = sum(int(a) for _t, _n, a in rows)
    return expected


def day_report(session: Session, room_id: int, money: Money, day: date,
               shift: int | None = None, last: bool = False) -> DayReport:
    """R54: the day's report, or its ``shift``'s (``last``: the day's last); see the module doc
    for its statements. ``money``: the room's currency and locale (games read by their stakes,
    "1/2", R4)."""
    n, amount = session.execute(select(func.count(), func.coalesce(func.sum(LedgerEntry.amount), 0))
                                .where(*_day(room_id, day, shift, last))).one()
    total = Line(None, "total", int(n), int(amount))
    tables = _grouped(room_id, day, LedgerEntry.table_id, shift, last).subquery()
    by_table = [Line(k, name or "no table", int(c), int(a)) for k, name, c, a in session.execute(
        select(tables.c.key, Table.name, tables.c.n, tables.c.amount)
        .outerjoin(Table, Table.id == tables.c.key).order_by(Table.name, tables.c.key))]
    games = _grouped(room_id, day, LedgerEntry.game_id, shift, last).subquery()
    by_game = [Line(k, f"{v} {money.stakes(sb, bb)}" if v else "no game", int(c), int(a))
               for k, v, sb, bb, c, a in session.execute(
                   select(games.c.key, Game.variant, Game.small_blind, Game.big_blind, games.c.n,
                          games.c.amount)
                   .outerjoin(Game, Game.id == games.c.key).order_by(games.c.key))]
    by_kind = [Line(k, str(k).replace("_", " "), int(c), int(a)) for k, c, a in session.execute(
        _grouped(room_id, day, LedgerEntry.kind, shift, last).order_by(LedgerEntry.kind))]
    by_method = [Line(k, method_name(str(k)), int(c), int(a)) for k, c, a in session.execute(
        _grouped(room_id, day, LedgerEntry.method, shift, last).order_by(LedgerEntry.method))]  # R32
    staff = _grouped(room_id, day, LedgerEntry.staff_id, shift, last).subquery()
    by_staff = [Line(k, name, int(c), int(a)) for k, name, c, a in session.execute(
        select(staff.c.key, Staff.display_name, staff.c.n, staff.c.amount)
        .join(Staff, Staff.id == staff.c.key).order_by(Staff.display_name))]
    by_shift = [Line(k, f"shift {k}", int(c), int(a)) for k, c, a in session.execute(
        _grouped(room_id, day, LedgerEntry.shift_no, shift, last).order_by(LedgerEntry.shift_no))]
    closes = [c for c in session.scalars(select(DayClose).where(
        DayClose.room_id == room_id, DayClose.gaming_day == day).order_by(DayClose.shift_no))
        if shift is None or c.shift_no == shift]
    close = next((c for c in closes if c.closes_day or shift is not None), None)
    return DayReport(day, money.currency, total, by_table, by_game, by_kind, by_method, by_staff,
                     latest_counts(session, room_id, day, shift=shift), close, shift, by_shift,
                     closes)


def latest_counts(session: Session, room_id: int, day: date,
                  staff_ids: tuple[int, ...] | None = None,
                  shift: int | None = None) -> list[CountLine]:
    """R54: each counter's latest count of each table and of the total per shift (of ``shift``
    only when given; one statement); the rows are append-only, so a recount supersedes the
    earlier count without changing it."""
    stmt = (select(DayCount, Table.name, Staff.display_name)
            .outerjoin(Table, Table.id == DayCount.table_id).join(Staff, Staff.id == DayCount.staff_id)
            .where(DayCount.room_id == room_id, DayCount.gaming_day == day).order_by(DayCount.id))
    if staff_ids is not None:
        stmt = stmt.where(DayCount.staff_id.in_(staff_ids))
    if shift is not None:
        stmt = stmt.where(DayCount.shift_no == shift)
    latest: dict[tuple[int, int, int | None], CountLine] = {}
    for count, table, who in session.execute(stmt):
        latest[(count.shift_no, count.staff_id, count.table_id)] = CountLine(
            count.table_id, table or "total", count.staff_id, who, count.counted, count.expected,
            variance(count.counted, count.expected), count.explanation, count.shift_no)
    return sorted(latest.values(), key=lambda c: (c.shift_no, c.table_id is None, c.table, c.staff))


SECTIONS = (("table", "by_table"), ("game", "by_game"), ("kind", "by_kind"),
            ("method", "by_method"), ("staff", "by_staff"),
            ("shift", "by_shift"))  # R54


def to_csv(report: DayReport, extra: Sequence[list[object]] = ()) -> str:
    """R54: the report as one CSV file in three sections, each under its own title row and
    header, a blank row between them: what the file is (the gaming day, the shift or the whole
    day, the currency and the amounts' units), the ledger (a line per breakdown line, then the
    total) and the counts with their variances. Amounts are in the room's currency, in major
    units with its decimals and a point ("1234.50"): exact, and read as numbers by any
    spreadsheet. They are written as numbers (``Decimal``) and every text cell (a table's,
    game's or staff member's name, an explanation) as text a spreadsheet will not run as a
    formula (``roomops.text.spreadsheet_rows``): a name typed as "=1+1" reads "'=1+1", and
    "-12.50" stays a number. ``extra``: sections of money kept apart from the ledger, after it
    (the jackpots' drops, R68)."""
    money = Money(report.currency)
    unit = f"amount ({report.currency})"
    rows: list[list[object]] = [
        ["day report"], ["gaming_day", "shift", "currency", "amounts"],
        [report.gaming_day, "whole day" if report.shift is None else report.shift,
         report.currency, f"{money.name}, major units with {money.digits} decimals"],
        [], ["ledger"], ["section", "id", "name", "entries", unit]]
    for section, attr in SECTIONS:
        rows += ([section, "" if line.key is None else line.key, line.name, line.entries,
                  money.major(line.amount)] for line in getattr(report, attr))
    rows += [["total", "", "total" if report.shift is None else f"shift {report.shift}",
              report.total.entries, money.major(report.total.amount)],
             [], ["counts"], ["table_id", "table", "staff", f"counted ({report.currency})",
                              f"expected ({report.currency})", f"variance ({report.currency})",
                              "explanation", "shift"]]
    rows += (["" if c.table_id is None else c.table_id, c.table, c.staff, money.major(c.counted),
              money.major(c.expected), money.major(c.variance), c.explanation or "", c.shift_no]
             for c in report.counts)
    rows += extra
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(spreadsheet_rows(rows))
    return out.getvalue()
