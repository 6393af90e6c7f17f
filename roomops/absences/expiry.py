"""The sweep's side of absences: a break that ran out (R24) or an away player past
``max_away_minutes`` (R26) loses the seat, with nobody at the desk."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.absences.models import Absence
from roomops.absences.services import end_absences
from roomops.actors import Actor
from roomops.games.models import Game, Table
from roomops.lists.services import to_bottom_of_waiting_list
from roomops.playovers.services import end_playovers
from roomops.seating.models import SeatHold
from roomops.seating.offers import fill_open_seats
from roomops.seating.seats import end_seat

WHY = {"break": "break ran out (R24)", "away": "away too long (R26)"}


def release_due(session: Session, actor: Actor, now: datetime, game: Game) -> list[Absence]:
    """R24/R26: every absence of the game at or past its deadline, to the second: the seat is
    released with the stack left behind as the leave amount (it feeds R27), the player goes to the
    bottom of the game's waiting list, and the seat is offered to the next player (R14), not
    handed straight back to them. The caller holds the game's lock."""
    due = list(session.scalars(select(Absence).join(SeatHold, SeatHold.id == Absence.hold_id).join(
        Table, Table.id == SeatHold.table_id).where(
        Table.game_id == game.id, Absence.ended_at.is_(None), Absence.deadline <= now,
    ).order_by(Absence.deadline, Absence.id)))
    mine = end_absences(session, actor, now, due, "released")
    if not mine:
        return []
    end_playovers(session, actor, now, "seat_released", hold_ids=[a.hold_id for a in mine])  # R29
    holds = {h.id: h for h in session.scalars(
        select(SeatHold).where(SeatHold.id.in_([a.hold_id for a in mine])))}
    for absence in mine:
        end_seat(session, actor, now, holds[absence.hold_id], "released", absence.stack)
        to_bottom_of_waiting_list(session, actor, now, game, absence.player_id, WHY[absence.kind])
    fill_open_seats(session, actor, now, game, skip={a.player_id for a in mine})
    return mine
