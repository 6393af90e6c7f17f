"""The cage page (R31): open transits oldest first with their age, and a form for each step.

Its own blueprint rather than the desk's: the desk lets only floor staff POST, and cashiers request
and deliver transits here. The services check each step's right (R61); refusals are rendered and
logged by ``roomops.web.errors``. Each request form carries a fresh idempotency key, so a form sent
twice makes one slip (R52)."""

from __future__ import annotations

from datetime import timedelta
from uuid import uuid4

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import current_user
from werkzeug.wrappers import Response

from roomops.auth import throttle
from roomops.desk.forms import form_data, parse, to_minor
from roomops.errors import Invalid, NotFound
from roomops.ledger import cash_outs, dayclose, lookup, transit
from roomops.ledger import services as ledger
from roomops.ledger.rules import (
    AT_TABLE,
    FACILITY,
    KINDS,
    METHOD_NAMES,
    METHODS,
    SLIP_METHODS,
    TRANSFER,
    method_name,
)
from roomops.ledger.search_terms import parse_search
from roomops.rooms.models import Room
from roomops.schemas.ledger import CancelSlip, CashOut, ChipsMovement, Movement, Reversal
from roomops.web.money import room_money
from roomops.web.uow import db, now, run

bp = Blueprint("cage", __name__)
STEPS = {"confirm-funds": transit.confirm_funds, "dispatch": transit.dispatch,
         "deliver": transit.deliver}
# R28/R30/R32: chips bought by a seated player, recorded by the cashier with how they were paid
MOVEMENTS = {"add_on": (ledger.add_on, "Add-on"), "buy_in": (ledger.buy_in, "Buy-in")}
# R32: the cage pays a cash-out; cash at the table only ever buys chips
PAYOUT_METHODS = tuple(m for m in METHODS if m != AT_TABLE)
# R52/R18: what a supervisor may reverse (a reversal is never reversed; a transfer follows a move)
REVERSIBLE = frozenset(KINDS) - {"reversal", TRANSFER}
# how far back the search and the waiting cash-outs look: a player may cash out after the
# gaming day turned
LOOK_BACK = timedelta(hours=24)


def _done(message: str) -> Response:
    """Back to the cage, with the search the form was sent from (``q``)."""
    flash(message, "ok")
    q = request.form.get("q", "").strip()
    return redirect(url_for("cage.index", q=q or None), code=303)


@bp.get("/desk/cage")
def index() -> str:
    """The slips, the seats found by the search box (``q``), the players waiting to cash out, and
    the ledger rows of the seats found (R28, R31, R52)."""
    session, at = db(), now()
    room = session.get_one(Room, current_user.room_id)
    q = request.args.get("q", "")
    since = at - LOOK_BACK
    search = parse_search(q)
    found = lookup.find_seats(session, room.id, search, since) + lookup.find_playovers(
        session, room.id, search, since)
    shift = dayclose.current_shift(room, at)  # R54: the shift now, and whether it is closed
    closed = dayclose.closed(dayclose.day_closes(session, room.id, shift.gaming_day), shift.number)
    return render_template(
        "desk/cage.html", room=room, slips=transit.open_slips(session, room.id, at), q=q,
        found=found, rows=lookup.seat_rows(session, room.id, since, list({s.hold_id for s in found})),
        awaiting=lookup.awaiting_cash_out(session, room.id, since), methods=METHODS,
        payout_methods=PAYOUT_METHODS, slip_methods=SLIP_METHODS, method_names=METHOD_NAMES,
        facility=FACILITY, movements=MOVEMENTS, key=uuid4().hex, shift=shift,
        shift_closed=closed, next_day=shift.gaming_day + timedelta(days=1), reversible=REVERSIBLE)


@bp.post("/desk/cage/cash-outs")
def cash_out() -> Response:
    """R27/R28: a cash-out of a seat that ended (or of a playover of it that ended, R29), with a
    supervisor's approval typed in when the amount differs from the one recorded or is above the
    room's threshold."""
    _paid(PAYOUT_METHODS)
    data = form_data(CashOut, request.form, only=["hold_id", "method", "currency",
                                                   "idempotency_key", "playover_id"])
    data["amount"] = to_minor(request.form.get("amount", ""), rule="R27")
    b = CashOut.model_validate(data)
    name = request.form.get("approver", "").strip()
    by = throttle.approver(current_user.room_id, name, request.form.get("approver_password", ""),
                  "R28") if name else None
    row = run(cash_outs.cash_out, b.hold_id, b.amount, b.method, b.currency, b.idempotency_key,
              approver=by, playover_id=b.playover_id)
    approved = f", approved by {by.display_name}" if row.approved_by_id and by else ""
    return _done(f"Cash-out of {room_money()(-row.amount)} paid ({method_name(row.method)})"
                 f"{approved}")


@bp.post("/desk/cage/rows/<int:entry_id>/reverse")
def reverse(entry_id: int) -> Response:
    """R52: a supervisor reverses a ledger row with a reason (never their own where the room
    requires two people)."""
    row = run(ledger.reverse, entry_id, parse(Reversal, request.form).reason, None)
    return _done(f"Ledger row {entry_id} reversed: {room_money()(row.amount)} ({row.reason})")


@bp.post("/desk/cage/transits")
def request_transit() -> Response:
    _paid(SLIP_METHODS, "R31")
    data = form_data(Movement, request.form)
    data["amount"] = to_minor(request.form.get("amount", ""), rule="R31")
    b = Movement.model_validate(data)
    slip = run(transit.request, b.hold_id, b.amount, b.method, b.currency, b.idempotency_key)
    return _done(f"Slip {slip.number} requested")


@bp.post("/desk/cage/movements/<kind>")
def record_movement(kind: str) -> Response:
    """R28/R30/R32: a buy-in or add-on for a seated player, or for the overplayer of a running
    playover (R29), paid at the cage or in cash at the table (the services refuse what their rules
    do not allow)."""
    if kind not in MOVEMENTS:
        raise NotFound(f"no movement {kind!r}")
    service, label = MOVEMENTS[kind]
    _paid(METHODS)
    data = form_data(ChipsMovement, request.form)
    data["amount"] = to_minor(request.form.get("amount", ""), rule="R30")
    b = ChipsMovement.model_validate(data)
    row = run(service, b.hold_id, b.amount, b.method, b.currency, b.idempotency_key,
              playover_id=b.playover_id)
    return _done(f"{label} of {room_money()(row.amount)} recorded ({method_name(row.method)})")


def _paid(choices: tuple[str, ...], rule: str = "R32") -> None:
    """R32: the cashier says how the money was paid; none is assumed, since a default would put
    cage cash in the wrong column of the day's report, or let a transit on credit play behind
    before its funds are confirmed (R31). The API's JSON keeps its documented default, ``cash``."""
    if not request.form.get("method", "").strip():
        names = [method_name(m) for m in choices]
        raise Invalid(f"choose how it was paid ({', '.join(names[:-1])} or {names[-1]})", rule)


@bp.post("/desk/cage/transits/<int:slip_id>/<step>")
def step(slip_id: int, step: str) -> Response:
    if step == "cancel":
        slip = run(transit.cancel, slip_id, parse(CancelSlip, request.form).reason)
    elif step in STEPS:
        slip = run(STEPS[step], slip_id)
    else:
        raise NotFound(f"no step {step!r}")
    return _done(f"Slip {slip.number}: {slip.state.replace('_', ' ')}")
