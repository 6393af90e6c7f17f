"""The desk's penalty form (R55, R57), attached to the desk blueprint."""

from __future__ import annotations

from flask import request
from werkzeug.wrappers import Response

from roomops.desk.forms import parse
from roomops.desk.views import _done, _name, _seat_name, bp
from roomops.holds.models import SeatHold
from roomops.penalties import services as penalties
from roomops.schemas import GivePenalty
from roomops.web.uow import db, run

WHAT = {"warning": "a warning", "hands": "a sit-out of {n} hands", "rounds": "a sit-out of {n} round(s)",
        "removal": "removal from the game"}


@bp.post("/desk/seats/<int:hold_id>/penalty")
def give_penalty(hold_id: int) -> Response:
    body = parse(GivePenalty, request.form)
    row = run(penalties.give_penalty, hold_id, **body.model_dump())
    seat = _seat_name(db().get_one(SeatHold, hold_id))
    what = WHAT[row.kind].format(n=row.count)
    out = f" ({row.hands_out} hands dealt out)" if row.hands_out else ""
    rule = "R57" if row.kind == "removal" else "R55"
    return _done(f"{_name(row.player_id)} ({seat}): {what}{out}, for {row.reason} ({rule}).")
