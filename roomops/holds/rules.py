"""Seat rules with no Flask or database: buy-in range (R30) and the claim deadline (R20, R22)."""

from __future__ import annotations

from datetime import datetime, timedelta

from roomops.errors import Conflict, Invalid


def check_buy_in(amount: int, minimum: int, maximum: int) -> None:
    """R30: at least the table minimum and at most the maximum."""
    if amount < minimum:
        raise Invalid("buy-in {amount} is below the table minimum {minimum}", "R30",
                      amounts={"amount": amount, "minimum": minimum})
    if amount > maximum:
        raise Invalid("buy-in {amount} is above the table maximum {maximum}", "R30",
                      amounts={"amount": amount, "maximum": maximum})


def claim_deadline(offered_at: datetime, claim_minutes: int) -> datetime:
    """R20: the player has ``claim_minutes`` to take the seat."""
    return offered_at + timedelta(minutes=claim_minutes)


def check_claimable(deadline: datetime, now: datetime) -> None:
    """R22: the offer expires at its deadline to the second; at the deadline it is already gone."""
    if now >= deadline:
        raise Conflict(f"the claim time ran out at {deadline:%H:%M:%S} UTC", "R22")


def seconds_left(deadline: datetime, now: datetime) -> int:
    return max(0, int((deadline - now).total_seconds()))
