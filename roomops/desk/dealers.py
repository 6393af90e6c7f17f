"""The dealer coordinator's screen, ``/dealers`` (R62-R64): the roster with each dealer's state and
a check in / check out button, the tables with no dealer, the next pushes, the plan as a timeline
and, per table, a form naming its next dealer (the override, audited with its reason, R60).
Refusals are rendered by ``roomops.web.errors``."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import current_user
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from roomops.dealers import roster
from roomops.dealers.pushes import pending_overrides, room_plan
from roomops.dealers.reads import DealerState, states
from roomops.dealers.screen import next_pushes, next_steps, room_dealers, timeline
from roomops.errors import Invalid
from roomops.games.models import Table
from roomops.games.terms import natural
from roomops.rooms.models import Room
from roomops.web.routing import parse_id
from roomops.web.uow import db, now, run

bp = Blueprint("dealers", __name__)


@bp.get("/dealers")
def index() -> str:
    session, at = db(), now()
    room = session.get_one(Room, current_user.room_id)
    dealers = room_dealers(session, room.id)
    roster_now = states(session, room.id, [d.id for d in dealers])
    tables = _open_tables(session, room.id)
    page: dict[str, Any] = {"room": room, "roster": roster_now, "tables": tables,
                            "names": {d.id: d.display_name for d in dealers},
                            "checked_in": [s for s in roster_now if s.state != "out"]}
    if room.dealer_rotation:
        plan, _running = room_plan(session, room, at)
        dealt = {s.table_id for s in roster_now if s.state == "dealing"}
        page.update(pushes=next_pushes(plan), timeline=timeline(plan, list(tables)), at=at,
                    next_steps=next_steps(plan, roster_now),
                    uncovered=[t for t in tables if t not in dealt],
                    overrides=pending_overrides(session, room.id))
    return render_template("desk/dealers.html", **page)


@bp.post("/dealers/<int:dealer_id>/check-in")
def check_in(dealer_id: int) -> Response:
    """R62: the coordinator checks a dealer in; the rotation may send them to a table at once."""
    run(roster.check_in, dealer_id)
    return _done(f"{_said(_state(dealer_id))}.")


@bp.post("/dealers/<int:dealer_id>/check-out")
def check_out(dealer_id: int) -> Response:
    shift = run(roster.check_out, dealer_id)
    return _done(f"{_state(shift.dealer_id).name} checked out.")


@bp.post("/dealers/tables/<int:table_id>/next")
def override(table_id: int) -> Response:
    """R64/R60: the coordinator names the dealer who takes the table at its next push, with why."""
    dealer_id = parse_id(request.form.get("dealer_id", ""))
    if dealer_id is None:
        raise Invalid("pick the dealer who takes the table next", "R64")
    chosen = run(roster.override, table_id, dealer_id, request.form.get("reason", ""))
    table = db().get_one(Table, chosen.table_id)
    return _done(f"{_state(chosen.dealer_id).name} takes table {table.name} at its next push.")


def _open_tables(session: Session, room_id: int) -> dict[int, str]:
    """The room's open tables' names by id, in the order the floor reads them (2 before 10)."""
    rows = session.execute(select(Table.id, Table.name).where(Table.room_id == room_id,
                                                             Table.status == "open"))
    return dict(sorted(((i, n) for i, n in rows), key=lambda row: natural(row[1])))


def _state(dealer_id: int) -> DealerState:
    [state] = states(db(), current_user.room_id, [dealer_id])
    return state


def _said(state: DealerState) -> str:
    """A check-in's answer: where the rotation sent the dealer, if anywhere yet."""
    if state.state == "dealing" and state.table_id is not None:
        return f"{state.name} checked in and deals at table {db().get_one(Table, state.table_id).name} now"
    return f"{state.name} checked in"


def _done(message: str) -> Response:
    flash(message, "ok")
    return redirect(url_for("dealers.index"), code=303)
