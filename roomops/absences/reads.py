"""Reading breaks and times away (R23, R25)."""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from roomops.absences.models import Absence
from roomops.lists.reads import anyone_waiting
from roomops.rooms.models import Room

_LIVE_ABSENCES = select(Absence).where(Absence.hold_id.in_(bindparam("holds", expanding=True)),
                                      Absence.ended_at.is_(None))


def live_absences(session: Session, hold_ids: list[int]) -> list[Absence]:
    """The running breaks and times away (R23, R25) on these seats, at most one each."""
    return list(session.scalars(_LIVE_ABSENCES, {"holds": hold_ids}))


def kept_past_deadline(session: Session, room: Room, absence: Absence, game_id: int,
                       table_id: int) -> bool:
    """R24 ``break_expiry`` 'if_waiting': a break past its deadline keeps the seat while nobody
    could be offered it (``anyone_waiting``)."""
    return (absence.kind == "break" and room.break_expiry == "if_waiting"
            and not anyone_waiting(session, game_id, table_id, absence.player_id))
