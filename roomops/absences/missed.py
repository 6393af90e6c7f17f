"""Missed big blinds (R26), counted on an away player's absence as the floor or a recorded hand
records them; a seat lost to them is released by seating (``SeatsLostToBlinds``,
``roomops.seating.releases``)."""

from __future__ import annotations

from roomops.absences.models import Absence
from roomops.absences.rules import picked_up_for_blinds
from roomops.floor.unit import UnitOfWork
from roomops.rooms.models import Room


def count_missed_big_blinds(unit: UnitOfWork, absences: list[Absence]) -> list[Absence]:
    """R26: each absent player missed a big blind (the floor's record, or a recorded hand's).
    Returns those away who reach the room's ``max_missed_bb``: they lose the seat at once, as in
    R24, once the caller raises ``SeatsLostToBlinds`` for them. The caller holds the game's
    lock."""
    room = unit.session.get_one(Room, unit.actor.room_id)
    for absence in absences:
        absence.missed_bb += 1
        unit.audit(f"{absence.kind}.missed_bb", ("seat_hold", absence.hold_id),
                   absence_id=absence.id, player_id=absence.player_id, missed_bb=absence.missed_bb)
    return [a for a in absences if picked_up_for_blinds(a.kind, a.missed_bb, room.max_missed_bb)]
