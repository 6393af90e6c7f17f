"""The session fees page (R50), ``/desk/fees``, on the cage blueprint: every seated player of the
room's hourly games with paid-until and how long they have been due, longest due first, and a
collect form for each. Cashiers and supervisors collect (the service checks the cash right, R61);
each form carries a fresh idempotency key, so a form sent twice collects once (R52)."""

from __future__ import annotations

from uuid import uuid4

from flask import flash, redirect, render_template, request, url_for
from flask_login import current_user
from werkzeug.wrappers import Response

from roomops.desk.cage import bp
from roomops.desk.forms import parse
from roomops.desk.views import local
from roomops.ledger import fees
from roomops.ledger.rules import METHODS
from roomops.ledger.schemas import SessionFee
from roomops.rooms.models import Room
from roomops.web.money import room_money
from roomops.web.uow import db, now, run


@bp.get("/desk/fees")
def fees_page() -> str:
    session, at = db(), now()
    room = session.get_one(Room, current_user.room_id)
    return render_template("desk/fees.html", room=room, rows=fees.fees_due(session, room.id, at),
                           methods=METHODS, key=uuid4().hex)


@bp.post("/desk/fees")
def collect_fee() -> Response:
    b = parse(SessionFee, request.form)
    row = run(fees.collect, b.hold_id, b.method, b.currency, b.idempotency_key)
    tz = db().get_one(Room, row.room_id).timezone
    flash(f"Fee {room_money()(-row.amount)} collected: paid until {local(row.period_end, tz)}", "ok")
    return redirect(url_for("cage.fees_page"), code=303)
