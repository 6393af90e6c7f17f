"""The API's hands: the dealer's table view and recording a hand (R33-R36, R40)."""

from __future__ import annotations

from werkzeug.wrappers import Response

from roomops.api import models as out
from roomops.api.views import BODY_RULES, ID, answer, body, route
from roomops.blinds.missed import owed
from roomops.blinds.straddles import Straddle, straddle_order
from roomops.hands import seat_change
from roomops.hands import services as hands
from roomops.schemas import ChangeSeat, RecordHand
from roomops.web.uow import actor, db, run

BODY_RULES[RecordHand] = "R33"
BODY_RULES[ChangeSeat] = "R36"


# Not GET on the POST's path: werkzeug answers 405 instead of 404 for a bad id on a path two rules
# share, which the OpenAPI document cannot describe.
@route("GET", f"/tables/<{ID}:table_id>/dealer",
       summary="The dealer's view: the last hand, the next hand's positions and every seat's "
               "missed-blind buttons and debts (R33-R36)", response=out.TableHandsOut, tag="hands")
def table_hands(table_id: int) -> Response:
    return answer(out.TableHandsOut, table_view(table_id))


@route("POST", f"/tables/<{ID}:table_id>/hands",
       summary="Record the next hand: button, blinds, posts and straddles (R33-R36, R40)",
       response=out.HandOut, status=201, body=RecordHand, gives="hand_no", tag="hands")
def record_hand(table_id: int) -> Response:
    b = body(RecordHand)
    hand = run(hands.record_hand, table_id, hand_no=b.hand_no, posting=b.posting,
               straddles=[Straddle(s.seat_no, s.amount) for s in b.straddles],
               high_card_seat=b.high_card_seat, floor_consent=b.floor_consent,
               sanctioned=b.sanctioned)
    return answer(out.HandOut, hand, 201)


@route("POST", f"/seats/<{ID}:hold_id>/seat-change",
       summary="Move a seated player to another open seat of the same table with their counted stack; "
               "moving two or more occupied seats away from the button owes the big blind (R36)",
       response=out.HoldOut, status=201, body=ChangeSeat, gives="seat", tag="seats")
def change_seat(hold_id: int) -> Response:
    b = body(ChangeSeat)
    return answer(out.HoldOut, run(seat_change.change_seat, hold_id, b.seat_no, stack=b.stack,
                                   reason=b.reason), 201)


def table_view(table_id: int) -> out.TableHandsOut:
    """The last hand, the next one if nobody posts, and the seats: shared with the dealer screen."""
    view = hands.preview(db(), actor(), table_id)
    last, plan, seats = view.last, view.plan, view.seats
    nxt = None if plan is None else out.NextHandOut(
        hand_no=plan.table.hand_no, button=plan.table.places[0],
        small_blind_seat=plan.table.places[1], big_blind_seat=plan.table.places[2],
        dealt_in=list(plan.dealt_in), posts=[out.PostOut.model_validate(p) for p in plan.posts],
        waiting=[out.WaitingOut.model_validate(w) for w in plan.waiting],
        straddle_order=list(straddle_order(plan)))
    return out.TableHandsOut(
        table_id=table_id, last=None if last is None else out.HandOut.model_validate(last), next=nxt,
        seats=[out.SeatBlindsOut(seat_no=s.seat_no, player_id=s.player_id, status=s.status,
                                 missed_sb=s.missed_sb, missed_bb=s.missed_bb, owes_bb=s.owes_bb,
                                 owes=list(owed(s)) if s.player_id else [],
                                 hands_dealt_out=view.dealt_out.get(s.seat_no, 0)) for s in seats])
