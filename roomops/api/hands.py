"""The API's hands: the dealer's table view and recording a hand (R33-R36, R40)."""

from __future__ import annotations

from werkzeug.wrappers import Response

from roomops.api import models as out
from roomops.api.views import BODY_RULES, ID, answer, body, route
from roomops.blinds.missed import owed
from roomops.blinds.straddles import Straddle, straddle_order
from roomops.hands import services as hands
from roomops.schemas import ChangeSeat, ClaimSeatChange, RecordHand, SwapSeats
from roomops.seating import seat_change, seat_changes
from roomops.web.uow import actor, db, run

BODY_RULES[RecordHand] = "R33"
BODY_RULES[ChangeSeat] = "R36"
BODY_RULES[ClaimSeatChange] = "R36"
BODY_RULES[SwapSeats] = "R36"


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
               "a move that would let the big blind pass the player by owes it (R36)",
       response=out.HoldOut, status=201, body=ChangeSeat, gives="seat", tag="seats")
def change_seat(hold_id: int) -> Response:
    b = body(ChangeSeat)
    return answer(out.HoldOut, run(seat_change.change_seat, hold_id, b.seat_no, stack=b.stack,
                                   reason=b.reason), 201)


@route("POST", f"/seats/<{ID}:hold_id>/seat-change-request",
       summary="Put the seated player on their table's seat-change list: asked first, oldest "
               "first, when a seat of the table opens (R14, R36)",
       response=out.SeatChangeOut, status=201, tag="seats")
def ask_seat_change(hold_id: int) -> Response:
    return answer(out.SeatChangeOut, run(seat_changes.ask, hold_id), 201)


@route("POST", f"/seat-change-requests/<{ID}:request_id>/withdraw",
       summary="Take a seat-change request back; a seat it was called to is offered on (R36)",
       response=out.SeatChangeOut, tag="seats")
def withdraw_seat_change(request_id: int) -> Response:
    return answer(out.SeatChangeOut, run(seat_changes.withdraw, request_id))


@route("POST", f"/offers/<{ID}:offer_id>/claim-seat-change",
       summary="The requester takes the seat of their table they were called to with their "
               "counted stack, at once or when the hand being played is recorded (R36)",
       response=out.HoldOut, status=201, body=ClaimSeatChange, tag="seats")
def claim_seat_change(offer_id: int) -> Response:
    b = body(ClaimSeatChange)
    return answer(out.HoldOut, run(seat_change.claim_seat_change, offer_id, stack=b.stack,
                                   during_hand=b.during_hand), 201)


@route("POST", f"/seats/<{ID}:hold_id>/swap",
       summary="Swap two players of one table, both stacks counted; neither skips a big blind "
               "(R36)", response=out.HoldsOut, status=201, body=SwapSeats, tag="seats")
def swap_seats(hold_id: int) -> Response:
    b = body(SwapSeats)
    holds = run(seat_change.swap_seats, hold_id, b.other_hold_id, stack=b.stack,
                other_stack=b.other_stack, reason=b.reason)
    return answer(out.HoldsOut, out.HoldsOut(holds=[out.HoldOut.model_validate(h) for h in holds]),
                  201)


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
