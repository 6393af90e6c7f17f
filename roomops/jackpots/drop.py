"""R68: a jackpot scheme's drop from a hand's pot. Pure: no Flask, no database.

The drop is taken from a qualifying pot after the rake (NJ): the scheme's ``drop`` once the pot
reaches its ``threshold`` with at least ``min_dealt`` players dealt in and, where the scheme says,
a flop; never more than the rake leaves of the pot. It is players' money held in trust (R69),
never the house's: the books keep it apart from the rake and the fees (R51, R53).
"""

from __future__ import annotations

from dataclasses import dataclass

from roomops.errors import Conflict, Invalid

DEFAULT_MIN_DEALT = 4


@dataclass(frozen=True)
class DropRule:
    """R68: a scheme's drop and when it is taken (amounts in minor units)."""

    drop: int
    threshold: int
    min_dealt: int = DEFAULT_MIN_DEALT
    flop_required: bool = True  # no flop, no drop, unless the scheme says otherwise

    def __post_init__(self) -> None:
        if self.drop <= 0 or self.threshold < 0 or self.min_dealt < 2:
            raise Invalid("a scheme's drop is positive, its threshold not below nothing, and it "
                          "needs two players dealt in at least", "R68")


def _why_not(rule: DropRule, pot: int, players: int, flop: bool) -> Conflict | None:
    """Why a pot does not qualify, in words; None when it does."""
    if pot < rule.threshold:
        return Conflict("no jackpot drop from a pot under {threshold}", "R68",
                        amounts={"threshold": rule.threshold})
    if players < rule.min_dealt:
        return Conflict(f"no jackpot drop from a hand dealt to fewer than {rule.min_dealt} players", "R68")
    if rule.flop_required and not flop:
        return Conflict("no flop, no jackpot drop: the hand ended before the flop", "R68")
    return None


def drop_due(rule: DropRule, pot: int, rake: int, players: int, flop: bool) -> int:
    """R68: what the scheme takes from this pot: its drop, at most what the rake leaves of the
    pot; 0 when the pot does not qualify."""
    if pot < 0 or rake < 0 or rake > pot:
        raise Invalid("the pot and its rake are whole minor units, the rake no more than the pot", "R68")
    return 0 if _why_not(rule, pot, players, flop) else min(rule.drop, pot - rake)


def check_drop(rule: DropRule, drop: int, pot: int, rake: int, players: int, flop: bool) -> None:
    """R68: a drop recorded with a hand is the one due, refused with the reason otherwise."""
    due = drop_due(rule, pot, rake, players, flop)
    if drop == due:
        return
    why = _why_not(rule, pot, players, flop)
    if why is not None:
        raise why
    raise Conflict("the jackpot drop from this pot is {due}, not {drop}", "R68",
                   amounts={"due": due, "drop": drop})
