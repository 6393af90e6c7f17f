"""The cage's open slips as a live fragment (R31): ``/desk/cage/slips``, polled by the cage page
(``static/live.js``) and answered 304 while nothing of the room has changed (``roomops.web.live``),
so a slip authorised at the desk or delivered at a table shows on the cage within 2 s."""

from __future__ import annotations

from flask import render_template
from flask_login import current_user
from werkzeug.wrappers import Response

from roomops.desk.cage import bp
from roomops.ledger import transit
from roomops.ledger.rules import FACILITY
from roomops.web.live import fragment, screen_tag
from roomops.web.uow import db, now


@bp.get("/desk/cage/slips")
def slips() -> Response:
    session, at = db(), now()
    room_id = current_user.room_id
    return fragment(screen_tag("cage", session, room_id, current_user.id), at, lambda: render_template(
        "desk/_cage_slips.html", slips=transit.open_slips(session, room_id, at), facility=FACILITY))
