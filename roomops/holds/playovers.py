"""A playover (R29): a waiting player playing over the seat of an owner on a break or away.

The owner keeps the seat hold and their absence; the owner's chips are the absence's ``stack``
(counted when they left, the play-over box) and the overplayer's own chips are ``buy_in`` here, so
the two are never mixed. Nothing is deleted: a playover ends with a time and an outcome. The
overplayer's chips are on the books as ledger rows naming the playover (its buy-in, add-ons and
cash-out, docs/ledger.md "Playovers on the books"), never on the owner's rows."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from roomops.checks import one_of
from roomops.db import Base, Minor, UTCDateTime

# owner_back: the owner returned; seat_released: the owner's break or away ran out (R24/R26);
# seat_ended: the owner left or moved; seated: the overplayer sat down in a seat of their own;
# stopped: the supervisor ended it (the overplayer left)
PlayoverOutcome = Literal["owner_back", "seat_released", "seat_ended", "seated", "stopped"]

_LIVE = text("ended_at IS NULL")


class Playover(Base):
    __tablename__ = "playovers"
    __table_args__ = (
        CheckConstraint(f"outcome IS NULL OR {one_of('outcome', PlayoverOutcome)}", name="outcome"),
        CheckConstraint("(ended_at IS NULL) = (outcome IS NULL)", name="ended"),
        CheckConstraint("ended_at IS NULL OR ended_at >= started_at", name="ended_after_start"),
        CheckConstraint("buy_in > 0", name="buy_in"),
        # R27/R29/R52: an ended playover, and only that, has the overplayer's leave amount
        # (migration 0045): counted, or the chips on its books where nobody counted
        CheckConstraint("(leave_amount IS NULL) = (ended_at IS NULL) AND "
                        "(leave_amount IS NULL OR leave_amount >= 0)", name="leave_amount"),
        # one live playover per seat hold, and one per player (R29)
        Index("uq_playovers_live_hold", "hold_id", unique=True,
              sqlite_where=_LIVE, postgresql_where=_LIVE),
        Index("uq_playovers_live_player", "room_id", "player_id", unique=True,
              sqlite_where=_LIVE, postgresql_where=_LIVE),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    hold_id: Mapped[int] = mapped_column(ForeignKey("seat_holds.id"))  # the owner's seat
    absence_id: Mapped[int] = mapped_column(ForeignKey("absences.id"))  # holds the owner's stack
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))  # the overplayer
    entry_id: Mapped[int] = mapped_column(ForeignKey("list_entries.id"))  # the list they came from
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    buy_in: Mapped[Minor]  # the overplayer's own chips, minor units
    reason: Mapped[str | None] = mapped_column(Text)  # out of list order (R13)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    outcome: Mapped[PlayoverOutcome | None] = mapped_column(String(16))
    # R27/R29: the overplayer's stack as they left (None while the playover runs): counted by the
    # desk, or the chips the books hold for it where nobody counted (the sweep, the owner leaving;
    # ``playovers.services.end_playovers``); the playover's cash-out is tied to it
    leave_amount: Mapped[Minor | None]
