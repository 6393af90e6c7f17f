"""Engine and session set-up for SQLite (embedded default) and PostgreSQL (production).

SQLite: WAL, ``busy_timeout``, foreign keys on, and write transactions that begin IMMEDIATE so two
writers never deadlock on a lock upgrade. Read-only work (the board) begins DEFERRED and never waits.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import (
    ColumnElement,
    Connection,
    DateTime,
    Engine,
    MetaData,
    Row,
    Update,
    create_engine,
    event,
    insert,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
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


def insert_one(session: Session, model: type[M], values: dict[str, Any]) -> M:
    """Add one object of ``model`` with ``values`` (attribute names) to the session and flush it,
    so it has its id and server defaults."""
    obj = model(**values)
    session.add(obj)
    session.flush()
    return obj


def insert_rows(session: Session, model: type[M], values: list[dict[str, Any]]) -> list[M]:
    """Insert rows of ``model`` and hand them back as the session's objects, in no promised order
    when there are several. One row is ``insert_one``. Several go by the ORM's bulk INSERT with
    RETURNING (one statement for all of them, where the unit of work would send one INSERT per
    row on SQLite to learn their ids), whose rows the session loads as persistent objects.

    Such objects are loaded, not pending: a savepoint rolled back does not expunge them, and SQLite
    may hand their ids out again. ``populate_existing`` makes a later INSERT that gets such an id
    back overwrite the old object with its new row instead of handing the old one back."""
    if len(values) == 1:
        return [insert_one(session, model, values[0])]
    if not values:
        return []
    return list(session.scalars(insert(model).returning(model), values,
                                execution_options={"populate_existing": True}))


def end_live(session: Session, model: Any, ids: list[int], now: datetime, outcome: str,
             **values: object) -> list[int]:
    """End the rows of ``model`` among ``ids`` still live (``ended_at IS NULL``), setting ``outcome``
    and ``values``, in one conditional UPDATE; returns only the ids this transaction ended, so a
    claim racing the sweep, or two sweepers, never handle one row twice."""
    return [row[0] for row in end_live_by(session, model, "id", ids, now, outcome, (), kind=None, **values)]


def end_live_by(session: Session, model: Any, key: str, keys: list[int], now: datetime,
                outcome: str, returning: tuple[str, ...] = (), *,
                kind: ColumnElement[str] | None = None, **values: object) -> list[Row[Any]]:
    """``end_live`` for the live rows (of ``kind``, if given: an SQL literal such as
    ``seating.models.OFFER``, so partial indexes on the kind apply) whose attribute ``key`` is
    among ``keys``: one ORM-enabled UPDATE ... RETURNING handing back the id and the ``returning``
    attributes of each row it ended (what their audit rows need, without reading them first).
    A value may be an SQL expression (a CASE by id).

    The session keeps its objects in step with the rows ended:

    - ``synchronize_session="fetch"``: the objects it holds of exactly the rows the UPDATE matched
      (their primary keys come back in the same RETURNING: one statement on SQLite and
      PostgreSQL) are given the new values. "evaluate" (and "auto", which tries it first) would
      match the session's objects against the WHERE clause in Python, by their possibly stale
      state: an object whose row another transaction ended first would be marked ended by this
      UPDATE too. A CASE cannot be evaluated in Python either.
    - The RETURNING also names the entity (``update_returning``), loaded with
      ``populate_existing``: the sync above sets only attributes already loaded (an object
      flushed with ``outcome`` unset reads None without loading it) and expires a CASE value; the
      returned rows overwrite every attribute of the objects held, so each reads what is stored,
      with no further SELECT."""
    if not keys:
        return []
    live = [getattr(model, key).in_(keys), model.ended_at.is_(None)]
    if kind is not None:
        live.append(model.kind == kind)
    columns = (model.id, *(getattr(model, name) for name in returning))
    stmt = update(model).where(*live).values(ended_at=now, outcome=outcome, **values)
    return update_returning(session, model, stmt, *columns)


def update_returning(session: Session, model: Any, stmt: Update,
                     *columns: Any) -> list[Row[Any]]:
    """Run an ORM-enabled UPDATE of ``model`` and hand back ``columns`` of each row it changed;
    the session's objects of exactly those rows read what is now stored (``end_live_by`` says
    why "fetch" and the entity in the RETURNING)."""
    result = session.execute(stmt.returning(*columns, model),
                             execution_options={"synchronize_session": "fetch",
                                                "populate_existing": True})
    return list(result.columns(*range(len(columns))))


def make_engine(url: str, **kwargs: Any) -> Engine:
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        _sqlite_setup(engine)
    return engine


def read_only(engine: Engine) -> Engine:
    """An engine view whose transactions do not take SQLite's write lock (no-op on PostgreSQL)."""
    return engine.execution_options(sqlite_begin="DEFERRED")


def make_sessionmaker(bind: Engine | Connection, **options: Any) -> sessionmaker[Session]:
    """The app's sessions (the tests' too, bound to their rolled-back connection).

    A session lives for one request or one job run, and holds strong references to the objects it
    has in it for that span: SQLAlchemy's identity map holds them weakly, so a row read, dropped
    and looked up again (the room, the game, the table) would be read again within one request.
    This is the recipe of SQLAlchemy's documentation ("Session Referencing Behavior")."""
    maker = sessionmaker(bind=bind, expire_on_commit=False, autoflush=True, **options)
    for name in ("pending_to_persistent", "deleted_to_persistent", "detached_to_persistent",
                 "loaded_as_persistent"):
        event.listen(maker, name, _hold)
    for name in ("persistent_to_detached", "persistent_to_deleted", "persistent_to_transient"):
        event.listen(maker, name, _let_go)
    event.listen(maker, "after_soft_rollback", _forget_all)
    return maker


def _hold(session: Session, instance: object) -> None:
    session.info.setdefault(_REFS, set()).add(instance)


def _let_go(session: Session, instance: object) -> None:
    session.info.get(_REFS, set()).discard(instance)


def _forget_all(session: Session, _previous: object) -> None:
    """After a rollback (a savepoint's too) nothing is held: rows a bulk INSERT loaded are not
    expunged by it, and an id SQLite hands out again must not meet an object kept alive here."""
    session.info.pop(_REFS, None)


_REFS = "roomops.refs"
