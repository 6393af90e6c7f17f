"""Response bodies of the dealers' roster routes (``roomops.api.dealers``, R62-R64)."""

from __future__ import annotations

from datetime import date, datetime

from pydantic import Field

from roomops.api.models import Out
from roomops.dealers.models import EndReason, SpellKind
from roomops.dealers.reads import State


class NextStepOut(Out):
    """R64: a dealer's next down (``table_id``) or break (``table_id`` null), from the plan."""

    kind: SpellKind
    table_id: int | None
    table: str | None
    start: datetime
    end: datetime


class RosterDealerOut(Out):
    """R62: one dealer now: exactly one of dealing at a table (since, until the push), on break
    (until), waiting to be assigned (since) or checked out."""

    dealer_id: int
    name: str
    state: State
    table_id: int | None
    table: str | None
    since: datetime | None
    until: datetime | None
    next: NextStepOut | None = Field(description="R64: their next step in the plan; null when the "
                                                 "room keeps its rotation on paper or none is planned")


class RosterOut(Out):
    """R62: every dealer of the room, by name. ``rotation``: the room runs its rotation here
    (policy ``dealer_rotation``); off, nothing is planned."""

    now: datetime
    rotation: bool
    dealers: list[RosterDealerOut]


class ShiftOut(Out):
    """R62: a dealer's shift, from check-in to check-out; ``dealer``: their state once the
    rotation has moved (a table with no dealer takes one checking in at once, R63)."""

    id: int
    dealer_id: int
    checked_in_at: datetime
    checked_out_at: datetime | None
    dealer: RosterDealerOut


class PlanStepOut(Out):
    """R64: one down (at ``table_id``) or break (``table_id`` null) of the plan."""

    dealer_id: int
    dealer: str
    kind: SpellKind
    table_id: int | None
    table: str | None
    start: datetime
    end: datetime


class GapOut(Out):
    """R63: an open table with no dealer from start until end (flagged on the desk)."""

    table_id: int
    table: str
    start: datetime
    end: datetime


class PlanOut(Out):
    """R63/R64: the rotation plan from now to two hours on: the running downs and breaks first,
    then by start. ``short``: how many open tables have no dealer now."""

    now: datetime
    rotation: bool
    short: int
    steps: list[PlanStepOut]
    gaps: list[GapOut]


class OverrideOut(Out):
    """R64/R60: the coordinator's next dealer for a table, pending until that table's next push
    takes it (``used_at``) or a later choice drops it (``dropped_at``)."""

    id: int
    table_id: int
    dealer_id: int
    reason: str
    made_by_id: int
    made_at: datetime
    used_at: datetime | None
    dropped_at: datetime | None


class DealerDownOut(Out):
    """R63: one down of the down card: who dealt, from when until when, and the hands dealt in it.
    ``ends_at``: its push as planned; ``ended_at``: when it did end (null while it runs)."""

    id: int
    dealer_id: int
    dealer: str
    started_at: datetime
    ends_at: datetime
    ended_at: datetime | None
    end_reason: EndReason | None
    hands: int = Field(description="R63: the hands recorded in this down")


class DealerDownsOut(Out):
    """R63: the table's downs, newest first, at most 50."""

    table_id: int
    downs: list[DealerDownOut]


class TokeShareOut(Out):
    """R66: a dealer's downs dealt in the shift and their share (null: the pool is not counted)."""

    dealer_id: int
    name: str
    downs: int
    share: int | None


class TokeCountOut(Out):
    """R66: a count of a shift's pool (minor units), by whom and confirmed by whom."""

    id: int
    amount: int
    counted_by_id: int
    confirmed_by_id: int
    counted_at: datetime
    replaces_id: int | None
    reason: str | None


class TokeReportOut(Out):
    """R66: a shift's tips: its standing count (null: not counted yet), each dealer's downs and
    share, and the counts it replaced, newest first. Tips are never house money: no ledger row."""

    gaming_day: date
    shift: int
    shifts: int
    currency: str
    count: TokeCountOut | None
    lines: list[TokeShareOut]
    replaced: list[TokeCountOut]
