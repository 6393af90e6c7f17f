"""The dealers' roster as rows (R62-R64, migration 0051): a dealer's state at any moment is derived
from them and the clock, never stored.

- ``DealerShift``: checked in (R62) until checked out; one open shift a dealer.
- ``DealerSpell``: a down at a table (R63) or a break (R64), from its start to its deadline
  (``ends_at``: the push, or the end of the break), ended when it is. One open spell a dealer and
  one open down a table (partial unique indexes); triggers keep spells inside open shifts.
- ``DealerOverride``: the coordinator's next dealer for a table (R64, with its reason, R60),
  pending until the table's next push takes it or it is dropped."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from roomops.checks import one_of
from roomops.db import Base, UTCDateTime

SpellKind = Literal["down", "break"]
# pushed: the next dealer took the table (R64); break_over: the break's time was up; table_closed:
# the table closed under the down (R64: the one move mid-down); checked_out: the dealer left
# (R62); moved: the coordinator sent the dealer elsewhere (R64, audited)
EndReason = Literal["pushed", "break_over", "table_closed", "checked_out", "moved"]

_OPEN_SHIFT = text("checked_out_at IS NULL")
_OPEN_SPELL = text("ended_at IS NULL")
_OPEN_DOWN = text("ended_at IS NULL AND kind = 'down'")
_PENDING = text("used_at IS NULL AND dropped_at IS NULL")


class DealerShift(Base):
    __tablename__ = "dealer_shifts"
    __table_args__ = (
        CheckConstraint("checked_out_at IS NULL OR checked_out_at >= checked_in_at", name="out_after_in"),
        Index("uq_dealer_shifts_open", "dealer_id", unique=True,
              sqlite_where=_OPEN_SHIFT, postgresql_where=_OPEN_SHIFT),
        Index("ix_dealer_shifts_room_open", "room_id", "checked_out_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    dealer_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    checked_in_at: Mapped[datetime] = mapped_column(UTCDateTime)
    checked_out_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class DealerSpell(Base):
    __tablename__ = "dealer_spells"
    __table_args__ = (
        CheckConstraint(one_of("kind", SpellKind), name="kind"),
        CheckConstraint("(kind = 'down') = (table_id IS NOT NULL)", name="table"),
        CheckConstraint("ends_at > started_at", name="ends_after_start"),
        CheckConstraint("ended_at IS NULL OR ended_at >= started_at", name="ended"),
        CheckConstraint("(ended_at IS NULL) = (end_reason IS NULL)", name="reason"),
        CheckConstraint(f"end_reason IS NULL OR {one_of('end_reason', EndReason)}", name="end_reason"),
        Index("uq_dealer_spells_dealer_open", "dealer_id", unique=True,
              sqlite_where=_OPEN_SPELL, postgresql_where=_OPEN_SPELL),
        Index("uq_dealer_spells_table_open", "table_id", unique=True,
              sqlite_where=_OPEN_DOWN, postgresql_where=_OPEN_DOWN),
        Index("ix_dealer_spells_room_open", "room_id", "ended_at", "ends_at"),
        Index("ix_dealer_spells_table", "table_id", "started_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    shift_id: Mapped[int] = mapped_column(ForeignKey("dealer_shifts.id"))
    dealer_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    kind: Mapped[SpellKind] = mapped_column(String(8))
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ends_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    end_reason: Mapped[EndReason | None] = mapped_column(String(12))


class DealerOverride(Base):
    __tablename__ = "dealer_overrides"
    __table_args__ = (
        CheckConstraint("length(trim(reason)) > 0", name="reason"),
        CheckConstraint("used_at IS NULL OR dropped_at IS NULL", name="settled"),
        Index("uq_dealer_overrides_table_pending", "table_id", unique=True,
              sqlite_where=_PENDING, postgresql_where=_PENDING),
        Index("uq_dealer_overrides_dealer_pending", "dealer_id", unique=True,
              sqlite_where=_PENDING, postgresql_where=_PENDING),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    dealer_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    reason: Mapped[str] = mapped_column(Text)
    made_by_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    made_at: Mapped[datetime] = mapped_column(UTCDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    dropped_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
