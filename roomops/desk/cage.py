"""The cage page (R31): open transits oldest first with their age, and a form for each step.

Its own blueprint rather than the desk's: the desk lets only floor staff POST, and cashiers request
and deliver transits here. The services check each step's right (R61); refusals are rendered and
logged by ``roomops.web.errors``. Each request form carries a fresh idempotency key, so a form sent
twice makes one slip (R52)."""

from __future__ import annotations

from uuid import uuid4

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import current_user
from sqlalchemy import select
from werkzeug.wrappers import Response

from roomops.desk.forms import form_data, parse, to_minor
from roomops.errors import NotFound
from roomops.games.models import Table
from roomops.ledger import dayclose, transit
from roomops.ledger import services as ledger
from roomops.ledger.rules import AT_TABLE, FACILITY, METHOD_NAMES, METHODS, SLIP_METHODS, method_name
from roomops.ledger.schemas import CancelSlip, Movement
from roomops.rooms.models import Player, Room
from roomops.seating.models import SEATED, SeatHold
from roomops.web.login import unauthorized
from roomops.web.money import room_money
from roomops.web.uow import db, now, run

bp = Blueprint("cage", __name__)
STEPS = {"confirm-funds": transit.confirm_funds, "dispatch": transit.dispatch,
         "deliver": transit.deliver}
# R28/R30/R32: chips bought by a seated player, recorded by the cashier with how they were paid
MOVEMENTS = {"add_on": (ledger.add_on, "Add-on"), "buy_in": (ledger.buy_in, "Buy-in")}


@bp.before_request
def _staff_only() -> Response | None:
    if not current_user.is_authenticated:
        return unauthorized()
    return None


def _done(message: str) -> Response:
    flash(message, "ok")
    return redirect(url_for("cage.index"), code=303)


@bp.get("/desk/cage")
def index() -> str:
    session, at = db(), now()
    room = session.get_one(Room, current_user.room_id)
    seated = session.execute(
        select(SeatHold.id, Player, Table.name).join(Player, Player.id == SeatHold.player_id)
        .join(Table, Table.id == SeatHold.table_id)
        .where(SeatHold.room_id == room.id, SeatHold.kind == SEATED, SeatHold.ended_at.is_(None))
        .order_by(Table.name, SeatHold.seat_no)).all()
    shift = dayclose.current_shift(room, at)  # R54: the shift now, and whether it is closed
    closed = dayclose.closed(dayclose.day_closes(session, room.id, shift.gaming_day), shift.number)
    return render_template("desk/cage.html", room=room, slips=transit.open_slips(session, room.id, at),
                           seated=seated, methods=METHODS, slip_methods=SLIP_METHODS,
                           method_names=METHOD_NAMES, at_table=AT_TABLE, facility=FACILITY,
                           movements=MOVEMENTS, key=uuid4().hex, shift=shift, shift_closed=closed)


@bp.post("/desk/cage/transits")
def request_transit() -> Response:
    data = form_data(Movement, request.form)
    data["amount"] = to_minor(request.form.get("amount", ""))
    b = Movement.model_validate(data)
    slip = run(transit.request, b.hold_id, b.amount, b.method, b.currency, b.idempotency_key)
    return _done(f"Slip {slip.number} requested")


@bp.post("/desk/cage/movements/<kind>")
def record_movement(kind: str) -> Response:
    """R28/R30/R32: a buy-in or add-on for a seated player, paid at the cage or in cash at the
    table (the services refuse what their rules do not allow)."""
    if kind not in MOVEMENTS:
        raise NotFound(f"no movement {kind!r}")
    service, label = MOVEMENTS[kind]
    data = form_data(Movement, request.form)
    data["amount"] = to_minor(request.form.get("amount", ""))
    b = Movement.model_validate(data)
    row = run(service, b.hold_id, b.amount, b.method, b.currency, b.idempotency_key)
    return _done(f"{label} of {room_money()(row.amount)} recorded ({method_name(row.method)})")


@bp.post("/desk/cage/transits/<int:slip_id>/<step>")
def step(slip_id: int, step: str) -> Response:
    if step == "cancel":
        slip = run(transit.cancel, slip_id, parse(CancelSlip, request.form).reason)
    elif step in STEPS:
        slip = run(STEPS[step], slip_id)
    else:
        raise NotFound(f"no step {step!r}")
    return _done(f"Slip {slip.number}: {slip.state.replace('_', ' ')}")
