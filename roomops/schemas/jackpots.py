"""Request bodies of the jackpots (R67-R70), for the JSON API. Amounts in integer minor units,
parts in basis points (10000 = 100 %)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from roomops.jackpots.drop import DEFAULT_MIN_DEALT
from roomops.jackpots.rules import DEFAULT_CAMERA_THRESHOLD, MOST_TAKEN_BP, QUALIFYING
from roomops.schemas import MAX_AMOUNT, Body, Flag, Id, Money, MoneyOrZero, Name, Reason, SeatNo
from roomops.schemas.ledger import Approval

Part = Annotated[int, Field(strict=True, ge=0, le=10_000, description="basis points: 10000 is 100 %")]
Taken = Annotated[int, Field(strict=True, ge=0, le=MOST_TAKEN_BP, description="basis points, at most 50 %")]
TableName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=20)]
Cards = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
Signed = Annotated[int, Field(strict=True, ge=-MAX_AMOUNT, le=MAX_AMOUNT,
                              description="integer minor units, up (positive) or down (negative)")]


class SchemeBody(Body):
    """R67: a scheme's rules, posted as they are sent; a table takes part in one scheme at most."""

    name: Name
    kind: Literal["bad_beat", "high_hand"]
    drop: Money
    threshold: MoneyOrZero
    qualifying: Literal[QUALIFYING]  # type: ignore[valid-type]
    games: list[Id] = Field(default=[], max_length=200)
    tables: list[TableName] = Field(default=[], max_length=200)
    min_dealt: Annotated[int, Field(strict=True, ge=2, le=10)] = DEFAULT_MIN_DEALT
    flop_required: Flag = True
    both_cards_play: Flag = True
    split: tuple[Part, Part, Part] = (5_000, 2_500, 2_500)
    prize_bp: Annotated[int, Field(strict=True, ge=1, le=10_000)] = 10_000
    fee_bp: Taken = 0
    backup_bp: Taken = 0
    camera_threshold: MoneyOrZero = DEFAULT_CAMERA_THRESHOLD
    cheque_threshold: MoneyOrZero | None = None
    away_table_share: Flag = False
    not_eligible: Reason = "staff of the room on duty"


class SchemeEnd(Body):
    """R69: the running scheme the pool goes to (null: the pools are empty), and why."""

    successor_id: Id | None = None
    reason: Reason | None = None


class SeedBody(Body):
    """R69: money put into the pool: the house's, or the backup pool's (``from_backup``)."""

    amount: Money
    from_backup: Flag = False
    reason: Reason | None = None


class AdjustmentBody(Body):
    """R69: a pool adjusted up or down by two staff, with the reason."""

    pool: Literal["main", "backup"] = "main"
    amount: Signed
    reason: Reason
    confirmation: Approval


class ReversalBody(Body):
    reason: Reason


class JackpotDropBody(Body):
    """R68: the jackpot drop of a hand: its pot, whether it saw a flop, the drop taken (0: none,
    for a pot that does not qualify) and, where the hand's record does not say, the players dealt
    in."""

    pot: MoneyOrZero
    flop: Flag
    drop: MoneyOrZero
    players: Annotated[int, Field(strict=True, ge=2, le=10)] | None = None


class ClaimBody(Body):
    """R70: a claim at the table: the winning hand's seat and cards and, for a bad beat, the
    losing hand's."""

    winning_seat: SeatNo
    winning_cards: Cards
    losing_seat: SeatNo | None = None
    losing_cards: Cards | None = None


class PayoutBody(Body):
    """R70: a claim verified with a second staff member and paid: in cash or chips (a share above
    the scheme's cheque threshold is owed by cheque), with the surveillance reference above its
    camera threshold."""

    confirmation: Approval
    paid_in: Literal["cash", "chips"] = "cash"
    camera_ref: Reason | None = None


class RefusalBody(Body):
    confirmation: Approval
    reason: Reason


class BoxCountBody(Body):
    """R54: the jackpot drop box counted with a second person; a variance explained."""

    counted: MoneyOrZero
    confirmation: Approval
    explanation: Reason | None = None


class DayQuery(BaseModel):
    """R69: ``?day=YYYY-MM-DD``: the gaming day of a pool's reconciliation (omitted: today's)."""

    model_config = ConfigDict(extra="ignore")

    day: Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}$")] | None = None
