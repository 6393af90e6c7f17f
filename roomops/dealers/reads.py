"""The roster read from its rows (R62): each checked-in dealer as the rotation plan takes them
(``DealerNow``), and each dealer's state as the screens say it. Nothing here writes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.dealers.models import DealerShift, DealerSpell
from roomops.dealers.plan import DealerNow
from roomops.rooms.models import Staff

State = Literal["dealing", "break", "waiting", "out"]


@dataclass(frozen=True)
class DealerState:
    """R62: exactly one of dealing at a table (since, until the push), on break (until), waiting
    to be assigned (since) or checked out."""

    dealer_id: int
    name: str
    state: State
    table_id: int | None
    since: datetime | None
    until: datetime | None


def on_shift(session: Session, room_id: int) -> list[tuple[DealerShift, list[DealerSpell]]]:
    """The room's open shifts, each with its spells in order (two statements)."""
    shifts = list(session.scalars(select(DealerShift).where(
        DealerShift.room_id == room_id, DealerShift.checked_out_at.is_(None))
        .order_by(DealerShift.dealer_id)))
    spells: dict[int, list[DealerSpell]] = {shift.id: [] for shift in shifts}
    if shifts:
        for spell in session.scalars(select(DealerSpell).where(DealerSpell.shift_id.in_(list(spells)))
                                     .order_by(DealerSpell.started_at, DealerSpell.id)):
            spells[spell.shift_id].append(spell)
    return [(shift, spells[shift.id]) for shift in shifts]


def dealer_now(shift: DealerShift, spells: list[DealerSpell]) -> DealerNow:
    """R64: what the plan needs of one checked-in dealer, from their shift's spells."""
    ended = [s for s in spells if s.ended_at is not None]
    running = next((s for s in spells if s.ended_at is None), None)
    breaks = [s for s in ended if s.kind == "break"]
    rested = breaks[-1].ended_at if breaks else shift.checked_in_at
    assert rested is not None  # an ended break has its end
    downs = sum(1 for s in ended if s.kind == "down" and s.started_at >= rested)
    last = ended[-1] if ended else None
    free = last.ended_at if last is not None and last.ended_at is not None else shift.checked_in_at
    return DealerNow(dealer_id=shift.dealer_id, free_since=free, rested_since=rested,
                     downs_since_break=downs,
                     last_table_id=last.table_id if last is not None and last.kind == "down" else None,
                     table_id=running.table_id if running is not None else None,
                     until=running.ends_at if running is not None else None)


def states(session: Session, room_id: int, dealer_ids: list[int]) -> list[DealerState]:
    """R62: each of these dealers' state now, checked out ones included, by name."""
    names = {staff_id: name for staff_id, name in session.execute(
        select(Staff.id, Staff.display_name).where(Staff.id.in_(dealer_ids)))}
    found = {shift.dealer_id: (shift, spells) for shift, spells in on_shift(session, room_id)}
    out: list[DealerState] = []
    for dealer_id in dealer_ids:
        if dealer_id not in found:
            out.append(DealerState(dealer_id, names.get(dealer_id, ""), "out", None, None, None))
            continue
        shift, spells = found[dealer_id]
        running = next((s for s in spells if s.ended_at is None), None)
        if running is None:
            since = max((s.ended_at for s in spells if s.ended_at is not None), default=shift.checked_in_at)
            out.append(DealerState(dealer_id, names.get(dealer_id, ""), "waiting", None, since, None))
        else:
            out.append(DealerState(dealer_id, names.get(dealer_id, ""),
                                   "dealing" if running.kind == "down" else "break",
                                   running.table_id, running.started_at, running.ends_at))
    return out
