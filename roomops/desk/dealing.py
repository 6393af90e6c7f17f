"""What the desk shows of the dealers, where the room runs its rotation here: who deals at each
table and when the push is, a table with no dealer flagged (R63), and beside each waiting list
long enough to start a table, the dealer who could deal it, now or at a time, or how many dealers
the floor is short (R65). Read for the whole room at once, a few statements and one plan."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.dealers.lists import Starting, startable
from roomops.dealers.models import DealerSpell
from roomops.dealers.pushes import room_plan
from roomops.rooms.models import Room, Staff


@dataclass(frozen=True)
class Dealing:
    on: bool = False
    downs: dict[int, tuple[str, datetime]] = field(default_factory=dict)  # table: dealer, push at
    starting: dict[int, Starting] = field(default_factory=dict)  # by game (R65)

    def of(self, game_id: int, table_ids: Iterable[int]) -> tuple[object, ...]:
        """What a game's drawing shows of the dealers (its part's digest takes it)."""
        return self.on, self.starting.get(game_id), tuple(self.downs.get(t) for t in table_ids)


def read(session: Session, room: Room, now: datetime, waiting: Mapping[int, int]) -> Dealing:
    """``waiting``: each open game's waiting list length, in the desk's order (R4)."""
    if not room.dealer_rotation:
        return Dealing()
    downs = {table: (name, ends) for table, name, ends in session.execute(
        select(DealerSpell.table_id, Staff.display_name, DealerSpell.ends_at)
        .join(Staff, Staff.id == DealerSpell.dealer_id)
        .where(DealerSpell.room_id == room.id, DealerSpell.kind == "down", DealerSpell.ended_at.is_(None)))
        if table is not None}
    plan, _running = room_plan(session, room, now)
    later = sorted({step.end for step in plan.steps if step.end > now})
    free_later = [at for at in later if plan.free(at)][:len(waiting)]
    return Dealing(True, downs, startable(waiting, room.start_at, len(plan.free(now)), free_later))
