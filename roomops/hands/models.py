"""Hands and seats' blind states.

``hands`` is append-only (R60): one row per hand dealt, numbered per table opening, the database
refusing a second row with the same number (two taps of "new hand" record one hand). The last
hand of a table is its button and blinds. ``seat_blinds`` is the blind state of a seated player
(missed-blind buttons, a big blind owed), written as each hand is recorded."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from sqlalchemy import JSON, Boolean, CheckConstraint, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from roomops.checks import one_of
from roomops.db import Base, UTCDateTime

# R35/R36: a seat that has not yet been dealt in as a regular player is new
BlindStatus = Literal["new", "active"]


class Hand(Base):
    __tablename__ = "hands"
    __table_args__ = (
        CheckConstraint("hand_no >= 1", name="hand_no"),
        CheckConstraint("button BETWEEN 1 AND 10 AND small_blind_seat BETWEEN 1 AND 10 "
                        "AND big_blind_seat BETWEEN 1 AND 10", name="seats"),
        Index("uq_hands_table_hand_no", "table_id", "hand_no", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    hand_no: Mapped[int]
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    staff_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    button: Mapped[int]
    small_blind_seat: Mapped[int]  # the position, posted or dead (R34)
    big_blind_seat: Mapped[int]
    dealt_in: Mapped[list[int]] = mapped_column(JSON)  # in dealing order
    posts: Mapped[list[dict[str, Any]]] = mapped_column(JSON)  # seat_no, kind, amount
    straddles: Mapped[list[dict[str, Any]]] = mapped_column(JSON)  # seat_no, amount


class SeatBlinds(Base):
    """R35/R36: a seated player's missed-blind buttons and debts; no row yet: a new player."""

    __tablename__ = "seat_blinds"
    __table_args__ = (CheckConstraint(one_of("status", BlindStatus), name="status"),)

    hold_id: Mapped[int] = mapped_column(ForeignKey("seat_holds.id"), primary_key=True)
    status: Mapped[BlindStatus] = mapped_column(String(8))
    missed_sb: Mapped[bool] = mapped_column(Boolean, default=False)
    missed_bb: Mapped[bool] = mapped_column(Boolean, default=False)
    owes_bb: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
