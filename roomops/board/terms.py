"""The terms of a game as the board words them (R4, R40, R53): stakes, buy-in, straddles and fees.

Pure Python: no Flask, no database. Amounts are integer minor units, formatted by integer arithmetic
(never floats), so what the board shows is exactly what the room charges.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

MINOR_DIGITS = 2


def money(amount: int) -> str:
    """Integer minor units to the room currency, exactly (no float): 100 -> '1', 250 -> '2.50',
    1000000 -> '10,000', 5 -> '0.05'."""
    sign = "-" if amount < 0 else ""
    whole, frac = divmod(abs(amount), 10**MINOR_DIGITS)
    text = f"{whole:,}" if frac == 0 else f"{whole:,}.{frac:0{MINOR_DIGITS}d}"
    return sign + text


def stakes(small_blind: int, big_blind: int, ante: int = 0) -> str:
    """R4: the blinds, and the ante when there is one."""
    text = f"{money(small_blind)}/{money(big_blind)}"
    return f"{text} ante {money(ante)}" if ante else text


def straddle_text(allowed: bool, max_straddles: int, button: bool, sanction: bool = False) -> str:
    """R40, as new players must be told it before they sit."""
    if not allowed:
        return "No straddles"
    if max_straddles == 1:
        text = "Straddle: UTG only"
    elif max_straddles > 1:
        text = f"Straddles: up to {max_straddles}, in rotation from UTG"
    else:
        text = "Straddles allowed"
    text += ", only when the supervisor sanctions them" if sanction else ""
    return text + (", button straddle with the floor's consent" if button else ", no button straddle")


def fee_text(kind: str, hourly_fee: int, rake_percent: int, rake_cap: int,
             by_players: Iterable[Mapping[str, int]] | Iterable[tuple[int, int]] | None = None,
             no_flop_no_drop: bool | None = None) -> str:
    """R50/R51, displayed to players as R53 asks: the hourly fee with its schedule by players
    seated, if the game has one; the rake with its cap and no-flop-no-drop policy (when given)."""
    if kind == "hourly":
        steps = sorted(_step(s) for s in by_players or ())
        schedule = "".join(f", {money(fee)} from {n} players" for n, fee in steps)
        return f"Time: {money(hourly_fee)} per hour{schedule}, paid in advance"
    if kind == "rake":
        text = f"Rake: {rake_percent}%" + (f", max {money(rake_cap)} a pot" if rake_cap else "")
        return text + (", no flop no drop" if no_flop_no_drop else "")
    return "No fee"


def _step(step: Mapping[str, int] | tuple[int, int]) -> tuple[int, int]:
    """A schedule step as (players, fee), from the game's JSON or the board's plain tuples."""
    return (step["players"], step["fee"]) if isinstance(step, Mapping) else (step[0], step[1])


def natural(name: str) -> list[object]:
    """Sort key for table names: table "2" before table "10"."""
    return [int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", name)]


class Terms(Protocol):
    """A game's straddle and fee settings (the Game model has them)."""

    straddle_allowed: bool
    max_straddles: int
    button_straddle: bool
    straddle_sanction: bool
    fee_kind: str
    hourly_fee: int
    rake_percent: int
    rake_cap: int
    hourly_fee_by_players: list[dict[str, Any]] | None
    rake_no_flop_no_drop: bool


def told_before_sitting(game: Terms) -> str:
    """R40/R53: what a player offered a seat is told before sitting: straddles and fees."""
    straddles = straddle_text(game.straddle_allowed, game.max_straddles, game.button_straddle,
                              game.straddle_sanction)
    fees = fee_text(game.fee_kind, game.hourly_fee, game.rake_percent, game.rake_cap,
                    game.hourly_fee_by_players, game.rake_no_flop_no_drop)
    return f"{straddles}. {fees}."
