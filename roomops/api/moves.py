"""The JSON API's table moves (R15, R17-R19), attached to the API blueprint like
``roomops.api.auth``: declared with ``views.route``, so the OpenAPI document lists them."""

from __future__ import annotations

from werkzeug.wrappers import Response

from roomops.actors import get_in_room
from roomops.api import models as out
from roomops.api.views import BODY_RULES, FIELD_RULES, ID, answer, body, route
from roomops.games.models import Game
from roomops.schemas import BreakTable, ClaimMove, MovePlayer, MustMove
from roomops.seating import moves, snapshot
from roomops.seating.suggest import apart, suggestions
from roomops.web.uow import actor, db, now, run

BODY_RULES.update({MovePlayer: "R19", ClaimMove: "R18", BreakTable: "R19", MustMove: "R17"})
FIELD_RULES["added"] = "R28"  # chips are never removed


@route("POST", f"/seats/<{ID}:hold_id>/move",
       summary="Move a seated player to an open seat of another table of the game, carrying the "
               "stack; no blind owed (R15, R18, R19)",
       response=out.HoldOut, status=201, body=MovePlayer, gives="seat", tag="moves")
def move_player(hold_id: int) -> Response:
    return answer(out.HoldOut, run(moves.move_player, hold_id, **body(MovePlayer).model_dump()), 201)


@route("POST", f"/offers/<{ID}:offer_id>/claim-move",
       summary="A player seated in the game claims the offered seat (table change or must-move), "
               "carrying the stack (R17, R18, R28)",
       response=out.HoldOut, body=ClaimMove, gives="seat", tag="moves")
def claim_move(offer_id: int) -> Response:
    b = body(ClaimMove)
    return answer(out.HoldOut, run(moves.claim_move, offer_id, b.stack, b.added))


@route("POST", f"/tables/<{ID}:table_id>/break",
       summary="Break a table: its players move to the game's other tables or to the top of the "
               "waiting list, then it closes (R15, R19)",
       response=out.BrokenOut, body=BreakTable, tag="moves")
def break_table(table_id: int) -> Response:
    return answer(out.BrokenOut, run(moves.break_table, table_id, body(BreakTable).stacks))


@route("POST", f"/tables/<{ID}:table_id>/must-move",
       summary="Make a table a must-move table feeding a main table of its game, or not (R17)",
       response=out.TableOut, body=MustMove, tag="moves")
def must_move(table_id: int) -> Response:
    return answer(out.TableOut, run(moves.set_must_move, table_id, body(MustMove).feeds_table_id))


@route("GET", f"/games/<{ID}:game_id>/balance",
       summary="Who should move to balance the game's tables (R19), and barred players seated at "
               "one table, who should move where (R15): suggestions",
       response=out.BalanceOut, tag="moves")
def balance(game_id: int) -> Response:
    who, session = actor(), db()
    game = get_in_room(session, Game, game_id, who, "game")
    snap = snapshot.load(session, who.room_id, now())
    return answer(out.BalanceOut, {"game_id": game.id,
                                   "suggestion": suggestions(session, snap).get(game.id),
                                   "barred_together": apart(session, snap).get(game.id, [])})
