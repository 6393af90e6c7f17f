"""Request bodies of the dealers' roster (R62-R64), shared by the JSON API and the screens."""

from __future__ import annotations

from roomops.schemas import Body, Id, MoneyOrZero, Reason
from roomops.schemas.ledger import Approval


class NextDealer(Body):
    """R64: the coordinator names the dealer who takes the table at its next push, saying why
    (audited, R60)."""

    dealer_id: Id
    reason: Reason


class TokeCountBody(Body):
    """R66: a shift's toke pool as counted, confirmed by a second person with their own username
    and password; ``replaces_id`` and ``reason`` replace the shift's standing count."""

    amount: MoneyOrZero
    confirmation: Approval
    replaces_id: Id | None = None
    reason: Reason | None = None
