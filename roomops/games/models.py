"""Game and table tables."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    String,
    false,
    text,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column

from roomops.blinds.missed import GamePosting, NewPlayerPosting
from roomops.checks import one_of
from roomops.db import Base, Minor, UTCDateTime

# R50/R51: time paid in advance per hour or half hour, a drop from each hand dealt, or rake
FeeKind = Literal["none", "hourly", "halfhour", "drop", "rake"]
RakeRecorded = Literal["per_hand", "per_down"]  # R51: rake recorded for each hand or per dealer down
OpenClosed = Literal["open", "closed"]  # a game's or a table's status


def _small_blind(context: Any) -> int:
    """R51: a game opened without a smallest chip takes its small blind, as migration 0025 did."""
    return int(context.get_current_parameters()["small_blind"])


class Game(Base):
    """A variant at stakes (R4) with its buy-in range, fee model (R50/R51) and straddles (R40)."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint("small_blind > 0 AND big_blind >= small_blind", name="blinds"),
        CheckConstraint("ante >= 0", name="ante"),
        CheckConstraint("min_buyin > 0 AND max_buyin >= min_buyin", name="buyin"),
        CheckConstraint("seats_per_table IN (9, 10)", name="seats"),
        CheckConstraint(one_of("fee_kind", FeeKind), name="fee_kind"),
        CheckConstraint("time_fee >= 0 AND rake_cap >= 0", name="fees"),
        CheckConstraint("drop_fee >= 0", name="drop_fee"),
        CheckConstraint("rake_bp BETWEEN 0 AND 10000", name="rake_bp"),
        CheckConstraint("smallest_chip > 0", name="smallest_chip"),
        CheckConstraint("max_straddles BETWEEN 0 AND 8", name="max_straddles"),
        CheckConstraint(one_of("rake_recorded", RakeRecorded), name="rake_recorded"),
        CheckConstraint(one_of("status", OpenClosed), name="status"),
        CheckConstraint(one_of("new_player_posting", GamePosting), name="new_player_posting"),
        Index("ix_games_room_status", "room_id", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    variant: Mapped[str] = mapped_column(String(60))
    small_blind: Mapped[Minor]
    big_blind: Mapped[Minor]
    ante: Mapped[Minor] = mapped_column(default=0)
    min_buyin: Mapped[Minor]
    max_buyin: Mapped[Minor]
    seats_per_table: Mapped[int] = mapped_column(default=9)
    fee_kind: Mapped[FeeKind] = mapped_column(String(8), default="none")
    # R50: the time fee for one period of an hourly or half-hourly game (``fee_kind``)
    time_fee: Mapped[Minor] = mapped_column(default=0)
    # R51: the rake's percent in basis points (5.5% is 550), exact where a float percent is not
    rake_bp: Mapped[int] = mapped_column(default=0)
    rake_cap: Mapped[Minor] = mapped_column(default=0)
    straddle_allowed: Mapped[bool] = mapped_column(Boolean, default=False)
    max_straddles: Mapped[int] = mapped_column(default=0)
    button_straddle: Mapped[bool] = mapped_column(Boolean, default=False)
    # R40: straddles only when the supervisor sanctions them (``001_…``)
    straddle_sanction: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # R50: the time fee by the number of players seated, [{"players": n, "fee": amount}, ...]
    # (from n players, that fee); None or empty: ``time_fee`` whatever the number
    time_fee_by_players: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    # R50: a drop game's amount taken from each hand dealt, and by the number of players dealt in,
    # [{"players": n, "fee": amount}, ...] (from n players, that drop); None or empty: ``drop_fee``
    drop_fee: Mapped[Minor] = mapped_column(default=0)
    drop_by_players: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    # R51: no flop, no drop (policy, default on)
    rake_no_flop_no_drop: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # R51: rake by pot size instead of a percent, [{"pot": p, "rake": r}, ...] (from a pot of p,
    # rake r); None or empty: ``rake_bp``
    rake_schedule: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    # R51: the cap by players dealt in, [{"players": n, "cap": c}, ...] (from n players, cap c);
    # below the first step, or None: ``rake_cap``
    rake_caps_by_players: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    # R51: rake recorded hand by hand, or as one total per dealer down (``dealer_downs``)
    rake_recorded: Mapped[RakeRecorded] = mapped_column(String(8), default="per_hand",
                                                        server_default="per_hand")
    # R51: the game's smallest chip, which rake rounds down to; not given: the small blind
    smallest_chip: Mapped[Minor] = mapped_column(default=_small_blind)
    # R51: a pot that qualifies for rake is raked one smallest chip at least (policy, default off)
    rake_min_one_chip: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # R36: the game's own new-player posting, or the room's ("room")
    new_player_posting: Mapped[GamePosting] = mapped_column(String(12), default="room",
                                                            server_default="room")

    def posting(self, room_posting: NewPlayerPosting) -> NewPlayerPosting:
        """R36: what a new player in this game posts: the game's setting, else the room's."""
        return room_posting if self.new_player_posting == "room" else self.new_player_posting
    status: Mapped[OpenClosed] = mapped_column(String(8), default="open")
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Table(Base):
    """One opening of a physical table for a game (R5); a table name is unique among open tables."""

    __tablename__ = "tables"
    __table_args__ = (
        CheckConstraint(one_of("status", OpenClosed), name="status"),
        CheckConstraint("feeds_table_id <> id", name="feeds_other"),
        Index(
            "uq_tables_open_name",
            "room_id",
            "name",
            unique=True,
            sqlite_where=text("status = 'open'"),
            postgresql_where=text("status = 'open'"),
        ),
        Index("ix_tables_game_status", "game_id", "status"),
        Index("ix_tables_room_closed", "room_id", "closed_at"),  # R80: the figures' rollup (0055)
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    name: Mapped[str] = mapped_column(String(20))
    status: Mapped[OpenClosed] = mapped_column(String(8), default="open")
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # R17: a must-move table feeds this main table of the same game
    feeds_table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))


class BoardMark(Base):
    """What the public board shows of a game beyond its own row, as a number the database moves on
    every change of it (triggers of migration 0020): the board re-reads a game's rows only when its
    mark moved (docs/board.md). A row of its own, not a column of ``games``: the foreign keys that
    point at ``games`` would otherwise read past every version the moves leave behind."""

    __tablename__ = "board_marks"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    mark: Mapped[int] = mapped_column(BigInteger, server_default="0")


class DeskMark(Base):
    """What the desk shows of a game and the board does not (missed-blind buttons, how texts went,
    who plays over a seat), as a number the database moves on every change of it (triggers of
    migration 0043): the desk reads a game's seats and lists again only when this mark or its
    ``BoardMark`` moved (``roomops.seating.rows.KeptRows``)."""

    __tablename__ = "desk_marks"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    mark: Mapped[int] = mapped_column(BigInteger, server_default="0")
