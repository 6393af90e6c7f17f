"""Breaks (R23) and away (R25): granting, returning, the where-about note. Services never commit.

Every service locks the seat's game first (``locked_game``) and writes an audit row (R60). The
sweep's side (a break or away that ran out, R24/R26) is ``roomops.seating.releases``."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from roomops.absences.ending import end_absences
from roomops.absences.models import Absence
from roomops.absences.reads import kept_past_deadline, live_absences
from roomops.absences.rules import (
    BreakPolicy,
    away_deadline,
    break_deadline,
    break_refusal,
    check_overplayer_stack,
    granted_over,
    is_running,
)
from roomops.errors import Conflict
from roomops.floor.events import SeatsMayOpen
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Table
from roomops.holds.models import SeatHold
from roomops.holds.queries import seated_hold
from roomops.holds.refusals import local_time
from roomops.rooms.gaming_day import gaming_day
from roomops.rooms.models import Room

LABELS = {"break": "break", "away": "time away"}


def grant_break(unit: UnitOfWork, hold_id: int, stack: int,
                override_reason: str | None = None) -> Absence:
    """R23: a seated player takes a break of ``break_minutes`` if the room's break policies allow
    it, or a supervisor grants it over them with a written reason (``override_reason``, audited
    as ``break.rules_overridden``, R60); ``stack`` is the count of the chips left on the table
    (recorded on release, R24)."""
    unit.actor.require("floor")
    hold, table, _game = seated_hold(unit.session, unit.actor, hold_id, "R23")
    room = unit.session.get_one(Room, unit.actor.room_id)
    day = room_day(room, unit.now)
    refusal = break_refusal(policy(room), unit.now, _playing_since(unit.session, hold), _breaks_on(
        unit.session, hold.player_id, day), _on_break_at(unit.session, table.id, unit.now))
    reason = granted_over(refusal, override_reason)
    absence = _start(unit, hold, "break", break_deadline(unit.now, room.break_minutes),
                     day, stack, counted=True)
    if refusal is not None:
        unit.audit("break.rules_overridden", ("seat_hold", hold.id), reason=reason,
                   absence_id=absence.id, player_id=hold.player_id, refused=refusal.reason,
                   rule=refusal.rule)
    return absence


def mark_away(unit: UnitOfWork, hold_id: int,
              stack: int | None = None) -> Absence:
    """R25: a seated player steps away; with ``max_away_minutes`` set they lose the seat after it
    (R26). Without a counted stack the last known one, the buy-in, is kept."""
    unit.actor.require("floor")
    hold, _table, _game = seated_hold(unit.session, unit.actor, hold_id, "R25")
    room = unit.session.get_one(Room, unit.actor.room_id)
    return _start(unit, hold, "away", away_deadline(unit.now, room.max_away_minutes),
                  room_day(room, unit.now), (hold.buy_in or 0) if stack is None else stack,
                  counted=stack is not None)


def come_back(unit: UnitOfWork, hold_id: int,
              overplayer_stack: int | None = None) -> Absence:
    """R23/R25: the player is back in time; one action ends the break or the time away (and a
    playover of the seat, R29, recording ``overplayer_stack``, the overplayer's counted chips,
    when given: their cash-out is tied to it, R27). At the deadline, to the second, it is too
    late: the seat is released (R24/R26)."""
    unit.actor.require("floor")
    check_overplayer_stack(overplayer_stack)
    absence, table = running_absence(unit, hold_id)
    end_absences(unit, [absence], "returned", overplayer_stack=overplayer_stack)
    _offer_seats(unit, table.game_id)
    return absence


def running_absence(unit: UnitOfWork,
                    hold_id: int) -> tuple[Absence, Table]:
    """The seat's break or time away and its table (the game locked), refused once it has run
    out: at the deadline, to the second, the seat is released (R24/R26) whether or not the sweep
    has run; a break the room keeps running until somebody waits (``break_expiry``) is not."""
    hold, table, _game = seated_hold(unit.session, unit.actor, hold_id, "R25")
    absence = _live_or_refuse(unit.session, hold)
    deadline = absence.deadline
    if deadline is not None and not is_running(deadline, unit.now) and not kept_past_deadline(
            unit.session, unit.session.get_one(Room, table.room_id), absence, table.game_id, table.id):
        rule = "R24" if absence.kind == "break" else "R26"
        ran_out = local_time(unit.session, table.room_id, deadline)
        raise Conflict(f"the {LABELS[absence.kind]} ran out at {ran_out}: the seat is released", rule)
    return absence, table


def record_note(unit: UnitOfWork, hold_id: int, note: str) -> Absence:
    """R25: where an absent player is, as they told the supervisor."""
    unit.actor.require("floor")
    hold, _table, _game = seated_hold(unit.session, unit.actor, hold_id, "R25")
    absence = _live_or_refuse(unit.session, hold)
    absence.note = note.strip()
    unit.audit(f"{absence.kind}.noted", ("seat_hold", hold.id), reason=absence.note,
               absence_id=absence.id, player_id=hold.player_id)
    return absence


def policy(room: Room) -> BreakPolicy:
    return BreakPolicy(room.break_minutes, room.break_after_play_minutes, room.breaks_per_gaming_day,
                       room.max_breaks_per_table)


def room_day(room: Room, now: datetime) -> date:
    """R2: the room's gaming day now."""
    return gaming_day(now, room.timezone, room.gaming_day_start)


def _live_or_refuse(session: Session, hold: SeatHold) -> Absence:
    found = live_absences(session, [hold.id])
    if not found:
        raise Conflict("the player is neither on a break nor away", "R25")
    return found[0]


def _start(unit: UnitOfWork, hold: SeatHold, kind: str,
           deadline: datetime | None, day: date, stack: int, *, counted: bool) -> Absence:
    if live_absences(unit.session, [hold.id]):
        raise Conflict("the player is already on a break or away", "R23" if kind == "break" else "R25")
    absence = Absence(room_id=hold.room_id, hold_id=hold.id, player_id=hold.player_id, kind=kind,
                      started_at=unit.now, deadline=deadline, gaming_day=day, stack=stack,
                      stack_counted=counted)
    unit.session.add(absence)
    unit.session.flush()
    unit.audit(f"{kind}.started", ("seat_hold", hold.id), absence_id=absence.id,
               player_id=hold.player_id, table_id=hold.table_id, seat_no=hold.seat_no,
               deadline=deadline.isoformat() if deadline else None, gaming_day=day.isoformat(),
               stack=stack, stack_counted=counted)
    _offer_seats(unit, unit.session.get_one(Table, hold.table_id).game_id)
    return absence


def _offer_seats(unit: UnitOfWork, game_id: int) -> None:
    """R17: an absent player at a must-move table cannot move, so leaving or coming back changes
    who is due the main table's open seat: the game's open seats are offered again (R14)."""
    unit.emit(SeatsMayOpen(game_id))


def _playing_since(session: Session, hold: SeatHold) -> datetime:
    """R23: continuous play runs from sitting down or from the end of the seat's last absence."""
    last = session.scalar(select(func.max(Absence.ended_at)).where(Absence.hold_id == hold.id))
    return max(hold.started_at, last) if last else hold.started_at


def _breaks_on(session: Session, player_id: int, day: date) -> int:
    return session.scalar(select(func.count()).select_from(Absence).where(
        Absence.player_id == player_id, Absence.kind == "break", Absence.gaming_day == day)) or 0


def _on_break_at(session: Session, table_id: int, now: datetime) -> int:
    """Players at the table whose break is running (one past its deadline is over, R24)."""
    return session.scalar(select(func.count()).select_from(Absence).join(
        SeatHold, SeatHold.id == Absence.hold_id).where(
        SeatHold.table_id == table_id, Absence.kind == "break", Absence.ended_at.is_(None),
        Absence.deadline > now)) or 0
