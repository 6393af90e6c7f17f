"""The day's report on the cage blueprint (R54): on screen, as CSV and as a printable page (the
same page, with print CSS), and the forms to count and close a shift (of a one-shift day: the day).
``?shift=N`` shows one shift of the day (the forms send it as a field). Cashiers and supervisors see
it; the services check each action's right (R61) and refusals are rendered by
``roomops.web.errors``."""

from __future__ import annotations

import re
from datetime import timedelta

from flask import Response as FlaskResponse
from flask import flash, redirect, render_template, request, url_for
from flask_login import current_user
from sqlalchemy import select
from werkzeug.wrappers import Response

from roomops.actors import rights_of
from roomops.auth import throttle
from roomops.desk.cage import bp
from roomops.desk.forms import to_minor
from roomops.errors import Invalid
from roomops.games.models import Table
from roomops.jackpots import boxes
from roomops.ledger import dayclose
from roomops.ledger.closing import local, parse_day, running_warning
from roomops.ledger.report import DayReport, expected_by_table, to_csv
from roomops.rooms.models import Room
from roomops.rooms.roles import room_staff
from roomops.web.closes import close_counted
from roomops.web.money import room_money
from roomops.web.routing import parse_id
from roomops.web.uow import actor, db, now, run

SHIFT_TEXT = re.compile(r"[0-9]{1,2}")
TOTAL_TEXT = re.compile(r"-?[0-9]{1,18}")


def _shift() -> int | None:
    """R54: the shift named by ``?shift=N`` or a form's ``shift`` field; None: not named."""
    raw = request.values.get("shift", "").strip()
    if not raw:
        return None
    if not SHIFT_TEXT.fullmatch(raw):
        raise Invalid(f"no shift {raw!r}: name it by its number", "R54")
    return int(raw)


def _report(raw_day: str) -> tuple[Room, DayReport]:
    actor().require("cash")
    room = db().get_one(Room, current_user.room_id)
    return room, dayclose.report(db(), room, parse_day(raw_day), _shift())


@bp.get("/desk/cage/report")
def today_report() -> Response:
    room = db().get_one(Room, current_user.room_id)
    day = dayclose.today(room, now())
    return redirect(url_for("cage.report", gaming_day=day.isoformat()))


@bp.get("/desk/cage/days/<string(length=10):gaming_day>/report")
def report(gaming_day: str) -> str:
    room, rep = _report(gaming_day)
    session = db()
    shifts = dayclose.shifts(room, rep.gaming_day)
    # the shift the forms count and close: the one shown, or a one-shift day's only shift
    target = rep.shift or (1 if len(shifts) == 1 else None)
    expected = expected_by_table(session, room.id, rep.gaming_day, target, target == len(shifts))
    tables = session.execute(select(Table.id, Table.name).where(Table.room_id == room.id)
                             .order_by(Table.name)).all()
    running = dayclose.running_tables(session, room.id)  # R54: named before the close button
    # R54: the second counter holds the cash right here too
    staff = [(person, roles) for person, roles in room_staff(session, room.id)
             if person.active and person.id != current_user.id and "cash" in rights_of(roles)]
    question = close_question(rep, target, expected.get(None, 0)) if target else None
    return render_template("desk/report.html", room=room, r=rep, expected=expected, tables=tables,
                           close_question=question,
                           staff=staff, today=dayclose.today(room, now()), shifts=shifts,
                           target=target, closes=dayclose.day_closes(session, room.id, rep.gaming_day),
                           running=running_warning(running) if running else None,
                           day_ends=local(shifts[-1].end, room.timezone),
                           running_day=now() < shifts[-1].end,
                           open_tables=dayclose.open_tables(session, room.id),
                           previous=rep.gaming_day - timedelta(days=1),
                           following=rep.gaming_day + timedelta(days=1),
                           jackpot=boxes.section(session, room.id, rep.gaming_day, rep.shift))


def close_question(rep: DayReport, shift: int, expected: int) -> str:
    """R54: what closing ``shift`` asks before it is recorded: the ledger's expected total, each
    counter's latest count of the total and its variance."""
    money = room_money()
    counted = [f"{c.staff} {money(c.counted)}, variance {money(c.variance)}" for c in rep.counts
               if c.table_id is None and c.shift_no == shift]
    what = "the day" if rep.shift is None else f"shift {shift}"
    return (f"Close {what} with these totals? Expected (the ledger): {money(expected)}. "
            f"Counted: {'; '.join(counted) if counted else 'nobody has counted the total yet'}. "
            "Once closed, its figures never change.")


@bp.get("/desk/cage/days/<string(length=10):gaming_day>/report.csv")
def report_csv(gaming_day: str) -> FlaskResponse:
    room, rep = _report(gaming_day)
    part = "" if rep.shift is None else f"-shift{rep.shift}"
    jackpot = boxes.section(db(), room.id, rep.gaming_day, rep.shift)  # R68: the drops apart
    return FlaskResponse(to_csv(rep, boxes.csv_rows(jackpot, room.money)), mimetype="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{room.slug}-{rep.gaming_day}{part}-report.csv"'})


@bp.post("/desk/cage/days/<string(length=10):gaming_day>/counts")
def counts(gaming_day: str) -> Response:
    """One count per filled-in amount: ``count-total`` and ``count-<table id>``, each with its
    ``why-...`` explanation."""
    day = parse_day(gaming_day)
    given = []
    for name, raw in request.form.items():
        if not name.startswith("count-") or not raw.strip():
            continue
        ref = name.removeprefix("count-")
        table_id = None if ref == "total" else parse_id(ref)
        if ref != "total" and table_id is None:
            raise Invalid(f"no table {ref!r}", "R54")
        given.append(dayclose.Count(table_id, _signed(raw, name), request.form.get(f"why-{ref}")))
    shift = _shift()
    rows = run(dayclose.record_counts, day, given, shift)
    return _back(day.isoformat(), f"{len(rows)} counts recorded", shift)


@bp.post("/desk/cage/days/<string(length=10):gaming_day>/close")
def close(gaming_day: str) -> Response:
    second = parse_id(request.form.get("second_staff_id", ""))
    if second is None:
        raise Invalid("choose the second staff member closing the day", "R54")
    shift = _shift()
    raw = request.form.get("confirmed_total", "").strip()  # minor units, as the page showed them
    if not TOTAL_TEXT.fullmatch(raw):
        raise Invalid("the close was not confirmed: read the totals on the day's report and "
                      "confirm them", "R54")
    closed = run(close_counted, parse_day(gaming_day), second, shift, confirmed_total=int(raw))
    if closed.running:  # R54: the room's policy let it go ahead, warned
        flash(f"Closed with {running_warning(closed.running)} (R54)", "warn")
    row = closed.row
    what = (f"Gaming day {row.gaming_day} closed" if row.closes_day and row.shift_no == 1 else
            f"Shift {row.shift_no} of gaming day {row.gaming_day} closed"
            + (": the gaming day is closed" if row.closes_day else ""))
    return _back(gaming_day, what, shift)


@bp.post("/desk/cage/days/<string(length=10):gaming_day>/jackpot-box")
def jackpot_box(gaming_day: str) -> Response:
    """R54/R68: the shift's jackpot drop box counted, confirmed by a second person's username and
    password typed in."""
    day, shift = parse_day(gaming_day), _shift()
    counted = to_minor(request.form.get("counted", ""), "the jackpot drop box", "R54")
    name = request.form.get("confirmer", "").strip()
    if not name:
        raise Invalid("the second person counting the box types their username and password", "R54")
    confirmer = throttle.approver(current_user.room_id, name, request.form.get("confirmer_password", ""),
                                  "R54")
    row = run(boxes.count_box, day, shift, counted, confirmer, request.form.get("explanation"))
    return _back(gaming_day, f"Jackpot drop box counted: {room_money()(row.counted)}, "
                 f"expected {room_money()(row.expected)}", shift)


def _signed(raw: str, field: str) -> int:
    text = raw.strip()
    return -to_minor(text[1:], field, "R54") if text.startswith("-") else to_minor(text, field, "R54")


def _back(gaming_day: str, message: str, shift: int | None = None) -> Response:
    flash(message, "ok")
    return redirect(url_for("cage.report", gaming_day=gaming_day, shift=shift),
                    code=303)
