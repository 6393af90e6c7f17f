"""List entries. Nothing is deleted (R16): an entry ends with a status, a time and a reason."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from roomops.checks import one_of
from roomops.db import Base, Minor, UTCDateTime

ListKind = Literal["waiting", "reserve"]
# R12: "phone" is a call-in the desk took; "remote" the player's own entry from the phone page
Source = Literal["in_person", "phone", "remote"]
DeskSource = Literal["in_person", "phone"]
CHECK_IN_SOURCES: frozenset[str] = frozenset({"phone", "remote"})
EntryStatus = Literal["active", "seated", "removed"]

_ACTIVE_WAITING = text("status = 'active' AND kind = 'waiting'")
_ACTIVE_RESERVE = text("status = 'active' AND kind = 'reserve'")
_ACTIVE = text("status = 'active'")
_AWAITING_CHECKIN = text("status = 'active' AND checked_in_at IS NULL")
_LOCKED = text("status = 'active' AND locked_until IS NOT NULL")
_VERIFIED_REMOTE = text("status = 'active' AND source = 'remote' AND phone_verified")
_LINKED = text("link_id IS NOT NULL")


class ListEntry(Base):
    """A player's place on a game's waiting list or a table's reserve list.

    ``queue_at`` orders the list (R10, R13): it starts as the joining time and only a reorder with a
    written reason, or the expiry policy (R22), moves it. ``joined_at`` never changes.
    """

    __tablename__ = "list_entries"
    __table_args__ = (
        CheckConstraint(one_of("kind", ListKind), name="kind"),
        CheckConstraint("(kind = 'reserve') = (table_id IS NOT NULL)", name="reserve_has_table"),
        CheckConstraint(one_of("source", Source), name="source"),
        CheckConstraint(one_of("status", EntryStatus), name="status"),
        CheckConstraint("(status = 'active') = (ended_at IS NULL)", name="ended"),
        Index(
            "uq_list_entries_waiting_player",
            "game_id",
            "player_id",
            unique=True,
            sqlite_where=_ACTIVE_WAITING,
            postgresql_where=_ACTIVE_WAITING,
        ),
        Index(
            "uq_list_entries_reserve_player",
            "table_id",
            "player_id",
            unique=True,
            sqlite_where=_ACTIVE_RESERVE,
            postgresql_where=_ACTIVE_RESERVE,
        ),
        Index("ix_list_entries_game_status_queue", "game_id", "status", "queue_at"),
        Index("ix_list_entries_player_status", "player_id", "status"),
        # The board reads a room's active entries by game in list order; the sweep finds due
        # check-ins (R12).
        Index("ix_list_entries_room_active", "room_id", "game_id", "queue_at", "id",
              sqlite_where=_ACTIVE, postgresql_where=_ACTIVE),
        Index("ix_list_entries_checkin_due", "checkin_deadline",
              sqlite_where=_AWAITING_CHECKIN, postgresql_where=_AWAITING_CHECKIN),
        CheckConstraint("lockup_deposit IS NULL OR lockup_deposit > 0", name="lockup_deposit"),
        # the sweep finds lockups that ran out
        Index("ix_list_entries_lockup_due", "locked_until",
              sqlite_where=_LOCKED, postgresql_where=_LOCKED),
        # R12: a player's own remote entry names the link and the number it came from: one
        # active verified remote entry per number and game (an unverified one cannot keep the
        # number's player off a list); the number's verified entries are counted against the
        # room's cap from this index's prefix
        CheckConstraint("(source = 'remote') = (link_id IS NOT NULL AND remote_phone IS NOT NULL)",
                        name="remote"),
        CheckConstraint("source = 'remote' OR NOT phone_verified", name="phone_verified"),
        Index("uq_list_entries_remote_phone", "remote_phone", "game_id", unique=True,
              sqlite_where=_VERIFIED_REMOTE, postgresql_where=_VERIFIED_REMOTE),
        Index("ix_list_entries_link", "link_id", sqlite_where=_LINKED, postgresql_where=_LINKED),
        # R80: the figures' rollup reads a room's entries by when they ended
        Index("ix_list_entries_room_ended", "room_id", "ended_at"),
        CheckConstraint("shown_low >= 0", name="shown_low"),
        CheckConstraint("(shown_median IS NULL) = (shown_low IS NULL) AND shown_median >= shown_low",
                        name="shown_median"),
        CheckConstraint("shown_high IS NULL OR (shown_low IS NOT NULL AND shown_high >= shown_median)",
                        name="shown_high"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    kind: Mapped[ListKind] = mapped_column(String(8))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    source: Mapped[Source] = mapped_column(String(10), default="in_person")
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime)
    queue_at: Mapped[datetime] = mapped_column(UTCDateTime)
    checkin_deadline: Mapped[datetime | None] = mapped_column(UTCDateTime)
    checked_in_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # R10-R14: a lockup: the player stepped away and keeps their place until then, passed over
    # for offers meanwhile; a deposit taken for it is recorded
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    lockup_deposit: Mapped[Minor | None]
    link_id: Mapped[int | None] = mapped_column(ForeignKey("player_links.id"))
    remote_phone: Mapped[str | None] = mapped_column(String(20))
    # R12: the phone proved ``remote_phone`` (a texted code, or a link that proved it before)
    phone_verified: Mapped[bool] = mapped_column(default=False)
    status: Mapped[EntryStatus] = mapped_column(String(8), default="active")
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    end_reason: Mapped[str | None] = mapped_column(Text)
    # R10-R14, R80: the wait the player was shown as they joined, in whole minutes (``shown_high``
    # none: open-ended), scored against the real one by the figures (roomops.waits.model.Shown)
    shown_low: Mapped[int | None]
    shown_median: Mapped[int | None]
    shown_high: Mapped[int | None]
