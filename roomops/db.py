"""Engine and session set-up for SQLite (embedded default) and PostgreSQL (production).

SQLite: WAL, ``busy_timeout``, foreign keys on, and write transactions that begin IMMEDIATE so two
writers never deadlock on a lock upgrade. Read-only work (the board) begins DEFERRED and never waits.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    DateTime,
    Engine,
    MetaData,
    Row,
    create_engine,
    event,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.types import TypeDecorator

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class UTCDateTime(TypeDecorator[datetime]):
    """Stores naive UTC on both databases and always hands back an aware UTC datetime."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


def _sqlite_setup(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event emit BEGIN itself (pysqlite's own handling is off).
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA busy_timeout=10000")
        cur.execute("PRAGMA foreign_keys=ON")
        # FULL: a committed seat change or audit row survives a power cut, not only a crash (R60).
        cur.execute("PRAGMA synchronous=FULL")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        mode = conn.get_execution_options().get("sqlite_begin", "IMMEDIATE")
        conn.exec_driver_sql(f"BEGIN {mode}")


def end_live(session: Session, model: Any, ids: list[int], now: datetime, outcome: str,
             **values: object) -> list[int]:
    """End the rows of ``model`` among ``ids`` still live (``ended_at IS NULL``), setting ``outcome``
    and ``values``, in one conditional UPDATE; returns only the ids this transaction ended, so a
    claim racing the sweep, or two sweepers, never handle one row twice."""
    if not ids:
        return []
    return [row[0] for row in end_live_where(session, model, model.id.in_(ids), now, outcome,
                                             (model.id,), **values)]


def end_live_where(session: Session, model: Any, where: ColumnElement[bool], now: datetime,
                   outcome: str, returning: tuple[Any, ...], **values: object) -> list[Row[Any]]:
    """``end_live`` for the live rows matching ``where``: one UPDATE handing back ``returning`` of
    each row it ended (what their audit rows need, without reading them first)."""
    stmt = (update(model).where(where, model.ended_at.is_(None))
            .values(ended_at=now, outcome=outcome, **values).returning(*returning)
            .execution_options(synchronize_session="fetch"))
    return list(session.execute(stmt).all())


def make_engine(url: str, **kwargs: Any) -> Engine:
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        _sqlite_setup(engine)
    return engine


def read_only(engine: Engine) -> Engine:
    """An engine view whose transactions do not take SQLite's write lock (no-op on PostgreSQL)."""
    return engine.execution_options(sqlite_begin="DEFERRED")


def make_sessionmaker(bind: Engine | Connection, **options: Any) -> sessionmaker[Session]:
    """The app's sessions (the tests' too, bound to their rolled-back connection)."""
    maker = sessionmaker(bind=bind, expire_on_commit=False, autoflush=True, **options)
    for name in ("pending_to_persistent", "deleted_to_persistent", "detached_to_persistent",
                 "loaded_as_persistent"):
        event.listen(maker, name, _keep)
    event.listen(maker, "after_soft_rollback", _let_go)
    return maker


def _keep(session: Session, instance: object) -> None:
    """Hold every object the session has in it until the session closes. The identity map holds
    them weakly: a row a service read and dropped (the room, the game) would be loaded again by
    the next ``session.get`` of the same request. A session lives for one request or one job run,
    so nothing is held for long."""
    session.info.setdefault("roomops.held", []).append(instance)


def _let_go(session: Session, _previous: Any) -> None:
    """After a rollback (a savepoint's too) the session holds nothing: rows inserted with
    ``insert().returning()`` were loaded, not flushed, so the rollback does not expunge them, and
    a row id the database hands out again must not meet its old object."""
    session.info.pop("roomops.held", None)
