"""Chips playing behind (R31): the open transit slips per seat, which the screens join to the seats
(the slips themselves are ``roomops.ledger.transit``)."""

from __future__ import annotations

from sqlalchemy import ColumnElement, Subquery, func, or_, select

from roomops.ledger.models import TransitSlip
from roomops.ledger.rules import FACILITY, OPEN


def behind_by_hold(room_id: int | ColumnElement[int]) -> Subquery:
    """R31: per seat hold, the chips playing behind: open slips, except cheque/credit ones whose
    funds a supervisor has not confirmed yet (they do not play behind until then). One grouped
    subquery, for the desk's snapshot, the board and the dealer's screen to join. By room, so the
    open slips come from an index instead of a scan of every slip ever written."""
    return (select(TransitSlip.hold_id, func.sum(TransitSlip.amount).label("behind"))
            .where(TransitSlip.room_id == room_id, TransitSlip.state.in_(OPEN),
                   or_(TransitSlip.method.not_in(FACILITY), TransitSlip.funds_confirmed_at.is_not(None)))
            .group_by(TransitSlip.hold_id).subquery("behind"))
