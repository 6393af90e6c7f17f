"""The dealer coordinator's screen, ``/dealers`` (R62-R64): the roster with each dealer's state and
a check in / check out button, the tables with no dealer, the next pushes, the plan as a timeline
and, per table, a form naming its next dealer (the override, audited with its reason, R60).
The page's live part polls ``/dealers/live`` (``roomops.web.live``): a push the sweep carries out
shows without a reload. Refusals are rendered by ``roomops.web.errors``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import Blueprint, flash, make_response, redirect, render_template, request, url_for
from flask_login import current_user
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from roomops.dealers import roster
from roomops.dealers.pushes import pending_overrides, room_plan
from roomops.dealers.reads import DealerState, states
from roomops.dealers.screen import next_pushes, next_steps, room_dealers, timeline
from roomops.errors import Invalid
from roomops.games.marks import change_mark
from roomops.games.models import Table
from roomops.games.terms import natural
from roomops.rooms.models import Room
from roomops.web.live import fragment, stamp, tag
from roomops.web.routing import parse_id
from roomops.web.uow import db, now, run

bp = Blueprint("dealers", __name__)

POLL_SECONDS = 2  # a push shows within two seconds (live.js, no staff stream here)


@bp.get("/dealers")
def index() -> Response:
    session, at = db(), now()
    etag = _tag(session, at)  # before the reads: a change made meanwhile moves the next poll's
    page = render_template("desk/dealers.html", **_roster(session, at), etag=etag, poll=POLL_SECONDS,
                           server_now=int(at.timestamp() * 1000))
    return stamp(make_response(page), at)


@bp.get("/dealers/live")
def live() -> Response:
    """The page's live part for its poll: 304 while nothing of the room changed this minute."""
    session, at = db(), now()
    return fragment(_tag(session, at), at,
                    lambda: render_template("desk/_dealers_live.html", **_roster(session, at)))


def _tag(session: Session, at: datetime) -> str:
    """The room's change mark (a push is audited), and the minute: the plan starts from now."""
    return tag(f"dealers-{current_user.id}", change_mark(session, current_user.room_id),
               int(at.timestamp()) // 60)


def _roster(session: Session, at: datetime) -> dict[str, Any]:
    """What the page shows: the roster, and where the room runs its rotation the plan (R62-R64)."""
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
    return page


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
