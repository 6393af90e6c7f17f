"""R66: a shift's toke pool shared by the downs each dealer dealt. Pure: no Flask, no database.

Each dealer's exact share is ``pool * downs / all downs``, in whole minor units by the largest
remainder (``roomops.shares``), ties to the lower dealer id: the shares add up to the pool exactly,
no share is a whole minor unit from its exact value, and a dealer with more downs never gets less."""

from __future__ import annotations

from collections.abc import Mapping

from roomops.errors import Conflict, Invalid
from roomops.shares import largest_remainder


def split(pool: int, downs: Mapping[int, int]) -> dict[int, int]:
    """R66: ``pool`` (minor units) shared by ``downs`` (dealer id -> downs dealt, each at least
    one): each dealer's share, adding up to ``pool``. Refused when there is money and no down."""
    if pool < 0:
        raise Invalid("a toke pool is never below zero", "R66")
    if any(n < 1 for n in downs.values()):
        raise Invalid("a dealer shares the pool for the downs they dealt: at least one", "R66")
    total = sum(downs.values())
    if total == 0:
        if pool:
            raise Conflict("nobody dealt a down in this shift: there is nobody to share the pool with",
                           "R66")
        return {}
    return largest_remainder(pool, downs, sorted(downs))  # ties to the lower dealer id
