"""Penalties given at a seat. Append-only (R60): a penalty is never edited; a sit-out runs for the
hands recorded at the table after it was given (``from_hand_no``), so its state is derived from
the hands, never stored."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from roomops.blinds.penalties import PenaltyKind
from roomops.checks import one_of
from roomops.db import Base, UTCDateTime


class PenaltyRecord(Base):
    __tablename__ = "penalties"
    __table_args__ = (
        CheckConstraint(one_of("kind", PenaltyKind), name="kind"),
        CheckConstraint("count >= 0 AND players_at_table >= 0 AND hands_out >= 0 "
                        "AND from_hand_no >= 0", name="counts"),
        CheckConstraint("length(trim(reason)) > 0", name="reason"),
        Index("ix_penalties_player_given", "player_id", "given_at"),
        Index("ix_penalties_hold", "hold_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    hold_id: Mapped[int] = mapped_column(ForeignKey("seat_holds.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    kind: Mapped[PenaltyKind] = mapped_column(String(8))
    count: Mapped[int]  # hands, or 1 or 2 rounds
    players_at_table: Mapped[int]  # for rounds: one hand per player at the table when given
    hands_out: Mapped[int]  # R55: hands the seat is dealt out for
    from_hand_no: Mapped[int]  # the table's last recorded hand when given (0: none yet)
    reason: Mapped[str] = mapped_column(Text)
    given_at: Mapped[datetime] = mapped_column(UTCDateTime)
    given_by_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
