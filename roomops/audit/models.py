"""Audit events. Triggers in the migration refuse UPDATE and DELETE (R60)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from roomops.db import Base, UTCDateTime


class AuditEvent(Base):
    __tablename__ = "audit_events"
    __table_args__ = (
        Index("ix_audit_events_room_id", "room_id", "id"),
        Index("ix_audit_events_entity", "entity_type", "entity_id"),
        Index("ix_audit_events_room_action", "room_id", "action"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    actor: Mapped[str] = mapped_column(String(60))
    action: Mapped[str] = mapped_column(String(40))
    entity_type: Mapped[str] = mapped_column(String(20))
    entity_id: Mapped[int]
    reason: Mapped[str | None] = mapped_column(Text)
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class RoomMark(Base):
    """How many audit rows the room has: a trigger of migration 0040 moves it in the transaction
    that adds them, so it moves with their commit, whatever order their ids were handed out in.
    The live screens' change mark reads it (``roomops.web.live``): one row by its key, however long
    the audit trail."""

    __tablename__ = "room_marks"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    mark: Mapped[int] = mapped_column(BigInteger, server_default="0")
