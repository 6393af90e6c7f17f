"""The floor's record of a missed big blind (R26): counted on the away player's absence
(``roomops.absences.missed``); a seat lost to it is released by seating (``SeatsLostToBlinds``,
``roomops.seating.releases``)."""

from __future__ import annotations

from roomops.absences.missed import count_missed_big_blinds
from roomops.absences.models import Absence
from roomops.absences.services import running_absence
from roomops.floor.events import SeatsLostToBlinds
from roomops.floor.unit import UnitOfWork


def record_missed_big_blind(unit: UnitOfWork, hold_id: int) -> Absence:
    """R26: an absent player missed a big blind, as the floor records it. Refused once the
    absence has run out."""
    unit.actor.require("floor")
    absence, table = running_absence(unit, hold_id)
    lost = count_missed_big_blinds(unit, [absence])
    if lost:
        unit.emit(SeatsLostToBlinds(table.game_id, tuple(a.id for a in lost)))
    return absence
