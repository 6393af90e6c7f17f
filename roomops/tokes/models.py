"""The dealers' tips as rows (R66, migration 0052). Tips are the dealers', never house revenue:
nothing here is a ledger row.

- ``TokeCount``: the pool of one shift of a gaming day (R54: the day and the shift's number, as
  the cage names shifts, with the shift's window frozen as it was counted), counted by one staff
  member and confirmed by a second (the database checks they differ). Append-only: a wrong count
  is replaced by a new count of the same shift naming it (``replaces_id``) and saying why; the
  shift's count is the one nothing replaces. The database keeps the counts of a shift a line:
  one first count, each count replaced at most once, by a later one of the same room, day and
  shift.
- ``TokeShare``: a dealer's share of a count, for the downs they dealt in the shift
  (``roomops.tokes.split``). Append-only."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    CheckConstraint,
    Date,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from roomops.db import Base, Minor, UTCDateTime

_FIRST = text("replaces_id IS NULL")


class TokeCount(Base):
    __tablename__ = "toke_counts"
    __table_args__ = (
        CheckConstraint("shift_no >= 1", name="shift_no"),
        CheckConstraint("shift_end > shift_start", name="window"),
        CheckConstraint("amount >= 0", name="amount"),
        CheckConstraint("counted_by_id <> confirmed_by_id", name="two_staff"),
        CheckConstraint("replaces_id IS NULL OR replaces_id < id", name="replaces_earlier"),
        CheckConstraint("replaces_id IS NULL OR length(trim(coalesce(reason, ''))) > 0", name="reason"),
        UniqueConstraint("replaces_id", name="uq_toke_counts_replaces"),
        UniqueConstraint("id", "room_id", "gaming_day", "shift_no", name="uq_toke_counts_shift"),
        ForeignKeyConstraint(["replaces_id", "room_id", "gaming_day", "shift_no"],
                             ["toke_counts.id", "toke_counts.room_id", "toke_counts.gaming_day",
                              "toke_counts.shift_no"], name="fk_toke_counts_same_shift"),
        Index("uq_toke_counts_first", "room_id", "gaming_day", "shift_no", unique=True,
              sqlite_where=_FIRST, postgresql_where=_FIRST),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    gaming_day: Mapped[date] = mapped_column(Date)
    shift_no: Mapped[int]
    shift_start: Mapped[datetime] = mapped_column(UTCDateTime)
    shift_end: Mapped[datetime] = mapped_column(UTCDateTime)
    amount: Mapped[Minor]
    counted_by_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    confirmed_by_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    counted_at: Mapped[datetime] = mapped_column(UTCDateTime)
    replaces_id: Mapped[int | None]
    reason: Mapped[str | None] = mapped_column(Text)


class TokeShare(Base):
    __tablename__ = "toke_shares"
    __table_args__ = (
        CheckConstraint("downs >= 1", name="downs"),
        CheckConstraint("share >= 0", name="share"),
        UniqueConstraint("count_id", "dealer_id", name="uq_toke_shares_count_dealer"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    count_id: Mapped[int] = mapped_column(ForeignKey("toke_counts.id"))
    dealer_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    downs: Mapped[int]
    share: Mapped[Minor]
