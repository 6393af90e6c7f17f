"""Ending breaks and times away (R23-R26), audited, with the event a playover of the seat ends by
(R29): what the absences' own actions and other packages' (a seat ended or released) are made of."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row

from roomops.absences.models import Absence
from roomops.db import end_live_by
from roomops.floor.events import AbsenceOutcome, AbsencesEnded
from roomops.floor.unit import UnitOfWork


def end_absences(unit: UnitOfWork, absences: list[Absence],
                 outcome: AbsenceOutcome, *, overplayer_stack: int | None = None) -> list[Absence]:
    """End live absences and audit them; returns only those this transaction ended, so two
    sweepers never handle one twice. ``overplayer_stack``: see ``come_back`` (one absence)."""
    ended = {row.id for row in _end(unit, "id", [a.id for a in absences], outcome,
                                    overplayer_stack)}
    return [a for a in absences if a.id in ended]


def end_seat_absences(unit: UnitOfWork, hold_ids: list[int],
                      outcome: AbsenceOutcome) -> list[int]:
    """The running break or time away on each of these seats ends with the seat (R23, R25),
    audited, with nothing read first (usually there is none); returns the seats whose absence
    this transaction ended."""
    return [row.hold_id for row in _end(unit, "hold_id", hold_ids, outcome)]


def _end(unit: UnitOfWork, key: str, keys: list[int],
         outcome: AbsenceOutcome, overplayer_stack: int | None = None) -> list[Row[Any]]:
    """One conditional UPDATE ... RETURNING (``end_live_by``) and an audit row for each absence
    it ended, in id order (a playover of the seat ends with it: ``AbsencesEnded``)."""
    ended = sorted(end_live_by(unit.session, Absence, key, keys, unit.now, outcome,
                               ("kind", "hold_id", "player_id", "started_at")))
    for row in ended:
        unit.audit(f"{row.kind}.{outcome}", ("seat_hold", row.hold_id),
                   absence_id=row.id, player_id=row.player_id, started_at=row.started_at.isoformat())
    if ended:
        unit.emit(AbsencesEnded(tuple(row.hold_id for row in ended), outcome, overplayer_stack))
    return ended
