"""R60: audit rows are queued on the session and written with their change, in one batch."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from roomops.audit.models import AuditEvent
from roomops.audit.service import COPY_FROM, record


@contextmanager
def inserts_into_audit(session: Session) -> Iterator[list[str]]:
    seen: list[str] = []

    def on(_conn: Any, _cur: Any, statement: str, *_a: Any) -> None:
        if statement.startswith("INSERT INTO audit_events"):
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


def test_r60_a_batch_of_rows_is_one_insert_in_the_order_recorded(room, session, now):
    before = count(session)
    with inserts_into_audit(session) as seen:
        for i in range(50):
            record(session, room.sup, now, "test.row", ("thing", i), reason="why" if i % 2 else None)
        rows = list(session.scalars(select(AuditEvent).where(AuditEvent.action == "test.row")
                                    .order_by(AuditEvent.id)))
    assert len(seen) == 1
    assert [r.entity_id for r in rows] == list(range(50))
    assert [r.reason for r in rows[:2]] == [None, "why"]
    assert count(session) == before + 50


def test_r60_a_sweeps_worth_of_rows_is_written_whole_and_in_order(room, session, now):
    """From ``COPY_FROM`` rows PostgreSQL takes them by COPY (SQLite by the executemany): every
    value as recorded, times in UTC, in the order recorded."""
    n = COPY_FROM + 5
    for i in range(n):
        record(session, room.sup, now + i * timedelta(milliseconds=1), "test.bulk", ("thing", i),
               reason="why" if i % 2 else None, n=i, names=["Ana", "Zoë"], note='tab\tand "quote"')
    rows = list(session.scalars(select(AuditEvent).where(AuditEvent.action == "test.bulk")
                                .order_by(AuditEvent.id)))
    assert [(r.entity_type, r.entity_id, r.reason, r.at, r.detail, r.actor, r.actor_id, r.room_id)
            for r in rows] == [
        ("thing", i, "why" if i % 2 else None, now + i * timedelta(milliseconds=1),
         {"n": i, "names": ["Ana", "Zoë"], "note": 'tab\tand "quote"'}, room.sup.label,
         room.sup.staff_id, room.room.id) for i in range(n)]


def test_r60_queued_rows_are_written_at_commit(room, session, sessions, now):
    session.commit()
    record(session, room.sup, now, "test.row", ("thing", 1))
    session.commit()
    with sessions() as other:
        assert other.scalar(select(func.count()).select_from(AuditEvent).where(
            AuditEvent.action == "test.row")) == 1


def test_r60_a_rollback_drops_the_queued_rows_with_the_change(room, session, now):
    session.commit()
    before = count(session)
    record(session, room.sup, now, "test.row", ("thing", 1))
    session.rollback()
    assert count(session) == before
    record(session, room.sup, now, "test.row", ("thing", 2))  # a new transaction starts clean
    assert count(session) == before + 1


def test_r60_a_savepoint_rolled_back_drops_only_its_own_rows(room, session, now):
    session.commit()
    before = count(session)
    record(session, room.sup, now, "test.row", ("thing", 1))
    with session.begin_nested() as inner:
        record(session, room.sup, now, "test.row", ("thing", 2))
        inner.rollback()
    with session.begin_nested():
        record(session, room.sup, now, "test.row", ("thing", 3))
    assert row_ids(session) == [1, 3]
    assert count(session) == before + 2


def test_r60_a_flush_failing_in_a_savepoint_drops_only_that_savepoints_rows(room, session, now):
    """The failing flush rolls back its own subtransaction first, then the savepoint: the rows
    queued before the savepoint stay."""
    import pytest
    from sqlalchemy.exc import IntegrityError

    from roomops.rooms.models import Player

    session.commit()
    before = count(session)
    record(session, room.sup, now, "test.row", ("thing", 1))
    with pytest.raises(IntegrityError), session.begin_nested():
        record(session, room.sup, now, "test.row", ("thing", 2))
        session.add(Player(room_id=room.room.id, first_name="", created_at=now))  # refused (check)
        session.flush()
    assert row_ids(session) == [1]
    assert count(session) == before + 1


def test_r60_a_request_writes_its_audit_rows_in_one_insert_at_the_commit(room, session, now):
    """Other statements leave the queue alone: a change sends one audit INSERT, at its commit, and
    a rolled-back savepoint between drops only its own rows."""
    from roomops.rooms.models import Room

    session.commit()
    before = count(session)
    with inserts_into_audit(session) as seen:
        record(session, room.sup, now, "test.row", ("thing", 1))
        session.scalar(select(Room.id))  # any other read
        with session.begin_nested() as inner:
            record(session, room.sup, now, "test.row", ("thing", 2))
            session.scalar(select(Room.id))
            inner.rollback()
        record(session, room.sup, now, "test.row", ("thing", 3))
        assert seen == []
        session.commit()
    assert len(seen) == 1
    assert row_ids(session) == [1, 3]
    assert count(session) == before + 2


def test_r60_a_savepoint_released_keeps_its_rows_for_the_one_insert(room, session, now):
    """A savepoint released (as a ledger posting with an idempotency key takes) writes nothing
    itself: its rows go with the transaction's, in the one INSERT at the commit."""
    session.commit()
    with inserts_into_audit(session) as seen:
        record(session, room.sup, now, "test.row", ("thing", 1))
        with session.begin_nested():
            record(session, room.sup, now, "test.row", ("thing", 2))
        assert seen == []
        session.commit()
    assert len(seen) == 1
    assert row_ids(session) == [1, 2]
