"""R14/R36: the seat-change list of a table, its offers, claims, swaps and moves held for a hand's
end, on the services, on every configured database. The clock is moved, never slept on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from roomops.errors import Conflict, Invalid, NotFound
from roomops.hands.models import SeatBlinds
from roomops.hands.services import preview, record_hand
from roomops.holds.models import SeatChangeRequest, SeatHold
from roomops.lists import services as lists
from roomops.rooms.services import update_policy
from roomops.seating import moves, offers, seats
from roomops.seating.seat_change import claim_seat_change, swap_seats
from roomops.seating.seat_changes import ask, seat_change_lists, withdraw
from tests.services.helpers import audits, full_game, live_offer, live_seat, refused
from tests.units import act, sweep

S = timedelta(seconds=1)
MIN = timedelta(minutes=1)


def _table(room, session, now, free=1):
    """A 9-seat table with seats 1..9-free taken; its holds by seat number."""
    game, table = full_game(room, session, now, free=free)
    holds = {h.seat_no: h for h in session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.ended_at.is_(None)))}
    return game, table, holds


def _listed(session, table):
    return [(a.seat_no, a.player.id)
            for a in seat_change_lists(session, table.room_id).get(table.id, [])]


def test_r36_seat_change_list_in_request_order_once_per_seat(room, session, now):
    """R36: seated players ask in turn; the list keeps request order; asking twice is refused."""
    _game, table, holds = _table(room, session, now, free=0)
    act(session, room.sup, now + S, ask, holds[5].id)
    act(session, room.sup, now + 2 * S, ask, holds[2].id)
    assert _listed(session, table) == [(5, holds[5].player_id), (2, holds[2].player_id)]
    refused(lambda: act(session, room.sup, now + 3 * S, ask, holds[5].id), "R36", "already asked",
            error=Conflict)
    assert audits(session, "seat_change.asked")[-1].detail["seat_no"] == 2


def test_r36_only_a_seated_player_asks(room, session, now):
    _, _, holds = _table(room, session, now)
    act(session, room.sup, now + S, seats.leave, holds[3].id, 10000)
    refused(lambda: act(session, room.sup, now + 2 * S, ask, holds[3].id), "R36", "left",
            error=Conflict)
    refused(lambda: act(session, room.sup, now + 2 * S, ask, 10**6), "R36", error=NotFound)


def test_r14_r36_an_opened_seat_goes_to_the_requesters_first_with_their_own_timer(room, session, now):
    """R14/R36: a seat that opens at the table is offered to the oldest requester, for the room's
    seat_change_claim_minutes (2 by default), before a waiting-list player who joined earlier."""
    game, _, holds = _table(room, session, now, free=0)
    waiting = room.player(now, "Wendy")
    act(session, room.sup, now, lists.join, player_id=waiting.id, game_id=game.id)
    act(session, room.sup, now + S, ask, holds[7].id)
    act(session, room.sup, now + 2 * S, ask, holds[2].id)
    act(session, room.sup, now + MIN, seats.leave, holds[4].id, 12000)
    offer = live_offer(session, holds[7].player_id)
    assert (offer.seat_no, offer.from_hold_id, offer.deadline) == (4, holds[7].id, now + 3 * MIN)
    assert live_offer(session, waiting.id) is None and live_offer(session, holds[2].player_id) is None
    made = audits(session, "offer.made")[-1]
    assert (made.entity_type, made.entity_id, made.detail["seat_change_from"]) == (
        "seat_change", offer.seat_change_id, holds[7].id)


def test_r22_r36_decline_then_time_out_pass_the_seat_on_and_only_then_to_the_lists(room, session, now):
    """R22/R36: a decline passes the seat to the next requester; a time-out (the sweep) to the
    waiting list; each ends that request (a missed call)."""
    game, table, holds = _table(room, session, now, free=0)
    waiting = room.player(now, "Wendy")
    act(session, room.sup, now, lists.join, player_id=waiting.id, game_id=game.id)
    first = act(session, room.sup, now + S, ask, holds[7].id)
    second = act(session, room.sup, now + 2 * S, ask, holds[2].id)
    act(session, room.sup, now + MIN, seats.leave, holds[4].id, 12000)
    act(session, room.sup, now + MIN + S, offers.decline, live_offer(session, holds[7].player_id).id)
    called = live_offer(session, holds[2].player_id)
    assert called.seat_no == 4 and live_offer(session, waiting.id) is None
    assert sweep(session, called.deadline - S).expired_offers == []
    assert sweep(session, called.deadline).expired_offers == [called.id]
    assert live_offer(session, waiting.id).seat_no == 4
    session.refresh(first)
    session.refresh(second)
    assert (first.outcome, second.outcome) == ("declined", "expired")
    assert _listed(session, table) == []
    missed = audits(session, "offer.expired")[-1]
    assert (missed.entity_type, missed.detail["missed_call"]) == ("seat_change", True)


def test_r36_a_claim_moves_the_stack_and_the_old_seat_goes_to_the_next_requester(room, session, now):
    """R36/R14: the requester moves with the counted stack (no money posted: the chips stay at
    the table); their old seat is the next open seat, offered to the next requester first."""
    _, _, holds = _table(room, session, now, free=0)
    request = act(session, room.sup, now + S, ask, holds[7].id)
    act(session, room.sup, now + 2 * S, ask, holds[2].id)
    act(session, room.sup, now + MIN, seats.leave, holds[4].id, 12000)
    offer = live_offer(session, holds[7].player_id)
    refused(lambda: act(session, room.sup, now + MIN, claim_seat_change, offer.id, stack=0), "R18")
    new = act(session, room.sup, now + MIN + S, claim_seat_change, offer.id, stack=23500)
    assert (new.seat_no, new.buy_in, new.from_hold_id) == (4, 23500, holds[7].id)
    session.refresh(request)
    assert request.outcome == "moved"
    assert live_offer(session, holds[2].player_id).seat_no == 7  # the old seat, next requester
    moved = audits(session, "seat.moved")[-1]
    assert moved.detail.items() >= {"to_seat_no": 4, "stack": 23500, "move": "seat_change",
                                    "stack_counted": True}.items()


def test_r36_a_seat_change_offer_is_not_claimed_with_a_buy_in_or_as_a_table_move(room, session, now):
    _, _, holds = _table(room, session, now, free=0)
    act(session, room.sup, now + S, ask, holds[7].id)
    act(session, room.sup, now + MIN, seats.leave, holds[4].id, 12000)
    offer = live_offer(session, holds[7].player_id)
    refused(lambda: act(session, room.sup, now + MIN, moves.claim_move, offer.id, 20000), "R36",
            "seat change", error=Conflict)
    refused(lambda: act(session, room.sup, now + MIN, seats.claim, offer.id, 20000), "R18")


def test_r36_the_request_ends_when_the_player_leaves_the_table(room, session, now):
    """R36: leaving the seat ends the request and voids a seat it was called to (offered on)."""
    _game, table, holds = _table(room, session, now, free=0)
    request = act(session, room.sup, now + S, ask, holds[7].id)
    act(session, room.sup, now + MIN, seats.leave, holds[4].id, 12000)
    act(session, room.sup, now + 2 * MIN, seats.leave, holds[7].id, 9000)
    session.refresh(request)
    assert request.outcome == "seat_ended"
    assert _listed(session, table) == []
    assert live_offer(session, holds[7].player_id) is None


def test_r36_withdrawing_gives_the_called_seat_to_the_next(room, session, now):
    _, _, holds = _table(room, session, now, free=0)
    request = act(session, room.sup, now + S, ask, holds[7].id)
    act(session, room.sup, now + 2 * S, ask, holds[2].id)
    act(session, room.sup, now + MIN, seats.leave, holds[4].id, 12000)
    act(session, room.sup, now + MIN + S, withdraw, request.id)
    assert request.outcome == "withdrawn"
    assert live_offer(session, holds[7].player_id) is None
    assert live_offer(session, holds[2].player_id).seat_no == 4
    refused(lambda: act(session, room.sup, now + MIN + S, withdraw, request.id), "R36", "withdrawn",
            error=Conflict)
    assert audits(session, "seat_change.withdrawn")[-1].entity_id == request.id


def test_r36_policy_seat_change_claim_minutes(room, session, now):
    act(session, room.sup, now, update_policy, seat_change_claim_minutes=5)
    _, _, holds = _table(room, session, now, free=0)
    act(session, room.sup, now + S, ask, holds[7].id)
    act(session, room.sup, now + MIN, seats.leave, holds[4].id, 12000)
    assert live_offer(session, holds[7].player_id).deadline == now + 6 * MIN


def test_r36_floor_swaps_two_players_with_both_stacks_counted(room, session, now):
    """R36: a swap carries both counted stacks, audited; at two tables it is refused."""
    game, _, holds = _table(room, session, now, free=0)
    a, b = act(session, room.sup, now + S, swap_seats, holds[2].id, holds[6].id, stack=15000,
               other_stack=30000, reason="dispute")
    assert (a.seat_no, a.player_id, a.buy_in) == (6, holds[2].player_id, 15000)
    assert (b.seat_no, b.player_id, b.buy_in) == (2, holds[6].player_id, 30000)
    rows = audits(session, "seat.moved")[-2:]
    assert [(r.reason, r.detail["to_seat_no"], r.detail["stack"]) for r in rows] == [
        ("dispute", 6, 15000), ("dispute", 2, 30000)]
    other = room.table(now, game, "2")
    elsewhere = act(session, room.sup, now, seats.seat_directly, table_id=other.id, seat_no=1,
                    player_id=room.player(now, "Otto").id, buy_in=10000)
    refused(lambda: act(session, room.sup, now + 2 * S, swap_seats, a.id, elsewhere.id, stack=1,
                        other_stack=1), "R36", "a swap is at one table",
            error=Conflict)
    refused(lambda: act(session, room.sup, now + 2 * S, swap_seats, a.id, a.id, stack=1,
                        other_stack=1), "R36", error=Invalid)


def test_r36_a_swap_never_lets_the_big_blind_go_round_a_player(room, session, now):
    """R36: after hand 1 (button 1, SB 2, BB 3), the player of seat 4 (due the big blind) swapped
    into seat 1 owes the big blind and waits for it; the player of seat 1, now in seat 4, is the
    next big blind."""
    _game, table, holds = _table(room, session, now, free=0)
    act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    a, _b = act(session, room.sup, now + S, swap_seats, holds[4].id, holds[1].id, stack=10000,
                other_stack=10000)
    assert session.get(SeatBlinds, a.id).owes_bb
    plan = preview(session, room.actor("dealer"), table.id).plan
    assert plan.table.big_blind_seat == 4
    assert 1 not in plan.dealt_in and [w.seat_no for w in plan.waiting] == [1]


@pytest.mark.parametrize("withdrawn", [False, True])
def test_r36_a_seat_change_claimed_during_a_hand_waits_for_its_end(room, session, now, withdrawn):
    """R36: claimed during a hand, the seat is held (the sweep leaves it) and the player moves,
    with their last known stack, when the dealer records the hand; unless the request is taken
    back meanwhile. A stack typed during the hand is refused (the chips are in play), and a claim
    made at once must give the counted stack (R18)."""
    _game, table, holds = _table(room, session, now, free=0)
    act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    act(session, room.sup, now + S, ask, holds[7].id)
    act(session, room.sup, now + MIN, seats.leave, holds[4].id, 12000)
    offer = live_offer(session, holds[7].player_id)
    refused(lambda: act(session, room.sup, now + MIN, claim_seat_change, offer.id, stack=20000,
                        during_hand=True), "R36", "chips are in play")
    refused(lambda: act(session, room.sup, now + MIN, claim_seat_change, offer.id), "R18", "count")
    act(session, room.sup, now + MIN, claim_seat_change, offer.id, during_hand=True)
    assert sweep(session, now + 10 * MIN).expired_offers == []
    assert live_seat(session, holds[7].player_id).seat_no == 7
    refused(lambda: act(session, room.sup, now + MIN, claim_seat_change, offer.id, stack=20000),
            "R36", "held", error=Conflict)
    if withdrawn:  # taken back meanwhile: the held seat goes on, nobody moves at the hand's end
        act(session, room.sup, now + 2 * MIN, withdraw, offer.seat_change_id)
        act(session, room.actor("dealer"), now + 11 * MIN, record_hand, table.id, hand_no=2)
        assert live_seat(session, holds[7].player_id).seat_no == 7
        assert session.get(SeatHold, offer.id).outcome == "cancelled"
        return
    act(session, room.actor("dealer"), now + 11 * MIN, record_hand, table.id, hand_no=2)
    moved = live_seat(session, holds[7].player_id)
    assert (moved.seat_no, moved.buy_in, moved.from_hold_id) == (4, 10000, holds[7].id)
    assert audits(session, "seat.moved")[-1].detail["stack_counted"] is False
    assert session.scalar(select(SeatChangeRequest.outcome).where(
        SeatChangeRequest.hold_id == holds[7].id)) == "moved"
