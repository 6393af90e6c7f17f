"""Response bodies of the ledger and transit routes (``roomops.api.ledger``)."""

from __future__ import annotations

from datetime import date, datetime

from pydantic import Field

from roomops.api.models import Out
from roomops.ledger.rake import DownLine
from roomops.ledger.rules import EntryKind, Method, SlipMethod, SlipState
from roomops.ledger.time_rules import PayWhen


class LedgerEntryOut(Out):
    """One ledger row (R52). ``amount``: chips into play at the table positive, out of play
    negative; a reversal is the opposite of the row it names."""

    id: int
    gaming_day: date
    at: datetime
    kind: EntryKind
    amount: int = Field(description="signed integer minor units")
    method: Method
    player_id: int | None
    game_id: int | None
    table_id: int | None
    hold_id: int | None
    slip_id: int | None
    staff_id: int
    reason: str | None
    reverses_id: int | None
    idempotency_key: str | None
    period_start: datetime | None = Field(description="R50: the hour or half hour a session fee pays for")
    period_end: datetime | None
    hand_id: int | None = Field(description="R51/R50: the hand a rake or drop was taken from")
    down_id: int | None = Field(None, description="R51: the dealer down a rake was recorded for")
    short_buy_in: bool = Field(description="R30: the session's one rebuy below the minimum")
    playover_id: int | None = Field(None, description="R29: the playover whose overplayer's chips "
                                                      "the row moves (player_id is the overplayer)")


class SlipOut(Out):
    """A transit slip (R31), numbered without gaps per room."""

    id: int
    number: int
    state: SlipState
    player_id: int
    table_id: int
    hold_id: int
    amount: int = Field(description="integer minor units")
    method: SlipMethod
    requested_at: datetime
    requested_by_id: int
    funds_confirmed_at: datetime | None
    funds_confirmed_by_id: int | None
    authorised_at: datetime | None
    authorised_by_id: int | None
    delivered_at: datetime | None
    delivered_by_id: int | None
    cancelled_at: datetime | None
    cancelled_by_id: int | None
    cancel_reason: str | None


class OpenSlipOut(Out):
    slip: SlipOut
    player: str
    table: str
    age_seconds: int = Field(description="since the request, R31")


class OpenSlips(Out):
    """R31: every open transit, oldest first."""

    slips: list[OpenSlipOut]


class NumberReportOut(Out):
    """R31: every number issued, with its slip; ``missing`` is empty unless the books were
    tampered with."""

    last_number: int
    slips: list[SlipOut]
    missing: list[int]
    by_state: dict[str, int]


class FeeDueOut(Out):
    """R50: a seated player of an hourly or half-hourly game; ``due_seconds`` is 0 while covered."""

    hold_id: int
    player_id: int
    player: str
    table_id: int
    table: str
    seat_no: int
    game_id: int
    fee_kind: str = Field(description="R50: hourly or halfhour: the period a fee pays for")
    seated_at: datetime
    paid_until: datetime | None
    due_since: datetime | None
    due_seconds: int
    is_due: bool
    fee: int = Field(description="the coming period's fee now, integer minor units")
    waiting: int = Field(description="R50: players who could be offered a seat at the table now")
    pay_when: PayWhen = Field(description=(
        "R50: when a due player pays by the room's rules: everyone before the next hand (enough "
        "waiting), by their big blind (nobody waiting, a player who declines plays on until it), "
        "or now (or gives up the seat)"))


class FeesDue(Out):
    """R50: due players first, longest due first, then covered ones by when their period ends."""

    fees: list[FeeDueOut]


class TableFeesOut(Out):
    """R50: the fees collected from a table's players who were due, one row each, and how many
    seated players were covered and so skipped."""

    table_id: int
    rows: list[LedgerEntryOut]
    skipped: int


class DayCountOut(Out):
    """R54: one count next to the ledger's expected figure when it was made."""

    id: int
    gaming_day: date
    shift_no: int = Field(description="R54: the shift of the gaming day counted")
    table_id: int | None = Field(description="null: the shift's total")
    staff_id: int
    at: datetime
    counted: int
    expected: int
    variance: int = Field(description="counted minus expected")
    explanation: str | None


class DayCountsOut(Out):
    counts: list[DayCountOut]


class DayCloseOut(Out):
    """R54: a closed shift of a gaming day; its figures never change afterwards."""

    id: int
    gaming_day: date
    shift_no: int
    closes_day: bool = Field(description="the day's last shift: its close closed the gaming day")
    closed_at: datetime
    closed_by_id: int
    second_staff_id: int
    entries: int
    expected_total: int
    counted_total: int
    last_entry_id: int | None


class ClosedOut(DayCloseOut):
    """R54: the close just made, with the tables still running when it was made."""

    running_tables: list[str] = Field(default_factory=list, description=(
        "R54: tables with a player seated at the close, which the room's policy 'warn' let go "
        "ahead (under 'refuse' the close is a 409 naming them); empty when none was"))


class LineOut(Out):
    key: int | str | None
    name: str
    entries: int
    amount: int = Field(description="signed integer minor units")


class CountLineOut(Out):
    table_id: int | None
    table: str
    staff_id: int
    staff: str
    counted: int
    expected: int
    variance: int
    explanation: str | None
    shift_no: int


class DayReportOut(Out):
    """R52/R54: the day's ledger per table, game, kind, method and staff member; every breakdown adds up
    to ``total`` (``reconciled``)."""

    gaming_day: date
    currency: str
    total: LineOut
    by_table: list[LineOut]
    by_game: list[LineOut]
    by_kind: list[LineOut]
    by_method: list[LineOut] = Field(description="R32: per method; 'table' is cash at the table")
    by_staff: list[LineOut]
    counts: list[CountLineOut]
    close: DayCloseOut | None = Field(description="the day's close (its last shift's), or the "
                                                  "shift's when one shift is shown")
    shift: int | None = Field(description="R54: the shift shown; null: the whole day")
    by_shift: list[LineOut] = Field(description="R54: per shift of the day")
    closes: list[DayCloseOut] = Field(description="R54: the closed shifts shown, in order")
    closed: bool
    reconciled: bool
    as_closed: bool = Field(description="the figures are those the close froze (true while open)")


class DownsOut(Out):
    # the domain's record as it is: pydantic validates and describes a dataclass itself
    downs: list[DownLine] = Field(description="R51: the table's dealer downs, newest first, at most 50")


class RakeLimitOut(Out):
    """R51: the most rake a pot allows (0 under no-flop-no-drop without a flop), in minor units;
    ``cap``: the cap for the hand's players dealt in (0: none)."""

    pot: int
    most: int = Field(description="R51: the most rake, rounded down to the smallest chip")
    cap: int
    players: int | None = Field(description="R51: the players dealt in, as the hand records them")
    smallest_chip: int
    no_drop: bool = Field(description="R51: no flop, no drop: the hand had no flop, so no rake")
