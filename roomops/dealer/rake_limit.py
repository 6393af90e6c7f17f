"""R51: the most rake a pot allows, shown on the dealer's screen as the dealer types the pot
(``static/dealer-rake.js``), before the rake is typed. The pot is read as the form sends it, in
the room's money; the answer names the amounts in it too."""

from __future__ import annotations

from flask import jsonify, request
from werkzeug.wrappers import Response

from roomops.dealer.views import bp
from roomops.desk.forms import to_minor
from roomops.ledger import rake as rakes
from roomops.web.money import room_money
from roomops.web.uow import actor, db


@bp.get("/dealer/tables/<int:table_id>/hands/<int:hand_no>/rake-limit")
def rake_limit(table_id: int, hand_no: int) -> Response:
    """R51: ``pot`` (major units) and ``flop`` ("0": none) -> the most rake and its cap."""
    limit = rakes.rake_limit(db(), actor(), table_id, hand_no,
                             pot=to_minor(request.args.get("pot", ""), "pot", "R51"),
                             flop=request.args.get("flop", "1") != "0")
    return jsonify(most=limit.most, cap=limit.cap, players=limit.players, no_drop=limit.no_drop,
                   text=_text(limit))


def _text(limit: rakes.RakeLimit) -> str:
    """The limit as the dealer reads it, in the room's money."""
    money = room_money()
    if limit.no_drop:
        return "No flop, no drop: no rake"
    if not limit.cap:
        return f"Most rake for this pot: {money(limit.most)}"
    dealt = f" with {limit.players} dealt in" if limit.players else ""
    return f"Most rake for this pot: {money(limit.most)} (cap {money(limit.cap)}{dealt})"
