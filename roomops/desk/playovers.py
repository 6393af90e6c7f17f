"""The desk's playover forms (R29), attached to the desk blueprint: start a playover on an absent
owner's seat (the next in list order, or a chosen entry with a reason), end one, and the owner's
"no playover". Each calls one service through ``run`` and redirects back with a flash."""

from __future__ import annotations

from flask import request
from werkzeug.wrappers import Response

from roomops.desk.forms import parse
from roomops.desk.views import _done, _name, _room, _seat_name, bp, local
from roomops.holds.models import SeatHold
from roomops.playovers import services as playovers
from roomops.schemas import NoPlayover, StartPlayover, StopPlayover
from roomops.web.money import room_money
from roomops.web.uow import db, run


@bp.post("/desk/seats/<int:hold_id>/playover")
def start_playover(hold_id: int) -> Response:
    body = parse(StartPlayover, request.form)
    playover = run(playovers.start_playover, hold_id, **body.model_dump())
    hold = db().get_one(SeatHold, hold_id)
    return _done(f"{_name(playover.player_id)} plays over {_seat_name(hold)} with "
                 f"{room_money()(playover.buy_in)}; {_name(hold.player_id)}'s chips stay in the "
                 "play-over box (R29).")


@bp.post("/desk/seats/<int:hold_id>/playover/end")
def stop_playover(hold_id: int) -> Response:
    playover = run(playovers.stop_playover, hold_id, parse(StopPlayover, request.form).stack)
    hold = db().get_one(SeatHold, hold_id)
    return _done(f"{_name(playover.player_id)} leaves {_seat_name(hold)} at the end of the hand with "
                 f"{room_money()(playover.leave_amount or 0)} and keeps their place on the list "
                 "(R29).")


@bp.post("/desk/seats/<int:hold_id>/no-playover")
def no_playover(hold_id: int) -> Response:
    absence = run(playovers.ask_no_playover, hold_id, parse(NoPlayover, request.form).minutes)
    until = local(absence.no_playover_until, _room(db()).timezone)
    return _done(f"No playover on {_seat_name(db().get_one(SeatHold, hold_id))} until {until}: "
                 f"{_name(absence.player_id)} asked (R29).")
