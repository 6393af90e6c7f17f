"""One row per scheduler (``sweep_heartbeats``): its last successful sweep (migration 0028)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, String
from sqlalchemy.orm import Mapped, mapped_column

from roomops.db import Base, UTCDateTime


class SweepHeartbeat(Base):
    """Rewritten by every sweep of that scheduler, in the sweep's own transaction: a failed sweep
    leaves the row as it was, so its age grows. Several schedulers, several rows; the freshest
    counts. Not audited: it is no change of the floor (docs/decisions.md)."""

    __tablename__ = "sweep_heartbeats"
    __table_args__ = (
        CheckConstraint("took_ms >= 0", name="took_ms"),
        CheckConstraint("expired_offers >= 0 AND no_shows >= 0 AND released_absences >= 0",
                        name="counts"),
    )

    scheduler_id: Mapped[str] = mapped_column(String(120), primary_key=True)
    ran_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    took_ms: Mapped[int]
    expired_offers: Mapped[int]
    no_shows: Mapped[int]
    released_absences: Mapped[int]
