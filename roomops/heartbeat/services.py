"""Writing and reading the sweep's heartbeat (``sweep_heartbeats``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from roomops.heartbeat.models import SweepHeartbeat

# both dialects' INSERTs have on_conflict_do_update(index_elements=...), the base Insert has not
_INSERT: dict[str, Callable[[type[SweepHeartbeat]], postgresql.Insert | sqlite.Insert]] = {
    "postgresql": postgresql.insert, "sqlite": sqlite.insert}
_LAST_RUN = select(func.max(SweepHeartbeat.ran_at))


def beat(session: Session, scheduler_id: str, now: datetime, took_ms: int,
         counts: dict[str, int]) -> None:
    """Record that ``scheduler_id`` swept at ``now``: one upsert, in the caller's transaction, so
    it commits with the sweep or not at all. Idempotent; ``counts``: expired_offers, no_shows,
    released_absences. Called last in a sweep, after every game's lock: a scheduler holding its
    row never waits for a game lock, so two sharing an id cannot deadlock."""
    values = {"ran_at": now, "took_ms": max(0, took_ms), **counts}
    stmt = _INSERT[session.get_bind().dialect.name](SweepHeartbeat).values(
        scheduler_id=scheduler_id, **values)
    session.execute(stmt.on_conflict_do_update(index_elements=["scheduler_id"], set_=values))


def last_run(session: Session) -> datetime | None:
    """The freshest sweep of any scheduler (None: none ever swept)."""
    found: datetime | None = session.scalar(_LAST_RUN)
    return found
