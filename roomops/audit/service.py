"""Writing and reading the audit trail (R60)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Select, event, insert, select
from sqlalchemy.orm import ORMExecuteState, Session, SessionTransaction

from roomops.actors import Actor
from roomops.audit.models import AuditEvent

PENDING = "roomops.audit.pending"
MARKS = "roomops.audit.savepoints"
# The rows this transaction wrote, kept until it ends: after its commit the staff screens are
# told what changed from them (roomops.push.staff, issue 21).
WRITTEN = "roomops.audit.written"


def record(
    session: Session,
    actor: Actor,
    now: datetime,
    action: str,
    entity: tuple[str, int],
    reason: str | None = None,
    **detail: Any,
) -> None:
    """Queue one audit row (R60) in the caller's transaction, so it commits or rolls back with the
    change. Queued rows are written together, in the order recorded, by one INSERT run over all of
    them (an executemany) at the commit (or before a read of the audit trail in the same
    transaction): a request sends one audit INSERT and a sweep that expires a thousand offers one,
    not one per row (SQLite hands back generated ids one row at a time, so the unit of work would
    insert audit objects singly)."""
    session.info.setdefault(PENDING, []).append({
        "room_id": actor.room_id, "at": now, "actor_id": actor.staff_id, "actor": actor.label,
        "action": action, "entity_type": entity[0], "entity_id": entity[1], "reason": reason,
        "detail": detail,
    })


# Built once: every request that changes anything runs it. A plain INSERT on the session's
# connection (one executemany), not the ORM's bulk INSERT, whose set-up costs more than the
# INSERT itself (docs/benchmarks.md); nothing reads the rows back.
_INSERT = insert(AuditEvent)
_COLUMNS = ("room_id", "at", "actor_id", "actor", "action", "entity_type", "entity_id", "reason",
            "detail")
_COPY = f"COPY audit_events ({', '.join(_COLUMNS)}) FROM STDIN"
COPY_FROM = 200  # rows: PostgreSQL takes a sweep's thousands by COPY, a fourth of the time


def write_pending(session: Session) -> None:
    rows = session.info.pop(PENDING, None)
    if not rows:
        return
    session.info.setdefault(WRITTEN, []).extend(rows)
    conn = session.connection()
    if len(rows) >= COPY_FROM and conn.dialect.name == "postgresql":
        _copy(conn, rows)
    else:
        conn.execute(_INSERT, rows)


def _copy(conn: Connection, rows: list[dict[str, Any]]) -> None:
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


@event.listens_for(Session, "do_orm_execute")
def _before_statement(state: ORMExecuteState) -> None:
    # A read of the audit trail sees the rows recorded before it; every other statement leaves
    # them queued for one INSERT at the commit (nothing references an audit row).
    if state.bind_mapper is not None and state.bind_mapper.class_ is AuditEvent:
        write_pending(state.session)


@event.listens_for(Session, "before_commit")
def _before_commit(session: Session) -> None:
    # A savepoint released keeps its rows queued: the transaction's own commit writes them all
    # in one INSERT (and a rollback of it drops them).
    if not session.in_nested_transaction():
        write_pending(session)


@event.listens_for(Session, "after_transaction_create")
def _mark_savepoint(session: Session, transaction: SessionTransaction) -> None:
    if transaction.nested:  # rows queued from here on go if this savepoint is rolled back
        session.info.setdefault(MARKS, {})[transaction] = len(session.info.get(PENDING, ()))


@event.listens_for(Session, "after_soft_rollback")
def _after_rollback(session: Session, previous: SessionTransaction) -> None:
    # A flush that fails rolls back its own subtransaction, and with it the database work up to
    # the nearest savepoint (or the whole transaction): drop what was queued since that boundary.
    boundary = previous
    while boundary.parent is not None and not boundary.nested:
        boundary = boundary.parent
    marks = session.info.get(MARKS, {})
    start = (marks.pop(boundary, 0) if boundary is previous else marks.get(boundary, 0)
             ) if boundary.nested else 0
    del session.info.get(PENDING, [])[start:]


@event.listens_for(Session, "after_transaction_end")
def _after_transaction_end(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None:  # committed (queue written), rolled back or closed
        session.info.pop(PENDING, None)
        session.info.pop(MARKS, None)
        session.info.pop(WRITTEN, None)


def query(
    room_id: int,
    *,
    action: str | None = None,
    actor: str | None = None,
    entity: tuple[str, int] | None = None,
    before_id: int | None = None,
    limit: int = 100,
) -> Select[tuple[AuditEvent]]:
    """Newest first, filtered; ``before_id`` pages backwards through a long trail."""
    stmt = select(AuditEvent).where(AuditEvent.room_id == room_id)
    if action:
        stmt = stmt.where(AuditEvent.action.startswith(action))
    if actor:
        stmt = stmt.where(AuditEvent.actor == actor)
    if entity:
        stmt = stmt.where(AuditEvent.entity_type == entity[0], AuditEvent.entity_id == entity[1])
    if before_id:
        stmt = stmt.where(AuditEvent.id < before_id)
    return stmt.order_by(AuditEvent.id.desc()).limit(limit)


def latest_id(session: Session, room_id: int) -> int:
    """The room's change counter: the board's ETag moves whenever anything is audited."""
    stmt = select(AuditEvent.id).where(AuditEvent.room_id == room_id)
    return session.scalar(stmt.order_by(AuditEvent.id.desc()).limit(1)) or 0
