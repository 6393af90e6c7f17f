"""The sweep: releases everything whose deadline has come (R12, R22, R24, R26) and carries out the
dealers' pushes (R64), in one transaction a room."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.absences.models import Absence
from roomops.dealers.pushes import carry_out
from roomops.dealers.pushes import due_rooms as dealer_rooms
from roomops.floor.unit import UnitOfWork
from roomops.games.locks import lock_games
from roomops.games.models import Table
from roomops.holds.models import OFFER, SeatHold
from roomops.lists.models import ListEntry
from roomops.lists.services import drop_no_shows
from roomops.seating.offers import expire_due
from roomops.seating.releases import release_due


@dataclass
class SweepResult:
    expired_offers: list[int] = field(default_factory=list)
    no_shows: list[int] = field(default_factory=list)  # R12 call-ins, and lockups run out (R13)
    released_absences: list[int] = field(default_factory=list)
    pushes: list[int] = field(default_factory=list)  # R64: the dealers' downs and breaks started

    def add(self, other: SweepResult) -> None:
        self.expired_offers += other.expired_offers
        self.no_shows += other.no_shows
        self.released_absences += other.released_absences
        self.pushes += other.pushes


def due_games(session: Session, now: datetime) -> list[tuple[int, int]]:
    """(room, game) pairs with an offer past its deadline, a check-in past due, a lockup run out
    (R13), or a break or time away past its deadline."""
    offers = select(Table.room_id, Table.game_id).join(SeatHold, SeatHold.table_id == Table.id).where(
        SeatHold.kind == OFFER, SeatHold.ended_at.is_(None), SeatHold.deadline <= now,
        SeatHold.reserved_at.is_(None))  # R36: a seat change held for a hand's end runs out never
    checkins = select(ListEntry.room_id, ListEntry.game_id).where(
        ListEntry.status == "active", ListEntry.checked_in_at.is_(None),
        ListEntry.checkin_deadline <= now,
    )
    lockups = select(ListEntry.room_id, ListEntry.game_id).where(
        ListEntry.status == "active", ListEntry.locked_until <= now)
    absences = select(Table.room_id, Table.game_id).join(SeatHold, SeatHold.table_id == Table.id).join(
        Absence, Absence.hold_id == SeatHold.id).where(
        Absence.ended_at.is_(None), Absence.deadline <= now)
    return sorted({(r, g) for r, g in session.execute(offers.union(checkins, lockups, absences))})


def due_rooms(session: Session, now: datetime) -> dict[int, list[int]]:
    """Each room with something due, and its due games (``due_games``); a room whose dealers'
    rotation alone is due (R64) with none."""
    rooms: dict[int, list[int]] = {room_id: [] for room_id in sorted(dealer_rooms(session, now))}
    for room_id, game_id in due_games(session, now):
        rooms.setdefault(room_id, []).append(game_id)
    return rooms


def sweep_room(unit: UnitOfWork, game_ids: list[int],
               result: SweepResult) -> None:
    """R12, R22, R24, R26: the games' no-shows, expired offers and breaks or time away that ran
    out, added to ``result``, each kind in a few statements for all the games at once; the seats
    they free are offered once a game, after all of them (``SeatsMayOpen``). Run by the room's
    scheduler: the games are locked (room first) before their timers are touched, waiting
    for a desk action or another sweeper that holds them; the conditional updates then find
    nothing left to do twice."""
    games = lock_games(unit.session, unit.actor.room_id, game_ids)
    result.no_shows += [e.id for e in drop_no_shows(unit, games)]
    result.expired_offers += [o.id for o in expire_due(unit, games)]
    result.released_absences += [a.id for a in release_due(unit, games)]
    result.pushes += carry_out(unit)  # R64: after the seats, so a table closing frees its dealer
