"""Hands and seats' blind states.

``hands`` is append-only (R60): one row per hand dealt, numbered per table opening, the database
refusing a second row with the same number (two taps of "new hand" record one hand). The last
hand of a table is its button and blinds. ``seat_blinds`` is the blind state of a seated player
(missed-blind buttons, a big blind owed), written as each hand is recorded. ``penalties``, the
penalties given at a seat, are append-only too (R60): a sit-out runs for the hands recorded at
the table after it was given (``from_hand_no``), so its state is derived from the hands, never
stored (R55)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from sqlalchemy import JSON, Boolean, CheckConstraint, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from roomops.blinds.penalties import PenaltyKind
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
        Index("ix_hands_spell_id", "spell_id"),  # a down card's hands (R63)
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
    # R63: the down it was dealt in, where the room runs its dealers' roster here
    spell_id: Mapped[int | None] = mapped_column(ForeignKey("dealer_spells.id"))


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
