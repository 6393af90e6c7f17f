"""The push (R64): the rotation plan's steps due now carried out, in the transaction of whatever
made them due: a down or break reaching its deadline (the sweep), a table opening or closing, a
dealer checking in or out, the coordinator's override. Idempotent: once carried out, the plan
made again from the rows has nothing due until the next deadline."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from roomops.dealers.models import DealerOverride, DealerShift, DealerSpell, EndReason
from roomops.dealers.plan import Plan, Rules, Step, plan
from roomops.dealers.reads import dealer_now, on_shift
from roomops.floor.unit import UnitOfWork
from roomops.games.locks import lock_room
from roomops.games.models import Table
from roomops.rooms.models import Room


def rules_of(room: Room) -> Rules:
    return Rules(room.down_minutes, room.downs_before_break, room.dealer_break_minutes)


def open_tables(session: Session, room_id: int) -> list[int]:
    return list(session.scalars(select(Table.id).where(Table.room_id == room_id, Table.status == "open")
                                .order_by(Table.id)))


def pending_overrides(session: Session, room_id: int) -> dict[int, DealerOverride]:
    """R64: the coordinator's choices not yet taken, by table."""
    return {o.table_id: o for o in session.scalars(select(DealerOverride).where(
        DealerOverride.room_id == room_id, DealerOverride.used_at.is_(None),
        DealerOverride.dropped_at.is_(None)))}


def room_plan(session: Session, room: Room, now: datetime) -> tuple[Plan, dict[int, DealerSpell]]:
    """The room's rotation plan from now (R64), and each dealer's running spell."""
    shifts = on_shift(session, room.id)
    running = {spell.dealer_id: spell for _shift, spells in shifts for spell in spells
               if spell.ended_at is None}
    overrides = {table: o.dealer_id for table, o in pending_overrides(session, room.id).items()}
    made = plan(now, open_tables(session, room.id), [dealer_now(s, spells) for s, spells in shifts],
                rules_of(room), overrides=overrides)
    return made, running


def due_rooms(session: Session, now: datetime) -> set[int]:
    """The rooms whose rotation has a push to carry out (R63, R64): a down or break at its
    deadline, or an open table with no dealer while a checked-in dealer waits. Once carried out,
    neither holds until the next deadline, so the sweep makes no plan in between."""
    spells = select(DealerSpell.room_id).where(DealerSpell.ended_at.is_(None), DealerSpell.ends_at <= now)
    dealt = exists().where(DealerSpell.table_id == Table.id, DealerSpell.ended_at.is_(None))
    busy = exists().where(DealerSpell.shift_id == DealerShift.id, DealerSpell.ended_at.is_(None))
    waiting = exists().where(DealerShift.room_id == Table.room_id, DealerShift.checked_out_at.is_(None),
                             ~busy)
    uncovered = select(Table.room_id).join(Room, Room.id == Table.room_id).where(
        Room.dealer_rotation, Table.status == "open", ~dealt, waiting)
    return set(session.scalars(spells.union(uncovered)))


def carry_out(unit: UnitOfWork) -> list[int]:
    """R63/R64: the steps due now, each audited (R60): the spells started. A down at a table that closed
    ends with it (the one move mid-down); a break at its end ends whether or not the dealer is
    needed (they wait)."""
    room = unit.session.get_one(Room, unit.actor.room_id)
    if not room.dealer_rotation:
        return []
    lock_room(unit.session, room.id)
    _end_downs_at_closed_tables(unit, room.id)
    made, running = room_plan(unit.session, room, unit.now)
    overrides = pending_overrides(unit.session, room.id)
    due = [step for step in made.due() if not _running(step, running.get(step.dealer_id))]
    stepping = {step.dealer_id for step in due}
    for dealer_id, spell in running.items():
        if spell.ends_at <= unit.now and dealer_id not in stepping:
            _end(unit, spell, "break_over" if spell.kind == "break" else "pushed")
    return [_start(unit, step, running, overrides) for step in due]


def _running(step: Step, spell: DealerSpell | None) -> bool:
    """Whether ``step`` is the dealer's spell already running (carried out earlier at this moment:
    the plan lists every running spell among its steps)."""
    return (spell is not None and spell.kind == step.kind and spell.table_id == step.table_id
            and spell.ends_at == step.end)


def _end_downs_at_closed_tables(unit: UnitOfWork, room_id: int) -> None:
    closed = select(Table.id).where(Table.room_id == room_id, Table.status != "open")
    for spell in unit.session.scalars(select(DealerSpell).where(
            DealerSpell.room_id == room_id, DealerSpell.ended_at.is_(None),
            DealerSpell.table_id.in_(closed))):
        _end(unit, spell, "table_closed")


def _end(unit: UnitOfWork, spell: DealerSpell, reason: EndReason) -> None:
    spell.ended_at, spell.end_reason = unit.now, reason
    unit.session.flush()  # before a new spell takes its dealer or table (the partial unique indexes)


def _start(unit: UnitOfWork, step: Step, running: dict[int, DealerSpell],
           overrides: dict[int, DealerOverride]) -> int:
    mine = running.get(step.dealer_id)
    left = mine.table_id if mine is not None else None  # the table a dealer going on break leaves
    if mine is not None and mine.ended_at is None:
        _end(unit, mine, "break_over" if mine.kind == "break" else "pushed")
    relieved = None
    if step.table_id is not None:
        at_table = next((s for s in running.values() if s.table_id == step.table_id and s.ended_at is None),
                        None)
        if at_table is not None:
            relieved = at_table.dealer_id
            _end(unit, at_table, "pushed")
    shift_id = _open_shift(unit, step.dealer_id)
    spell = DealerSpell(room_id=unit.actor.room_id, shift_id=shift_id, dealer_id=step.dealer_id,
                        kind=step.kind, table_id=step.table_id, started_at=unit.now, ends_at=step.end)
    unit.session.add(spell)
    unit.session.flush()
    override = overrides.get(step.table_id) if step.table_id is not None else None
    if override is not None and override.dealer_id == step.dealer_id:
        override.used_at = unit.now
    if step.table_id is not None:
        unit.audit("dealer.down_started", ("table", step.table_id), dealer_id=step.dealer_id,
                   relieved_id=relieved, ends_at=step.end.isoformat(), spell_id=spell.id,
                   override_id=override.id if override is not None and override.used_at else None)
    else:
        unit.audit("dealer.break_started", ("dealer", step.dealer_id), until=step.end.isoformat(),
                   spell_id=spell.id, table_id=left)
    return spell.id


def _open_shift(unit: UnitOfWork, dealer_id: int) -> int:
    shift_id = unit.session.scalar(select(DealerShift.id).where(
        DealerShift.dealer_id == dealer_id, DealerShift.checked_out_at.is_(None)))
    assert shift_id is not None, "the plan assigns checked-in dealers only (R62)"
    return shift_id
