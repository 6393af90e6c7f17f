"""Jackpot schemes, their pools and claims as rows (R67-R70, migration 0057).

- ``JackpotScheme``: a scheme's rules, fixed once posted (R67): a room that wants other rules
  starts a new scheme and moves the pool to it. Its end (who, when, where its pool went) is the
  one change made to the row (R69).
- ``JackpotLink``: a game or a table name the scheme runs on. The database keeps a game and a
  table name in one running scheme at most (R67); a table takes part through its name, or else
  through its game.
- ``JackpotRow``: the pool ledger (R69), append-only like the room's ledger (R52): a pool's
  amount is the sum of its rows, never a stored figure. The database refuses a row that would
  take a pool below nothing, and a second standing drop of a hand into one pool.
- ``JackpotClaim``: a claim made at the table (R70): the hand, the qualifying hands' seats and
  cards, the players dealt in. Append-only.
- ``JackpotDecision``: a claim verified and paid, or refused, by a supervisor and a second staff
  member (the database checks they differ), with the surveillance reference above the scheme's
  camera threshold (R70). One per claim; append-only.
- ``JackpotBoxCount``: the jackpot drop box of a shift counted by two staff against the drops the
  pool ledger recorded (R54, R69), a variance explained. Append-only: a recount is a new row, the
  latest of the shift the one that stands."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, CheckConstraint, Date, ForeignKey, Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from roomops.checks import one_of
from roomops.db import Base, Minor, UTCDateTime
from roomops.jackpots.rules import Kind, PaidIn, Pool, RowKind, ShareKind

_RUNNING = text("NOT ended")
_LINK_GAME = text("game_id IS NOT NULL AND NOT ended")
_LINK_TABLE = text("table_name IS NOT NULL AND NOT ended")

# R69/R70: what each kind of pool row must carry (migration 0057 writes the same condition)
ROW_SHAPE = (
    "(kind <> 'drop' OR (amount > 0 AND hand_id IS NOT NULL AND table_id IS NOT NULL)) AND "
    "(kind <> 'payout' OR (amount < 0 AND claim_id IS NOT NULL AND method IS NOT NULL "
    "AND share IS NOT NULL)) AND "
    "(kind <> 'seed' OR amount > 0 OR pool = 'backup') AND "
    "(kind NOT IN ('adjustment', 'transfer', 'reversal') OR length(trim(coalesce(reason, ''))) > 0) AND "
    "(kind <> 'adjustment' OR second_staff_id IS NOT NULL) AND "
    "((kind = 'reversal') = (reverses_id IS NOT NULL)) AND "
    "(kind IN ('drop', 'reversal') OR fee = 0) AND "
    "((coalesce(method, '') = 'cheque') = (cheque_due_at IS NOT NULL))"
)


class JackpotScheme(Base):
    __tablename__ = "jackpot_schemes"
    __table_args__ = (
        CheckConstraint(one_of("kind", Kind), name="kind"),
        CheckConstraint("drop_amount > 0 AND threshold >= 0 AND min_dealt >= 2", name="drop"),
        CheckConstraint("split_losing_bp >= 0 AND split_winning_bp >= 0 AND split_table_bp >= 0 AND "
                        "split_losing_bp + split_winning_bp + split_table_bp = 10000", name="split"),
        CheckConstraint("prize_bp BETWEEN 1 AND 10000 AND fee_bp BETWEEN 0 AND 10000 AND "
                        "backup_bp BETWEEN 0 AND 10000", name="parts"),
        CheckConstraint("camera_threshold >= 0 AND (cheque_threshold IS NULL OR cheque_threshold >= 0)",
                        name="thresholds"),
        CheckConstraint("NOT ended OR (ended_at IS NOT NULL AND ended_by_id IS NOT NULL AND "
                        "length(trim(coalesce(pool_went, ''))) > 0)", name="ending"),
        Index("uq_jackpot_schemes_name", "room_id", "name", unique=True,
              sqlite_where=_RUNNING, postgresql_where=_RUNNING),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    name: Mapped[str] = mapped_column(String(60))
    kind: Mapped[Kind] = mapped_column(String(12))
    drop_amount: Mapped[Minor]
    threshold: Mapped[Minor]
    min_dealt: Mapped[int]
    flop_required: Mapped[bool] = mapped_column(Boolean)
    qualifying: Mapped[str] = mapped_column(String(40))
    both_cards_play: Mapped[bool] = mapped_column(Boolean)
    split_losing_bp: Mapped[int]
    split_winning_bp: Mapped[int]
    split_table_bp: Mapped[int]
    prize_bp: Mapped[int]  # R70: the part of the pool a claim wins; the rest stays for the next
    fee_bp: Mapped[int]  # R67: the house's administrative fee, of each drop (default none)
    backup_bp: Mapped[int]  # R69: of each drop (after the fee), to the backup pool
    camera_threshold: Mapped[Minor]
    cheque_threshold: Mapped[Minor | None]
    away_table_share: Mapped[bool] = mapped_column(Boolean)  # R70: away or owing blinds takes one
    not_eligible: Mapped[str] = mapped_column(Text)  # R67: who may not win, as posted
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    created_by_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    ended: Mapped[bool] = mapped_column(Boolean, default=False)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    ended_by_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    pool_went: Mapped[str | None] = mapped_column(Text)  # R69: where an ended scheme's pool went


class JackpotLink(Base):
    __tablename__ = "jackpot_links"
    __table_args__ = (
        CheckConstraint("(game_id IS NULL) <> (table_name IS NULL)", name="one"),
        Index("uq_jackpot_links_game", "room_id", "game_id", unique=True,
              sqlite_where=_LINK_GAME, postgresql_where=_LINK_GAME),
        Index("uq_jackpot_links_table", "room_id", "table_name", unique=True,
              sqlite_where=_LINK_TABLE, postgresql_where=_LINK_TABLE),
        Index("ix_jackpot_links_scheme", "scheme_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    scheme_id: Mapped[int] = mapped_column(ForeignKey("jackpot_schemes.id"))
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    table_name: Mapped[str | None] = mapped_column(String(40))
    ended: Mapped[bool] = mapped_column(Boolean, default=False)


class JackpotRow(Base):
    __tablename__ = "jackpot_rows"
    __table_args__ = (
        CheckConstraint(one_of("pool", Pool), name="pool"),
        CheckConstraint(one_of("kind", RowKind), name="kind"),
        CheckConstraint(f"method IS NULL OR {one_of('method', PaidIn)}", name="method"),
        CheckConstraint(f"share IS NULL OR {one_of('share', ShareKind)}", name="share"),
        CheckConstraint("amount <> 0 AND shift_no >= 1 AND (fee >= 0 OR kind = 'reversal')",
                        name="amount"),
        CheckConstraint("second_staff_id IS NULL OR second_staff_id <> staff_id", name="two_staff"),
        CheckConstraint(ROW_SHAPE, name="shape"),
        Index("ix_jackpot_rows_scheme_pool", "scheme_id", "pool"),
        Index("ix_jackpot_rows_hand", "hand_id"),
        Index("ix_jackpot_rows_room_day", "room_id", "gaming_day"),
        Index("uq_jackpot_rows_reverses", "reverses_id", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    scheme_id: Mapped[int] = mapped_column(ForeignKey("jackpot_schemes.id"))
    pool: Mapped[Pool] = mapped_column(String(8))
    kind: Mapped[RowKind] = mapped_column(String(12))
    amount: Mapped[Minor]
    fee: Mapped[Minor] = mapped_column(default=0)  # R67: a drop's administrative fee, the house's
    gaming_day: Mapped[date] = mapped_column(Date)
    shift_no: Mapped[int]
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    staff_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    second_staff_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"))
    claim_id: Mapped[int | None] = mapped_column(ForeignKey("jackpot_claims.id"))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    seat_no: Mapped[int | None]
    share: Mapped[ShareKind | None] = mapped_column(String(8))
    method: Mapped[PaidIn | None] = mapped_column(String(8))
    cheque_due_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    reverses_id: Mapped[int | None] = mapped_column(ForeignKey("jackpot_rows.id"))
    other_scheme_id: Mapped[int | None] = mapped_column(ForeignKey("jackpot_schemes.id"))
    reason: Mapped[str | None] = mapped_column(Text)


class JackpotClaim(Base):
    __tablename__ = "jackpot_claims"
    __table_args__ = (
        CheckConstraint("winning_seat BETWEEN 1 AND 11 AND "
                        "(losing_seat IS NULL OR losing_seat BETWEEN 1 AND 11)", name="seats"),
        Index("ix_jackpot_claims_scheme", "scheme_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    scheme_id: Mapped[int] = mapped_column(ForeignKey("jackpot_schemes.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"))
    hand_no: Mapped[int]
    losing_seat: Mapped[int | None]  # None: a high hand has no losing hand
    losing_cards: Mapped[str | None] = mapped_column(String(40))
    winning_seat: Mapped[int]
    winning_cards: Mapped[str] = mapped_column(String(40))
    dealt: Mapped[list[dict[str, Any]]] = mapped_column(JSON)  # seat_no, player_id, name, table_share
    made_at: Mapped[datetime] = mapped_column(UTCDateTime)
    made_by_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))


class JackpotDecision(Base):
    __tablename__ = "jackpot_decisions"
    __table_args__ = (
        CheckConstraint(one_of("decision", ("paid", "refused")), name="decision"),
        CheckConstraint("supervisor_id <> second_staff_id", name="two_staff"),
        CheckConstraint("decision <> 'refused' OR length(trim(coalesce(reason, ''))) > 0", name="reason"),
        CheckConstraint("prize >= 0 AND camera_threshold >= 0", name="prize"),
        CheckConstraint("decision <> 'paid' OR prize <= camera_threshold OR "
                        "(length(trim(coalesce(camera_ref, ''))) > 0 AND sealed_until IS NOT NULL)",
                        name="camera"),
        Index("uq_jackpot_decisions_claim", "claim_id", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    claim_id: Mapped[int] = mapped_column(ForeignKey("jackpot_claims.id"))
    decision: Mapped[str] = mapped_column(String(8))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    supervisor_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    second_staff_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    prize: Mapped[Minor]
    camera_threshold: Mapped[Minor]  # the scheme's, as it was checked
    camera_ref: Mapped[str | None] = mapped_column(Text)
    sealed_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    reason: Mapped[str | None] = mapped_column(Text)


class JackpotBoxCount(Base):
    __tablename__ = "jackpot_box_counts"
    __table_args__ = (
        CheckConstraint("shift_no >= 1 AND counted >= 0", name="counted"),
        CheckConstraint("counted_by_id <> confirmed_by_id", name="two_staff"),
        CheckConstraint("counted = expected OR length(trim(coalesce(explanation, ''))) > 0",
                        name="variance_explained"),
        Index("ix_jackpot_box_counts_room_day", "room_id", "gaming_day"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    gaming_day: Mapped[date] = mapped_column(Date)
    shift_no: Mapped[int]
    counted: Mapped[Minor]
    expected: Mapped[Minor]
    counted_by_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    confirmed_by_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    explanation: Mapped[str | None] = mapped_column(Text)

    @property
    def variance(self) -> int:
        return self.counted - self.expected
