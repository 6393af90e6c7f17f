"""Absences from a seat: a break (R23) or away (R25). Nothing is deleted: an absence ends with a
time and an outcome. The deadline is stored on the row (break: R24; away with ``max_away_minutes``:
R26) and the state is derived from it and now."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from sqlalchemy import Boolean, CheckConstraint, Date, ForeignKey, Index, String, Text, text, true
from sqlalchemy.orm import Mapped, mapped_column

from roomops.checks import one_of
from roomops.db import Base, Minor, UTCDateTime
from roomops.floor.events import AbsenceOutcome

AbsenceKind = Literal["break", "away"]
# returned: back in time; released: the sweep gave the seat up (R24/R26); seat_ended: the player left
# or moved while absent

_LIVE = text("ended_at IS NULL")
_LIVE_DUE = text("ended_at IS NULL AND deadline IS NOT NULL")


class Absence(Base):
    __tablename__ = "absences"
    __table_args__ = (
        CheckConstraint(one_of("kind", AbsenceKind), name="kind"),
        CheckConstraint(f"outcome IS NULL OR {one_of('outcome', AbsenceOutcome)}", name="outcome"),
        CheckConstraint("(ended_at IS NULL) = (outcome IS NULL)", name="ended"),
        CheckConstraint("kind <> 'break' OR deadline IS NOT NULL", name="break_deadline"),
        CheckConstraint("deadline IS NULL OR deadline > started_at", name="deadline_after_start"),
        CheckConstraint("stack >= 0", name="stack"),
        CheckConstraint("missed_bb >= 0", name="missed_bb"),
        # one live absence per seat hold
        Index("uq_absences_live_hold", "hold_id", unique=True,
              sqlite_where=_LIVE, postgresql_where=_LIVE),
        # the sweep's due breaks and pickups
        Index("ix_absences_live_deadline", "deadline",
              sqlite_where=_LIVE_DUE, postgresql_where=_LIVE_DUE),
        # R23: breaks per gaming day; continuous play since the last absence of the seat
        Index("ix_absences_player_day", "player_id", "gaming_day"),
        Index("ix_absences_hold_ended", "hold_id", "ended_at"),
        # the board's live absences of a room
        Index("ix_absences_live_room", "room_id", sqlite_where=_LIVE, postgresql_where=_LIVE),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    hold_id: Mapped[int] = mapped_column(ForeignKey("seat_holds.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    kind: Mapped[AbsenceKind] = mapped_column(String(8))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime)
    gaming_day: Mapped[date] = mapped_column(Date)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    outcome: Mapped[AbsenceOutcome | None] = mapped_column(String(10))
    note: Mapped[str | None] = mapped_column(Text)
    stack: Mapped[Minor]  # the stack left on the table, in minor units (feeds R27 via R24)
    # R25: false when the stack is the buy-in kept for want of a count: then it sets no R27 amount
    stack_counted: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    missed_bb: Mapped[int] = mapped_column(default=0, server_default=text("0"))  # R26
    # R29: the owner asked for no playover until then (exclusive); None: not asked
    no_playover_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
