"""Personal links and blocked numbers (R12, R61). Nothing is deleted: a block is lifted."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from roomops.checks import one_of
from roomops.db import Base, UTCDateTime
from roomops.rooms.languages import Language

_BLOCKING = text("lifted_at IS NULL")


class PlayerLink(Base):
    """R12/R61: one phone's personal link to the remote entries it made. Only the SHA-256 of the
    token is stored; the token itself is shown once, to the phone that joined, and kept in its
    cookie. A link sees and leaves only its own entries (``list_entries.link_id``)."""

    __tablename__ = "player_links"
    __table_args__ = (
        CheckConstraint(f"language IS NULL OR {one_of('language', Language)}", name="language"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # issue 21: the phone page's language at the link's latest join, which its player's texts are
    # written in (docs/messages.md); None: not known (the API's joins), the room's default
    language: Mapped[Language | None] = mapped_column(String(2))
    # issue 40 (R12): the number this link proved with a texted code; None: unverified (no
    # provider), its player the name typed, never the number's known player
    phone: Mapped[str | None] = mapped_column(String(20))
    # R2, R61: the link ends with the gaming day after its latest join (``rules.link_deadline``)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PhoneCode(Base):
    """R12: a join from the phone waiting for the one-time code texted to its number. Stored: the
    code's hash keyed with the pending join's secret (held by the phone's cookie alone) and that
    secret's SHA-256, never either; the deadline and the tries made, so the state is derived
    from them and now (``rules.code_state``). Never deleted."""

    __tablename__ = "phone_codes"
    __table_args__ = (
        CheckConstraint("attempts >= 0", name="attempts"),
        CheckConstraint("deadline > created_at", name="deadline"),
        CheckConstraint("(confirmed_at IS NULL) = (link_id IS NULL)", name="confirmed"),
        CheckConstraint("length(game_ids) > 0", name="game_ids"),
        Index("ix_phone_codes_room_phone", "room_id", "phone", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    phone: Mapped[str] = mapped_column(String(20))  # E.164
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    code_hash: Mapped[str] = mapped_column(String(64))
    first_name: Mapped[str] = mapped_column(String(60))
    last_name: Mapped[str] = mapped_column(String(60))
    game_ids: Mapped[str] = mapped_column(String(240))  # "3,5": the games asked for, in order
    language: Mapped[Language | None] = mapped_column(String(2))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    deadline: Mapped[datetime] = mapped_column(UTCDateTime)
    attempts: Mapped[int] = mapped_column(default=0)
    confirmed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    link_id: Mapped[int | None] = mapped_column(ForeignKey("player_links.id"))


class BlockedPhone(Base):
    """R12: a number the desk refuses remote entries from, with why; lifted, never deleted. The
    number is stored as ``roomops.rooms.twins.phone_key`` reads it (E.164)."""

    __tablename__ = "blocked_phones"
    __table_args__ = (
        CheckConstraint("length(reason) > 0", name="reason"),
        CheckConstraint("(lifted_at IS NULL) = (lifted_by_id IS NULL)", name="lifted"),
        Index("uq_blocked_phones_active", "room_id", "phone", unique=True,
              sqlite_where=_BLOCKING, postgresql_where=_BLOCKING),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), index=True)
    phone: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    created_by_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    lifted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    lifted_by_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
