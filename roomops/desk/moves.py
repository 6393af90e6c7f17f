"""The desk's table moves (R15, R17-R19): a floor-ordered move, a table change or must-move
claimed with the stack carried, breaking a table, setting a must-move table, and the balancing
suggestion shown on the live view. Attached to the desk blueprint (``roomops.desk.install``)."""

from __future__ import annotations

from flask import request
from werkzeug.wrappers import Response

from roomops.desk.forms import parse
from roomops.desk.views import _done, _name, _seat_name, bp
from roomops.hands import seat_change
from roomops.hands.models import SeatBlinds
from roomops.schemas import ChangeSeat, ClaimMove, MovePlayer, MustMove
from roomops.seating import moves
from roomops.seating.balance import Apart, Suggestion
from roomops.seating.snapshot import RoomSnapshot
from roomops.seating.suggest import apart, suggestions
from roomops.web.money import room_money
from roomops.web.uow import db, run


@bp.app_template_global("balance_suggestions")
def _balance(snap: RoomSnapshot) -> dict[int, Suggestion]:
    return suggestions(db(), snap)


@bp.app_template_global("barred_apart")
def _apart(snap: RoomSnapshot) -> dict[int, list[Apart]]:
    return apart(db(), snap)


@bp.post("/desk/seats/<int:hold_id>/move")
def move_player(hold_id: int) -> Response:
    body = parse(MovePlayer, request.form)
    hold = run(moves.move_player, hold_id, **body.model_dump())
    stack = room_money()(hold.buy_in or 0)
    return _done(f"Moved {_name(hold.player_id)} to {_seat_name(hold)} with {stack}; no blind to post "
                 "(R19).")


@bp.post("/desk/seats/<int:hold_id>/seat-change")
def change_seat(hold_id: int) -> Response:
    body = parse(ChangeSeat, request.form)
    hold = run(seat_change.change_seat, hold_id, body.seat_no, stack=body.stack, reason=body.reason)
    owes = "; owes the big blind to be dealt in" if db().get_one(SeatBlinds, hold.id).owes_bb else ""
    return _done(f"{_name(hold.player_id)} changed to {_seat_name(hold)}{owes} (R36).")


@bp.post("/desk/offers/<int:offer_id>/claim-move")
def claim_move(offer_id: int) -> Response:
    body = parse(ClaimMove, request.form)
    hold = run(moves.claim_move, offer_id, body.stack, body.added)
    return _done(f"{_name(hold.player_id)} moved to {_seat_name(hold)} carrying "
                 f"{room_money()(hold.buy_in or 0)} (R18).")


@bp.post("/desk/tables/<int:table_id>/break")
def break_table(table_id: int) -> Response:
    """R19: the desk breaks a table with the stacks last known (the API can send counted ones)."""
    broken = run(moves.break_table, table_id)
    listed = f"; {len(broken.listed)} to the top of the waiting list" if broken.listed else ""
    return _done(f"Broke table {broken.table.name}: {len(broken.moved)} moved{listed} (R19).")


@bp.post("/desk/tables/<int:table_id>/must-move")
def must_move(table_id: int) -> Response:
    body = parse(MustMove, request.form)
    table = run(moves.set_must_move, table_id, body.feeds_table_id)
    if table.feeds_table_id is None:
        return _done(f"Table {table.name} is no longer a must-move table (R17).")
    main = db().get_one(type(table), table.feeds_table_id)
    return _done(f"Table {table.name} is a must-move table feeding table {main.name} (R17).")
