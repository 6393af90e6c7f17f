"""Engine and session set-up for SQLite (embedded default) and PostgreSQL (production).

SQLite: WAL, ``busy_timeout``, foreign keys on, and write transactions that begin IMMEDIATE so two
writers never deadlock on a lock upgrade. Read-only work (the board) begins DEFERRED and never waits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Annotated, Any, TypeVar

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Connection,
    DateTime,
    Engine,
    Integer,
    MetaData,
    Row,
    Update,
    bindparam,
    create_engine,
    event,
    insert,
    update,
)
from sqlalchemy.orm import DeclarativeBase, Session, mapped_column, sessionmaker
from sqlalchemy.orm.util import identity_key
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


INT_MAX = 2**31 - 1
"""The largest value of an INTEGER column (PostgreSQL's int4): every id, count and number. A larger
id names no row (``roomops.actors.get_in_room``, the routes' ``int`` converter)."""

Minor = Annotated[int, mapped_column(BigInteger().with_variant(Integer(), "sqlite"))]
"""An amount in integer minor units (R52), ``Mapped[Minor]``: BIGINT on PostgreSQL (migration
0021), so a total fits any currency's minor units; SQLite's INTEGER is 64-bit already, and the
variant keeps the models matching the tables SQLite has (never rebuilt for it)."""


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
    return [row[0] for row in end_live_by(session, model, "id", ids, now, outcome, (), kind=None,
                                          **values)]


def end_live_by(session: Session, model: Any, key: str, keys: list[int], now: datetime,
                outcome: str, returning: tuple[str, ...] = (), *,
                kind: ColumnElement[str] | None = None, **values: object) -> list[Row[Any]]:
    """``end_live`` for the live rows (of ``kind``, if given: an SQL literal such as
    ``holds.models.OFFER``, so partial indexes on the kind apply) whose attribute ``key`` is
    among ``keys``: one UPDATE ... RETURNING (``update_returning``) handing back the id and the
    ``returning`` attributes of each row it ended (what their audit rows need, without reading
    them first). A value may be an SQL expression (a CASE by id)."""
    if not keys:
        return []
    plain = {name: v for name, v in values.items() if not isinstance(v, ColumnElement)}
    built = {name: v for name, v in values.items() if isinstance(v, ColumnElement)}
    params = {"keys": keys, "end_at": now, "end_outcome": outcome,
              **{f"set_{name}": v for name, v in plain.items()}}
    return update_returning(session, _ending(model, key, kind, returning, tuple(sorted(plain))),
                            params, **built)


@cache
def _ending(model: Any, key: str, kind: ColumnElement[str] | None, returning: tuple[str, ...],
            names: tuple[str, ...]) -> Change:
    """``end_live_by``'s UPDATE, built once for each way it is called."""
    where = [model.ended_at.is_(None)]
    if kind is not None:
        where.append(model.kind == kind)
    sets: dict[str, Any] = {"ended_at": bindparam("end_at"), "outcome": bindparam("end_outcome"),
            **{name: bindparam(f"set_{name}") for name in names}}
    return Change.of(model, key, "keys", where, sets, returning)


@dataclass(frozen=True)
class Change:
    """An UPDATE ... RETURNING of ``model``'s rows, built once: the id and the ``returning``
    attributes of each row changed come back (``columns`` of them); ``loading`` also returns the
    entity (``update_returning``). The rows are among those whose attribute ``key`` is in the bind
    parameter ``keys`` (a list)."""

    model: Any
    stmt: Update
    loading: Update
    columns: int
    key: str
    keys: str

    @classmethod
    def of(cls, model: Any, key: str, keys: str, where: Sequence[ColumnElement[bool]],
           sets: Mapping[str, Any], returning: Sequence[str] = ()) -> Change:
        """The rows whose ``key`` is among the list bound as ``keys`` and that match ``where``
        get ``sets`` (attribute -> value: bind parameters, for a statement run many times)."""
        stmt = update(model).where(getattr(model, key).in_(bindparam(keys, expanding=True)),
                                   *where).returning(
            model.id, *(getattr(model, name) for name in returning))
        stmt = stmt.values(**sets) if sets else stmt
        return cls(model, stmt, stmt.returning(model), 1 + len(returning), key, keys)


def update_returning(session: Session, change: Change, params: Mapping[str, Any],
                     **built: ColumnElement[Any]) -> list[Row[Any]]:
    """Run ``change`` with ``params`` (and ``built``: SQL values made for this run, a CASE by id,
    set too) and hand back its RETURNING rows, the session kept in step with them.

    When the session may hold objects the UPDATE changes (``_may_change``), it runs ORM-enabled
    with the entity in its RETURNING, loaded with ``populate_existing``: the objects of exactly
    the rows changed read what is now stored, with no further SELECT. (Matching the session's
    objects against the WHERE clause in Python, ``synchronize_session="evaluate"``, would go by
    their possibly stale state: an object whose row another transaction ended first would be
    marked ended too.) Otherwise, as for most rows a request or the sweep ends, it is a Core
    statement on the session's connection, after a flush of what the session holds (as an ORM
    statement's autoflush): a fifth of the CPU (docs/benchmarks.md)."""
    if not _may_change(session, change, set(params[change.keys])):
        session.flush()
        stmt = change.stmt.values(**built) if built else change.stmt
        return list(session.connection().execute(stmt, dict(params)))
    loading = change.loading.values(**built) if built else change.loading
    result = session.execute(loading, params,
                             execution_options={"synchronize_session": False,
                                                "populate_existing": True})
    return list(result.columns(*range(change.columns)))


def _may_change(session: Session, change: Change, keys: set[Any]) -> bool:
    """Whether the session holds an object the UPDATE may change: of one of those ids, or, when
    the rows are picked by another attribute, any object of the model (by the identity map's
    keys: nothing is loaded or inspected, so a sweep holding thousands of objects pays little)."""
    if change.key == "id":
        return any(session.identity_map.get(identity_key(change.model, k)) is not None for k in keys)
    held = session.identity_map.keys()  # a list (IdentityMap is typed without __iter__)
    return any(ident[0] is change.model for ident in held)


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
