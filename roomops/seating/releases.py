"""Losing the seat: a break that ran out (R24) or an away player past ``max_away_minutes``
(R26), released by the sweep with nobody at the desk; an away player who missed ``max_missed_bb``
big blinds (R26), released when the missed blind is recorded (``SeatsLostToBlinds``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import select

from roomops.absences.ending import end_absences
from roomops.absences.models import Absence
from roomops.absences.reads import kept_past_deadline
from roomops.floor.events import SeatsMayOpen
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Game, Table
from roomops.holds.models import ReleaseCause, SeatHold
from roomops.lists.entries import to_bottom_of_waiting_list
from roomops.rooms.models import Room
from roomops.seating.seats import end_seats

WHY = {"break": "break ran out (R24)", "away": "away too long (R26)"}
# A reason given to the waiting list, and the seat's release cause (R27 names it)
Why = tuple[ReleaseCause, str]


def release_due(unit: UnitOfWork,
                games: Sequence[Game]) -> list[Absence]:
    """R24/R26: every absence of the games at or past its deadline, to the second (one read for
    all of them); where the room releases a break that ran out only if somebody waits
    (``break_expiry``), a break whose seat nobody could be offered runs on until somebody could.
    The caller holds the games' locks."""
    by_id = {g.id: g for g in games}
    room = unit.session.get_one(Room, unit.actor.room_id)
    due = [(absence, by_id[game_id]) for absence, table_id, game_id in unit.session.execute(
        select(Absence, SeatHold.table_id, Table.game_id).join(
            SeatHold, SeatHold.id == Absence.hold_id).join(Table, Table.id == SeatHold.table_id).where(
            Table.game_id.in_(list(by_id)), Absence.ended_at.is_(None), Absence.deadline <= unit.now,
        ).order_by(Absence.deadline, Absence.id)).tuples()
        if not kept_past_deadline(unit.session, room, absence, game_id, table_id)]
    return release(unit, due, {a.id: (a.kind, WHY[a.kind]) for a, _ in due})


def release_lost_to_blinds(unit: UnitOfWork, game: Game, absences: list[Absence]) -> list[Absence]:
    """R26: players away who missed the room's ``max_missed_bb`` big blinds lose the seat at
    once, as in R24 (``roomops.absences.missed.count_missed_big_blinds`` counts them)."""
    return release(unit, [(a, game) for a in absences],
                   {a.id: ("missed_bb", f"missed {a.missed_bb} big blinds (R26)") for a in absences})


def release(unit: UnitOfWork,
            absences: Sequence[tuple[Absence, Game]], why: dict[int, Why]) -> list[Absence]:
    """R24/R26: the seats are released with the stack counted at the start of the break or time
    away as the leave amount, which feeds R27 as a player's leaving does (an away stack that was
    never counted, the buy-in kept for want of one, sets none); each seat records its cause, which
    the return rule names. A playover of the seat ends with the absence (R29), the players go to
    the bottom of their game's waiting list, and the seats are offered to the next players (R14),
    not handed straight back. Batched across the absences' games: a sweep may release thousands.
    Returns the absences this transaction ended (two sweepers never release one twice)."""
    game_of = {a.id: g for a, g in absences}
    mine = end_absences(unit, [a for a, _ in absences], "released")
    if not mine:
        return []
    by_id = {h.id: h for h in unit.session.scalars(
        select(SeatHold).where(SeatHold.id.in_([a.hold_id for a in mine])))}
    for cause in sorted({why[a.id][0] for a in mine}):
        of_cause = [a for a in mine if why[a.id][0] == cause]
        end_seats(unit, _games_of(game_of[a.id] for a in of_cause),
                  [by_id[a.hold_id] for a in of_cause], "released",
                  {a.hold_id: a.stack if a.stack_counted else None for a in of_cause}, cause=cause)
    to_bottom_of_waiting_list(unit,
                              [(game_of[a.id], a.player_id, why[a.id][1]) for a in mine])
    for seats in SeatsMayOpen.each({game_of[a.id].id for a in mine},
                                   [(game_of[a.id].id, a.player_id) for a in mine]):
        unit.emit(seats)
    return mine


def _games_of(games: Iterable[Game]) -> list[Game]:
    """Each game once, in the order of their ids."""
    return sorted({g.id: g for g in games}.values(), key=lambda g: g.id)
