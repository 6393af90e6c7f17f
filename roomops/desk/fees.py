"""The session fees page (R50), ``/desk/fees``, on the cage blueprint: every seated player of the
room's hourly and half-hourly games with paid-until and how long they have been due, longest due
first, and a collect form for each; above them each table with one "collect from the whole table"
form (everyone due there, covered players skipped). Cashiers and supervisors collect (the service
checks the cash right, R61); only the methods a fee is paid in are offered (chips, cash at the
cage); each form carries a fresh idempotency key, so a form sent twice collects once (R52)."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import uuid4

from flask import flash, redirect, render_template, request, url_for
from flask_login import current_user
from werkzeug.wrappers import Response

from roomops.desk.cage import bp
from roomops.desk.forms import parse
from roomops.desk.views import local
from roomops.games.terms import PERIOD_NAMES, natural
from roomops.ledger import fees
from roomops.ledger.rules import FEE_METHODS, method_name
from roomops.rooms.models import Room
from roomops.schemas.ledger import SessionFee, TableFees
from roomops.web.money import room_money
from roomops.web.uow import db, now, run


@dataclass(frozen=True)
class TableDue:
    """R50: one table of the page: its players seated and due, and the fee each would pay now."""

    table_id: int
    table: str
    period: str
    seated: int
    due: int
    fee: int
    waiting: int
    pay_when: str


# R50: when a due player pays, by the room's rules and how many wait (``time_rules.pay_when``): a
# player's row, and a table's (where the first says what holds the deal)
PAY_WHEN = {"before_next_hand": "pays before the next hand",
            "by_big_blind": "may play on until the big blind",
            "now": "pays now or gives up the seat"}
TABLE_PAYS = {**PAY_WHEN, "before_next_hand": "everyone due pays before the next hand"}


def by_table(rows: list[fees.FeeDue]) -> list[TableDue]:
    """The tables of the due list, in table order."""
    tables: dict[int, list[fees.FeeDue]] = {}
    for row in rows:
        tables.setdefault(row.table_id, []).append(row)
    return sorted((TableDue(t, r[0].table, PERIOD_NAMES[r[0].fee_kind], len(r),
                            sum(f.is_due for f in r), r[0].fee, r[0].waiting, r[0].pay_when)
                   for t, r in tables.items()), key=lambda t: natural(t.table))


@bp.get("/desk/fees")
def fees_page() -> str:
    session, at = db(), now()
    room = session.get_one(Room, current_user.room_id)
    rows = fees.fees_due(session, room.id, at)
    return render_template("desk/fees.html", room=room, rows=rows, tables=by_table(rows),
                           periods=PERIOD_NAMES, pay_when=PAY_WHEN, table_pays=TABLE_PAYS,
                           methods=[(m, method_name(m)) for m in FEE_METHODS], key=uuid4().hex)


@bp.post("/desk/fees")
def collect_fee() -> Response:
    b = parse(SessionFee, request.form)
    row = run(fees.collect, b.hold_id, b.method, b.currency, b.idempotency_key)
    tz = db().get_one(Room, row.room_id).timezone
    flash(f"Fee {room_money()(-row.amount)} collected: paid until {local(row.period_end, tz)}", "ok")
    return redirect(url_for("cage.fees_page"), code=303)


@bp.post("/desk/fees/tables/<int:table_id>")
def collect_table(table_id: int) -> Response:
    """R50: the coming period's fee from everyone due at the table, in one go."""
    b = parse(TableFees, request.form)
    done = run(fees.collect_table, table_id, b.method, b.currency, b.idempotency_key)
    first = done.rows[0]
    tz = db().get_one(Room, first.room_id).timezone
    skipped = f"; {done.skipped} covered, not charged" if done.skipped else ""
    flash(f"{len(done.rows)} fees of {room_money()(-first.amount)} collected from the whole table "
          f"({method_name(b.method)}), paid until {local(first.period_end, tz)}{skipped}", "ok")
    return redirect(url_for("cage.fees_page"), code=303)
