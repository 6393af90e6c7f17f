"""The JSON API of the dealers' roster (R62-R64), attached to the API blueprint like ``hands``:
the roster with each dealer's state and next step, check-in and out (by the coordinator, or a
dealer for themselves), the rotation plan, the coordinator's override and a table's down card."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from roomops.actors import Actor, get_in_room
from roomops.api import dealer_models as out
from roomops.api.views import BODY_FIELD_RULES, BODY_RULES, ID, answer, body, route
from roomops.dealers import roster
from roomops.dealers.models import DealerShift, DealerSpell
from roomops.dealers.plan import Plan, Step
from roomops.dealers.pushes import room_plan
from roomops.dealers.reads import DealerState, states
from roomops.dealers.screen import next_step, room_dealers
from roomops.games.models import Table
from roomops.hands.models import Hand
from roomops.rooms.models import Room, Staff
from roomops.schemas.dealers import NextDealer
from roomops.web.uow import actor, db, now, run

BODY_RULES[NextDealer] = "R64"
BODY_FIELD_RULES[(NextDealer, "reason")] = "R60"
DOWN_CARD = 50  # the downs a table's card shows, newest first (R63)
# a dealer path parameter names a dealer (a staff id), which links.KINDS does not know by its name
DEALER = {"dealer_id": "dealer"}


@route("GET", "/dealers", summary="The roster: every dealer of the room with their state (dealing, "
       "break, waiting, out), table, since, until and next step in the plan (R62, R64)",
       response=out.RosterOut, tag="dealers")
def dealer_roster() -> Response:
    session, room_id = db(), coordinator().room_id
    room, at = session.get_one(Room, room_id), now()
    lines = Lines(session, room, at)
    return answer(out.RosterOut, {"now": at, "rotation": room.dealer_rotation,
                                  "dealers": lines.of([d.id for d in room_dealers(session, room_id)])})


@route("POST", f"/dealers/<{ID}:dealer_id>/check-in", summary="The coordinator checks a dealer in: "
       "their shift starts and the rotation may assign them at once (R62, R63)",
       response=out.ShiftOut, status=201, takes=DEALER, tag="dealers")
def check_in_dealer(dealer_id: int) -> Response:
    return shift_answer(run(roster.check_in, dealer_id), 201)


@route("POST", f"/dealers/<{ID}:dealer_id>/check-out", summary="The coordinator checks a dealer "
       "out: their down or break ends now and the next dealer takes their table (R62, R64)",
       response=out.ShiftOut, takes=DEALER, tag="dealers")
def check_out_dealer(dealer_id: int) -> Response:
    return shift_answer(run(roster.check_out, dealer_id))


@route("POST", "/me/check-in", summary="A dealer checks themselves in on the dealer tablet (R62)",
       response=out.ShiftOut, status=201, tag="dealers")
def check_in_me() -> Response:
    return shift_answer(run(roster.check_in), 201)


@route("POST", "/me/check-out", summary="A dealer checks themselves out (R62)",
       response=out.ShiftOut, tag="dealers")
def check_out_me() -> Response:
    return shift_answer(run(roster.check_out))


@route("GET", "/dealers/plan", summary="The rotation plan from now: every down and break with its "
       "dealer and table, the tables left without a dealer, and how many are short now (R63, R64)",
       response=out.PlanOut, tag="dealers")
def dealer_plan() -> Response:
    session, room_id = db(), coordinator().room_id
    room, at = session.get_one(Room, room_id), now()
    lines = Lines(session, room, at)
    made = lines.plan
    steps = made.steps if made else ()
    names = names_of(session, sorted({s.dealer_id for s in steps}))
    return answer(out.PlanOut, {
        "now": at, "rotation": room.dealer_rotation, "short": made.short(at) if made else 0,
        "steps": [{**lines.step(s), "dealer_id": s.dealer_id, "dealer": names.get(s.dealer_id, "")}
                  for s in steps],
        "gaps": [{"table_id": g.table_id, "table": lines.tables.get(g.table_id, ""), "start": g.start,
                  "end": g.end} for g in (made.gaps if made else ())]})


@route("POST", f"/tables/<{ID}:table_id>/next-dealer", summary="The coordinator names the dealer "
       "who takes the table at its next push, with a reason (R64, audited: R60)",
       response=out.OverrideOut, status=201, body=NextDealer, takes=DEALER, tag="dealers")
def name_next_dealer(table_id: int) -> Response:
    b = body(NextDealer)
    return answer(out.OverrideOut, run(roster.override, table_id, b.dealer_id, b.reason), 201)


# not /downs: that path records a down's rake (R51)
@route("GET", f"/tables/<{ID}:table_id>/dealer-downs", summary="The table's down card: each down's "
       "dealer, start, end and hands dealt in it, newest first, at most 50 (R63)",
       response=out.DealerDownsOut, tag="dealers")
def dealer_downs(table_id: int) -> Response:
    session = db()
    table = get_in_room(session, Table, table_id, coordinator(), "table", "R63")
    return answer(out.DealerDownsOut, {"table_id": table.id, "downs": down_card(session, table.id)})


def coordinator() -> Actor:
    """The caller, who holds the coordinator's right: the route matrix checked it, and a read has
    no service to check it again (R61)."""
    who = actor()
    who.require("dealers")
    return who


def names_of(session: Session, staff_ids: list[int]) -> dict[int, str]:
    return dict(session.execute(select(Staff.id, Staff.display_name).where(Staff.id.in_(staff_ids)))
                .tuples().all()) if staff_ids else {}


class Lines:
    """The roster's lines at ``at``: dealers' states with their next step in the room's plan (none
    where the room keeps its rotation on paper), and the tables' names."""

    def __init__(self, session: Session, room: Room, at: datetime) -> None:
        self.session, self.room, self.at = session, room, at
        self.plan: Plan | None = room_plan(session, room, at)[0] if room.dealer_rotation else None
        self.tables: dict[int, str] = dict(session.execute(
            select(Table.id, Table.name).where(Table.room_id == room.id)).tuples().all())

    def of(self, dealer_ids: list[int]) -> list[dict[str, Any]]:
        return [self.line(s) for s in states(self.session, self.room.id, dealer_ids)]

    def line(self, state: DealerState) -> dict[str, Any]:
        nxt = self.next_step(state.dealer_id)
        return {"dealer_id": state.dealer_id, "name": state.name, "state": state.state,
                "table_id": state.table_id, "table": self._table(state.table_id), "since": state.since,
                "until": state.until, "next": self.step(nxt) if nxt is not None else None}

    def next_step(self, dealer_id: int) -> Step | None:
        """R64: the step after the one they are in now (the plan lists the running ones too)."""
        return next_step(self.plan, dealer_id, self.at) if self.plan is not None else None

    def step(self, step: Step) -> dict[str, Any]:
        return {"kind": step.kind, "table_id": step.table_id, "table": self._table(step.table_id),
                "start": step.start, "end": step.end}

    def _table(self, table_id: int | None) -> str | None:
        return self.tables.get(table_id) if table_id is not None else None


def shift_answer(shift: DealerShift, status: int = 200) -> Response:
    """The shift, with its dealer's state once the rotation has moved."""
    session = db()
    room = session.get_one(Room, shift.room_id)
    [line] = Lines(session, room, now()).of([shift.dealer_id])
    return answer(out.ShiftOut, {"id": shift.id, "dealer_id": shift.dealer_id,
                                 "checked_in_at": shift.checked_in_at,
                                 "checked_out_at": shift.checked_out_at, "dealer": line}, status)


def down_card(session: Session, table_id: int) -> list[dict[str, Any]]:
    """R63: the table's last downs, newest first, each with its dealer's name and hands dealt."""
    rows = session.execute(
        select(DealerSpell, Staff.display_name).join(Staff, Staff.id == DealerSpell.dealer_id)
        .where(DealerSpell.table_id == table_id, DealerSpell.kind == "down")
        .order_by(DealerSpell.started_at.desc(), DealerSpell.id.desc()).limit(DOWN_CARD)).tuples().all()
    # counted over the table's hands (indexed by table), not over every hand of the room
    hands: dict[int | None, int] = dict(session.execute(
        select(Hand.spell_id, func.count()).where(Hand.table_id == table_id,
                                                 Hand.spell_id.in_([s.id for s, _ in rows]))
        .group_by(Hand.spell_id)).tuples().all()) if rows else {}
    return [{"id": s.id, "dealer_id": s.dealer_id, "dealer": name, "started_at": s.started_at,
             "ends_at": s.ends_at, "ended_at": s.ended_at, "end_reason": s.end_reason,
             "hands": hands.get(s.id, 0)} for s, name in rows]
