"""Audit rows (R60) as the unit of work queues and writes them (``roomops.floor.unit``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert
from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.audit.models import AuditEvent

# One row's columns, as inserted; the staff screens are told them after the commit
# (roomops.push.staff, issue 21).
AuditRow = dict[str, Any]

# Built once: every request that changes anything runs it. A plain INSERT on the session's
# connection (one executemany), not the ORM's bulk INSERT, whose set-up costs more than the
# INSERT itself (docs/benchmarks.md); nothing reads the rows back.
_INSERT = insert(AuditEvent)
_COLUMNS = ("room_id", "at", "actor_id", "actor", "action", "entity_type", "entity_id", "reason",
            "detail")
_COPY = f"COPY audit_events ({', '.join(_COLUMNS)}) FROM STDIN"
COPY_FROM = 200  # rows: PostgreSQL takes a sweep's thousands by COPY, a fourth of the time


def audit_row(actor: Actor, now: datetime, action: str, entity: tuple[str, int],
              reason: str | None, detail: dict[str, Any]) -> AuditRow:
    return {"room_id": actor.room_id, "at": now, "actor_id": actor.staff_id, "actor": actor.label,
            "action": action, "entity_type": entity[0], "entity_id": entity[1], "reason": reason,
            "detail": detail}


def write_rows(session: Session, rows: list[AuditRow]) -> None:
    """The rows in the session's transaction, in the order recorded, by one statement: a request
    sends one audit INSERT and a sweep that expires a thousand offers one, not one per row."""
    conn = session.connection()
    if len(rows) >= COPY_FROM and conn.dialect.name == "postgresql":
        _copy(conn, rows)
    else:
        conn.execute(_INSERT, rows)


def _copy(conn: Connection, rows: list[AuditRow]) -> None:
    """The rows by PostgreSQL's COPY (psycopg's ``Cursor.copy``, on the session's own DBAPI
    connection, so in its transaction), each value as the column's type binds it."""
    binds = [AuditEvent.__table__.c[name].type.bind_processor(conn.dialect) or _as_is
             for name in _COLUMNS]
    cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]  # psycopg's
    with cursor.copy(_COPY) as copy:
        for row in rows:
            copy.write_row([bind(row[name]) for bind, name in zip(binds, _COLUMNS, strict=True)])


def _as_is(value: Any) -> Any:
    return value
