"""R60: audit rows are held by the unit of work and written with their change, in one batch,
when the service it runs returns; a refused service leaves none, a rollback drops them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from roomops.audit.models import AuditEvent
from roomops.audit.rows import COPY_FROM
from roomops.errors import Conflict
from roomops.floor.unit import UnitOfWork
from roomops.rooms.models import Room
from tests.units import uow


@contextmanager
def inserts_into_audit(session: Session) -> Iterator[list[str]]:
    seen: list[str] = []

    def on(_conn: Any, _cur: Any, statement: str, *_a: Any) -> None:
        if statement.startswith(("INSERT INTO audit_events", "COPY audit_events")):
            seen.append(statement)

    engine = session.get_bind().engine
    event.listen(engine, "before_cursor_execute", on)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", on)


def row_ids(session: Session) -> list[int]:
    """The entity ids of the "test.row" rows written, in the order written."""
    return list(session.scalars(select(AuditEvent.entity_id).where(
        AuditEvent.action == "test.row").order_by(AuditEvent.id)))


def count(session: Session) -> int:
    return session.scalar(select(func.count()).select_from(AuditEvent)) or 0


def audits(*ids: int, then: str | None = None) -> Any:
    """A service auditing a "test.row" for each of ``ids`` (with a read between), refused after
    them when ``then`` is given."""
    def service(unit: UnitOfWork) -> None:
        for i in ids:
            unit.audit("test.row", ("thing", i), reason="why" if i % 2 else None)
            unit.session.scalar(select(Room.id))  # other statements leave the rows queued
        if then:
            raise Conflict(then, "R60")
    return service


def test_r60_a_services_rows_are_one_insert_in_the_order_recorded(room, session, now):
    before = count(session)
    with inserts_into_audit(session) as seen:
        uow(session, room.sup, now).run(audits(*range(50)))
        assert len(seen) == 1
    rows = list(session.scalars(select(AuditEvent).where(AuditEvent.action == "test.row")
                                .order_by(AuditEvent.id)))
    assert [r.entity_id for r in rows] == list(range(50))
    assert [r.reason for r in rows[:2]] == [None, "why"]
    assert count(session) == before + 50


def test_r60_a_sweeps_worth_of_rows_is_written_whole_and_in_order(room, session, now):
    """From ``COPY_FROM`` rows PostgreSQL takes them by COPY (SQLite by the executemany): every
    value as recorded, times in UTC, in the order recorded."""
    n = COPY_FROM + 5
    unit = uow(session, room.sup, now)

    def many(unit: UnitOfWork) -> None:
        for i in range(n):
            unit.at(now + i * timedelta(milliseconds=1)).audit(
                "test.bulk", ("thing", i), reason="why" if i % 2 else None, n=i,
                names=["Ana", "Zoë"], note='tab\tand "quote"')

    unit.run(many)
    rows = list(session.scalars(select(AuditEvent).where(AuditEvent.action == "test.bulk")
                                .order_by(AuditEvent.id)))
    assert [(r.entity_type, r.entity_id, r.reason, r.at, r.detail, r.actor, r.actor_id, r.room_id)
            for r in rows] == [
        ("thing", i, "why" if i % 2 else None, now + i * timedelta(milliseconds=1),
         {"n": i, "names": ["Ana", "Zoë"], "note": 'tab\tand "quote"'}, room.sup.label,
         room.sup.staff_id, room.room.id) for i in range(n)]


def test_r60_the_rows_commit_with_the_change(room, session, sessions, now):
    session.commit()
    unit = uow(session, room.sup, now)
    unit.run(audits(1))
    unit.commit()
    with sessions() as other:
        assert other.scalar(select(func.count()).select_from(AuditEvent).where(
            AuditEvent.action == "test.row")) == 1


def test_r60_a_refused_service_writes_no_row_and_keeps_the_earlier_ones(room, session, now):
    session.commit()
    unit = uow(session, room.sup, now)
    unit.run(audits(1))
    with inserts_into_audit(session) as seen, pytest.raises(Conflict):
        unit.run(audits(2, 3, then="refused"))
    assert seen == []
    unit.run(audits(4))
    assert row_ids(session) == [1, 4]


def test_r60_a_rollback_drops_the_rows_with_the_change(room, session, now):
    session.commit()
    before = count(session)
    unit = uow(session, room.sup, now)
    unit.run(audits(1))
    unit.rollback()
    assert count(session) == before
    unit.run(audits(2))  # a new transaction starts clean
    assert row_ids(session) == [2]


def test_r60_a_savepoint_rolled_back_drops_only_its_own_rows(room, session, now):
    session.commit()
    unit = uow(session, room.sup, now)
    unit.run(audits(1))
    with session.begin_nested() as inner:
        unit.run(audits(2))
        inner.rollback()
    with session.begin_nested():
        unit.run(audits(3))
    assert row_ids(session) == [1, 3]


def test_r60_rows_audited_outside_a_service_are_written_at_the_commit(room, session, now: datetime):
    """A log-in's refusal is audited by the web layer itself, then committed (R61)."""
    session.commit()
    unit = uow(session, room.sup, now)
    with inserts_into_audit(session) as seen:
        unit.audit("test.row", ("thing", 1))
        assert seen == []
        unit.commit()
    assert len(seen) == 1
    assert row_ids(session) == [1]
