"""The shift close with its jackpot drop box (R54, R68): composed here, above both packages, since
the books (``roomops.ledger``) know nothing of the jackpots, which read the books. The desk's
close and the API's run this one action: one transaction."""

from __future__ import annotations

from datetime import date

from roomops.floor.unit import UnitOfWork
from roomops.jackpots.boxes import require_counted
from roomops.ledger import dayclose


def close_counted(unit: UnitOfWork, day: date, second_staff_id: int, shift: int | None = None, *,
                  confirmed_total: int | None = None) -> dayclose.Closed:
    """R54/R68: ``dayclose.close_day``, refused first while the shift took jackpot drops and its
    drop box is not counted."""
    unit.actor.require("cash")
    require_counted(unit.session, unit.actor.room_id, day, shift)
    return dayclose.close_day(unit, day, second_staff_id, shift, confirmed_total=confirmed_total)
