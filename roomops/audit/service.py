"""Writing and reading the audit trail (R60)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.audit.models import AuditEvent


def record(
    session: Session,
    actor: Actor,
    now: datetime,
    action: str,
    entity: tuple[str, int],
    reason: str | None = None,
    **detail: Any,
) -> AuditEvent:
    """Add one audit row in the caller's transaction, so it commits or rolls back with the change."""
    event = AuditEvent(
        room_id=actor.room_id,
        at=now,
        actor_id=actor.staff_id,
        actor=actor.label,
        action=action,
        entity_type=entity[0],
        entity_id=entity[1],
        reason=reason,
        detail=detail,
    )
    session.add(event)
    return event


def query(
    room_id: int,
    *,
    action: str | None = None,
    actor: str | None = None,
    entity: tuple[str, int] | None = None,
    before_id: int | None = None,
    limit: int = 100,
) -> Select[tuple[AuditEvent]]:
    """Newest first, filtered; ``before_id`` pages backwards through a long trail."""
    stmt = select(AuditEvent).where(AuditEvent.room_id == room_id)
    if action:
        stmt = stmt.where(AuditEvent.action.startswith(action))
    if actor:
        stmt = stmt.where(AuditEvent.actor == actor)
    if entity:
        stmt = stmt.where(AuditEvent.entity_type == entity[0], AuditEvent.entity_id == entity[1])
    if before_id:
        stmt = stmt.where(AuditEvent.id < before_id)
    return stmt.order_by(AuditEvent.id.desc()).limit(limit)


def latest_id(session: Session, room_id: int) -> int:
    """The room's change counter: the board's ETag moves whenever anything is audited."""
    stmt = select(AuditEvent.id).where(AuditEvent.room_id == room_id)
    return session.scalar(stmt.order_by(AuditEvent.id.desc()).limit(1)) or 0
