"""Reading breaks and times away (R23, R25)."""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from roomops.absences.models import Absence

_LIVE_ABSENCES = select(Absence).where(Absence.hold_id.in_(bindparam("holds", expanding=True)),
                                      Absence.ended_at.is_(None))


def live_absences(session: Session, hold_ids: list[int]) -> list[Absence]:
    """The running breaks and times away (R23, R25) on these seats, at most one each."""
    return list(session.scalars(_LIVE_ABSENCES, {"holds": hold_ids}))
