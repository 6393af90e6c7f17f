"""Response models of the jackpots' JSON API (R67-R70). Amounts in integer minor units."""

from __future__ import annotations

from datetime import date, datetime

from roomops.api.models import Out


class SchemeOut(Out):
    """R67/R69: a scheme as posted, with its pools now (the sums of their ledgers)."""

    id: int
    name: str
    kind: str
    drop_amount: int
    threshold: int
    min_dealt: int
    flop_required: bool
    qualifying: str
    both_cards_play: bool
    split_losing_bp: int
    split_winning_bp: int
    split_table_bp: int
    prize_bp: int
    fee_bp: int
    backup_bp: int
    camera_threshold: int
    cheque_threshold: int | None
    away_table_share: bool
    not_eligible: str
    ended: bool
    pool_went: str | None
    pool: int
    backup: int
    games: list[int]
    tables: list[str]
    rules: list[str]  # R67: as posted on the board, in English


class SchemesOut(Out):
    currency: str
    schemes: list[SchemeOut]


class PoolRowOut(Out):
    """R69: one row of a pool's ledger."""

    id: int
    scheme_id: int
    pool: str
    kind: str
    amount: int
    fee: int
    gaming_day: date
    shift_no: int
    at: datetime
    staff_id: int | None
    second_staff_id: int | None
    table_id: int | None
    hand_id: int | None
    claim_id: int | None
    player_id: int | None
    seat_no: int | None
    share: str | None
    method: str | None
    cheque_due_at: datetime | None
    reverses_id: int | None
    other_scheme_id: int | None
    reason: str | None


class DayPoolOut(Out):
    """R69: a gaming day of the scheme's pools: start + the day's rows by kind = end, and the
    drops taken at the tables (with the fee among them) the drop box is counted against."""

    gaming_day: date
    opening: int
    closing: int
    by_kind: dict[str, int]
    dropped: int
    fees: int


class PoolOut(Out):
    scheme_id: int
    pool: int
    backup: int
    day: DayPoolOut
    rows: list[PoolRowOut]  # newest first


class RowsOut(Out):
    rows: list[PoolRowOut]


class DropOut(Out):
    """R68: a hand's jackpot drop: the scheme and the amount taken (0: the pot did not qualify)."""

    scheme_id: int
    amount: int
    rows: list[PoolRowOut]


class DecisionOut(Out):
    id: int
    decision: str
    at: datetime
    supervisor_id: int
    second_staff_id: int
    prize: int
    camera_ref: str | None
    sealed_until: datetime | None
    reason: str | None


class DealtOut(Out):
    seat_no: int
    player_id: int
    name: str
    dealt_in: bool
    table_share: bool


class ClaimOut(Out):
    """R70: a claim, its decision (null: waiting) and each player's share paid."""

    id: int
    scheme_id: int
    table_id: int
    hand_no: int
    winning_seat: int
    winning_cards: str
    losing_seat: int | None
    losing_cards: str | None
    dealt: list[DealtOut]
    made_at: datetime
    made_by_id: int
    decision: DecisionOut | None
    payouts: list[PoolRowOut]


class ClaimsOut(Out):
    waiting: list[ClaimOut]
    recent: list[ClaimOut]


class PaidOut(Out):
    prize: int
    claims: list[ClaimOut]


class BoxCountOut(Out):
    """R54: a shift's jackpot drop box as counted against the drops recorded."""

    id: int
    gaming_day: date
    shift_no: int
    counted: int
    expected: int
    variance: int
    counted_by_id: int
    confirmed_by_id: int
    explanation: str | None
