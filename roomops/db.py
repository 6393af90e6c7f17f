"""Engine and session set-up for SQLite (embedded default) and PostgreSQL (production).

SQLite: WAL, ``busy_timeout``, foreign keys on, and write transactions that begin IMMEDIATE so two
writers never deadlock on a lock upgrade. Read-only work (the board) begins DEFERRED and never waits.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache
from typing import Any, TypeVar

from sqlalchemy import (
    ClauseElement,
    ColumnElement,
    Connection,
    CursorResult,
    DateTime,
    Engine,
    Executable,
    Insert,
    MetaData,
    Row,
    Select,
    Table,
    Update,
    bindparam,
    create_engine,
    event,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Mapper, Session, make_transient_to_detached, sessionmaker
from sqlalchemy.orm.attributes import instance_dict, set_committed_value
from sqlalchemy.orm.instrumentation import ClassManager
from sqlalchemy.types import TypeDecorator

M = TypeVar("M")

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


def rows(session: Session, stmt: Executable, params: dict[str, Any]) -> CursorResult[Any]:
    """Run a statement of columns (a SELECT, or an UPDATE ... RETURNING; no ORM objects) on the
    session's connection, flushed first as the ORM would: the ORM's execution and result set-up
    cost more than the statements on a desk action's path (docs/benchmarks.md: 25-30 us against
    70-130 us for a one-row UPDATE). An UPDATE run so leaves the session's objects as they were:
    the caller gives them the new values (``set_held``)."""
    session.flush()
    return session.connection().execute(stmt, params)


def among(column: ColumnElement[Any], name: str, one: bool) -> ColumnElement[bool]:
    """``column`` equals the parameter ``name`` (``one``) or is among its values; pass the
    parameter through ``one_or_all``. An IN list is written into the SQL on every run; on a desk
    action's path, where one value is the rule, the equality compiled once costs a quarter less
    a short statement (docs/benchmarks.md)."""
    return column == bindparam(name) if one else column.in_(bindparam(name, expanding=True))


def one_or_all(values: Sequence[Any]) -> Any:
    """The value of a parameter ``among`` reads: the one value, or all of them."""
    return values[0] if len(values) == 1 else list(values)


def insert_one(session: Session, model: type[M], values: dict[str, Any]) -> M:
    """INSERT one row and hand it back as the session's object (``insert_rows``)."""
    return insert_rows(session, model, [values])[0]


def insert_rows(session: Session, model: type[M], values: list[dict[str, Any]]) -> list[M]:
    """INSERT rows with one statement and hand them back as the session's objects, in no promised
    order when there are several. One row (every desk action) goes by an INSERT ... RETURNING
    built once per model and set of columns, run on the session's connection, its object built
    from the returned row and joining the session as if loaded (``make_transient_to_detached``):
    the ORM's INSERT and its loading of the row cost twice as much (docs/benchmarks.md). More go
    by the ORM's bulk INSERT, one multi-row statement whose loading costs less a row than
    building each object does (the unit of work would send one INSERT per row to learn their
    ids on SQLite). Either way the rows are loaded, not flushed: a savepoint rolled back keeps
    them in the session unless let go (``_let_go``)."""
    if len(values) != 1:
        return list(session.scalars(_inserting_many(model), values)) if values else []
    obj = unattached(model, rows(session, _inserting(model, tuple(sorted(values[0]))), values[0]).one())
    make_transient_to_detached(obj)
    session.add(obj)
    return [obj]


def unattached(model: type[M], row: Row[Any]) -> M:
    """An object of ``model`` holding ``row``, a row of all its table's columns in order, outside
    any session. Made as the ORM's loading makes one, with no attribute events (the constructor
    fires one for each column: twice the cost of all the rest)."""
    keys, manager = _columns(model)
    obj = manager.new_instance()
    instance_dict(obj).update(zip(keys, row, strict=True))
    return obj


@cache
def _inserting_many(model: type[M]) -> Insert:
    return insert(model).returning(model)


@cache
def _inserting(model: type[M], columns: tuple[str, ...]) -> Insert:
    """The INSERT of ``columns`` returning every column (``unattached`` reads the row)."""
    table = model.__table__  # type: ignore[attr-defined]
    return insert(table).values({c: bindparam(c) for c in columns}).returning(*table.c)


@cache
def _columns(model: type[M]) -> tuple[tuple[str, ...], ClassManager[M]]:
    """The attribute each of the model's table's columns sets, and the class manager that makes
    its instances."""
    mapper = inspect(model)
    table = model.__table__  # type: ignore[attr-defined]
    return tuple(mapper.get_property_by_column(c).key for c in table.c), mapper.class_manager


def end_live(session: Session, model: Any, ids: list[int], now: datetime, outcome: str,
             **values: object) -> list[int]:
    """End the rows of ``model`` among ``ids`` still live (``ended_at IS NULL``), setting ``outcome``
    and ``values``, in one conditional UPDATE; returns only the ids this transaction ended, so a
    claim racing the sweep, or two sweepers, never handle one row twice."""
    return [row[0] for row in end_live_by(session, model, "id", ids, now, outcome, **values)]


def end_live_by(session: Session, model: Any, key: str, keys: list[int], now: datetime,
                outcome: str, returning: tuple[str, ...] = (), *,
                kind: ColumnElement[str] | None = None, **values: object) -> list[Row[Any]]:
    """``end_live`` for the live rows (of ``kind``, if given: an SQL literal such as
    ``seating.models.OFFER``, so partial indexes on the kind apply) whose column ``key`` is among
    ``keys``: one UPDATE handing back the id and the ``returning`` columns of each row it ended
    (what their audit rows need, without reading them first).

    The UPDATE is built once per shape (a value given as an SQL expression is added to it) and
    runs on the session's connection (``rows``), not through the ORM, whose set-up costs more than
    the UPDATE itself; the objects the session holds of the rows ended are given their new plain
    values here."""
    if not keys:
        return []
    plain = {k: v for k, v in values.items() if not isinstance(v, ClauseElement)}
    stmt = _ending(model.__table__, key, len(keys) == 1, kind, returning, tuple(sorted(plain)))
    if len(plain) < len(values):
        stmt = stmt.values({k: v for k, v in values.items() if k not in plain})
    ended = rows(session, stmt, {"keys": one_or_all(keys), "end_at": now, "end_outcome": outcome,
                                 **{f"set_{k}": v for k, v in plain.items()}}).all()
    set_held(session, model, [row[0] for row in ended], {"ended_at": now, "outcome": outcome, **plain})
    return ended


def set_held(session: Session, model: Any, ids: list[int], values: dict[str, object]) -> None:
    """Give the objects the session holds of these rows the values a plain UPDATE just set, as if
    loaded so (the UPDATE ran outside the unit of work: nothing to flush)."""
    for row_id in ids:
        held = session.identity_map.get(session.identity_key(model, row_id))
        for name, value in values.items() if held is not None else ():
            set_committed_value(held, name, value)


@cache
def _ending(table: Table, key: str, one: bool, kind: ColumnElement[str] | None,
            returning: tuple[str, ...], plain: tuple[str, ...]) -> Update:
    live = [among(table.c[key], "keys", one), table.c.ended_at.is_(None)]
    if kind is not None:
        live.append(table.c.kind == kind)
    return (update(table).where(*live)
            .values(ended_at=bindparam("end_at"), outcome=bindparam("end_outcome"),
                    **{k: bindparam(f"set_{k}") for k in plain})
            .returning(table.c.id, *(table.c[name] for name in returning)))


def make_engine(url: str, **kwargs: Any) -> Engine:
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        _sqlite_setup(engine)
    return engine


def read_only(engine: Engine) -> Engine:
    """An engine view whose transactions do not take SQLite's write lock (no-op on PostgreSQL)."""
    return engine.execution_options(sqlite_begin="DEFERRED")


class RoomSession(Session):
    """The app's session. ``get`` and ``get_one`` of a row by its id, when the session does not hold
    it yet, run a SELECT built once per model: SQLAlchemy's own builds and annotates that SELECT
    afresh on every call, which costs twice as much as running it (docs/benchmarks.md). Anything
    but a plain lookup by id (options, locks, a refresh) is SQLAlchemy's own."""

    def get(self, entity: Any, ident: Any, **kw: Any) -> Any:
        if any(kw.values()) or not isinstance(entity, type) or not isinstance(ident, int):
            return super().get(entity, ident, **kw)
        mapper = inspect(entity)
        held = self._identity_lookup(mapper, (ident,))  # SQLAlchemy's hook for this: unexpires
        if isinstance(held, entity):
            return held
        return self.execute(_by_id(mapper), {"id": ident}).scalar_one_or_none()


@cache
def _by_id(mapper: Mapper[Any]) -> Select[Any]:
    (pk,) = mapper.primary_key
    return select(mapper).where(pk == bindparam("id"))


def make_sessionmaker(bind: Engine | Connection, **options: Any) -> sessionmaker[Session]:
    """The app's sessions (the tests' too, bound to their rolled-back connection)."""
    maker = sessionmaker(bind=bind, class_=RoomSession, expire_on_commit=False, autoflush=True,
                         **options)
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
