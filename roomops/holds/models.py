"""Seat holds: an open offer on a seat or a player sitting in it, in one table.

Keeping both in one table lets one partial unique index enforce "one live occupant or offer per
seat" in the database itself.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    ColumnClause,
    ForeignKey,
    Index,
    String,
    Text,
    false,
    literal_column,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from roomops.checks import one_of
from roomops.db import Base, Minor, UTCDateTime

HoldKind = Literal["offer", "seated"]
# how a seat-change request ended: the player moved, declined or let the call run out, took it
# back, or their seat ended (they left the table, moved or were swapped)
RequestOutcome = Literal["moved", "declined", "expired", "withdrawn", "seat_ended"]
HoldOutcome = Literal["claimed", "declined", "expired", "cancelled", "left", "moved", "released"]
# Why the room released a seat (R27 names it): a break ran out (R24), away too long or missed big
# blinds (R26), a forced must-move refused (R17), a broken table with no seat left (R19)
ReleaseCause = Literal["break", "away", "missed_bb", "must_move", "broken"]

# Hold kinds as SQL literals, not bound parameters: PostgreSQL's generic plan for a prepared
# statement can use the partial indexes below only when the query states the kind literally.
OFFER: ColumnClause[str] = literal_column("'offer'")
SEATED: ColumnClause[str] = literal_column("'seated'")

_LIVE = text("ended_at IS NULL")
_LIVE_SEATED = text("ended_at IS NULL AND kind = 'seated'")
_LIVE_OFFER = text("ended_at IS NULL AND kind = 'offer'")
_SEATED = text("kind = 'seated'")
_LIVE_MOVE_OFFER = text("ended_at IS NULL AND kind = 'offer' AND from_hold_id IS NOT NULL")
_LIVE_RESERVED = text("ended_at IS NULL AND reserved_at IS NOT NULL")


class SeatHold(Base):
    __tablename__ = "seat_holds"
    __table_args__ = (
        CheckConstraint(one_of("kind", HoldKind), name="kind"),
        # R4: seats 1..N, and N+1 one over (N is 9 or 10); the trigger of migration 0035 holds a
        # live hold to its game's N+1 and seat N+1 to a written reason (roomops.holds.extra_seat)
        CheckConstraint("seat_no BETWEEN 1 AND 11", name="seat_no"),
        CheckConstraint(
            "kind <> 'offer' OR (deadline IS NOT NULL AND "
            "(entry_id IS NOT NULL OR from_hold_id IS NOT NULL))", name="offer_fields"
        ),
        CheckConstraint("from_hold_id <> id", name="from_other"),
        CheckConstraint("kind <> 'seated' OR buy_in > 0", name="seated_buy_in"),
        CheckConstraint("leave_amount IS NULL OR leave_amount >= 0", name="leave_amount"),
        CheckConstraint("(ended_at IS NULL) = (outcome IS NULL)", name="ended"),
        CheckConstraint(f"release_cause IS NULL OR (outcome = 'released' AND "
                        f"{one_of('release_cause', ReleaseCause)})", name="release_cause"),
        Index("uq_seat_holds_live_seat", "table_id", "seat_no", unique=True,
              sqlite_where=_LIVE, postgresql_where=_LIVE),
        Index("uq_seat_holds_live_player_seat", "room_id", "player_id", unique=True,
              sqlite_where=_LIVE_SEATED, postgresql_where=_LIVE_SEATED),
        Index("uq_seat_holds_live_player_offer", "room_id", "player_id", unique=True,
              sqlite_where=_LIVE_OFFER, postgresql_where=_LIVE_OFFER),
        # R17: one live must-move offer per seat moved from
        Index("uq_seat_holds_live_move_offer", "from_hold_id", unique=True,
              sqlite_where=_LIVE_MOVE_OFFER, postgresql_where=_LIVE_MOVE_OFFER),
        Index("ix_seat_holds_live_deadline", "deadline",
              sqlite_where=_LIVE_OFFER, postgresql_where=_LIVE_OFFER),
        # R36: seat changes claimed during a hand, made when the table's hand is recorded
        Index("ix_seat_holds_live_reserved", "table_id",
              sqlite_where=_LIVE_RESERVED, postgresql_where=_LIVE_RESERVED),
        Index("ix_seat_holds_table_ended", "table_id", "ended_at"),
        # issue 21: the room's seats that started or ended in the last weeks (roomops.waits)
        Index("ix_seat_holds_room_started", "room_id", "started_at"),
        Index("ix_seat_holds_room_ended", "room_id", "ended_at"),
        # R27: a player's recent and live seats, for the return rule
        Index("ix_seat_holds_player_seated", "player_id", "ended_at",
              sqlite_where=_SEATED, postgresql_where=_SEATED),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    seat_no: Mapped[int]
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    kind: Mapped[HoldKind] = mapped_column(String(8))
    entry_id: Mapped[int | None] = mapped_column(ForeignKey("list_entries.id"))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    outcome: Mapped[HoldOutcome | None] = mapped_column(String(10))
    buy_in: Mapped[Minor | None]
    leave_amount: Mapped[Minor | None]
    release_cause: Mapped[ReleaseCause | None] = mapped_column(String(10))
    # R17-R19: a must-move offer's seat to move from, or the seat a moved player came from
    from_hold_id: Mapped[int | None] = mapped_column(ForeignKey("seat_holds.id"))
    # R19/R36: moved by the floor or from a broken table: no blind to post to come in
    no_blind_owed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # R14/R36: an offer to a player asking for a seat change at this table (their seat is
    # ``from_hold_id``); ``reserved_at``: claimed during a hand, the move waits for its end
    # (use_alter: the request names its seat hold too, a cycle tables are sorted without)
    seat_change_id: Mapped[int | None] = mapped_column(ForeignKey("seat_change_requests.id",
                                                                  use_alter=True))
    reserved_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # R4: the floor's written reason for a hold in seat N+1, one over the table's seat count
    over_reason: Mapped[str | None] = mapped_column(Text)

    def is_open_offer(self, now: datetime) -> bool:
        """R20/R22: an offer is claimable strictly before its deadline, whether or not swept."""
        return self.kind == "offer" and self.ended_at is None and self.deadline is not None and (
            now < self.deadline
        ) and self.reserved_at is None


_LIVE_REQUEST = text("ended_at IS NULL")


class SeatChangeRequest(Base):
    """A seated player's place on their table's seat-change list (R14, R36): asked first, oldest
    first, when a seat of that table opens. It belongs to the seat the player asked from and ends
    with it; nothing is deleted (R16)."""

    __tablename__ = "seat_change_requests"
    __table_args__ = (
        CheckConstraint(one_of("outcome", RequestOutcome), name="outcome"),
        CheckConstraint("(ended_at IS NULL) = (outcome IS NULL)", name="ended"),
        Index("uq_seat_change_requests_live_hold", "hold_id", unique=True,
              sqlite_where=_LIVE_REQUEST, postgresql_where=_LIVE_REQUEST),
        Index("ix_seat_change_requests_live_table", "table_id", "asked_at",
              sqlite_where=_LIVE_REQUEST, postgresql_where=_LIVE_REQUEST),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    hold_id: Mapped[int] = mapped_column(ForeignKey("seat_holds.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    asked_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    outcome: Mapped[RequestOutcome | None] = mapped_column(String(10))
