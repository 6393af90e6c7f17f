"""A pot split between winners, and each player's part of a pot's rake (R51, issue 44). Pure: no
Flask, no database.

- A split pot is raked once and capped once (the rake is the pot's, ``fee_rules.check_rake``);
  what is left is shared in whole smallest chips, the odd chips one each to the winners clockwise
  from the button, the first after it first (``split_pot``).
- The rake a pot paid is attributed to the players by what they put in (``rake_by_put_in``): in
  whole minor units by the largest remainder (``roomops.shares``), ties clockwise from the button;
  the players' comps and the figures use it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from roomops.errors import Invalid
from roomops.shares import clockwise, largest_remainder


def split_pot(pot: int, winners: Sequence[int], button: int, chip: int) -> dict[int, int]:
    """R51: ``pot`` (after its one rake) shared by the winning ``winners`` (seat numbers), in whole
    ``chip``s, the odd ones clockwise from the ``button``; by seat."""
    if not winners or len(set(winners)) != len(winners):
        raise Invalid("a pot is won by one seat at least, each once", "R51")
    if chip <= 0 or pot < 0 or pot % chip:
        raise Invalid("a pot is shared in whole chips: {pot} is not a whole number of {chip}", "R51",
                      amounts={"pot": pot, "chip": max(chip, 0)})
    each, odd = divmod(pot // chip, len(winners))
    shares = dict.fromkeys(winners, each * chip)
    for seat in clockwise(winners, button)[:odd]:
        shares[seat] += chip
    return shares


def check_split(seats: Sequence[int], dealt_in: Sequence[int]) -> tuple[int, ...]:
    """R51: the seats a split pot went to: two at least, each once, each dealt in the hand."""
    if len(seats) < 2 or len(set(seats)) != len(seats):
        raise Invalid("a split pot goes to two seats at least, each once", "R51")
    if stray := sorted(set(seats) - set(dealt_in)):
        raise Invalid(f"seat {stray[0]} was not dealt in this hand", "R51")
    return tuple(seats)


def rake_by_put_in(rake: int, put_in: Mapping[int, int], button: int) -> dict[int, int]:
    """R51: each seat's part of a pot's ``rake`` by what it put in the pot (``put_in`` by seat,
    minor units), adding up to the rake."""
    if rake < 0 or any(v < 0 for v in put_in.values()) or (rake and not any(put_in.values())):
        raise Invalid("a raked pot was put in by somebody, nobody below nothing", "R51")
    paid = {seat: v for seat, v in put_in.items() if v}
    if not paid:
        return dict.fromkeys(put_in, 0)
    return {**dict.fromkeys(put_in, 0), **largest_remainder(rake, paid, clockwise(paid, button))}
