"""The dealers' tips page (R66): a shift's toke pool per dealer, on screen, printable (the same
page, with the report's print CSS) and as CSV, and the form that counts it with a second person
(who types their username and password, as an approval at the cage) or replaces a wrong count.
``?shift=N`` names the shift of a day with several. The dealer coordinator's right (``dealers``)
opens it (R61, ``roomops.web.access``); the service checks the count's rights again."""

from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask import Response as FlaskResponse
from flask_login import current_user
from werkzeug.wrappers import Response

from roomops.auth import throttle
from roomops.desk.forms import to_minor
from roomops.errors import Invalid
from roomops.ledger.closing import parse_day
from roomops.rooms.gaming_day import gaming_day as day_of
from roomops.rooms.models import Room
from roomops.rooms.shifts import shift_of
from roomops.tokes.pool import TokeReport, count_pool, report, shift_of_day, still_dealt, to_csv
from roomops.web.money import room_money
from roomops.web.routing import parse_id
from roomops.web.uow import db, now, run

bp = Blueprint("tokes", __name__)


def _shift() -> int | None:
    """R54: the shift named by ``?shift=N`` or the form's ``shift`` field; None: not named."""
    raw = request.values.get("shift", "").strip()
    if not raw:
        return None
    found = parse_id(raw)
    if found is None:
        raise Invalid(f"no shift {raw!r}: name it by its number", "R54")
    return found


def _report(raw_day: str) -> tuple[Room, TokeReport]:
    room = db().get_one(Room, current_user.room_id)
    return room, report(db(), room, parse_day(raw_day), _shift())


@bp.get("/desk/tokes")
def index() -> Response:
    """The pool of the shift now (R54: the cage's shift of this moment)."""
    room = db().get_one(Room, current_user.room_id)
    shift = shift_of(now(), room.timezone, room.gaming_day_start, room.shifts)
    return redirect(url_for("tokes.report", gaming_day=shift.gaming_day.isoformat(),
                            shift=shift.number if shift.of > 1 else None))


@bp.get("/desk/tokes/days/<string(length=10):gaming_day>", endpoint="report")
def report_page(gaming_day: str) -> str:
    room, rep = _report(gaming_day)
    day = rep.gaming_day
    today = day_of(now(), room.timezone, room.gaming_day_start)
    return render_template("desk/tokes.html", room=room, r=rep, today=today,
                           not_yet=still_dealt(db(), room, rep.shift, now()),
                           shifts=[shift_of_day(room, day, n) for n in range(1, rep.shift.of + 1)],
                           previous=day - timedelta(days=1), following=day + timedelta(days=1))


@bp.get("/desk/tokes/days/<string(length=10):gaming_day>/tokes.csv")
def report_csv(gaming_day: str) -> FlaskResponse:
    room, rep = _report(gaming_day)
    part = "" if rep.shift.of == 1 else f"-shift{rep.shift.number}"
    return FlaskResponse(to_csv(rep), mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{room.slug}-{rep.gaming_day}{part}-tokes.csv"'})


@bp.post("/desk/tokes/days/<string(length=10):gaming_day>/count")
def count(gaming_day: str) -> Response:
    """R66: the pool counted, confirmed by the second person's username and password typed in;
    ``replaces_id`` and ``reason`` replace the standing count."""
    day, shift = parse_day(gaming_day), _shift()
    amount = to_minor(request.form.get("amount", ""), rule="R66")
    name = request.form.get("confirmer", "").strip()
    if not name:
        raise Invalid("the second person confirming the count types their username and password", "R66")
    raw_replaces = request.form.get("replaces_id", "").strip()
    replaces = parse_id(raw_replaces) if raw_replaces else None
    if raw_replaces and replaces is None:
        raise Invalid(f"no count {raw_replaces!r}", "R66")
    confirmer = throttle.approver(current_user.room_id, name, request.form.get("confirmer_password", ""),
                                  "R66")
    row = run(count_pool, day, shift, amount, confirmer, replaces_id=replaces,
              reason=request.form.get("reason"))
    flash(f"Toke pool of {room_money()(row.amount)} recorded, confirmed by {confirmer.display_name}", "ok")
    return redirect(url_for("tokes.report", gaming_day=gaming_day, shift=shift), code=303)

