"""What the coordinator's screen and the dealer tablet read of the roster and the plan (R62-R64):
the room's dealers, the next pushes, the plan as a timeline of five-minute slots, a table's down
and a dealer's next steps. Nothing here writes."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.dealers.models import DealerShift, DealerSpell
from roomops.dealers.plan import Plan, Step
from roomops.dealers.reads import DealerState
from roomops.rooms.models import Staff, StaffRole

SLOT = timedelta(minutes=5)
HORIZON = timedelta(hours=2)  # the plan's own horizon (roomops.dealers.plan.plan)
SLOTS = HORIZON // SLOT
PUSHES_SHOWN = 8


def room_dealers(session: Session, room_id: int) -> list[Staff]:
    """R62: the active staff with the dealer role in the room, and anyone still on shift there
    (a dealer whose role was taken while checked in stays on the roster until checked out), by name."""
    roles = select(StaffRole.staff_id).where(StaffRole.room_id == room_id, StaffRole.role == "dealer")
    shifts = select(DealerShift.dealer_id).where(DealerShift.room_id == room_id,
                                                 DealerShift.checked_out_at.is_(None))
    return list(session.scalars(select(Staff).where(
        (Staff.id.in_(roles) & Staff.active) | Staff.id.in_(shifts)).order_by(Staff.display_name, Staff.id)))


@dataclass(frozen=True)
class Push:
    """R64: a step of the plan starting later: a dealer taking a table (and whom they relieve)
    or going on break."""

    at: datetime
    dealer_id: int
    table_id: int | None  # None: a break
    until: datetime
    relieved_id: int | None


def _start_key(step: Step) -> tuple[datetime, bool, int, int]:
    """By time; at one time the pushes table by table, then the breaks they free."""
    return step.start, step.table_id is None, step.table_id or 0, step.dealer_id


def next_pushes(plan: Plan, limit: int = PUSHES_SHOWN) -> list[Push]:
    """The plan's next steps after now, in time order, each down with the dealer it relieves."""
    ending = {(s.table_id, s.end): s.dealer_id for s in plan.steps if s.kind == "down"}
    later = sorted((s for s in plan.steps if s.start > plan.now), key=_start_key)[:limit]
    return [Push(s.start, s.dealer_id, s.table_id, s.end,
                 ending.get((s.table_id, s.start)) if s.table_id is not None else None) for s in later]


Kind = Literal["down", "gap", "idle"]


@dataclass(frozen=True)
class Block:
    """A cell of the timeline: ``span`` slots of a down (its dealer), of no dealer, or of nothing."""

    kind: Kind
    span: int
    dealer_id: int | None = None
    start: datetime | None = None
    end: datetime | None = None


@dataclass(frozen=True)
class Timeline:
    origin: datetime  # now, back to the slot's start
    lanes: dict[int, list[Block]]  # by table

    def marks(self, every: int = 6) -> list[datetime]:
        """The times heading the timeline, one each ``every`` slots (half an hour)."""
        return [self.origin + SLOT * i for i in range(0, SLOTS, every)]


def timeline(plan: Plan, table_ids: list[int]) -> Timeline:
    """R64: the plan's downs and gaps, table by table, over the next two hours."""
    origin = datetime.fromtimestamp(plan.now.timestamp() // SLOT.total_seconds() * SLOT.total_seconds(),
                                    plan.now.tzinfo)
    spans: dict[int, list[tuple[datetime, datetime, Kind, int | None]]] = {t: [] for t in table_ids}
    for step in plan.steps:
        if step.table_id in spans:
            spans[step.table_id].append((step.start, step.end, "down", step.dealer_id))
    for gap in plan.gaps:
        if gap.table_id in spans:
            spans[gap.table_id].append((gap.start, gap.end, "gap", None))
    return Timeline(origin, {t: _lane(origin, sorted(s, key=lambda x: x[0])) for t, s in spans.items()})


def _slot(origin: datetime, at: datetime) -> int:
    return max(0, min(SLOTS, round((at - origin) / SLOT)))


def _lane(origin: datetime, spans: list[tuple[datetime, datetime, Kind, int | None]]) -> list[Block]:
    """Spans to cells: each at least one slot, none overlapping, nothing planned in between."""
    blocks: list[Block] = []
    cursor = 0
    for start, end, kind, dealer_id in spans:
        first, last = max(cursor, _slot(origin, start)), _slot(origin, end)
        last = max(last, first + 1) if first < SLOTS else last
        if last <= first:
            continue
        if first > cursor:
            blocks.append(Block("idle", first - cursor))
        blocks.append(Block(kind, last - first, dealer_id, start, end))
        cursor = last
    if cursor < SLOTS:
        blocks.append(Block("idle", SLOTS - cursor))
    return blocks


@dataclass(frozen=True)
class TableDown:
    """R63: the down running at a table: whose, and until when."""

    dealer: str
    until: datetime

    def seconds_left(self, at: datetime) -> int:
        """What the tablet counts down from (live.js runs the clock on from there)."""
        return max(0, math.ceil((self.until - at).total_seconds()))


def down_at(session: Session, table_id: int) -> TableDown | None:
    row = session.execute(select(Staff.display_name, DealerSpell.ends_at)
                          .join(Staff, Staff.id == DealerSpell.dealer_id)
                          .where(DealerSpell.table_id == table_id, DealerSpell.ended_at.is_(None))).first()
    return TableDown(row[0], row[1]) if row is not None else None


def next_step(plan: Plan, dealer_id: int, at: datetime) -> Step | None:
    """R64: the dealer's step after the one they are in at ``at`` (the plan lists the running ones
    too): the roster's "Next"."""
    current = plan.current(dealer_id, at)
    return plan.next_for(dealer_id, current.end if current is not None else at)


def next_steps(plan: Plan, roster: list[DealerState]) -> dict[int, Step]:
    """``next_step`` of each checked-in dealer, now."""
    found = {s.dealer_id: next_step(plan, s.dealer_id, plan.now) for s in roster if s.state != "out"}
    return {dealer_id: step for dealer_id, step in found.items() if step is not None}


def upcoming(plan: Plan, dealer_id: int, after: datetime, n: int = 3) -> list[Step]:
    """R64: the dealer's next ``n`` steps starting at or after ``after`` (the dealer screen)."""
    steps: list[Step] = []
    step = plan.next_for(dealer_id, after)
    while step is not None and len(steps) < n:
        steps.append(step)
        step = plan.next_for(dealer_id, step.end)
    return steps
