"""Money shared out in whole minor units, adding up to the whole (R66 tokes, R70 jackpot prizes).
Pure: no Flask, no database.

Largest remainder (Hamilton's method): each share's exact value is ``total * weight / all weights``;
each gets its whole minor units (rounded down), and the units left over (fewer than the shares) go
one each to the largest remainders, ties in the order the caller gives. So the shares add up to the
total exactly, none is a whole minor unit from its exact value, and a larger weight never gets less.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def largest_remainder(total: int, weights: Mapping[K, int], ties: Sequence[K]) -> dict[K, int]:
    """``total`` (minor units, not negative) shared by ``weights`` (each positive, some at least),
    the units left over to the largest remainders, a tie to the one earlier in ``ties`` (every key
    of ``weights``, in the order the rule says)."""
    whole = sum(weights.values())
    shares = {key: total * w // whole for key, w in weights.items()}
    left = total - sum(shares.values())
    place = {key: i for i, key in enumerate(ties)}
    for key in sorted(weights, key=lambda k: (-(total * weights[k] % whole), place[k]))[:left]:
        shares[key] += 1
    return shares


def clockwise(seats: Iterable[int], button: int) -> list[int]:
    """Seat numbers from the first after the button round to the button's: the order an odd chip
    (or cent) goes in."""
    seats = list(seats)
    past = max([*seats, button]) + 1
    return sorted(seats, key=lambda seat: (seat - button - 1) % past)
