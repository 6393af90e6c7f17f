"""R70: a jackpot prize shared out as its scheme says. Pure: no Flask, no database.

A scheme's ``Split`` is in basis points of the prize: the losing hand's, the winning hand's and the
table's, the table's shared equally by the other players dealt in who may take one (a player away
or with a missed-blind button takes none, R70). The default is the bad beat's of Robert's Rules:
50 %, 25 %, 25 %. In whole minor units by the largest remainder (``roomops.shares``): the shares
add up to the prize to the cent, none is a whole cent from its exact value, and a cent left over
on a tie goes to the first of them clockwise from the button, as an odd chip of a split pot does.
With nobody to take the table's share it goes to the two hands in proportion to theirs (all of a
pool is awarded to players, R69). Claims made on the same hand or at the same moment share the
prize equally first (``claims_split``), the earliest claim taking a cent left over.
"""

from __future__ import annotations

from dataclasses import dataclass

from roomops.errors import Invalid
from roomops.shares import clockwise, largest_remainder

WHOLE_BP = 10_000


@dataclass(frozen=True)
class Split:
    """R70: a scheme's shares of a prize, in basis points, adding up to the whole of it."""

    losing_bp: int = 5_000
    winning_bp: int = 2_500
    table_bp: int = 2_500

    def __post_init__(self) -> None:
        parts = (self.losing_bp, self.winning_bp, self.table_bp)
        if min(parts) < 0 or sum(parts) != WHOLE_BP:
            raise Invalid("the losing hand's, the winning hand's and the table's shares add up to "
                          "100 %, none below nothing", "R70")


@dataclass(frozen=True)
class Dealt:
    """A player dealt in to the hand, at ``seat_no``; ``table_share`` False: away or with a
    missed-blind button, so none of the table's share (R70)."""

    player_id: int
    seat_no: int
    table_share: bool = True


@dataclass(frozen=True)
class Hand:
    """The qualifying hand: who held the losing and the winning hands, everyone dealt in (those
    two included) and the button's seat."""

    losing: int
    winning: int
    dealt: tuple[Dealt, ...]
    button: int


def _clockwise(hand: Hand) -> list[int]:
    """The players dealt in, from the first seat after the button round to the button's."""
    by_seat = {d.seat_no: d.player_id for d in hand.dealt}
    return [by_seat[seat] for seat in clockwise(by_seat, hand.button)]


def _check(prize: int, hand: Hand) -> None:
    players = [d.player_id for d in hand.dealt]
    if prize < 0:
        raise Invalid("a prize is never below nothing", "R70")
    if len(set(players)) != len(players) or len({d.seat_no for d in hand.dealt}) != len(players):
        raise Invalid("each player dealt in once, each at a seat of their own", "R70")
    if hand.losing == hand.winning or not {hand.losing, hand.winning} <= set(players):
        raise Invalid("the losing and the winning hands are two players dealt in to the hand", "R70")


def prize_shares(prize: int, split: Split, hand: Hand) -> dict[int, int]:
    """R70: each player's share of ``prize`` (minor units), by player id, adding up to it; a player
    dealt in who takes nothing is listed with 0."""
    _check(prize, hand)
    others = [d.player_id for d in hand.dealt
              if d.table_share and d.player_id not in (hand.losing, hand.winning)]
    n = len(others) or 1
    weights = {d.player_id: 0 for d in hand.dealt}
    weights[hand.losing], weights[hand.winning] = split.losing_bp * n, split.winning_bp * n
    weights.update({p: split.table_bp for p in others})
    if not weights[hand.losing] + weights[hand.winning] + (split.table_bp if others else 0):
        weights[hand.losing] = weights[hand.winning] = 1  # all of it the table's, and no table
    return largest_remainder(prize, weights, _clockwise(hand))


def claims_split(prize: int, claims: int) -> list[int]:
    """R70: ``prize`` shared equally by ``claims`` claims in the order they were made (the scheme
    pays each of them its part, shared out by ``prize_shares``)."""
    if claims < 1:
        raise Invalid("a prize is shared by one claim at least", "R70")
    parts = largest_remainder(prize, dict.fromkeys(range(claims), 1), range(claims))
    return [parts[i] for i in range(claims)]
