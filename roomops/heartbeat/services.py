"""Writing and reading the sweep's heartbeat (``sweep_heartbeats``) and the rooms whose sweep is
failing (``room_sweep_failures``)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime

from sqlalchemy import bindparam, delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from roomops.heartbeat.models import RoomSweepFailure, SweepHeartbeat

# both dialects' INSERTs have on_conflict_do_update(index_elements=...), the base Insert has not
_INSERT: dict[str, Callable[[type[SweepHeartbeat] | type[RoomSweepFailure]],
                            postgresql.Insert | sqlite.Insert]] = {
    "postgresql": postgresql.insert, "sqlite": sqlite.insert}
_FRESHEST = select(func.max(SweepHeartbeat.ran_at))
_ROOM_RUNS = select(_FRESHEST.scalar_subquery(), select(RoomSweepFailure.failing_since).where(
    RoomSweepFailure.room_id == bindparam("room_id")).scalar_subquery())


def beat(session: Session, scheduler_id: str, now: datetime, took_ms: int,
         counts: dict[str, int]) -> None:
    """Record that ``scheduler_id`` swept at ``now``: one upsert, in the caller's transaction.
    Idempotent; ``counts``: expired_offers, no_shows, released_absences, pushes (R64). Called last in a run,
    after every room's locks are let go: a scheduler holding its row never waits for a game lock,
    so two sharing an id cannot deadlock."""
    values = {"ran_at": now, "took_ms": max(0, took_ms), **counts}
    stmt = _INSERT[session.get_bind().dialect.name](SweepHeartbeat).values(
        scheduler_id=scheduler_id, **values)
    session.execute(stmt.on_conflict_do_update(index_elements=["scheduler_id"], set_=values))


def note_failures(session: Session, now: datetime, failed: Collection[int]) -> None:
    """The rooms of ``failed`` are failing since the freshest sweep before their first failed
    run, the last time they were known swept (a row kept, not rewritten; ``now`` when no
    scheduler ever swept); every other room is not failing, whether it was swept or had nothing
    due. In the heartbeat's transaction, before this run's ``beat``."""
    session.execute(delete(RoomSweepFailure).where(RoomSweepFailure.room_id.not_in(failed)))
    if failed:
        since = min(last_run(session) or now, now)
        stmt = _INSERT[session.get_bind().dialect.name](RoomSweepFailure).values(
            [{"room_id": room_id, "failing_since": since} for room_id in failed])
        session.execute(stmt.on_conflict_do_nothing(index_elements=["room_id"]))


def last_run(session: Session) -> datetime | None:
    """The freshest sweep of any scheduler (None: none ever swept)."""
    found: datetime | None = session.scalar(_FRESHEST)
    return found


def room_runs(session: Session, room_id: int) -> tuple[datetime | None, datetime | None]:
    """The freshest sweep of any scheduler and, if the room's sweep is failing, since when: one
    statement (``roomops.heartbeat.rules.room_last_run`` puts them together)."""
    last, failing = session.execute(_ROOM_RUNS, {"room_id": room_id}).one()
    return last, failing


def rooms_failing(session: Session, since: datetime) -> int:
    """How many rooms' sweeps have been failing since before ``since``."""
    return session.scalar(select(func.count()).select_from(RoomSweepFailure).where(
        RoomSweepFailure.failing_since < since)) or 0
