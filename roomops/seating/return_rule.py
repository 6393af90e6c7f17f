"""R27, return with the same stack, with no Flask or database.

A player's seats ("stints") in the room are read by the caller; this module decides which one is
the departure that counts, whether the new seat is in the same game (R4) and within the room's
``return_window`` (minutes, or the rest of the gaming day, R2), and the buy-in range that follows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from roomops.errors import Conflict, Invalid
from roomops.rooms.gaming_day import gaming_day

# R27 counts a stack the room took with the seat as it counts one a player left with; the refusal
# names why the seat was lost (``seat_holds.release_cause``)
LOST = {"break": ("the break ran out", "R24"), "away": ("away too long", "R26"),
        "missed_bb": ("missed big blinds", "R26"), "must_move": ("refused a must-move seat", "R17"),
        "broken": ("the table was broken with no seat left", "R19")}
ENDED_WITH_A_STACK = ("left", "released")

# A gaming day lasts at most 25 hours (a DST fall-back day): no departure of the same gaming day
# is older than this.
GAMING_DAY_LOOKBACK = timedelta(hours=26)


@dataclass(frozen=True, slots=True)
class Stakes:
    """R4: "same game" is the same variant at the same small blind, big blind and ante."""

    variant: str
    small_blind: int
    big_blind: int
    ante: int

    def same_game(self, other: Stakes) -> bool:
        return (self.variant.strip().casefold(), self.small_blind, self.big_blind, self.ante) == (
            other.variant.strip().casefold(), other.small_blind, other.big_blind, other.ante)


@dataclass(frozen=True, slots=True)
class Stint:
    """One seat a player held (``kind='seated'``): live while ``ended_at`` is None."""

    stakes: Stakes
    game_id: int
    table_name: str
    started_at: datetime
    ended_at: datetime | None
    outcome: str | None  # 'left' | 'moved' | 'released' | None while seated
    leave_amount: int | None
    hold_id: int | None = None  # the seat hold it was read from
    cause: str | None = None  # why the room released the seat (``LOST``), None otherwise


@dataclass(frozen=True, slots=True)
class ReturnPolicy:
    """R27 policy of the room: ``window`` 'minutes' (``minutes`` after leaving) or 'gaming_day'."""

    window: str
    minutes: int
    timezone: str
    gaming_day_start: time
    tolerance: int = 0  # how far below the stack left with a buy-in is still accepted
    tolerance_unit: str = "amount"  # 'amount' (minor units) or 'percent' of that stack

    def allowance(self, left: int) -> int:
        """The tolerance in minor units for a player who left with ``left``; a percent rounds
        down, so the player never brings back less than the room allows."""
        return self.tolerance if self.tolerance_unit == "amount" else left * self.tolerance // 100

    def lookback(self) -> timedelta:
        """How far back a departure can be and still count: the caller reads no older seats."""
        return timedelta(minutes=self.minutes) if self.window == "minutes" else GAMING_DAY_LOOKBACK

    def covers(self, left_at: datetime, now: datetime) -> bool:
        """Minutes: from leaving until ``minutes`` later, the end exclusive to the second (like the
        claim deadline, R22). Gaming day: ``now`` is in the gaming day the player left in (R2)."""
        if self.window == "minutes":
            return left_at <= now < left_at + timedelta(minutes=self.minutes)
        return gaming_day(left_at, self.timezone, self.gaming_day_start) == gaming_day(
            now, self.timezone, self.gaming_day_start)

    def describe(self) -> str:
        """"within 2 h", "within 90 min" or "the same gaming day"."""
        if self.window == "gaming_day":
            return "the same gaming day"
        hours, rest = divmod(self.minutes, 60)
        return f"within {hours} h" if hours and not rest else f"within {self.minutes} min"


@dataclass(frozen=True, slots=True)
class Departure:
    """A player leaving a game (R27), or losing the seat (``cause``, ``LOST``): the amount
    counted, when, and at which table."""

    amount: int
    at: datetime
    table_name: str
    game_id: int
    cause: str | None = None


@dataclass(frozen=True, slots=True)
class Requirement:
    """R27: the buy-in range of a returning player, and the departure it comes from."""

    minimum: int
    maximum: int
    left_amount: int
    left_at: datetime
    left_table: str
    left_game_id: int
    window: str  # e.g. "within 2 h" or "the same gaming day"
    left_cause: str | None = None  # the seat was lost, not left (``LOST``)

    def allows(self, amount: int) -> bool:
        return self.minimum <= amount <= self.maximum

    def why(self, tz_name: str, shown: str) -> str:
        """e.g. "returning within 2 h: at least £650.00 (left table 3 at 21:14)", or "(lost the
        seat at table 3 at 21:14: the break ran out, R24)"; ``shown`` is the required amount as the
        caller writes it (a refusal: its ``{minimum}``, ``roomops.errors``)."""
        when = self.left_at.astimezone(ZoneInfo(tz_name)).strftime("%H:%M")
        if self.left_cause is None:
            return f"returning {self.window}: at least {shown} (left table {self.left_table} at {when})"
        words, rule = LOST[self.left_cause]
        return (f"returning {self.window}: at least {shown} (lost the seat at table "
                f"{self.left_table} at {when}: {words}, {rule})")


def last_departure(stints: Iterable[Stint], stakes: Stakes) -> Departure | None:
    """The departure that counts for sitting down in a game at ``stakes``: the player's latest
    seat in the same game (R4), whichever table or opening of the game it was at, left or lost
    with a counted stack (released by the room: R17, R19, R24, R26). None when that seat is still
    live (a table change within the game, R18, carries the stack with it), ended as 'moved' (the
    player took the stack to another game, no amount was counted) or with no stack counted, or
    when the player has not sat in the same game."""
    same = [s for s in stints if s.stakes.same_game(stakes)]
    if not same:
        return None
    latest = max(same, key=lambda s: s.started_at)
    if (latest.ended_at is None or latest.outcome not in ENDED_WITH_A_STACK
            or latest.leave_amount is None):
        return None
    return Departure(latest.leave_amount, latest.ended_at, latest.table_name, latest.game_id,
                     latest.cause)


def return_requirement(stints: Iterable[Stint], stakes: Stakes, min_buyin: int, max_buyin: int,
                       policy: ReturnPolicy, now: datetime) -> Requirement | None:
    """R27 with R30: returning to the same game within the window, the buy-in must be at least the
    amount left with, less the room's tolerance but never below the table minimum, and may reach
    that amount even above the table maximum, provided it is greater than the table minimum. None
    means the normal range (R30) applies."""
    left = last_departure(stints, stakes)
    if left is None or left.amount <= min_buyin or not policy.covers(left.at, now):
        return None
    return Requirement(minimum=max(min_buyin, left.amount - policy.allowance(left.amount)),
                       maximum=max(max_buyin, left.amount),
                       left_amount=left.amount, left_at=left.at, left_table=left.table_name,
                       left_game_id=left.game_id, window=policy.describe(), left_cause=left.cause)


def check_return_buy_in(amount: int, req: Requirement, tz_name: str) -> None:
    """R27: below the amount left with is refused, naming it and when and where the player left;
    above the table maximum only up to that amount (R30)."""
    if amount < req.minimum:
        why = req.why(tz_name, "{minimum}")
        amounts = {"amount": amount, "minimum": req.minimum}
        kept = "the player left with"
        if req.minimum != req.left_amount:  # the room's tolerance
            kept, amounts["left"] = "the room accepts from the {left} the player left with", req.left_amount
        raise Conflict(f"buy-in {{amount}} is below the {{minimum}} {kept}: {why}; a supervisor "
                       "may override with a written reason", "R27", amounts=amounts)
    if amount > req.maximum:
        raise Invalid("buy-in {amount} is above the table maximum and the {left} the player left "
                      "with (R27)", "R30", amounts={"amount": amount, "left": req.left_amount})
