"""The room's audit mark (migration 0040), on every configured database: every audit row a room
commits moves its mark, and only its, whoever writes it, whatever order the ids were handed out
in; the live screens' change mark (``roomops.web.live.change_mark``) moves with it."""

from __future__ import annotations

from datetime import datetime
from threading import Thread

import pytest
from sqlalchemy import Engine, func, insert, select
from sqlalchemy.orm import Session

from roomops.audit.models import AuditEvent, RoomMark
from roomops.db import make_sessionmaker
from roomops.web.live import change_mark
from tests.databases import migrated_database
from tests.factories import Room_
from tests.units import uow


def _row(room_id: int, at: datetime, **given: object) -> dict[str, object]:
    return {"room_id": room_id, "at": at, "actor": "x", "action": "a", "entity_type": "room",
            "entity_id": room_id, "detail": {}, **given}


def test_r60_a_new_room_has_a_mark_that_counts_its_audit_rows(session, now):
    room = Room_(session, now, slug="marked")
    session.commit()
    count = session.scalar(select(func.count()).where(AuditEvent.room_id == room.room.id))
    assert session.get(RoomMark, room.room.id).mark == count


def test_r60_every_audit_row_moves_its_rooms_mark_and_no_other(session, now):
    a, b = Room_(session, now, slug="a"), Room_(session, now, slug="b")
    session.commit()
    before_a, before_b = change_mark(session, a.room.id), change_mark(session, b.room.id)
    unit = uow(session, a.sup, now)
    unit.audit("anything.at.all", ("room", a.room.id))
    unit.commit()
    assert change_mark(session, a.room.id)[0] == before_a[0] + 1
    assert change_mark(session, b.room.id) == before_b
    # a bulk insert by hand (several rows, one statement) moves it by as many rows
    session.execute(insert(AuditEvent), [_row(a.room.id, now), _row(a.room.id, now), _row(b.room.id, now)])
    session.commit()
    assert change_mark(session, a.room.id)[0] == before_a[0] + 3
    assert change_mark(session, b.room.id)[0] == before_b[0] + 1


@pytest.fixture(scope="module")
def own_db(tmp_path_factory: pytest.TempPathFactory, db_url: str) -> Engine:
    """A database of this module's own, for two real transactions at once (the suite's runs each
    test in one rolled-back transaction)."""
    from roomops.db import make_engine

    backend = "postgresql" if db_url.startswith("postgresql") else "sqlite"
    with migrated_database(backend, tmp_path_factory.mktemp("marks"), "marks") as url:
        eng = make_engine(url)
        yield eng
        eng.dispose()


def test_r60_each_of_two_open_writers_moves_the_mark_at_its_commit(own_db: Engine, now):
    """PostgreSQL hands ids out before the commit: a second writer takes the higher id while the
    first is still open. The mark moves at each commit and not before (a reader never sees a row's
    mark before the row); the second writer waits for the first's commit at the mark's row, so the
    room's rows commit in the order of their ids. SQLite: one writer at a time, nothing to race."""
    with make_sessionmaker(own_db)() as s:
        room = Room_(s, now, slug="late")
        s.commit()
        room_id = room.room.id
    if own_db.dialect.name != "postgresql":
        pytest.skip("one writer at a time on SQLite")
    with own_db.connect() as first, own_db.connect() as second, Session(own_db) as reader:
        start = change_mark(reader, room_id)[0]
        reader.rollback()
        first.execute(insert(AuditEvent), [_row(room_id, now, action="first")])
        rows = [_row(room_id, now, action="second")]
        waiting = Thread(target=lambda: (second.execute(insert(AuditEvent), rows), second.commit()))
        waiting.start()
        waiting.join(0.5)
        assert waiting.is_alive()  # it holds the higher id and waits for the first's commit
        assert change_mark(reader, room_id)[0] == start
        reader.rollback()
        first.commit()
        waiting.join(10)
        assert not waiting.is_alive()
        assert change_mark(reader, room_id)[0] == start + 2
        ids = dict(reader.execute(select(AuditEvent.action, AuditEvent.id).where(
            AuditEvent.room_id == room_id, AuditEvent.action.in_(["first", "second"]))).tuples().all())
        assert ids["first"] < ids["second"]
