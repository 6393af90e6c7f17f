"""The desk's table moves (R15, R17-R19): a floor-ordered move, a table change or must-move
claimed with the stack carried, breaking a table, setting a must-move table, and the tables'
seat-change lists shown on the live view. Attached to the desk blueprint (``roomops.desk.install``)."""

from __future__ import annotations

from flask import g, request
from werkzeug.wrappers import Response

from roomops.desk.forms import parse
from roomops.desk.views import _done, _name, _seat_name, bp
from roomops.hands.models import SeatBlinds
from roomops.schemas import ChangeSeat, ClaimMove, ClaimSeatChange, MovePlayer, MustMove, SwapSeats
from roomops.seating import moves, seat_change, seat_changes
from roomops.web.money import room_money
from roomops.web.uow import db, run


@bp.app_template_global("seat_change_list")
def _seat_change_list(room_id: int, table_id: int) -> list[seat_changes.Asking]:
    """R36: a table's seat-change list, the room's lists read once per page (desk, dealer)."""
    if "seat_changes" not in g:
        g.seat_changes = seat_changes.seat_change_lists(db(), room_id)
    found: list[seat_changes.Asking] = g.seat_changes.get(table_id, [])
    return found


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
    return _done(f"{_name(hold.player_id)} changed to {_seat_name(hold)}{_owes(hold.id)} (R36).")


@bp.post("/desk/seats/<int:hold_id>/seat-change-request")
def ask_seat_change(hold_id: int) -> Response:
    request_ = run(seat_changes.ask, hold_id)
    return _done(f"{_name(request_.player_id)} is on the seat-change list of the table (R36).")


@bp.post("/desk/seat-change-requests/<int:request_id>/withdraw")
def withdraw_seat_change(request_id: int) -> Response:
    request_ = run(seat_changes.withdraw, request_id)
    return _done(f"{_name(request_.player_id)} is off the seat-change list (R36).")


@bp.post("/desk/offers/<int:offer_id>/claim-seat-change")
def claim_seat_change(offer_id: int) -> Response:
    body = parse(ClaimSeatChange, request.form)
    hold = run(seat_change.claim_seat_change, offer_id, stack=body.stack,
               during_hand=body.during_hand)
    if hold.kind == "offer":
        return _done(f"{_seat_name(hold)} is held for {_name(hold.player_id)} until the dealer "
                     "records the hand (R36).")
    return _done(f"{_name(hold.player_id)} changed to {_seat_name(hold)}{_owes(hold.id)} (R36).")


@bp.post("/desk/seats/<int:hold_id>/swap")
def swap_seats(hold_id: int) -> Response:
    body = parse(SwapSeats, request.form)
    a, b = run(seat_change.swap_seats, hold_id, body.other_hold_id, stack=body.stack,
               other_stack=body.other_stack, reason=body.reason)
    return _done(f"Swapped {_name(a.player_id)} to {_seat_name(a)}{_owes(a.id)} and "
                 f"{_name(b.player_id)} to {_seat_name(b)}{_owes(b.id)} (R36).")


def _owes(hold_id: int) -> str:
    """R36: what the desk tells the floor when a seat change costs the big blind."""
    return "; owes the big blind to be dealt in" if db().get_one(SeatBlinds, hold_id).owes_bb else ""


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
