"""The outbox (migration 0037): one row per text to a player, written in the transaction that
made the offer it is about, so a rollback sends nothing and a crash after the commit loses
nothing (docs/messages.md)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, text
from sqlalchemy.orm import Mapped, mapped_column

from roomops.checks import one_of
from roomops.db import Base, UTCDateTime
from roomops.messages.rules import Channel, MessageState

_PENDING = text("state IN ('queued', 'sending')")


class OutboxMessage(Base):
    """A text about one offer (R20). The unique (offer, channel) index makes "never twice for one
    offer" a fact of the database; a sender claims a row by moving it queued -> sending with a
    lease (a conditional UPDATE), so two senders never both send it."""

    __tablename__ = "outbox"
    __table_args__ = (
        CheckConstraint(one_of("channel", Channel), name="channel"),
        CheckConstraint(one_of("state", MessageState), name="state"),
        CheckConstraint("attempts >= 0", name="attempts"),
        CheckConstraint("state <> 'sending' OR lease_until IS NOT NULL", name="lease"),
        CheckConstraint("state <> 'queued' OR next_attempt_at IS NOT NULL", name="next_attempt"),
        CheckConstraint("state NOT IN ('queued', 'sending', 'sent', 'delivered') OR "
                        "number IS NOT NULL", name="number"),
        Index("uq_outbox_hold_channel", "hold_id", "channel", unique=True),
        Index("ix_outbox_pending", "next_attempt_at",
              sqlite_where=_PENDING, postgresql_where=_PENDING),
        Index("ix_outbox_provider_id", "provider_id"),
        Index("ix_outbox_room_updated", "room_id", "updated_at"),  # the desk's poll
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    hold_id: Mapped[int] = mapped_column(ForeignKey("seat_holds.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    channel: Mapped[Channel] = mapped_column(String(8))
    number: Mapped[str | None] = mapped_column(String(40))  # E.164
    body: Mapped[str] = mapped_column(String(640))
    state: Mapped[MessageState] = mapped_column(String(12))
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_error: Mapped[str | None] = mapped_column(String(200))
    provider_id: Mapped[str | None] = mapped_column(String(64))  # Twilio's message SID
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
