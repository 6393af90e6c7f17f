"""``verify-books``: the books have not been edited outside the app (R31, R52, R54, R60).

Three checks, on either database, reading only:

- every append-only table (and the slips) still has its triggers, enabled and refusing;
- every closed shift still holds the rows and total its close froze (``day_closes``);
- every ledger row and transit slip matches its audit events (amount, method, room; a slip's number)
  and every such event still names its row: an edit, a delete or an insert made with the triggers
  dropped shows, unless whoever made it rewrote the audit trail and the closes to match.

Not a hash chain: chaining every row to the one before would make every posting wait for the last
one (the room's postings run at once, R52), and a chain kept in the same database proves no more
than these cross-checks against someone who can rewrite the whole database. What such a person
cannot rewrite is a copy kept elsewhere: backups and printed or exported day reports
(docs/security.md, "The books")."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import Connection, and_, exists, func, select, text
from sqlalchemy.orm import Session

from roomops.audit.models import AuditEvent
from roomops.books.rules import (
    DELETE,
    TRUNCATE,
    UPDATE,
    Trigger,
    audit_differences,
    close_finding,
    expected_triggers,
    trigger_findings,
)
from roomops.ledger.closing import Line, closed_now
from roomops.ledger.models import DayClose, LedgerEntry, TransitSlip
from roomops.rooms.models import Room

# PostgreSQL's pg_trigger.tgtype bits of the statements a trigger fires on
_PG_EVENTS = {DELETE: 8, UPDATE: 16, TRUNCATE: 32}
_PG_TRIGGERS = text(
    "SELECT t.tgname, c.relname, t.tgtype, t.tgenabled, p.prosrc FROM pg_trigger t "
    "JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid "
    "JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE NOT t.tgisinternal AND n.nspname = current_schema()")
_SQLITE_TRIGGERS = text("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'")
_SQLITE_EVENTS = re.compile(r"\bBEFORE\s+(UPDATE|DELETE)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Audited:
    """Rows each of whose audit events (``entity``) records ``columns`` as the row holds them."""

    model: Any
    entity: str
    noun: str
    columns: tuple[str, ...]


AUDITED = (Audited(LedgerEntry, "ledger_entry", "ledger row", ("amount", "method")),
           Audited(TransitSlip, "transit_slip", "transit slip", ("number", "amount", "method")))


@dataclass
class Verified:
    findings: list[str] = field(default_factory=list)
    triggers: int = 0
    closes: int = 0
    rows: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        rows = ", ".join(f"{n} {noun}s" for noun, n in self.rows.items())
        return (f"{self.triggers} triggers, {self.closes} closed shifts and {rows} checked "
                "against their audit events")


def verify(session: Session) -> Verified:
    """All three checks (module doc); ``findings`` empty when the books are as the app left them."""
    result = Verified()
    expected = expected_triggers(session.get_bind().dialect.name)
    result.triggers = len(expected)
    result.findings += trigger_findings(expected, triggers(session.connection()))
    result.closes, found = _closes(session)
    result.findings += found
    for audited in AUDITED:
        result.rows[audited.noun], found = _audited(session, audited)
        result.findings += found
    return result


def triggers(conn: Connection) -> dict[str, Trigger]:
    """The database's triggers by name, as its catalog describes them."""
    if conn.dialect.name == "postgresql":
        return {name: Trigger(name, table, frozenset(e for e, bit in _PG_EVENTS.items() if kind & bit),
                              enabled in ("O", "A") and "RAISE EXCEPTION" in source.upper())
                for name, table, kind, enabled, source in conn.execute(_PG_TRIGGERS)}
    return {name: Trigger(name, table, frozenset(e.upper() for e in _SQLITE_EVENTS.findall(sql)),
                          "RAISE(ABORT" in sql.upper().replace(" ", ""))
            for name, table, sql in conn.execute(_SQLITE_TRIGGERS)}


def _closes(session: Session) -> tuple[int, list[str]]:
    """R54: each close's figures against its day's rows now (one GROUP BY over the closed days).
    The closes are read first: a closed shift's rows never change afterwards (migration 0019), so
    the app posting while this runs (READ COMMITTED on PostgreSQL) changes no close's figures."""
    closes = session.scalars(select(DayClose).order_by(DayClose.room_id, DayClose.gaming_day,
                                                       DayClose.shift_no)).all()
    closed_day = exists().where(DayClose.room_id == LedgerEntry.room_id,
                                DayClose.gaming_day == LedgerEntry.gaming_day)
    by_shift: dict[tuple[int, date], list[Line]] = defaultdict(list)
    for room_id, day, shift, n, total in session.execute(
            select(LedgerEntry.room_id, LedgerEntry.gaming_day, LedgerEntry.shift_no, func.count(),
                   func.sum(LedgerEntry.amount)).where(closed_day)
            .group_by(LedgerEntry.room_id, LedgerEntry.gaming_day, LedgerEntry.shift_no)):
        by_shift[room_id, day].append(Line(shift, "", n, int(total)))
    slugs = dict(session.execute(select(Room.id, Room.slug)).tuples().all())
    findings = [close_finding(f"room {slugs[c.room_id]}, gaming day {c.gaming_day} shift {c.shift_no}",
                              (c.entries, c.expected_total),
                              closed_now(c.shift_no, c.closes_day, by_shift[c.room_id, c.gaming_day]))
                for c in closes]
    return len(closes), [f for f in findings if f is not None]


def _audited(session: Session, audited: Audited) -> tuple[int, list[str]]:
    """R60: each row of ``audited`` against each of its audit events, and events whose row is
    gone; the rows streamed, a thousand at a time."""
    model, names = audited.model, ("room_id", *audited.columns)
    on = and_(AuditEvent.entity_type == audited.entity, AuditEvent.entity_id == model.id)
    stmt = (select(model.id, *(getattr(model, c) for c in names), AuditEvent.id, AuditEvent.room_id,
                   AuditEvent.detail).outerjoin(AuditEvent, on).order_by(model.id, AuditEvent.id))
    findings: list[str] = []
    rows, last = 0, None
    for row_id, *values, event_id, event_room, detail in session.execute(
            stmt, execution_options={"yield_per": 1000}):
        rows, last = rows + (row_id != last), row_id
        where = f"{audited.noun} {row_id}"
        if event_id is None:
            findings.append(f"{where} has no audit event: it was written outside the app (R60)")
            continue
        differs = audit_differences(dict(zip(names, values, strict=True)),
                                    {**(detail or {}), "room_id": event_room})
        if differs:
            findings.append(f"{where}: {'; '.join(differs)} (audit event {event_id}): changed "
                            "outside the app (R60)")
    gone = session.execute(select(AuditEvent.id, AuditEvent.entity_id).where(
        AuditEvent.entity_type == audited.entity,
        ~exists().where(model.id == AuditEvent.entity_id)).order_by(AuditEvent.id))
    findings += [f"{audited.noun} {row_id} is gone: audit event {event_id} recorded it (R60)"
                 for event_id, row_id in gone]
    return rows, findings
