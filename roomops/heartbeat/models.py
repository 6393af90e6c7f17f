"""One row per scheduler (``sweep_heartbeats``): its last sweep (migration 0028); one row per room
whose sweep is failing (``room_sweep_failures``, migration 0042)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, String, text
from sqlalchemy.orm import Mapped, mapped_column

from roomops.db import Base, UTCDateTime


class SweepHeartbeat(Base):
    """Rewritten by every run of that scheduler once its rooms are swept, in a transaction of its
    own: a scheduler that stops, or cannot reach the database, leaves the row as it was, so its
    age grows. Several schedulers, several rows; the freshest counts. Not audited: it is no change
    of the floor (docs/decisions.md)."""

    __tablename__ = "sweep_heartbeats"
    __table_args__ = (
        CheckConstraint("took_ms >= 0", name="took_ms"),
        CheckConstraint("expired_offers >= 0 AND no_shows >= 0 AND released_absences >= 0",
                        name="counts"),
        CheckConstraint("pushes >= 0", name="pushes"),
    )

    scheduler_id: Mapped[str] = mapped_column(String(120), primary_key=True)
    ran_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    took_ms: Mapped[int]
    expired_offers: Mapped[int]
    no_shows: Mapped[int]
    released_absences: Mapped[int]
    pushes: Mapped[int] = mapped_column(default=0, server_default=text("0"))  # R64: dealers' spells started


class RoomSweepFailure(Base):
    """A room whose sweep fails, since the freshest sweep before its first failed run (when it was
    last known swept): written with the heartbeat of that run, deleted by the first run in which
    the room's sweep does not fail. The room's screens count their age from here
    (``roomops.heartbeat.rules.room_last_run``). Not audited, as the heartbeat."""

    __tablename__ = "room_sweep_failures"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    failing_since: Mapped[datetime] = mapped_column(UTCDateTime)
