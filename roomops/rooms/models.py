"""Room, staff, player and barred-pair tables."""

from __future__ import annotations

from datetime import datetime, time
from typing import Literal, get_args

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    Time,
    false,
    text,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column

from roomops.blinds.missed import MustMoveWhen as MustMoveWhen  # R17, re-exported for the schemas
from roomops.blinds.missed import NewPlayerPosting
from roomops.checks import one_of
from roomops.db import Base, Minor, UTCDateTime
from roomops.money import DEFAULT_LOCALE, Money
from roomops.rooms.languages import DEFAULT as DEFAULT_LANGUAGE
from roomops.rooms.languages import Language
from roomops.rooms.shifts import parse_starts

Role = Literal["admin", "supervisor", "cashier", "dealer", "coordinator", "manager"]
DisplayName = Literal["full", "first_initial", "initials"]  # R61
ExpiryPolicy = Literal["remove", "bottom"]  # R22
Placement = Literal["most_need", "first_open"]
ReturnWindow = Literal["minutes", "gaming_day"]  # R27
MustMoveRefusal = Literal["forced", "skip"]  # R17
CloseWhileRunning = Literal["warn", "refuse"]  # R54
BreakExpiry = Literal["always", "if_waiting"]  # R24
ToleranceUnit = Literal["amount", "percent"]  # R27
TokePool = Literal["pooled", "individual"]  # R66
TimeCollection = Literal["clock", "own"]  # R50: at the collection times, or each player's own period

ROLES: tuple[Role, ...] = get_args(Role)
DISPLAY_NAMES: tuple[DisplayName, ...] = get_args(DisplayName)


class Room(Base):
    """A card room (R1) and its policies (R3): every *policy* of ROOM_RULES.md is a column here."""

    __tablename__ = "rooms"
    __table_args__ = (
        CheckConstraint(one_of("display_name", DisplayName), name="display_name"),
        CheckConstraint(one_of("on_claim_expiry", ExpiryPolicy), name="on_claim_expiry"),
        CheckConstraint(one_of("placement", Placement), name="placement"),
        CheckConstraint("claim_minutes BETWEEN 1 AND 120", name="claim_minutes"),
        CheckConstraint("seat_change_claim_minutes BETWEEN 1 AND 30",
                        name="seat_change_claim_minutes"),
        CheckConstraint("checkin_minutes BETWEEN 1 AND 480", name="checkin_minutes"),
        CheckConstraint(one_of("return_window", ReturnWindow), name="return_window"),
        CheckConstraint("return_window_minutes BETWEEN 1 AND 1440", name="return_window_minutes"),
        CheckConstraint("break_minutes BETWEEN 1 AND 240", name="break_minutes"),
        CheckConstraint("break_after_play_minutes BETWEEN 0 AND 720", name="break_after_play_minutes"),
        CheckConstraint("breaks_per_gaming_day BETWEEN 0 AND 20", name="breaks_per_gaming_day"),
        CheckConstraint("max_breaks_per_table BETWEEN 0 AND 10", name="max_breaks_per_table"),
        CheckConstraint("away_notify_minutes BETWEEN 1 AND 240", name="away_notify_minutes"),
        CheckConstraint("max_away_minutes IS NULL OR max_away_minutes BETWEEN 1 AND 480",
                        name="max_away_minutes"),
        CheckConstraint("max_missed_bb IS NULL OR max_missed_bb BETWEEN 1 AND 100", name="max_missed_bb"),
        CheckConstraint("no_playover_max_minutes BETWEEN 1 AND 60", name="no_playover_max_minutes"),
        CheckConstraint(one_of("new_player_posting", NewPlayerPosting), name="new_player_posting"),
        CheckConstraint("length(currency) = 3 AND currency = upper(currency)", name="currency"),
        CheckConstraint("length(locale) BETWEEN 2 AND 16", name="locale"),
        CheckConstraint(one_of("language", Language), name="language"),
        CheckConstraint(one_of("must_move_refusal", MustMoveRefusal), name="must_move_refusal"),
        CheckConstraint("shift_starts IS NULL OR length(shift_starts) BETWEEN 11 AND 71",
                        name="shift_starts"),
        CheckConstraint("cash_out_approval_over IS NULL OR cash_out_approval_over > 0",
                        name="cash_out_approval_over"),
        CheckConstraint(one_of("close_while_running", CloseWhileRunning),
                        name="close_while_running"),
        CheckConstraint(one_of("break_expiry", BreakExpiry), name="break_expiry"),
        CheckConstraint(one_of("must_move_when", MustMoveWhen), name="must_move_when"),
        CheckConstraint(one_of("return_tolerance_unit", ToleranceUnit),
                        name="return_tolerance_unit"),
        CheckConstraint("return_tolerance >= 0 AND (return_tolerance_unit = 'amount' OR "
                        "return_tolerance <= 100)", name="return_tolerance"),
        CheckConstraint("lockup_minutes BETWEEN 0 AND 120", name="lockup_minutes"),
        CheckConstraint("remote_entry_cap BETWEEN 1 AND 20", name="remote_entry_cap"),
        CheckConstraint("down_minutes BETWEEN 10 AND 120", name="down_minutes"),
        CheckConstraint("downs_before_break BETWEEN 1 AND 8", name="downs_before_break"),
        CheckConstraint("dealer_break_minutes BETWEEN 5 AND 120", name="dealer_break_minutes"),
        CheckConstraint("start_at BETWEEN 2 AND 10", name="start_at"),
        CheckConstraint(one_of("toke_pool", TokePool), name="toke_pool"),
        CheckConstraint(one_of("time_collection", TimeCollection), name="time_collection"),
        CheckConstraint("time_new_player_minutes BETWEEN 0 AND 30", name="time_new_player_minutes"),
        CheckConstraint("time_all_pay_waiting BETWEEN 1 AND 50", name="time_all_pay_waiting"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(40), unique=True)
    name: Mapped[str] = mapped_column(String(120))
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    gaming_day_start: Mapped[time] = mapped_column(Time, default=time(6, 0))
    display_name: Mapped[DisplayName] = mapped_column(String(16), default="first_initial")
    claim_minutes: Mapped[int] = mapped_column(default=10)
    on_claim_expiry: Mapped[ExpiryPolicy] = mapped_column(String(8), default="remove")
    # R14/R36: a player asking for a seat change has this long to take a seat of their table
    seat_change_claim_minutes: Mapped[int] = mapped_column(default=2, server_default=text("2"))
    checkin_minutes: Mapped[int] = mapped_column(default=30)
    auto_offer: Mapped[bool] = mapped_column(Boolean, default=True)
    placement: Mapped[Placement] = mapped_column(String(12), default="most_need")
    return_window: Mapped[ReturnWindow] = mapped_column(String(10), default="minutes",
                                                        server_default="minutes")
    return_window_minutes: Mapped[int] = mapped_column(default=120, server_default=text("120"))
    # R23-R26 (server defaults: rooms made before these policies existed get the defaults)
    break_minutes: Mapped[int] = mapped_column(default=60, server_default=text("60"))
    break_after_play_minutes: Mapped[int] = mapped_column(default=60, server_default=text("60"))
    breaks_per_gaming_day: Mapped[int] = mapped_column(default=1, server_default=text("1"))
    max_breaks_per_table: Mapped[int] = mapped_column(default=3, server_default=text("3"))
    away_notify_minutes: Mapped[int] = mapped_column(default=30, server_default=text("30"))
    max_away_minutes: Mapped[int | None]  # None: off (R26)
    max_missed_bb: Mapped[int | None]  # None: off; counted on the away player's absence (R26)
    # R29: the owner's consent is needed for a playover; "no playover" lasts at most this long
    playover_needs_consent: Mapped[bool] = mapped_column(Boolean, default=False,
                                                         server_default=false())
    no_playover_max_minutes: Mapped[int] = mapped_column(default=10, server_default=text("10"))
    new_player_posting: Mapped[NewPlayerPosting] = mapped_column(String(12), default="post_or_wait",
                                                                 server_default="post_or_wait")  # R36
    # R32: ISO 4217 code of the only currency that plays; ledger amounts are its minor units
    currency: Mapped[str] = mapped_column(String(3), default="GBP", server_default="GBP")
    # how amounts are shown and typed (roomops.money): the symbol's place, decimal sign, grouping
    locale: Mapped[str] = mapped_column(String(16), default=DEFAULT_LOCALE,
                                        server_default=DEFAULT_LOCALE)
    # issue 21: the players' pages' language when neither the player nor the browser names one
    language: Mapped[Language] = mapped_column(String(2), default=DEFAULT_LANGUAGE,
                                               server_default=DEFAULT_LANGUAGE)
    # R17: a player who refuses a must-move seat loses their seat (forced) or is passed over (skip)
    must_move_refusal: Mapped[MustMoveRefusal] = mapped_column(String(8), default="forced",
                                                               server_default="forced")
    # R54: local start times of the gaming day's shifts, "06:00,14:00,22:00" (roomops.rooms.shifts);
    # NULL: one shift, the gaming day
    shift_starts: Mapped[str | None] = mapped_column(String(71))
    # R27/R28: a cash-out above this many minor units needs a second person's approval (None: no
    # threshold; one different from the recorded leave amount always does)
    cash_out_approval_over: Mapped[Minor | None]
    # R52: nobody reverses a ledger row they posted themselves
    reversal_two_person: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # R54: a close with tables still running is only warned of, or refused
    close_while_running: Mapped[CloseWhileRunning] = mapped_column(
        String(8), default="warn", server_default="warn")
    # R12: call-ins (phone entries) are taken at all
    call_ins: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # R24: a break that ran out loses the seat always, or only when somebody waits for a seat
    break_expiry: Mapped[BreakExpiry] = mapped_column(String(12), default="always",
                                                      server_default="always")
    # R17: a must-move player moves at once, or when the big blind reaches them
    must_move_when: Mapped[MustMoveWhen] = mapped_column(String(12), default="at_once",
                                                         server_default="at_once")
    # R35, the room's exception: a player between the button and the small blind may post there
    # to be dealt in at once (Nevada rooms); off, they wait until the button passes
    post_behind_button: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # R27: a returning buy-in this much below the counted stack is still accepted (minor units,
    # or a percent of the stack)
    return_tolerance_unit: Mapped[ToleranceUnit] = mapped_column(String(8), default="amount",
                                                                 server_default="amount")
    return_tolerance: Mapped[Minor] = mapped_column(default=0, server_default=text("0"))
    # R10-R14: a listed player who steps away keeps their place this long (0: no lockups)
    lockup_minutes: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    # R12: players may join lists themselves from the phone page, at most this many active
    # entries per phone number
    remote_entries: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    remote_entry_cap: Mapped[int] = mapped_column(default=3, server_default=text("3"))
    # R62-R64: the room runs its dealers' roster and rotation here (off: hands are recorded with no
    # down, as a room keeping its rotation on paper does); a down's length, the downs before a
    # break and the break's length
    dealer_rotation: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    down_minutes: Mapped[int] = mapped_column(default=30, server_default=text("30"))
    downs_before_break: Mapped[int] = mapped_column(default=2, server_default=text("2"))
    dealer_break_minutes: Mapped[int] = mapped_column(default=30, server_default=text("30"))
    # R65: players waiting that start a table
    start_at: Mapped[int] = mapped_column(default=6, server_default=text("6"))
    # R66: tips pooled for the shift and shared by downs dealt, or each dealer's own
    toke_pool: Mapped[TokePool] = mapped_column(String(10), default="pooled", server_default="pooled")
    # R50: time paid in advance at the collection times on the clock (from the gaming day's start,
    # every period), or for each player's own period from when they pay
    time_collection: Mapped[TimeCollection] = mapped_column(String(6), default="clock",
                                                            server_default="clock")
    # R50: a player sitting down this close before a collection is not charged it while the list
    # is short (0: off)
    time_new_player_minutes: Mapped[int] = mapped_column(default=10, server_default=text("10"))
    # R50: with this many waiting for the game, everyone due pays before the next hand
    time_all_pay_waiting: Mapped[int] = mapped_column(default=2, server_default=text("2"))
    # R50: a player who declines to pay plays on until their big blind while nobody waits
    time_decline_until_bb: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # R51: a pot split between winners is raked (once); off: a split pot is not raked at all
    rake_split_pots: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)

    @property
    def money(self) -> Money:
        """R32: how the room's amounts read (its currency in its locale)."""
        return Money(self.currency, self.locale)

    @property
    def shifts(self) -> list[time]:
        """R54: the shifts' local start times, the gaming day's start first."""
        return parse_starts(self.shift_starts, self.gaming_day_start)


class Staff(Base):
    """A person who logs in (R61): their roles, per room, are ``StaffRole`` rows. Passwords and
    API tokens are stored hashed; a token is issued for one of the person's rooms."""

    __tablename__ = "staff"
    __table_args__ = (CheckConstraint("session_version >= 1", name="session_version"),
                      CheckConstraint("(api_token_room_id IS NULL) = (api_token_hash IS NULL)",
                                      name="api_token_room"))

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(60), unique=True)
    display_name: Mapped[str] = mapped_column(String(120))
    password_hash: Mapped[str] = mapped_column(String(255))
    api_token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    api_token_room_id: Mapped[int | None] = mapped_column(ForeignKey("rooms.id"))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # Every log-in carries the version it began under; moving it on ends them all (R61,
    # roomops.rooms.staff)
    session_version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")


class StaffRole(Base):
    """R61: one role a staff member holds in one room. A person with no role left in a room no
    longer works there."""

    __tablename__ = "staff_roles"
    __table_args__ = (CheckConstraint(one_of("role", Role), name="role"),)

    staff_id: Mapped[int] = mapped_column(ForeignKey("staff.id"), primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True, index=True)
    role: Mapped[Role] = mapped_column(String(12), primary_key=True)
    granted_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (CheckConstraint("length(first_name) > 0", name="first_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), index=True)
    first_name: Mapped[str] = mapped_column(String(60))
    last_name: Mapped[str] = mapped_column(String(60), default="")
    phone: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class BarredPair(Base):
    """Two players the house will not seat together (R15); stored low id first, lifted not deleted."""

    __tablename__ = "barred_pairs"
    __table_args__ = (
        CheckConstraint("player_low_id < player_high_id", name="ordered"),
        Index(
            "uq_barred_pairs_active",
            "player_low_id",
            "player_high_id",
            unique=True,
            sqlite_where=text("lifted_at IS NULL"),
            postgresql_where=text("lifted_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), index=True)
    player_low_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    player_high_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    created_by_id: Mapped[int] = mapped_column(ForeignKey("staff.id"))
    lifted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
