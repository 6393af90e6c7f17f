"""Giving penalties (R55) and removing a player from the game (R57). Services never commit."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.blinds.penalties import Penalty, PenaltyKind, check_penalty, hands_out, next_penalty
from roomops.floor.events import PlayerRemoved
from roomops.floor.unit import UnitOfWork
from roomops.hands.models import PenaltyRecord
from roomops.hands.seats import last_hand
from roomops.holds.queries import seated_counts, seated_hold

# R55: escalation looks at the player's penalties in the room over this window (docs/decisions.md)
HISTORY = timedelta(days=30)


def give_penalty(unit: UnitOfWork, hold_id: int, *, kind: PenaltyKind,
                 reason: str, count: int = 0, leave_amount: int | None = None) -> PenaltyRecord:
    """R55: a warning, a sit-out of ``count`` hands or of ``count`` (1 or 2) complete rounds, each
    round one hand per player at the table now; R57: removal from the game, which ends the seat
    (with the stack the player leaves with, if counted, R27) and the player's places on the game's
    lists. Every penalty is kept with its reason (R60)."""
    unit.actor.require("floor")
    hold, table, game = seated_hold(unit.session, unit.actor, hold_id, "R55")
    players = _players_at(unit.session, table.id)
    penalty = Penalty(kind, count, players if kind == "rounds" else 0, reason.strip())
    check_penalty(penalty)
    row = PenaltyRecord(room_id=hold.room_id, player_id=hold.player_id, hold_id=hold.id,
                        table_id=table.id, kind=kind, count=count,
                        players_at_table=penalty.players_at_table, hands_out=hands_out(penalty),
                        from_hand_no=last.hand_no if (last := last_hand(unit.session, table.id)) else 0,
                        reason=penalty.reason,
                        given_at=unit.now, given_by_id=unit.actor.staff_id)
    unit.session.add(row)
    unit.session.flush()
    unit.audit("penalty.given", ("seat_hold", hold.id), reason=penalty.reason,
               penalty_id=row.id, player_id=hold.player_id, kind=kind, count=count,
               hands_out=row.hands_out, rule="R57" if kind == "removal" else "R55")
    if kind == "removal":
        unit.emit(PlayerRemoved(game.id, hold.id, leave_amount, penalty.reason))
    return row


def suggest(session: Session, actor: Actor, now: datetime, hold_id: int) -> Penalty:
    """R55: the next step on the ladder after the player's penalties in the room in the last
    ``HISTORY`` (warning, one round, two rounds, then removal: the supervisor decides)."""
    hold, table, _game = seated_hold(session, actor, hold_id, "R55", lock=False)
    history = session.scalars(select(PenaltyRecord).where(
        PenaltyRecord.room_id == actor.room_id, PenaltyRecord.player_id == hold.player_id,
        PenaltyRecord.given_at > now - HISTORY))
    past = [Penalty(p.kind, p.count, p.players_at_table, p.reason) for p in history]
    return next_penalty(past, _players_at(session, table.id), "")


def _players_at(session: Session, table_id: int) -> int:
    return seated_counts(session, [table_id]).get(table_id, 0)
