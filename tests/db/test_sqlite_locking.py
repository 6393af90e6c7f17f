"""SQLite set-up: WAL, foreign keys, and write transactions that begin IMMEDIATE (architecture.md)."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from roomops.db import make_engine, read_only
from tests.databases import migrated_database


@pytest.fixture(scope="module")
def sqlite_engine(tmp_path_factory):
    with migrated_database("sqlite", tmp_path_factory.mktemp("lock"), "lock") as url:
        eng = make_engine(url)
        yield eng
        eng.dispose()


def _busy(conn, ms: int) -> None:
    """Set busy_timeout on the driver connection, outside any SQLAlchemy transaction."""
    conn.connection.driver_connection.execute(f"PRAGMA busy_timeout={ms}")


def test_sqlite_wal_and_foreign_keys_are_on(sqlite_engine):
    with sqlite_engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        with pytest.raises(Exception, match="FOREIGN KEY"):
            conn.execute(text("INSERT INTO players (room_id, first_name, last_name, created_at) "
                              "VALUES (999999, 'x', '', '2026-01-01 00:00:00')"))
        conn.rollback()


def test_sqlite_write_transaction_begins_immediate(sqlite_engine):
    with sqlite_engine.connect() as first, sqlite_engine.connect() as second:
        _busy(second, 50)
        first.begin()
        first.execute(text("SELECT 1"))  # only a read so far, yet the write lock is taken
        with pytest.raises(OperationalError, match="database is locked"):
            second.begin()
            second.execute(text("SELECT 1"))
        second.rollback()
        first.rollback()
        with second.begin():  # once the first is done the second gets in
            second.execute(text("SELECT count(*) FROM rooms"))
        _busy(second, 10000)


def test_sqlite_read_only_engine_does_not_take_the_write_lock(sqlite_engine):
    with sqlite_engine.connect() as writer, read_only(sqlite_engine).connect() as reader:
        writer.begin()
        writer.execute(text("INSERT INTO rooms (slug, name, timezone, gaming_day_start, "
                            "display_name, claim_minutes, on_claim_expiry, checkin_minutes, "
                            "auto_offer, placement, created_at) VALUES ('ro', 'R', 'UTC', "
                            "'06:00:00', 'full', 10, 'remove', 30, 1, 'most_need', "
                            "'2026-01-01 00:00:00')"))
        _busy(reader, 50)
        with reader.begin():  # DEFERRED: reads the last committed state without waiting (WAL)
            assert reader.execute(text("SELECT count(*) FROM rooms WHERE slug = 'ro'")).scalar() == 0
        writer.rollback()
        _busy(reader, 10000)
