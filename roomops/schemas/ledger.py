"""Request bodies of the ledger and transit actions, shared by the JSON API and the cage page.

Amounts are strict integers of minor units: 100.5, 100.0, "100" and true are refused, never
rounded or coerced (R52)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from roomops.db import INT_MAX
from roomops.ledger.rules import DropMethod
from roomops.ledger.rules import FeeMethod as LedgerFeeMethod
from roomops.rooms.shifts import MAX_SHIFTS
from roomops.schemas import MAX_AMOUNT, MAX_TOTAL, Body, Flag, Id, Method, Money, Reason, SeatNo, ShownNote

StrictMoney = Annotated[Money, Field(description="integer minor units, positive; never a float")]
IdempotencyKey = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100),
                           Field(description="R52: a retry with the same key returns the first "
                                             "result and posts nothing (or send the "
                                             "Idempotency-Key header)")]
Players = Annotated[int, Field(strict=True, ge=2, le=10, description="R51: 2 to 10")]
HandNo = Annotated[int, Field(strict=True, ge=1, le=INT_MAX, description="a hand's number at the table")]
Currency = Annotated[str, StringConstraints(pattern=r"^[A-Za-z]{3}$"),
                     Field(description="R32: ISO 4217 code; anything but the room's currency is "
                                       "refused. Omitted: the room's currency")]


class Movement(Body):
    """Chips for (or from) the player sitting in seat hold ``hold_id``."""

    hold_id: Id
    amount: StrictMoney
    method: Method = "cash"
    currency: Currency | None = None
    idempotency_key: IdempotencyKey | None = None


class ChipsMovement(Movement):
    """A buy-in, add-on or cash-out of the seat's player, or with ``playover_id`` of the
    overplayer of that playover of the seat (R29)."""

    playover_id: Id | None = Field(None, description=(
        "R29: the playover of the seat whose overplayer the chips are for (buy-in, add-on) or "
        "from (cash-out, once the playover ended); omitted: the seat's own player"))


class Approval(Body):
    """R28/R61: a second person's approval, given with their own username and password."""

    username: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=60)]
    password: Annotated[str, StringConstraints(min_length=1, max_length=200)]


class CashOut(ChipsMovement):
    """R27/R28: the cash-out of a player who left seat ``hold_id`` (or of the overplayer of its
    ended playover ``playover_id``, R29); ``approval`` when the amount differs from the one
    recorded as they left or is above the room's threshold."""

    approval: Approval | None = None


class Rebuy(Body):
    """R30: chips bought again by a seated player with none left: the table minimum when no
    ``amount`` is given; less only ``after_all_in`` (lost all-in on the previous hand), once per
    session."""

    hold_id: Id
    amount: StrictMoney | None = None
    after_all_in: Flag = False
    method: Method = "cash"
    currency: Currency | None = None
    idempotency_key: IdempotencyKey | None = None


class Reversal(Body):
    """R52: why the row is wrong."""

    reason: Reason
    idempotency_key: IdempotencyKey | None = None


class CancelSlip(Body):
    """R31: why the transit is cancelled; the slip keeps its number."""

    reason: Reason


FeeMethod = Annotated[LedgerFeeMethod, Field(description=(
    "R50: a session fee is paid in chips at the table or in cash at the cage"))]


class SessionFee(Body):
    """R50: collect the coming period's fee (an hour or half an hour, as the game says) from the
    player sitting in ``hold_id``; the amount is the game's (by the number of players seated),
    never sent."""

    hold_id: Id
    method: FeeMethod = "cash"
    currency: Currency | None = None
    idempotency_key: IdempotencyKey | None = None


class TableFees(Body):
    """R50: collect the coming period's fee from every player seated at the table who is due now;
    covered players are skipped. In chips at the table unless the cage takes cash."""

    method: FeeMethod = "chips"
    currency: Currency | None = None
    idempotency_key: IdempotencyKey | None = None


class Drop(Body):
    """R50: take the game's drop from the hand; the amount is the game's for the players dealt in
    (``amount``, if sent, must be it: what the dealer was shown)."""

    players: Players | None = Field(None, description=(
        "R50: players dealt in, for a drop by players; taken from the hand when it was recorded "
        "with them"))
    amount: StrictMoney | None = Field(None, description=(
        "R50: the drop the dealer was shown; refused if the game's drop is not that now"))
    method: Annotated[DropMethod, Field(description="R50: a drop is taken in chips")] = "chips"
    idempotency_key: IdempotencyKey | None = None


class Rake(Body):
    """R51: the rake taken from a hand; ``pot`` after any uncalled bet was returned."""

    pot: Annotated[int, Field(strict=True, ge=0, le=MAX_AMOUNT, description="integer minor units")]
    flop: Flag = Field(description="R51: whether the hand saw a flop (no flop, no drop)")
    rake: StrictMoney
    players: Players | None = Field(None, description=(
        "R51: players dealt in, for a cap by players; taken from the hand when it was recorded "
        "with them"))
    split_seats: Annotated[list[Annotated[SeatNo, Field(strict=True)]], Field(max_length=10, description=(
        "R51: the seats a split pot went to (two at least, each dealt in); raked once and capped "
        "once, refused where the room does not rake split pots"))] = []
    idempotency_key: IdempotencyKey | None = None


class RakeLimitQuery(BaseModel):
    """R51: ``?pot=N&flop=false``: a pot in minor units (after any uncalled bet was returned) and
    whether the hand saw a flop (default: it did)."""

    model_config = ConfigDict(extra="ignore")

    pot: Annotated[int, Field(ge=0, le=MAX_AMOUNT, description="integer minor units")]
    flop: bool = True


class RakeDown(Body):
    """R51: the total rake of a dealer down: hands ``first_hand_no``..``last_hand_no`` recorded at
    the table, dealt by ``dealer_id`` (omitted: the sender)."""

    first_hand_no: HandNo
    last_hand_no: HandNo
    rake: StrictMoney
    dealer_id: Id | None = None
    idempotency_key: IdempotencyKey | None = None

    @model_validator(mode="after")
    def _in_order(self) -> RakeDown:
        if self.last_hand_no < self.first_hand_no:
            raise ValueError("R51: last_hand_no comes before first_hand_no")
        return self


SignedTotal = Annotated[int, Field(strict=True, ge=-MAX_TOTAL, le=MAX_TOTAL,
                                   description="integer minor units, in the ledger's sign "
                                               "(chips in play); never a float")]


class CountIn(Body):
    """R54: one counted amount; ``table_id`` omitted or null: the day's total."""

    table_id: Id | None = None
    counted: SignedTotal  # a total, not one amount (MAX_TOTAL)
    explanation: Annotated[str, StringConstraints(strip_whitespace=True, max_length=500),
                           ShownNote] | None = None


class Counts(Body):
    """R54: the counts of one staff member for one gaming day."""

    counts: Annotated[list[CountIn], Field(min_length=1, max_length=2000)]


class ShiftQuery(BaseModel):
    """R54: ``?shift=N``: one shift of the gaming day (1..the room's number of shifts); omitted:
    the whole day (a report) or the day's only shift (counts and the close)."""

    model_config = ConfigDict(extra="ignore")

    shift: Annotated[int, Field(ge=1, le=MAX_SHIFTS)] | None = None


class CloseDay(Body):
    """R54: the second staff member closing the day with the one sending the request (one of the
    two a supervisor); both must have counted."""

    second_staff_id: Id
