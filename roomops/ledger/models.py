"""Ledger rows (R52), transit slips (R31) and the per-room slip counter.

``ledger_entries`` is append-only in the database itself (triggers from the migration): a mistake
is corrected by a reversing row. A transit slip is a workflow record: its state and the who/when of
each step live on the row, each step set once under a row lock and audited (R60); the money
it moves is the ledger row posted at delivery."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    ColumnElement,
    Date,
    ForeignKey,
    Index,
    String,
    Text,
    UniqueConstraint,
    exists,
    false,
    text,
    true,
)
from sqlalchemy.orm import Mapped, aliased, mapped_column

from roomops.checks import one_of, sql_list
from roomops.db import Base, Minor, UTCDateTime
from roomops.ledger.rules import (
    AT_TABLE,
    AT_TABLE_KINDS,
    CHIPS,
    FACILITY,
    INTO_PLAY,
    OUT_OF_PLAY,
    TRANSFER,
    EntryKind,
    Method,
    SlipMethod,
    SlipState,
)

# R32: cash at the table buys chips at the table only (a reversal repeats its row's method);
# R18: a transfer pair carries a stack, out of one table (negative) and into the next (positive).
# R50: a drop is taken in chips. Migrations 0017 and 0026 write these same conditions.
METHOD_CHECK = (f"{one_of('method', Method)} AND (method <> '{AT_TABLE}' OR "
                f"kind IN {sql_list((*AT_TABLE_KINDS, 'reversal'))}) AND "
                f"(kind <> 'drop' OR method = '{CHIPS}')")
AMOUNT_SIGN_CHECK = (f"(kind IN {sql_list(INTO_PLAY)} AND amount > 0) OR "
                     f"(kind IN {sql_list(OUT_OF_PLAY)} AND amount < 0) OR "
                     f"(kind IN ('reversal', '{TRANSFER}') AND amount <> 0)")


class LedgerEntry(Base):
    """One movement of chips (R52). ``amount``: see ``roomops.ledger.rules`` for the sign."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        CheckConstraint(one_of("kind", EntryKind), name="kind"),
        CheckConstraint(METHOD_CHECK, name="method"),
        CheckConstraint(AMOUNT_SIGN_CHECK, name="amount_sign"),
        CheckConstraint("(kind = 'reversal') = (reverses_id IS NOT NULL)", name="reverses"),
        CheckConstraint("kind <> 'reversal' OR length(coalesce(reason, '')) > 0",
                        name="reversal_reason"),
        CheckConstraint("kind <> 'transit' OR slip_id IS NOT NULL", name="transit_slip"),
        CheckConstraint("(idempotency_key IS NULL) = (fingerprint IS NULL)", name="idempotency"),
        # R50: a session fee names the hour it covers; R51: rake is tied to its hand
        CheckConstraint("kind <> 'session_fee' OR (period_start IS NOT NULL AND "
                        "period_end > period_start)", name="fee_period"),
        # R51: rake names its hand, or the dealer down it was recorded for; R50: a drop its hand
        # (migration 0026's trigger refuses a second standing drop of a hand)
        CheckConstraint("(kind <> 'rake' OR hand_id IS NOT NULL OR down_id IS NOT NULL) AND "
                        "(kind <> 'drop' OR hand_id IS NOT NULL)", name="hand"),
        CheckConstraint("NOT short_buy_in OR kind = 'add_on'", name="short_buy_in"),
        CheckConstraint("shift_no >= 1", name="shift_no"),
        # R27/R28: an approval is a second person's (migration 0023's triggers also refuse a
        # second standing cash-out of a seat, and a reversal by its row's own poster, R52)
        CheckConstraint("approved_by_id IS NULL OR approved_by_id <> staff_id", name="approved_by"),
        UniqueConstraint("room_id", "idempotency_key", name="uq_ledger_entries_room_key"),
        Index("ix_ledger_entries_room_day", "room_id", "gaming_day"),
        Index("ix_ledger_entries_hold", "hold_id"),
        Index("ix_ledger_entries_hand", "hand_id"),
        Index("ix_ledger_entries_playover", "playover_id"),
        # R51: a dealer down has one rake row (and at most one reversal of it, ``reverses_id``)
        Index("uq_ledger_entries_down_rake", "down_id", unique=True,
              sqlite_where=text("kind = 'rake'"), postgresql_where=text("kind = 'rake'")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    gaming_day: Mapped[date] = mapped_column(Date)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    kind: Mapped[EntryKind] = mapped_column(String(12))
    amount: Mapped[Minor]
    method: Mapped[Method] = mapped_column(String(8))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    hold_id: Mapped[int | None] = mapped_column(ForeignKey("seat_holds.id"))
    slip_id: Mapped[int | None] = mapped_column(ForeignKey("transit_slips.id"))
    staff_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    reason: Mapped[str | None] = mapped_column(Text)
    reverses_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_entries.id"), unique=True)
    idempotency_key: Mapped[str | None] = mapped_column(String(100))
    fingerprint: Mapped[str | None] = mapped_column(String(64))
    # R50: the hour a session fee pays for (a reversal repeats its row's period)
    period_start: Mapped[datetime | None] = mapped_column(UTCDateTime)
    period_end: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # R51/R50: the hand a rake or drop row was taken from (a reversal repeats it)
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"))
    # R51: the dealer down a rake row was recorded for (a reversal repeats it)
    down_id: Mapped[int | None] = mapped_column(ForeignKey("dealer_downs.id"))
    # R30: chips bought again below the minimum after an all-in loss, once per session
    short_buy_in: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # R54: the shift of the gaming day the row was posted in (roomops.rooms.shifts), 1 when the
    # room's gaming day is one shift
    shift_no: Mapped[int] = mapped_column(default=1, server_default=text("1"))
    # R27/R28: the supervisor who approved a cash-out above the room's threshold or different
    # from the recorded leave amount
    approved_by_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    # R29: the playover whose overplayer's chips the row moves (apart from the owner's box)
    playover_id: Mapped[int | None] = mapped_column(ForeignKey("playovers.id"))


class DealerDown(Base):
    """R51: a dealer's spell at a table (hands ``first_hand_no``..``last_hand_no`` of it) whose rake
    was recorded as one total: the ``rake`` ledger row naming it (``down_id``) holds the amount.
    Append-only: a wrong down is corrected by reversing its rake row, which frees its hands for a
    new down. Whether a down stands is read from the ledger, so overlap between standing downs is
    refused by the service under row locks on the hands, not by a constraint."""

    __tablename__ = "dealer_downs"
    __table_args__ = (
        CheckConstraint("first_hand_no >= 1 AND last_hand_no >= first_hand_no", name="hands"),
        Index("ix_dealer_downs_table_hands", "table_id", "first_hand_no"),
        Index("ix_dealer_downs_spell_id", "spell_id"),
        Index("ix_dealer_downs_room_recorded", "room_id", "recorded_at"),  # R80: the figures' rollup
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    first_hand_no: Mapped[int]
    last_hand_no: Mapped[int]
    dealer_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))  # who dealt the down
    recorded_by_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # R63: the roster's down its hands were dealt in, where the room runs its rotation here
    spell_id: Mapped[int | None] = mapped_column(ForeignKey("dealer_spells.id"))


class TransitSlip(Base):
    """Chips on their way from the cage to a seated player (R31), numbered without gaps per room."""

    __tablename__ = "transit_slips"
    __table_args__ = (
        CheckConstraint(one_of("state", SlipState), name="state"),
        CheckConstraint(one_of("method", SlipMethod), name="method"),
        CheckConstraint("amount > 0", name="amount"),
        CheckConstraint("number > 0", name="number"),
        CheckConstraint(f"authorised_at IS NULL OR method NOT IN {sql_list(FACILITY)} "
                        "OR funds_confirmed_at IS NOT NULL", name="facility_funds"),
        CheckConstraint("state NOT IN ('in_transit', 'delivered') OR authorised_by_id IS NOT NULL",
                        name="authorised"),
        # R31/R61: nobody confirms the delivery of a transit they authorised
        CheckConstraint("delivered_by_id IS NULL OR delivered_by_id <> authorised_by_id",
                        name="four_eyes"),
        CheckConstraint("(state = 'cancelled') = (cancelled_at IS NOT NULL AND "
                        "length(coalesce(cancel_reason, '')) > 0)", name="cancelled"),
        CheckConstraint("(state = 'delivered') = (delivered_at IS NOT NULL)", name="delivered"),
        CheckConstraint("(idempotency_key IS NULL) = (fingerprint IS NULL)", name="idempotency"),
        UniqueConstraint("room_id", "number", name="uq_transit_slips_room_number"),
        UniqueConstraint("room_id", "idempotency_key", name="uq_transit_slips_room_key"),
        Index("ix_transit_slips_room_state", "room_id", "state"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    number: Mapped[int]
    state: Mapped[SlipState] = mapped_column(String(16))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    hold_id: Mapped[int] = mapped_column(ForeignKey("seat_holds.id"))
    amount: Mapped[Minor]
    method: Mapped[SlipMethod] = mapped_column(String(8))
    requested_at: Mapped[datetime] = mapped_column(UTCDateTime)
    requested_by_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    funds_confirmed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    funds_confirmed_by_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    authorised_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    authorised_by_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    delivered_by_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    cancelled_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    cancelled_by_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    cancel_reason: Mapped[str | None] = mapped_column(Text)
    idempotency_key: Mapped[str | None] = mapped_column(String(100))
    fingerprint: Mapped[str | None] = mapped_column(String(64))


class SlipCounter(Base):
    """R31: the room's last slip number, incremented in the transaction that creates a slip, so a
    rolled-back request hands its number back and committed numbers have no gaps."""

    __tablename__ = "slip_counters"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    last_number: Mapped[int] = mapped_column(default=0)


class DayCount(Base):
    """R54: what one staff member counted for one table (``table_id`` NULL: the total) on a gaming
    day, next to what the ledger expected when they counted. Append-only: a recount is a new row
    and the latest row of a counter for a table is the one the close uses."""

    __tablename__ = "day_counts"
    __table_args__ = (
        CheckConstraint("counted = expected OR length(coalesce(explanation, '')) > 0",
                        name="variance_explained"),
        CheckConstraint("shift_no >= 1", name="shift_no"),
        Index("ix_day_counts_room_day", "room_id", "gaming_day"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    gaming_day: Mapped[date] = mapped_column(Date)
    shift_no: Mapped[int] = mapped_column(default=1, server_default=text("1"))  # R54
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"))
    staff_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    counted: Mapped[Minor]
    expected: Mapped[Minor]
    explanation: Mapped[str | None] = mapped_column(Text)

    @property
    def variance(self) -> int:
        return self.counted - self.expected


class DayClose(Base):
    """R54: a closed shift of a gaming day. The row *is* the close (there is no "open" row): at
    most one per room, day and shift, written once by two different staff members (the database
    checks both), one of them a supervisor (the service checks it: a role is not a column the
    database can compare). ``last_entry_id``, ``entries`` and ``expected_total`` freeze the shift's
    figures; no ledger row is posted to a closed shift afterwards (``roomops.ledger.posting``).
    ``closes_day``: the day's last shift, whose close closes the gaming day (one per day)."""

    __tablename__ = "day_closes"
    __table_args__ = (
        UniqueConstraint("room_id", "gaming_day", "shift_no", name="uq_day_closes_room_day_shift"),
        CheckConstraint("closed_by_id <> second_staff_id", name="two_staff"),
        CheckConstraint("shift_no >= 1", name="shift_no"),
        Index("uq_day_closes_room_day_closed", "room_id", "gaming_day", unique=True,
              sqlite_where=text("closes_day"), postgresql_where=text("closes_day")),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    gaming_day: Mapped[date] = mapped_column(Date)
    shift_no: Mapped[int] = mapped_column(default=1, server_default=text("1"))
    closes_day: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    closed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    closed_by_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    second_staff_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    entries: Mapped[int]
    expected_total: Mapped[Minor]
    counted_total: Mapped[Minor]  # the supervisor's count of the total
    last_entry_id: Mapped[int | None]


_REVERSAL = aliased(LedgerEntry)


def unreversed(row: type[LedgerEntry] = LedgerEntry) -> ColumnElement[bool]:
    """R52: no reversal names ``row`` (``LedgerEntry`` or an alias of it): the row stands."""
    return ~exists().where(_REVERSAL.reverses_id == row.id)
