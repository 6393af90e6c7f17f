"""Straddles (R40): settings per game, strict rotation from the player left of the big blind."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from roomops.blinds.state import HandPlan
from roomops.errors import Conflict


@dataclass(frozen=True)
class StraddleSettings:
    """R40, as stored on the game (``max_straddles`` 0: no limit)."""

    allowed: bool = False
    max_straddles: int = 0
    button_straddle: bool = False
    sanction_required: bool = False  # the supervisor must sanction straddles (``001_…``)


@dataclass(frozen=True)
class Straddle:
    seat_no: int
    amount: int  # minor units, the whole straddle


def straddle_order(plan: HandPlan) -> tuple[int, ...]:
    """R40: who may straddle, in turn: the players dealt in, from the one left of the big blind."""
    seats = plan.dealt_in
    first = seats.index(plan.table.big_blind_seat) + 1 if plan.table.big_blind_seat in seats else 0
    return tuple(s for s in seats[first:] + seats[:first] if s != plan.table.big_blind_seat)


def check_straddles(settings: StraddleSettings, plan: HandPlan, straddles: Sequence[Straddle], *,
                    sanctioned: bool = False, floor_consent: bool = False) -> None:
    """R40: raise ``Conflict`` unless the hand's straddles, in the order made, are allowed: each
    by the next player in rotation from the one left of the big blind (no Mississippi, none out of
    order), each twice the big blind or the previous straddle, at most ``max_straddles``, the
    button only with the setting and the floor's consent."""
    if not straddles:
        return
    if not settings.allowed:
        raise Conflict("straddles are not allowed in this game", "R40")
    if settings.sanction_required and not sanctioned:
        raise Conflict("straddles in this game must be sanctioned by the supervisor", "R40")
    if settings.max_straddles and len(straddles) > settings.max_straddles:
        raise Conflict(f"at most {settings.max_straddles} straddle(s) in this game", "R40")
    order, price = straddle_order(plan), plan.table.big_blind
    for i, straddle in enumerate(straddles):
        price *= 2
        if i >= len(order) or straddle.seat_no != order[i]:
            due = f"seat {order[i]}" if i < len(order) else "nobody"
            raise Conflict(f"seat {straddle.seat_no} straddles out of turn: {due} is next, in "
                           "rotation from the player left of the big blind", "R40")
        if straddle.amount != price:
            raise Conflict(f"straddle {i + 1} must be {price} (twice the "
                           f"{'big blind' if i == 0 else 'previous straddle'}), not {straddle.amount}",
                           "R40")
        if straddle.seat_no == plan.table.button and not (settings.button_straddle and floor_consent):
            raise Conflict("a button straddle needs the game's setting and the floor's consent", "R40")
