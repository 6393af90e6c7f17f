"""Request bodies of the dealers' roster (R62-R64), shared by the JSON API and the screens."""

from __future__ import annotations

from roomops.schemas import Body, Id, Reason


class NextDealer(Body):
    """R64: the coordinator names the dealer who takes the table at its next push, saying why
    (audited, R60)."""

    dealer_id: Id
    reason: Reason
