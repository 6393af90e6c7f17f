"""Reading the audit trail (R60); the unit of work writes it (``roomops.audit.rows``)."""

from __future__ import annotations

from sqlalchemy import Select, select

from roomops.audit.models import AuditEvent


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
